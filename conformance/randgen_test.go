package conformance

import (
	"strings"
	"testing"
)

// TestRandGenSwitch compares fio's warning for a random job whose file
// has more blocks than the 32-bit tausworthe generator reaches (3 TiB of
// 512-byte blocks), and the offsets of its first I/Os: fio switches to
// tausworthe64 only after seeding, so they come from the 32-bit stream.
func TestRandGenSwitch(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	t.Parallel()
	for _, extra := range []string{"", "--random_generator=tausworthe", "--random_generator=tausworthe64", "--rw=read"} {
		t.Run(extra, func(t *testing.T) {
			a := args("--name=j --ioengine=null --size=3t --bs=512 --rw=randread --norandommap --number_ios=3 --write_iolog=io.log " + extra)
			var notes, offs [2]string
			for i, bin := range []string{fioPath, gofio} {
				dir := t.TempDir()
				r := runIn(bin, dir, a)
				if r.rc != 0 {
					t.Fatalf("%s: exit %d: %s", bin, r.rc, head(r.stderr))
				}
				for _, l := range strings.Split(r.stdout, "\n") {
					if strings.Contains(l, "tausworthe") {
						notes[i] += l + "\n"
					}
				}
				offs[i] = traceBody(dir, "io.log")
			}
			if notes[0] != notes[1] || offs[0] != offs[1] {
				t.Errorf("fio:\n%s%s\ngofio:\n%s%s", notes[0], offs[0], notes[1], offs[1])
			}
			if extra == "" && notes[0] == "" {
				t.Error("fio printed no warning")
			}
		})
	}
}
