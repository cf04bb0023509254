package conformance

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIODepthBatching: iodepth_low and iodepth_batch_submit /
// iodepth_batch_complete_min/max shape the iodepth_level, iodepth_submit
// and iodepth_complete distributions of the JSON report, and gofio's must
// be fio 3.33's. On a zram device each direct I/O completes while it is
// submitted, so the distributions depend on the loop's logic only, not on
// timing: with iodepth=16 iodepth_low=4 fio drains the queue to 4 before
// it refills it (depth 4: 25 %, 8: 66.7 %, 16: 8.3 %); with both
// complete settings 0 it reaps after each I/O it queues (depth 1: 100 %).
// io_uring may hand a zram read to its workers, so a reap that may take
// from min to max units depends on timing there: that case runs with
// libaio only (whose zram I/O completes within io_submit).
// fio 3.33's io_uring rounds iodepth up to a power of two and keeps that
// many I/Os in flight, reaping down to the iodepth given: iodepth=12 runs
// 13 to 16 deep (8-15: 75 %, 16: 25 %), libaio 12 deep.
// Needs root for the zram device (skips otherwise).
func TestIODepthBatching(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	requireRoot(t, "add a zram device")
	dev := zramDevice(t, "64M")
	for _, eng := range []string{"libaio", "io_uring"} {
		for _, o := range []string{
			"",
			"--iodepth=5",
			"--iodepth=12",
			"--iodepth=12 --iodepth_low=6",
			"--iodepth_low=4",
			"--iodepth_low=8 --iodepth_batch_submit=4",
			"--iodepth_batch_complete_min=0 --iodepth_batch_complete_max=0",
			"--iodepth_batch_complete_min=4 --iodepth_batch_complete_max=8",
			"--iodepth_batch_complete_min=16",
			"--iodepth_low=2 --iodepth_batch_complete_min=3",
		} {
			if eng == "io_uring" && o == "--iodepth_batch_complete_min=4 --iodepth_batch_complete_max=8" {
				continue
			}
			t.Run(eng+"/"+o, func(t *testing.T) {
				a := append(args("--name=d --filename="+dev+" --ioengine="+eng+" --direct=1 --rw=randread --bs=4k --size=32m --iodepth=16 "+o),
					"--output-format=json")
				fr := runIn(fioPath, t.TempDir(), a)
				gr := runIn(gofio, t.TempDir(), a)
				if fr.rc != 0 || gr.rc != 0 {
					t.Fatalf("exit status: fio %d, gofio %d\nfio: %s\ngofio: %s", fr.rc, gr.rc, fr.stderr, gr.stderr)
				}
				c := Checks{IO: IOPerDir, Depth: true}
				fv := ExtraJSON(jsonOf(t, "fio", fr), c)
				gv := ExtraJSON(jsonOf(t, "gofio", gr), c)
				if diff := cmp.Diff(fv, gv); diff != "" {
					t.Errorf("JSON (-fio +gofio):\n%s", diff)
				}
			})
		}
	}
}
