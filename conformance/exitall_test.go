package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestExitAllAnyJob checks fio 3.33's exitall as one flag for the run:
// with exitall on a long job only, the short job's end stops the long
// one (fio's manual: "terminate all jobs in the same group, as soon as
// one job of that group finishes"). The long job would run 20 s; both
// programs must stop it well before (under 10 s, a bound that holds on
// a loaded machine: fio stops it within a second).
func TestExitAllAnyJob(t *testing.T) {
	requireFio(t)
	t.Parallel()
	for _, where := range []string{"long", "short"} {
		t.Run("exitall on "+where, func(t *testing.T) {
			t.Parallel()
			text := exitAllJobs(map[string]string{where: "exitall\n"}, 20)
			setup := func(dir string) { os.WriteFile(filepath.Join(dir, "job.fio"), []byte(text), 0o644) }
			fr, gr, _, _ := run2(t, []string{"--output-format=json", "job.fio"}, setup)
			for _, r := range []struct {
				name string
				res  result
			}{{"fio", fr}, {"gofio", gr}} {
				if r.res.rc != 0 {
					t.Fatalf("%s: exit status %d\n%s", r.name, r.res.rc, head(r.res.stderr))
				}
				if ms := longRuntime(t, r.name, r.res); ms >= 10000 {
					t.Errorf("%s: the long job ran %d ms; the short job's end should have stopped it", r.name, ms)
				}
			}
		})
	}
}

// TestExitAllZero checks that exitall=0 leaves the other jobs alone in
// gofio. fio 3.33 reads any exitall, exitall=0 included, as exitall=1
// (docs/compat.md).
func TestExitAllZero(t *testing.T) {
	gofio := requireGofio(t)
	t.Parallel()
	dir := t.TempDir()
	text := exitAllJobs(map[string]string{"short": "exitall=0\n"}, 2)
	if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runIn(gofio, dir, []string{"--output-format=json", "job.fio"})
	if r.rc != 0 {
		t.Fatalf("exit status %d\n%s", r.rc, head(r.stderr))
	}
	if ms := longRuntime(t, "gofio", r); ms < 1900 {
		t.Errorf("the long job ran %d ms; with exitall=0 it runs its 2 s", ms)
	}
}

// exitAllJobs is a job file of a short null job (1 MiB) and a long
// time_based one (runtime seconds), each with its extra lines.
func exitAllJobs(extra map[string]string, runtime int) string {
	return fmt.Sprintf("[short]\nioengine=null\nsize=1m\n%s[long]\nioengine=null\nsize=100g\ntime_based\nruntime=%d\n%s",
		extra["short"], runtime, extra["long"])
}

// longRuntime returns the reported runtime (ms) of the job "long".
func longRuntime(t *testing.T, name string, r result) int {
	t.Helper()
	for _, j := range jsonOf(t, name, r).Get("jobs").Kids {
		if j.Get("jobname").Text == "long" {
			ms, err := strconv.Atoi(j.Get("read").Get("runtime").Text)
			if err != nil {
				t.Fatalf("%s: runtime %q: %v", name, j.Get("read").Get("runtime").Text, err)
			}
			return ms
		}
	}
	t.Fatalf("%s: no job named long", name)
	return 0
}
