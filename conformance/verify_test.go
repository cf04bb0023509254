package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// verifyJob is the job both programs run on file f. typ is a verify
// type, optionally followed by "/" and one more option; "patternhdr" is
// verify_pattern without verify (fio's header, then the pattern).
func verifyJob(f, typ string, extra ...string) []string {
	typ, opt, _ := strings.Cut(typ, "/")
	a := []string{"--name=v", "--filename=" + f, "--size=128k", "--bs=4k"}
	switch typ {
	case "pattern":
		a = append(a, "--verify=pattern", "--verify_pattern=0xdeadbeef")
	case "patternhdr":
		a = append(a, "--verify_pattern=0xaabbcc")
	default:
		a = append(a, "--verify="+typ)
	}
	if opt != "" {
		a = append(a, opt)
	}
	return append(a, extra...)
}

// TestVerifyCrossCheck writes a file with one program and checks it with
// the other's verify_only: gofio's blocks must be fio's on-disk format.
func TestVerifyCrossCheck(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	types := []string{"md5/--verify_offset=200", "crc32c/--verify_interval=512", "md5", "crc64", "crc32c", "crc32c-intel", "crc32", "crc16", "crc7", "sha1",
		"sha3-224", "sha3-256", "sha3-384", "sha3-512", "xxhash", "meta", "pattern", "patternhdr", "patternhdr/--verify_interval=1024",
		"sha256", "sha512", "sha256/--verify_interval=512", "sha512/--verify_interval=1024"}
	progs := []struct{ name, bin string }{{"fio", fioPath}, {"gofio", gofio}}
	for _, typ := range types {
		rws := []string{"write"}
		if typ == "crc32c" || typ == "md5" || typ == "xxhash" {
			rws = append(rws, "randwrite")
		}
		for _, rw := range rws {
			for wi, writer := range progs {
				checker := progs[1-wi]
				t.Run(typ+"/"+rw+"/"+writer.name+"-writes", func(t *testing.T) {
					t.Parallel()
					dir := t.TempDir()
					w := runIn(writer.bin, dir, verifyJob("f", typ, "--rw="+rw))
					if w.rc != 0 || !strings.Contains(w.stdout, "err= 0") {
						t.Fatalf("%s writing: rc=%d\n%s\n%s", writer.name, w.rc, w.stderr, head(w.stdout))
					}
					if !regexp.MustCompile(`read: IOPS=.*\(128KiB/`).MatchString(w.stdout) {
						t.Errorf("%s did not read back 128KiB:\n%s", writer.name, head(w.stdout))
					}
					c := runIn(checker.bin, dir, verifyJob("f", typ, "--rw="+rw, "--verify_only"))
					if c.rc != 0 || !strings.Contains(c.stdout, "err= 0") || !strings.Contains(c.stdout, "total=32,32,0,0") {
						t.Fatalf("%s --verify_only of %s's file: rc=%d\n%s\n%s", checker.name, writer.name, c.rc, c.stderr, head(c.stdout))
					}
				})
			}
		}
	}
}

