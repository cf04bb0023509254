package conformance

import (
	"slices"
	"strings"
	"testing"
)

// TestTrimEntriesLeaked compares fio's warning for trim_percentage in a
// verifying job without trim_backlog: the count comes from the job's
// seeded trim stream, one draw per write kept for the verify phase.
func TestTrimEntriesLeaked(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	t.Parallel()
	for _, extra := range []string{
		"",
		"--do_verify=0",
		"--rw=randrw",
		"--loops=2",
		"--loops=2 --randrepeat=0 --randseed=4",
		"--bsrange=4k-16k",
		"--verify_only=1",
		"--verify_backlog=8",
		"--random_generator=tausworthe64",
		"--ioengine=libaio --iodepth=4",
		"--numjobs=2",
	} {
		t.Run(extra, func(t *testing.T) {
			a := args("--name=j --ioengine=null --size=256k --bs=4k --rw=randwrite --verify=crc32c --trim_percentage=30 --output-format=terse " + extra)
			fr := runIn(fioPath, t.TempDir(), a)
			gr := runIn(gofio, t.TempDir(), a)
			// The jobs of numjobs=2 warn in the order they end.
			sorted := func(s string) string {
				l := strings.Split(s, "\n")
				slices.Sort(l)
				return strings.Join(l, "\n")
			}
			if fr.rc != gr.rc || sorted(fr.stderr) != sorted(gr.stderr) {
				t.Errorf("fio: exit %d, stderr %q\ngofio: exit %d, stderr %q", fr.rc, fr.stderr, gr.rc, gr.stderr)
			}
			if extra == "" && !strings.Contains(fr.stderr, "trim entries leaked") {
				t.Errorf("fio warned nothing: %q", fr.stderr)
			}
		})
	}
}
