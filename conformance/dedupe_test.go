package conformance

import (
	"testing"
)

// TestDedupeWorkingSetRefusals compares fio's and gofio's refusals of
// dedupe_mode=working_set settings: exit status and messages.
func TestDedupeWorkingSetRefusals(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	t.Parallel()
	base := "--name=job --ioengine=null --size=256k --rw=write --dedupe_mode=working_set "
	for _, extra := range []string{
		"--dedupe_percentage=100",
		"--dedupe_percentage=96 --dedupe_working_set_percentage=5",
		"--dedupe_percentage=95 --dedupe_working_set_percentage=5",
		"--dedupe_percentage=100 --dedupe_working_set_percentage=0",
		"--dedupe_percentage=50 --nrfiles=2",
		"--dedupe_percentage=10 --filename=a:b",
		"--nrfiles=2",
	} {
		t.Run(extra, func(t *testing.T) {
			a := args(base + extra + " --output-format=terse")
			fr := runIn(fioPath, t.TempDir(), a)
			gr := runIn(gofio, t.TempDir(), a)
			if fr.rc != gr.rc || fr.stderr != gr.stderr || (fr.stdout == "") != (gr.stdout == "") {
				t.Errorf("fio: exit %d, stderr %q, %d bytes out\ngofio: exit %d, stderr %q, %d bytes out",
					fr.rc, fr.stderr, len(fr.stdout), gr.rc, gr.stderr, len(gr.stdout))
			}
		})
	}
}
