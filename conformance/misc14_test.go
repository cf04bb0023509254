package conformance

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// jobRuntimes runs bin in a fresh directory with a and returns each job's
// job_runtime (ms) from the JSON report, by job name.
func jobRuntimes(t *testing.T, bin string, a []string) map[string]int {
	t.Helper()
	dir := filepath.Join(t.TempDir(), filepath.Base(bin))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := runIn(bin, dir, append(a, "--output-format=json"))
	if r.rc != 0 {
		t.Fatalf("%s: exit status %d\n%s", bin, r.rc, r.stderr)
	}
	root, err := ParseJSON([]byte(jsonPart(r.stdout)))
	if err != nil {
		t.Fatalf("%s: JSON: %v\n%s", bin, err, head(r.stdout))
	}
	out := map[string]int{}
	for _, j := range root.Get("jobs").Kids {
		ms, err := strconv.Atoi(j.Get("job_runtime").Text)
		if err != nil {
			t.Fatalf("%s: job_runtime: %v", bin, err)
		}
		out[j.Get("jobname").Text] = ms
	}
	return out
}

// TestCPUIOExitOnIODone checks that a cpuio job with exit_on_io_done ends
// when the last I/O job does (here one held back by a startdelay of 1 s),
// not at its 8 s runtime: fio 3.33 ends it after about 1 s. Tolerance: up
// to 3 s, for a loaded machine; a cpuio job alone runs its runtime in both.
func TestCPUIOExitOnIODone(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	cpu := "--name=c --ioengine=cpuio --cpuload=10 --exit_on_io_done=1 --time_based "
	io := "--name=w --ioengine=psync --filename=w --size=256k --rw=write --bs=4k --startdelay=1"
	for _, bin := range []string{fioPath, gofio} {
		rt := jobRuntimes(t, bin, args(cpu+"--runtime=8 "+io))
		if ms := rt["c"]; ms < 900 || ms > 3000 {
			t.Errorf("%s: cpuio job ran %d ms, want about 1000 (the I/O job's end)", bin, ms)
		}
		alone := jobRuntimes(t, bin, args(cpu+"--runtime=1"))
		if ms := alone["c"]; ms < 900 {
			t.Errorf("%s: cpuio job alone ran %d ms, want its runtime of 1000", bin, ms)
		}
	}
}
