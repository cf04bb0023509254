package conformance

import (
	"strings"
	"testing"
)

// TestVerifyBacklogDepth: verify_backlog at an iodepth above 1 (fio's
// t0006 at a small size): the job checks what it writes while writing,
// with fio's counts of reads and writes (the same random mix), and ends
// without error.
func TestVerifyBacklogDepth(t *testing.T) {
	requireFio(t)
	for _, extra := range [][]string{
		{"--ioengine=libaio", "--iodepth=32", "--verify=meta", "--verify_pattern=0xaaa", "--verify_backlog=64"},
		{"--ioengine=io_uring", "--iodepth=8", "--verify=crc32c", "--verify_backlog=16", "--verify_backlog_batch=4"},
	} {
		t.Run(extra[0], func(t *testing.T) {
			args := append([]string{"--name=v", "--filename=f", "--size=4m", "--bs=4k", "--rw=randrw",
				"--direct=1", "--verify_fatal=1"}, extra...)
			fr, gr, _, _ := run2(t, args, nil)
			if fr.rc != 0 {
				t.Skipf("fio cannot run the job here: %s", fr.stderr)
			}
			if gr.rc != 0 || errValue(gr.stdout) != "err= 0" {
				t.Fatalf("gofio: rc=%d\n%s\n%s", gr.rc, gr.stderr, head(gr.stdout))
			}
			if fi, gi := issuedLine(fr.stdout), issuedLine(gr.stdout); fi != gi {
				t.Errorf("issued: fio %q, gofio %q", fi, gi)
			}
			if strings.Contains(gr.stderr, "verify") {
				t.Errorf("gofio reports a verify failure:\n%s", gr.stderr)
			}
		})
	}
}
