package conformance

import (
	"bytes"
	"os"
	"os/exec"
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
	t.Parallel() // its runs in directories of its own
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
	t.Parallel() // its runs in directories of its own
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
	t.Parallel() // its runs in directories of its own
	requireFio(t)
	for _, extra := range [][]string{
		{"--rw=randwrite", "--loops=2"},
		{"--rw=randwrite", "--loops=3"},
		{"--rw=randrw", "--loops=2"},
		{"--rw=randwrite", "--verify_backlog=5", "--verify_backlog_batch=2", "--loops=3"},
		{"--rw=randrw", "--verify_backlog=3", "--loops=3"},
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

// TestVerifyStateFiles: a writing job that verifies writes fio's state
// file (local-NAME-N-verify.state) byte for byte, the state of its
// offset generator included, and none with verify_state_save=0; fio's
// fio-verify-state reads gofio's files.
func TestVerifyStateFiles(t *testing.T) {
	t.Parallel() // its runs in directories of its own
	requireFio(t)
	var args []string
	for _, j := range [][]string{
		{"--name=a", "--rw=write", "--size=8k", "--verify=md5", "--ioengine=libaio", "--iodepth=4"},
		{"--name=b", "--rw=write", "--nrfiles=3", "--size=96k", "--verify=crc32c", "--ioengine=libaio", "--iodepth=2"},
		{"--name=c", "--rw=write", "--size=128k", "--verify=md5", "--number_ios=10", "--numjobs=2"},
		{"--name=d", "--rw=write", "--size=16k", "--verify=md5", "--verify_state_save=0"},
		{"--name=e", "--rw=write", "--size=16k"},
		{"--name=f", "--rw=randwrite", "--size=64k", "--verify=md5", "--number_ios=7", "--do_verify=0"},
		{"--name=g", "--rw=randwrite", "--size=64k", "--verify=md5"},
		{"--name=h", "--rw=randrw", "--size=64k", "--verify=crc32c", "--random_generator=tausworthe64", "--number_ios=9"},
		{"--name=i", "--rw=randwrite", "--size=64k", "--verify=md5", "--random_generator=lfsr", "--number_ios=5"},
	} {
		args = append(append(args, j...), "--bs=4k")
	}
	fr, gr, _, _ := run2(t, args, nil)
	if fr.rc != 0 || gr.rc != 0 {
		t.Fatalf("exit status fio %d, gofio %d\n%s", fr.rc, gr.rc, gr.stderr)
	}
	fs, _ := filepath.Glob(filepath.Join(fr.dir, "*.state"))
	gs, _ := filepath.Glob(filepath.Join(gr.dir, "*.state"))
	if len(fs) != 8 || len(gs) != len(fs) {
		t.Fatalf("state files: fio %q, gofio %q", fs, gs)
	}
	tool, err := exec.LookPath("fio-verify-state")
	for i := range fs {
		if filepath.Base(fs[i]) != filepath.Base(gs[i]) {
			t.Errorf("state file %q, fio's %q", filepath.Base(gs[i]), filepath.Base(fs[i]))
			continue
		}
		fb, _ := os.ReadFile(fs[i])
		gb, _ := os.ReadFile(gs[i])
		if !bytes.Equal(fb, gb) {
			t.Errorf("%s differs from fio's:\n%x\n%x", filepath.Base(gs[i]), gb, fb)
		}
		if err == nil {
			out, err := exec.Command(tool, gs[i]).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "Number IOs:") {
				t.Errorf("fio-verify-state %s: %v\n%s", filepath.Base(gs[i]), err, out)
			}
		}
	}
}

// TestVerifyStateLoad: each program's verify_state_load resumes from the
// state file the other wrote: a randread job replays the 20 random
// writes done and stops; a missing file is fio's error, no report and
// exit status 1.
func TestVerifyStateLoad(t *testing.T) {
	t.Parallel() // its runs in directories of its own
	requireFio(t)
	gofio := requireGofio(t)
	progs := []struct{ name, bin string }{{"fio", fioPath}, {"gofio", gofio}}
	base := []string{"--name=v", "--filename=f", "--size=128k", "--bs=4k", "--verify=md5"}
	for _, w := range progs {
		for _, r := range progs {
			t.Run(w.name+"-writes-"+r.name+"-loads", func(t *testing.T) {
				dir := t.TempDir()
				wr := runIn(w.bin, dir, append(base, "--rw=randwrite", "--do_verify=0", "--number_ios=20", "--ioengine=libaio", "--iodepth=4"))
				if wr.rc != 0 {
					t.Fatalf("%s writing: %d %s", w.name, wr.rc, wr.stderr)
				}
				rd := runIn(r.bin, dir, append(base, "--rw=randread", "--verify_state_load=1"))
				if rd.rc != 0 || errValue(rd.stdout) != "err= 0" || issuedLine(rd.stdout) != "issued rwts: total=20,0,0,0" {
					t.Errorf("%s loading %s's state: rc=%d %s\n%s", r.name, w.name, rd.rc, rd.stderr, head(rd.stdout))
				}
				if _, err := os.Stat(filepath.Join(dir, "local-v-0-verify.state")); err != nil {
					t.Error(err)
				}
			})
		}
	}
	// The jobs that load a state: the verify phase of a writing job
	// stops as a read job does; a job that mixes reads and writes
	// checks all it wrote.
	for _, rw := range []string{"--rw=write", "--rw=randwrite", "--rw=randrw", "--rw=read"} {
		t.Run("loaded by "+rw, func(t *testing.T) {
			src := t.TempDir()
			a := []string{"--name=v", "--filename=f", "--size=64k", "--bs=4k", "--verify=md5"}
			if w := runIn(fioPath, src, append(a, "--rw=write", "--number_ios=5", "--do_verify=0")); w.rc != 0 {
				t.Fatalf("fio writing: %d %s", w.rc, w.stderr)
			}
			setup := func(dir string) {
				for _, name := range []string{"f", "local-v-0-verify.state"} {
					b, err := os.ReadFile(filepath.Join(src, name))
					if err == nil {
						err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
					}
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			fr, gr, _, _ := run2(t, append(a, rw, "--verify_state_load=1"), setup)
			if fr.rc != gr.rc || errValue(fr.stdout) != errValue(gr.stdout) {
				t.Errorf("exit status/err: fio %d %q, gofio %d %q\n%s", fr.rc, errValue(fr.stdout), gr.rc, errValue(gr.stdout), gr.stderr)
			}
			if fi, gi := issuedLine(fr.stdout), issuedLine(gr.stdout); fi != gi {
				t.Errorf("issued: fio %q, gofio %q", fi, gi)
			}
		})
	}
	for _, verify := range []string{"--verify=md5", "--verify=0"} {
		t.Run("missing with "+verify, func(t *testing.T) {
			missingState(t, append(base, "--rw=read", "--verify_state_load=1", "--size=32k", verify))
		})
	}
}

// missingState runs job a, whose verify state file is missing, with fio
// and gofio: fio's error, no report and exit status 1 (even without
// verify, where the file is read all the same).
func missingState(t *testing.T, a []string) {
	t.Helper()
	fr, gr, _, _ := run2(t, a, nil)
	if fr.rc != gr.rc || gr.rc != 1 {
		t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
	}
	if fr.stderr != gr.stderr {
		t.Errorf("stderr:\nfio:\n%s\ngofio:\n%s", fr.stderr, gr.stderr)
	}
	if strings.Contains(gr.stdout, "groupid=") != strings.Contains(fr.stdout, "groupid=") {
		t.Errorf("job report: fio\n%s\ngofio\n%s", fr.stdout, gr.stdout)
	}
}

// TestVerifyTrimBacklog: trim_percentage with trim_backlog in trimming
// jobs on a block device (a loop device over a file): the trims of the
// written blocks come where fio 3.33 puts them (the same I/O log, loops
// and batches included), the trimmed blocks read back as zeroes
// (trim_verify_zero) or are not read back, and blocks marked and never
// trimmed are reported as fio reports them.
func TestVerifyTrimBacklog(t *testing.T) {
	t.Parallel() // its runs in directories and on a loop device of its own
	requireFio(t)
	gofio := requireGofio(t)
	back := filepath.Join(t.TempDir(), "back")
	if err := os.WriteFile(back, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(back, 8<<20); err != nil {
		t.Fatal(err)
	}
	dev := loopOver(t, back)
	for _, extra := range [][]string{
		{"--rw=trimwrite", "--trim_percentage=100", "--trim_backlog=4"},
		{"--rw=trimwrite", "--trim_percentage=100", "--trim_backlog=3", "--trim_backlog_batch=5"},
		{"--rw=randtrimwrite", "--trim_percentage=50", "--trim_backlog=3", "--loops=3", "--size=64k"},
		{"--rw=trimwrite", "--trim_percentage=70", "--trim_backlog=5", "--trim_backlog_batch=2", "--loops=2", "--trim_verify_zero=0"},
		{"--rw=randtrimwrite", "--trim_percentage=60", "--trim_backlog=4", "--ioengine=libaio", "--iodepth=4"},
		{"--rw=trimwrite", "--trim_percentage=50", "--trim_backlog=4", "--do_verify=0"},
		{"--rw=write", "--trim_percentage=50", "--loops=2"},
	} {
		t.Run(strings.Join(extra, " "), func(t *testing.T) {
			var logs [2][]string
			var res [2]result
			for i, bin := range []string{fioPath, gofio} {
				dir := t.TempDir()
				args := append([]string{"--name=t", "--filename=" + dev, "--size=256k", "--bs=4k", "--verify=crc32c", "--direct=1",
					"--write_iolog=" + filepath.Join(dir, "log")}, extra...)
				res[i] = runIn(bin, dir, args)
				b, err := os.ReadFile(filepath.Join(dir, "log"))
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range strings.Split(string(b), "\n") {
					// fio closes and opens the device before its verify
					// phase; the I/O is what is compared.
					if f := strings.Fields(l); len(f) >= 4 && f[2] != "open" && f[2] != "close" {
						logs[i] = append(logs[i], f[2]+" "+f[3])
					}
				}
			}
			fr, gr := res[0], res[1]
			if fr.rc != gr.rc || errValue(fr.stdout) != errValue(gr.stdout) {
				t.Errorf("exit status/err: fio %d %q, gofio %d %q\n%s", fr.rc, errValue(fr.stdout), gr.rc, errValue(gr.stdout), gr.stderr)
			}
			if fi, gi := issuedLine(fr.stdout), issuedLine(gr.stdout); fi != gi {
				t.Errorf("issued: fio %q, gofio %q", fi, gi)
			}
			if fl, gl := strings.Join(logs[0], ";"), strings.Join(logs[1], ";"); fl != gl {
				t.Errorf("I/O differs:\nfio:   %s\ngofio: %s", fl, gl)
			}
			leaked := regexp.MustCompile(`fio: \d+ trim entries leaked\?`)
			if f, g := leaked.FindAllString(fr.stderr, -1), leaked.FindAllString(gr.stderr, -1); strings.Join(f, ",") != strings.Join(g, ",") {
				t.Errorf("leak warnings: fio %q, gofio %q", f, g)
			}
		})
	}
}

// TestVerifyReplay: read_iolog with verify replays the trace's writes
// with fio's headers and reads them back as fio does (by offset, writes
// overwritten later dropped), as do random writes under norandommap
// (with verify_backlog, the blocks waiting are kept so);
// the I/O is compared in fio's --debug=io log. A job that mixes reads
// and writes (rw=randrw, a trace that also reads) checks each header's
// seed against the write of the same rank, so that reading back by
// offset fails as in fio ("bad header rand_seed").
func TestVerifyReplay(t *testing.T) {
	t.Parallel() // its runs in directories of its own
	requireFio(t)
	traces := map[string]string{
		"overwrite": "f write 8192 4096\nf write 0 4096\nf write 8192 4096\n",
		"overlap":   "f write 8192 4096\nf write 4096 8192\n",
		"inside":    "f write 0 16384\nf write 4096 4096\nf write 12288 4096\n",
		"spans":     "f write 16384 4096\nf write 0 8192\nf write 8192 8192\nf write 32768 4096\n",
		"reads":     "f write 8192 4096\nf write 0 4096\nf write 8192 4096\nf read 0 4096\nf write 4096 8192\n",
		"inorder":   "f write 0 4096\nf read 0 4096\nf write 8192 4096\n",
	}
	cases := [][]string{
		{"--rw=randwrite", "--norandommap"},
		{"--rw=randwrite", "--norandommap", "--bsrange=4k-16k"},
		{"--rw=randwrite", "--norandommap", "--verify_backlog=4"},
		{"--rw=randwrite", "--norandommap", "--verify_backlog=4", "--verify_backlog_batch=2"},
		{"--rw=randwrite", "--norandommap", "--verify_backlog=4", "--bsrange=4k-16k"},
		{"--rw=randrw", "--norandommap"},
		{"--rw=randrw", "--norandommap", "--verify_pattern=0xaa"},
		{"--rw=randrw", "--loops=2"},
		{"--rw=randrw", "--verify_backlog=4"},
	}
	for name := range traces {
		cases = append(cases, []string{"--read_iolog=" + name + ".log"})
	}
	queued := regexp.MustCompile(`queue: io_u \S+ off=(0x[0-9a-f]+),len=(0x[0-9a-f]+),ddir=(\d)`)
	for _, extra := range cases {
		t.Run(strings.Join(extra, " "), func(t *testing.T) {
			setup := func(dir string) {
				for name, body := range traces {
					log := "fio version 2 iolog\nf add\nf open\n" + body + "f close\n"
					if err := os.WriteFile(filepath.Join(dir, name+".log"), []byte(log), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			args := append([]string{"--name=v", "--filename=f", "--size=64k", "--verify=md5", "--debug=io"}, extra...)
			fr, gr, _, _ := run2(t, args, setup)
			if gr.rc != fr.rc {
				t.Fatalf("exit status: fio %d, gofio %d\n%s", fr.rc, gr.rc, gr.stderr)
			}
			fv, gv := dropPidLines(verifyLines(fr.stderr)), dropPidLines(verifyLines(gr.stderr))
			if strings.Join(fv, "\n") != strings.Join(gv, "\n") {
				t.Errorf("verify messages differ:\nfio:\n%s\ngofio:\n%s", strings.Join(fv, "\n"), strings.Join(gv, "\n"))
			}
			var ios [2]string
			for i, r := range []result{fr, gr} {
				for _, m := range queued.FindAllStringSubmatch(r.stdout+r.stderr, -1) {
					ios[i] += m[3] + ":" + m[1] + "+" + m[2] + " "
				}
			}
			if ios[0] == "" || ios[0] != ios[1] {
				t.Errorf("I/O differs:\nfio:   %s\ngofio: %s", ios[0], ios[1])
			}
			const notice = "fio: norandommap given for variable block sizes, verify limited"
			if f, g := strings.Count(fr.stderr, notice), strings.Count(gr.stderr, notice); f != g {
				t.Errorf("%q: fio %d, gofio %d", notice, f, g)
			}
		})
	}
}

// TestVerifyNotices: fio's notices about verify settings that cannot
// check everything, as often as fio prints them: a time_based job that
// only writes never reaches its verify phase (once per clone), numjobs
// clones share a named file.
func TestVerifyNotices(t *testing.T) {
	t.Parallel() // its runs in directories of its own
	requireFio(t)
	gofio := requireGofio(t)
	notices := []string{
		"fio: verification read phase will never start because write phase uses all of runtime",
		"fio: multiple writers may overwrite blocks that belong to other jobs. This can cause verification failures.",
	}
	tb := "--time_based --runtime=100ms "
	for _, a := range []string{
		tb + "--rw=randwrite",
		tb + "--rw=randwrite --numjobs=2",
		tb + "--rw=randwrite --do_verify=0",
		tb + "--rw=randrw",
		tb + "--rw=randwrite --verify_backlog=4",
		tb + "--rw=trimwrite --verify=null",
		"--rw=write --numjobs=3",
		"--rw=randrw --numjobs=2",
		"--rw=read --numjobs=2",
		"--rw=write --numjobs=2 --do_verify=0",
	} {
		t.Run(a, func(t *testing.T) {
			args := append([]string{"--name=v", "--filename=f", "--size=64k", "--bs=4k", "--verify=md5"}, strings.Fields(a)...)
			fr := runIn(fioPath, t.TempDir(), args)
			gr := runIn(gofio, t.TempDir(), args)
			for _, n := range notices {
				if f, g := strings.Count(fr.stdout, n), strings.Count(gr.stdout, n); f != g {
					t.Errorf("%q: fio %d, gofio %d", n, f, g)
				}
			}
		})
	}
}

// TestVerifyOverwritten: a block another job writes over between the
// write and the verify phase fails on its write number ("bad header
// numberio 0, wanted 2"), before any checksum, as in fio 3.33. The
// overwrite is timed (rate_iops, startdelay): when fio's run shows it
// did not land in the window, the case is skipped; gofio's report must
// then be fio's or show no failure at all.
func TestVerifyOverwritten(t *testing.T) {
	t.Parallel() // its runs in directories of its own
	requireFio(t)
	for _, engine := range []string{"psync", "libaio"} {
		t.Run(engine, func(t *testing.T) {
			args := []string{"--name=a", "--filename=f", "--size=64k", "--bs=4k", "--rw=write", "--verify=crc32c",
				"--ioengine=" + engine, "--iodepth=4", "--rate_iops=,20",
				"--name=b", "--filename=f", "--size=4k", "--offset=8192", "--bs=4k", "--rw=write", "--verify=md5",
				"--do_verify=0", "--startdelay=300ms"}
			fr, gr, _, _ := run2(t, args, nil)
			const want = "verify: bad header numberio 0, wanted 2 at file f offset 8192, length 4096 (requested block: offset=8192, length=4096)"
			if !strings.Contains(fr.stderr, want) {
				t.Skipf("the overwrite missed its window in fio's run:\n%s", fr.stderr)
			}
			if strings.Contains(gr.stderr, "verify failed") || (gr.rc != 0 && !strings.Contains(gr.stderr, want)) {
				t.Errorf("gofio (status %d):\n%s\nwant %q as fio", gr.rc, gr.stderr, want)
			}
		})
	}
}
