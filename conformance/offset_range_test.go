package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOffsetAtFileEnd: an offset at, just before or past the end of the
// file, with and without size= and filesize=, for a file that exists (1
// MiB) or not. fio 3.33 fails a job whose region is smaller than a block
// ("fio: blocksize is larger than data set range", exit status 1), says
// "fio: file F may be ignored" when the offset is the end of the existing
// file that sizes the job, and refuses an offset past it ("you need to
// specify valid offset="); such a job is reported with error 0.
// Compared: exit status, stderr, the "fio:" lines of stdout, the files
// left, and the jobs of the JSON report.
func TestOffsetAtFileEnd(t *testing.T) {
	requireFio(t)
	cases := []struct {
		exists bool
		opts   string
	}{
		{true, "--offset=1m"},
		{true, "--offset=100%"},
		{true, "--offset=1m --rw=write"},
		{true, "--offset=1023k"},
		{true, "--offset=1020k"},
		{true, "--offset=2m"},
		{true, "--offset=1m --filesize=1m"},
		{true, "--offset=2m --filesize=1m"},
		{true, "--offset=1m --size=4k --filesize=1m"},
		{true, "--offset=1023k --size=1m --filesize=1m"},
		{true, "--offset=1m --size=4k"},
		{true, "--offset=512k --size=1m"},
		{true, "--offset=512k --offset_increment=512k --numjobs=2"},
		{true, "--offset=1022k --bsrange=1k-8k"},
		{false, "--offset=1m --filesize=1m"},
		{false, "--offset=2m --filesize=1m --size=4k"},
		{false, "--offset=1023k --filesize=1m --size=1m"},
		{false, "--offset=1m --size=1m --rw=write"},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.opts, " ", "_"), func(t *testing.T) {
			t.Parallel()
			caseSlots <- struct{}{}
			defer func() { <-caseSlots }()
			setup := func(dir string) {
				if c.exists {
					if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 1<<20), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			a := append([]string{"--name=a", "--filename=f", "--bs=4k", "--rw=read"}, args(c.opts)...)
			fr, gr, ff, gf := run2(t, a, setup)
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
			}
			if fr.stderr != gr.stderr {
				t.Errorf("stderr: fio %q, gofio %q", fr.stderr, gr.stderr)
			}
			fioLines := func(s string) string {
				var out []string
				for _, l := range lines(s) {
					if strings.HasPrefix(l, "fio: ") {
						out = append(out, l)
					}
				}
				return strings.Join(out, "\n")
			}
			if f, g := fioLines(fr.stdout), fioLines(gr.stdout); f != g {
				t.Errorf("stdout's fio: lines: fio %q, gofio %q", f, g)
			}
			if f, g := strings.Join(ff, " "), strings.Join(gf, " "); f != g {
				t.Errorf("files: fio %s, gofio %s", f, g)
			}
			// JSON: the jobs reported, each with its error (0 where fio
			// refuses the region) and bytes read or written.
			fr, gr, _, _ = run2(t, append(a, "--output-format=json"), setup)
			if fr.rc != gr.rc {
				t.Errorf("JSON run: exit status fio %d, gofio %d", fr.rc, gr.rc)
			}
			jobs := func(prog string, r result) string {
				var s []string
				for _, j := range jsonOf(t, prog, r).Get("jobs").Kids {
					s = append(s, j.Get("jobname").Text+" err="+j.Get("error").Text+
						" r="+j.Get("read", "io_bytes").Text+" w="+j.Get("write", "io_bytes").Text)
				}
				return strings.Join(s, "; ")
			}
			if f, g := jobs("fio", fr), jobs("gofio", gr); f != g {
				t.Errorf("JSON jobs: fio %q, gofio %q", f, g)
			}
		})
	}
}
