package conformance

import (
	"os"
	"path/filepath"
	"regexp"
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

// TestVerifyDump: verify_dump writes the received and expected chunk of
// a bad checksum, and the chunk of a bad header, to files named as fio
// names them, in the working directory or --aux-path. The files must be
// fio's byte for byte, but for the expected header's write time and its
// CRC (bytes 24-31 and 36-39 of each chunk).
func TestVerifyDump(t *testing.T) {
	requireFio(t)
	cases := []struct {
		name  string
		typ   string
		at    []int64
		extra []string
	}{
		{"md5", "md5", []int64{8192 + 100}, nil},
		{"interval and header", "crc32c", []int64{8192 + 1024 + 100, 8192 + 3072 + 100, 16384 + 1}, []string{"--verify_interval=1024", "--continue_on_error=verify"}},
		{"pattern", "pattern", []int64{8192 + 101}, nil},
		{"pattern header", "patternhdr", []int64{8192 + 101}, nil},
		{"aux-path", "sha1", []int64{4096 + 200}, []string{"--aux-path={DIR}/aux"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := t.TempDir()
			w := runIn(fioPath, src, verifyJob("f", c.typ, append(c.extra, "--rw=write", "--do_verify=0")...))
			if w.rc != 0 {
				t.Fatalf("fio writing: rc=%d %s", w.rc, w.stderr)
			}
			data, err := os.ReadFile(filepath.Join(src, "f"))
			if err != nil {
				t.Fatal(err)
			}
			for _, at := range c.at {
				data[at] ^= 0x5a
			}
			setup := func(dir string) {
				if err := os.WriteFile(filepath.Join(dir, "f"), data, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(filepath.Join(dir, "aux"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			a := verifyJob("f", c.typ, append([]string{"--rw=read", "--verify_dump=1"}, c.extra...)...)
			fr, gr, _, _ := run2(t, a, setup)
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
			}
			dumped := regexp.MustCompile(`(?m)^ +\S+ data dumped as (\S+)$`)
			fl, gl := dumped.FindAllStringSubmatch(fr.stderr, -1), dumped.FindAllStringSubmatch(gr.stderr, -1)
			if len(fl) == 0 || len(fl) != len(gl) {
				t.Fatalf("dump lines: fio %q, gofio %q\n%s", fl, gl, gr.stderr)
			}
			for i := range fl {
				fn := strings.ReplaceAll(fl[i][0], fr.dir, "D")
				gn := strings.ReplaceAll(gl[i][0], gr.dir, "D")
				if fn != gn {
					t.Errorf("dump line: fio %q, gofio %q", fn, gn)
					continue
				}
				fp, gp := fl[i][1], gl[i][1]
				if !filepath.IsAbs(fp) {
					fp, gp = filepath.Join(fr.dir, fp), filepath.Join(gr.dir, gp)
				}
				fd, err1 := os.ReadFile(fp)
				gd, err2 := os.ReadFile(gp)
				if err1 != nil || err2 != nil {
					t.Fatalf("dump files: %v, %v", err1, err2)
				}
				if len(fd) != len(gd) {
					t.Errorf("%s: %d bytes, fio's %d", gn, len(gd), len(fd))
					continue
				}
				chunk := len(fd)
				if strings.Contains(strings.Join(c.extra, " "), "interval=1024") {
					chunk = 1024
				}
				for k := range fd {
					if m := k % chunk; strings.HasSuffix(fp, ".expected") && c.typ != "pattern" && (m >= 24 && m < 32 || m >= 36 && m < 40) {
						continue
					}
					if fd[k] != gd[k] {
						t.Errorf("%s: byte %d: %#02x, fio's %#02x", gn, k, gd[k], fd[k])
						break
					}
				}
			}
		})
	}
}

// TestVerifyExperimental: experimental_verify replays the offsets
// written, in their order, and checks each header's write number: a
// block written again later (norandommap) fails as in fio 3.33, with
// fio's message, reads and writes.
func TestVerifyExperimental(t *testing.T) {
	requireFio(t)
	for _, extra := range [][]string{
		{"--rw=randwrite", "--loops=2"},
		{"--rw=randwrite", "--loops=3"},
		{"--rw=randrw", "--loops=2"},
		{"--rw=write"},
		{"--rw=randwrite", "--norandommap"},
		{"--rw=randwrite", "--norandommap", "--ioengine=libaio", "--iodepth=4"},
	} {
		t.Run(strings.Join(extra, " "), func(t *testing.T) {
			args := append([]string{"--name=v", "--filename=f", "--size=64k", "--bs=4k", "--verify=md5",
				"--experimental_verify=1"}, extra...)
			fr, gr, _, _ := run2(t, args, nil)
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d\n%s", fr.rc, gr.rc, gr.stderr)
			}
			if fe, ge := errValue(fr.stdout), errValue(gr.stdout); fe != ge {
				t.Errorf("err=: fio %q, gofio %q", fe, ge)
			}
			// With libaio and norandommap fio 3.33 reads back iodepth-1
			// blocks more (docs/compat.md).
			if fi, gi := issuedLine(fr.stdout), issuedLine(gr.stdout); fi != gi && !strings.Contains(extra[len(extra)-1], "iodepth") {
				t.Errorf("issued: fio %q, gofio %q", fi, gi)
			}
			fv, gv := verifyLines(fr.stderr+fr.stdout), verifyLines(gr.stderr+gr.stdout)
			fv, gv = dropPidLines(fv), dropPidLines(gv)
			if strings.Join(fv, "\n") != strings.Join(gv, "\n") {
				t.Errorf("verify messages differ:\nfio:\n%s\ngofio:\n%s", strings.Join(fv, "\n"), strings.Join(gv, "\n"))
			}
		})
	}
}
