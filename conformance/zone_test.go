package conformance

import (
	"strings"
	"testing"
)

// TestStridedIolog compares the traces fio and gofio write for
// zonemode=strided jobs, and the refusals of bad zone settings.
func TestStridedIolog(t *testing.T) {
	t.Parallel()
	jobs := []string{
		"--name=r --filename=data --size=64k --bs=4k --rw=write --zonemode=strided --zonesize=8k --zonerange=16k",
		"--name=s --filename=data --size=64k --bs=4k --rw=write --zonemode=strided --zonesize=8k --zoneskip=4k --loops=2",
		"--name=i --filename=data --size=64k --bs=4k --rw=read --zonemode=strided --zonesize=8k --zoneskip=4k --io_size=96k",
		"--name=o --filename=data --size=64k --bs=4k --rw=write --zonemode=strided --zonesize=16k --zonerange=8k --offset=4k",
		"--name=k --filename=data --size=64k --bs=4k --rw=read:4k --zonemode=strided --zonesize=8k --zoneskip=8k",
		"--name=p --filename=data --size=64k --bs=4k --rw=write --zonemode=strided --zonesize=8k --zoneskip=10%",
		"--name=t --filename=data --size=32k --bs=4k --rw=trimwrite --ioengine=null --zonemode=strided --zonesize=8k --zoneskip=8k",
		"--name=n --filename=data --size=64k --bs=4k --rw=write --zonesize=8k",
		"--name=m --filename=data --size=64k --bs=4k --rw=write --zonemode=strided --zonerange=8k",
	}
	for _, job := range jobs {
		t.Run(strings.Fields(job)[0], func(t *testing.T) {
			a := append(args(job), "--write_iolog=trace.log", "--output-format=json")
			fr, gr, ft, gt := replayRun(t, a, nil, func(dir string) string { return traceBody(dir, "trace.log") })
			if fr.rc != gr.rc || fr.stderr != gr.stderr {
				t.Fatalf("exit status: fio %d, gofio %d\nfio stderr:\n%s\ngofio stderr:\n%s", fr.rc, gr.rc, fr.stderr, gr.stderr)
			}
			if fr.rc == 0 && ft != gt {
				t.Errorf("traces differ:\nfio:\n%s\ngofio:\n%s", ft, gt)
			}
		})
	}
}
