package conformance

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestQueueInitFailure: at iodepth=100000 fio 3.33's libaio fails
// io_setup (err=11: more than the kernel's aio-max-nr of 65536 events)
// and its io_uring fails io_uring_setup (err=22: more than 32768
// entries, which fio does not clamp). The job then fails with that error
// on the info stream (stdout in normal mode), is reported with it in
// JSON, and fio exits 1. Compared: exit status, the "fio: pid=" line
// (pid and source file masked) and the JSON error.
func TestQueueInitFailure(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	if b, err := os.ReadFile("/proc/sys/fs/aio-max-nr"); err == nil {
		if n, _ := strconv.Atoi(strings.TrimSpace(string(b))); n >= 100000 {
			t.Skipf("fs.aio-max-nr is %d: io_setup(100000) may succeed", n)
		}
	}
	mask := regexp.MustCompile(`pid=\d+, err=(\d+)/file:[^,]*,`)
	pidLine := func(out string) string {
		for _, l := range lines(out) {
			if strings.HasPrefix(l, "fio: pid=") {
				return mask.ReplaceAllString(l, "pid=N, err=$1/file:F,")
			}
		}
		return ""
	}
	for _, engine := range []string{"libaio", "io_uring"} {
		t.Run(engine, func(t *testing.T) {
			base := []string{"--name=a", "--filename=f", "--size=1m", "--bs=4k", "--rw=read", "--ioengine=" + engine}
			if engine == "io_uring" {
				if r := runIn(fioPath, t.TempDir(), append(base, "--iodepth=16")); r.rc != 0 {
					t.Skipf("io_uring does not work here: %s", head(r.stdout+r.stderr))
				}
			}
			a := append(base, "--iodepth=100000")
			fr, gr := runBoth(t, gofio, a)
			if fr.rc != 1 || gr.rc != 1 {
				t.Errorf("exit status: fio %d, gofio %d; want 1", fr.rc, gr.rc)
			}
			if f, g := pidLine(fr.stdout), pidLine(gr.stdout); f == "" || f != g {
				t.Errorf("stdout's fio: pid= line: fio %q, gofio %q", f, g)
			}
			if gr.stderr != fr.stderr {
				t.Errorf("stderr: fio %q, gofio %q", fr.stderr, gr.stderr)
			}
			fr, gr = runBoth(t, gofio, append(a, "--output-format=json"))
			fe := jsonOf(t, "fio", fr).Get("jobs").Kids[0].Get("error").Text
			ge := jsonOf(t, "gofio", gr).Get("jobs").Kids[0].Get("error").Text
			if fe != ge {
				t.Errorf("JSON error: fio %s, gofio %s", fe, ge)
			}
		})
	}
}