// TestVerifyCorruption corrupts a block fio wrote and compares what both
// programs report with verify_only: the messages, err= and exit status.
func TestVerifyCorruption(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	cases := []struct {
		name  string
		typ   string
		at    int64 // byte to change; -1: none
		extra []string
		check string // verify type of the check, when not typ
	}{
		{"magic", "crc32c", 4096, nil, ""},
		{"length", "crc32c", 4096 + 5, nil, ""},
		{"header crc", "crc32c", 4096 + 30, nil, ""},
		{"offset", "md5", 4096 + 17, nil, ""},
		{"data crc32c", "crc32c", 8192 + 100, nil, ""},
		{"data md5", "md5", 8192 + 100, nil, ""},
		{"data sha1", "sha1", 8192 + 100, nil, ""},
		{"data crc64", "crc64", 8192 + 100, nil, ""},
		{"data crc16", "crc16", 8192 + 100, nil, ""},
		{"data crc7", "crc7", 8192 + 100, nil, ""},
		{"data xxhash", "xxhash", 8192 + 100, nil, ""},
		{"data sha3-512", "sha3-512", 8192 + 100, nil, ""},
		// fio 3.33's sha256 and sha512 fields (runner/verify/sha2.go):
		// sha512 covers only the data's first 128 bytes and its last
		// n%128 (here 88), so the change at 1000 goes unseen.
		{"data sha256", "sha256", 8192 + 1000, nil, ""},
		{"field sha256", "sha256", 8192 + 90, nil, ""},
		{"data sha512", "sha512", 8192 + 4095, nil, ""},
		{"data sha512 unseen", "sha512", 8192 + 1000, nil, ""},
		{"field sha512", "sha512", 8192 + 100, nil, ""},
		{"fatal", "crc32c", 8192 + 100, []string{"--verify_fatal=1"}, ""},
		{"continue", "crc32", 8192 + 100, []string{"--continue_on_error=verify"}, ""},
		{"continue fatal", "crc32", 8192 + 100, []string{"--continue_on_error=verify", "--verify_fatal=1"}, ""},
		{"libaio", "crc32c", 8192 + 100, []string{"--ioengine=libaio", "--iodepth=4"}, ""},
		// verify_async: gofio checks inline, with fio's flags and func.
		{"async read job", "crc32c", 8192 + 100, []string{"--rw=read", "--verify_async=2"}, ""},
		{"async continue", "crc32c", 8192 + 100, []string{"--verify_async=2", "--continue_on_error=verify"}, ""},
		{"pattern", "pattern", 8192 + 101, nil, ""},
		// verify_pattern without verify: fio's header, then the pattern,
		// a bad byte of it reported from the header's end.
		{"pattern header data", "patternhdr", 8192 + 101, nil, ""},
		{"pattern header magic", "patternhdr", 8192, nil, ""},
		{"pattern header interval", "patternhdr", 8192 + 1024 + 45, []string{"--verify_interval=1024"}, ""},
		{"pattern header as pattern", "patternhdr", -1, nil, "pattern"},
		{"pattern as pattern header", "pattern", -1, nil, "patternhdr"},
		{"read job", "crc32c", 8192 + 100, []string{"--rw=read"}, ""},
		{"type mismatch", "md5", -1, nil, "crc32c"},
		// fio 3.33 fails a block on its last chunk's checksum only.
		{"interval", "crc32c", 8192 + 1024 + 100, []string{"--verify_interval=1024"}, ""},
		{"interval last", "crc32c", 8192 + 3072 + 100, []string{"--verify_interval=1024"}, ""},
		{"interval header", "crc32c", 8192 + 1024 + 1, []string{"--verify_interval=1024"}, ""},
		{"offset swapped", "md5", 8192 + 300, []string{"--verify_offset=100", "--verify_interval=2048"}, ""},
		{"offset swapped header", "crc64", 8192 + 101, []string{"--verify_offset=100"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			f := filepath.Join(dir, "f")
			w := runIn(fioPath, dir, verifyJob("f", c.typ, append(c.extra, "--rw=write")...))
			if w.rc != 0 {
				t.Fatalf("fio writing: rc=%d %s", w.rc, w.stderr)
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if c.at >= 0 {
				data[c.at] ^= 0x5a
			}
			if err := os.WriteFile(f, data, 0o644); err != nil {
				t.Fatal(err)
			}
			typ := c.typ
			if c.check != "" {
				typ = c.check
			}
			a := verifyJob("f", typ, append([]string{"--rw=write", "--verify_only"}, c.extra...)...)
			fr := runIn(fioPath, dir, a)
			gr := runIn(gofio, dir, a)
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
			}
			if fe, ge := errValue(fr.stdout), errValue(gr.stdout); fe != ge {
				t.Errorf("err=: fio %q, gofio %q", fe, ge)
			}
			for _, s := range []struct{ name, fio, gofio string }{{"stdout", fr.stdout, gr.stdout}, {"stderr", fr.stderr, gr.stderr}} {
				fv, gv := verifyLines(s.fio), verifyLines(s.gofio)
				if strings.HasPrefix(c.name, "async") {
					// fio's verifier thread can print its "fio: pid=" line
					// in pieces, mixed with the report.
					fv, gv = dropPidLines(fv), dropPidLines(gv)
				}
				if strings.Join(fv, "\n") != strings.Join(gv, "\n") {
					t.Errorf("verify messages on %s differ:\nfio:\n%s\ngofio:\n%s", s.name, strings.Join(fv, "\n"), strings.Join(gv, "\n"))
				}
			}
			fi, gi := issuedLine(fr.stdout), issuedLine(gr.stdout)
			// With verify_async, fio reads on while its verifier thread
			// checks, so a failing job's count is a race.
			if fi != gi && !(strings.HasPrefix(c.name, "async") && fr.rc != 0) {
				t.Errorf("issued: fio %q, gofio %q", fi, gi)
			}
		})
	}
}

