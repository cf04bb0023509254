package conformance

import (
	"regexp"
	"strings"
	"testing"
)

// TestIOUringOptionsAgainstFio: io_uring options whose effect shows in
// what fio prints. registerfiles (and sqthread_poll, which implies it in
// fio 3.33) with openfiles below nrfiles fails the job at init (error 1);
// uncached=1 sets fio's RWF_UNCACHED value, which no kernel has, so every
// buffered write fails with EOPNOTSUPP (95), each reported; with direct=1
// it is not set and the job runs; registerfiles with fixedbufs runs.
// Compared: exit status, messages (pid and fio's source location masked)
// and the JSON error and I/O counts.
func TestIOUringOptionsAgainstFio(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	pid := regexp.MustCompile(`pid=\d+, err=(\d+)/(file:[^,]*,)?`)
	mask := func(s string) string { return pid.ReplaceAllString(s, "pid=N, err=$1/F") }
	for _, c := range []struct{ name, args string }{
		{"registerfiles openfiles<nrfiles", "--registerfiles --nrfiles=4 --openfiles=2 --rw=randread"},
		{"sqthread_poll openfiles<nrfiles", "--sqthread_poll --nrfiles=3 --openfiles=1 --rw=randread"},
		{"registerfiles fixedbufs", "--registerfiles --fixedbufs --nrfiles=2 --rw=randrw --iodepth=8"},
		{"uncached buffered", "--uncached=1 --rw=randwrite --iodepth=4"},
		{"uncached direct", "--uncached=1 --direct=1 --rw=randwrite --iodepth=4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := append(args("--name=u --ioengine=io_uring --size=1m --bs=4k "+c.args), "--output-format=json")
			fr := runIn(fioPath, t.TempDir(), a)
			gr := runIn(gofio, t.TempDir(), a)
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
			}
			// gofio prints the "fio: pid=" line on stderr, fio on stdout
			// before the JSON (docs/compat.md).
			if f, g := mask(fr.stderr+fr.stdout[:max(0, strings.Index(fr.stdout, "{\n"))]), mask(gr.stderr); f != g {
				t.Errorf("stderr:\nfio   %q\ngofio %q", f, g)
			}
			fj, gj := jsonOf(t, "fio", fr), jsonOf(t, "gofio", gr)
			for _, k := range [][]string{{"error"}, {"read", "total_ios"}, {"write", "total_ios"}} {
				f := fj.Get("jobs").Kids[0].Get(k...)
				g := gj.Get("jobs").Kids[0].Get(k...)
				if text(f) != text(g) {
					t.Errorf("JSON %v: fio %s, gofio %s", k, text(f), text(g))
				}
			}
		})
	}
}
