package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPercentAndZoneValues compares the traces (every offset and length)
// fio and gofio write for offset=N% and io_size=N% on an existing 256 KiB
// file, and for values given in zones (size=2z, offset=1z, io_size=2z,
// zoneskip=1z: N times zonesize, which is 0 outside zonemode=strided),
// and fio's refusal of offset over 100%.
func TestPercentAndZoneValues(t *testing.T) {
	t.Parallel()
	jobs := []string{
		"--name=o50 --offset=50%",
		"--name=o33 --offset=33%",
		"--name=oal --offset=33% --offset_align=16k",
		"--name=osz --offset=50% --size=64k",
		"--name=o0 --offset=0%",
		"--name=io --io_size=50%",
		"--name=oio --offset=25% --io_size=50%",
		"--name=iosz --io_size=50% --size=128k --rw=write",
		"--name=o200 --offset=200%",
		"--name=sz --size=2z --zonemode=strided --zonesize=16k",
		"--name=oz --offset=1z --zonemode=strided --zonesize=16k",
		"--name=ioz --io_size=2z --size=64k --zonemode=strided --zonesize=16k",
		"--name=skz --zoneskip=1z --zonemode=strided --zonesize=16k",
		"--name=sz0 --size=2z",
		"--name=oz0 --offset=1z",
	}
	setup := func(dir string) {
		if err := os.WriteFile(filepath.Join(dir, "data"), make([]byte, 256<<10), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, job := range jobs {
		t.Run(strings.TrimPrefix(strings.Fields(job)[0], "--name="), func(t *testing.T) {
			a := append(args(job), "--filename=data", "--bs=4k", "--ioengine=psync", "--write_iolog=trace.log", "--output-format=terse")
			fr, gr, ft, gt := replayRun(t, a, setup, func(dir string) string { return traceBody(dir, "trace.log") })
			if fr.rc != gr.rc || fr.stderr != gr.stderr {
				t.Fatalf("exit status: fio %d, gofio %d\nfio stderr:\n%s\ngofio stderr:\n%s", fr.rc, gr.rc, fr.stderr, gr.stderr)
			}
			if fr.rc == 0 && ft != gt {
				t.Errorf("traces differ:\nfio:\n%s\ngofio:\n%s", ft, gt)
			}
		})
	}
}