// dropPidLines drops the "fio: pid=" lines of verifyLines.
func dropPidLines(ls []string) []string {
	var out []string
	for _, l := range ls {
		if !strings.HasPrefix(l, "fio: pid=") {
			out = append(out, l)
		}
	}
	return out
}

// errValue is the job's "err=N" from a normal report.
func errValue(out string) string {
	return regexp.MustCompile(`err=\s*\d+`).FindString(out)
}

func issuedLine(out string) string {
	return regexp.MustCompile(`issued rwts: \S+`).FindString(out)
}

// verifyLines are the lines of a verify failure report, with fio's
// pid and source location masked.
func verifyLines(s string) []string {
	var out []string
	loc := regexp.MustCompile(`pid=\d+, err=(\d+)/file:[^,]*,`)
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "(groupid=") {
			continue // the job's err= is compared on its own
		}
		if strings.Contains(l, "verify") || strings.Contains(l, "CRC:") || strings.HasPrefix(l, "fio: pid=") {
			out = append(out, loc.ReplaceAllString(l, "pid=P, err=$1/file:F,"))
		}
	}
	return out
}

// TestVerifyPatternHeaderFile: verify_pattern without verify writes fio's
// header (verify type 17) over the start of each block of the repeated
// pattern. The files fio and gofio write differ only in the header's
// write time (nanoseconds, bytes 28-31) and so its CRC (bytes 36-39).
func TestVerifyPatternHeaderFile(t *testing.T) {
	requireFio(t)
	args := []string{"--name=v", "--filename=f", "--size=32k", "--bs=4k", "--rw=write",
		"--verify_pattern=0xaabbcc", "--verify_interval=1024", "--do_verify=0"}
	fr, gr, _, _ := run2(t, args, nil)
	if fr.rc != 0 || gr.rc != 0 {
		t.Fatalf("exit status fio %d, gofio %d\n%s", fr.rc, gr.rc, gr.stderr)
	}
	fd, err := os.ReadFile(filepath.Join(fr.dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	gd, err := os.ReadFile(filepath.Join(gr.dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	if len(fd) != len(gd) {
		t.Fatalf("file size: fio %d, gofio %d", len(fd), len(gd))
	}
	bad := 0
	for i := range fd {
		if k := i % 1024; (k >= 28 && k < 32) || (k >= 36 && k < 40) {
			continue
		}
		if fd[i] != gd[i] {
			if bad++; bad <= 5 {
				t.Errorf("byte %d: fio %#02x, gofio %#02x", i, fd[i], gd[i])
			}
		}
	}
	if bad > 5 {
		t.Errorf("%d bytes differ in all", bad)
	}
}
