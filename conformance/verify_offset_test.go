package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyPatternOffset writes files with verify_pattern's %o (each
// block's offset, 8 bytes, in the pattern) with both programs: the files
// must be the same bytes, and each program's verify_only must pass the
// other's file. The last job checks at the wrong offsets: both must
// report the same failure.
func TestVerifyPatternOffset(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	jobs := []string{
		"--verify=pattern --verify_pattern=%o",
		`--verify=pattern --verify_pattern=0xff%o"ab"-12`,
		"--verify=pattern --verify_pattern=0x12%o%o --rw=randwrite",
		"--verify=crc32c --verify_pattern=%o",
		"--verify=md5 --verify_pattern=0xff%o --verify_interval=512",
		// No verify: fio's header (type 17), then the pattern.
		"--verify_pattern=0x11%o --verify_interval=1024",
	}
	for i, job := range jobs {
		t.Run(strings.Fields(job)[0], func(t *testing.T) {
			t.Parallel()
			base := []string{"--name=v", "--filename=f", "--size=64k", "--bs=4k", "--ioengine=psync", "--rw=write"}
			a := append(append(base, args(job)...), "--do_verify=0")
			dirs := map[string]string{"fio": t.TempDir(), "gofio": t.TempDir()}
			bins := map[string]string{"fio": fioPath, "gofio": gofio}
			for name, dir := range dirs {
				if r := runIn(bins[name], dir, a); r.rc != 0 {
					t.Fatalf("%s writing: rc=%d\n%s", name, r.rc, r.stderr)
				}
			}
			fb, _ := os.ReadFile(filepath.Join(dirs["fio"], "f"))
			gb, _ := os.ReadFile(filepath.Join(dirs["gofio"], "f"))
			if !bytes.Equal(fb, gb) || len(fb) != 64<<10 {
				if strings.Contains(job, "--verify=pattern") { // no header, no write time
					t.Errorf("job %d: the files differ (fio %d bytes, gofio %d)", i, len(fb), len(gb))
				}
			}
			for writer, dir := range dirs {
				checker := "fio"
				if writer == "fio" {
					checker = "gofio"
				}
				c := runIn(bins[checker], dir, append(append(base, args(job)...), "--verify_only"))
				if c.rc != 0 || !strings.Contains(c.stdout, "err= 0") {
					t.Errorf("%s --verify_only of %s's file: rc=%d\n%s\n%s", checker, writer, c.rc, c.stderr, head(c.stdout))
				}
			}
			if i == 0 {
				// Checked 4 KiB further on, every block's offset is wrong.
				shifted := append(append(base, args(job)...), "--verify_only", "--offset=4k", "--size=60k")
				f := runIn(fioPath, dirs["fio"], shifted)
				g := runIn(gofio, dirs["fio"], shifted)
				if f.rc != g.rc || verifyText(f.stdout+f.stderr) != verifyText(g.stdout+g.stderr) {
					t.Errorf("shifted check: fio rc=%d %q\ngofio rc=%d %q", f.rc, verifyText(f.stdout+f.stderr), g.rc, verifyText(g.stdout+g.stderr))
				}
			}
		})
	}
}

// verifyText keeps the lines about a verify failure.
func verifyText(s string) string {
	var out []string
	for _, l := range lines(s) {
		if strings.Contains(l, "pattern") || strings.Contains(l, "verify") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
