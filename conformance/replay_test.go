package conformance

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// replayRun runs fio and gofio, each in a scratch directory prepared by
// setup (called with the directory), and returns their results and what
// read reads from each directory after the run.
func replayRun(t *testing.T, a []string, setup func(dir string), read func(dir string) string) (fio, gof result, fioOut, gofOut string) {
	t.Helper()
	requireFio(t)
	bin := requireGofio(t)
	base := t.TempDir()
	fd, gd := filepath.Join(base, "fio"), filepath.Join(base, "gofio")
	for _, d := range []string{fd, gd} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if setup != nil {
			setup(d)
		}
	}
	fio, gof = runPair(base, bin, func(b, dir string) result { return runIn(b, dir, a) })
	if read != nil {
		fioOut, gofOut = read(fd), read(gd)
	}
	t.Logf("args: %q", a)
	return fio, gof, fioOut, gofOut
}

// traceBody returns the trace at dir/name without timestamps, with dir
// replaced by {DIR}.
func traceBody(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	var out []string
	for _, l := range lines(string(b)) {
		l = strings.ReplaceAll(l, dir, "{DIR}")
		if f := strings.Fields(l); len(f) > 2 && l != "fio version 3 iolog" {
			l = strings.Join(f[1:], " ") // drop the timestamp
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestWriteIolog compares the traces fio and gofio write for jobs whose
// I/O order does not depend on random numbers.
func TestWriteIolog(t *testing.T) {
	t.Parallel()
	jobs := []string{
		"--name=w --filename=data --size=32k --bs=4k --rw=write --fsync=2",
		"--name=d --filename=data --size=16k --bs=4k --rw=write --fdatasync=1 --end_fsync=1",
		"--name=s --filename=data --size=16k --bs=4k --rw=write --sync_file_range=write:2",
		"--name=l --filename=data --size=16k --bs=4k --rw=read --loops=2",
		"--name=o --nrfiles=3 --size=48k --bs=8k --rw=write --openfiles=1",
		"--name=t --filename=data --size=32k --bs=4k --rw=trimwrite --ioengine=null",
		"--name=a --filename=data --size=64k --bs=4k --rw=write --ioengine=libaio --iodepth=4",
		// Used-up files close when the file picker passes over them,
		// and end_fsync opens a closed file again for its sync.
		"--name=fs --nrfiles=3 --size=24k --bs=4k --rw=write --file_service_type=sequential",
		"--name=fr --nrfiles=3 --size=24k --bs=4k --rw=write --file_service_type=random --end_fsync=1",
		"--name=fo --nrfiles=3 --size=24k --bs=4k --rw=write --file_service_type=sequential --openfiles=1 --end_fsync=1",
		"--name=fv --nrfiles=3 --size=24k --bs=4k --rw=write --openfiles=2 --end_fsync=1 --verify=crc32c",
		// end_fsync and fsync_on_close sync at every loop's end.
		"--name=el --nrfiles=2 --size=16k --bs=4k --rw=write --end_fsync=1 --loops=2",
		"--name=cl --filename=data --size=16k --bs=4k --rw=randwrite --fsync_on_close=1 --loops=2",
	}
	for _, job := range jobs {
		t.Run(strings.Fields(job)[0], func(t *testing.T) {
			a := append(args(job), "--write_iolog=trace.log", "--output-format=json")
			fr, gr, ft, gt := replayRun(t, a, nil, func(dir string) string { return traceBody(dir, "trace.log") })
			if fr.rc != 0 || gr.rc != 0 {
				t.Fatalf("exit status: fio %d, gofio %d\nfio stderr:\n%s\ngofio stderr:\n%s", fr.rc, gr.rc, fr.stderr, gr.stderr)
			}
			if ft != gt {
				t.Errorf("traces differ:\nfio:\n%s\ngofio:\n%s", ft, gt)
			}
		})
	}
}

// TestWriteIologVerify compares the traces of verifying jobs, and their
// exit status: which blocks are read back, in what order (write order
// with the random map, else by file and offset, a rewritten block once),
// the files' close and open between the workload and the reads, and how
// many loops run when io_size counts the reads.
// The verify_only cases check files fio wrote first; their skipped I/Os
// are not logged, and their counts are compared as well.
func TestWriteIologVerify(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, job string
		only      bool
	}{
		{"write", "--rw=write", false},
		{"write two files", "--rw=write --nrfiles=2", false},
		{"randwrite two files", "--rw=randwrite --nrfiles=2", false},
		{"randwrite lfsr", "--rw=randwrite --random_generator=lfsr", false},
		{"randwrite norandommap", "--rw=randwrite --norandommap", false},
		{"randwrite zipf", "--rw=randwrite --random_distribution=zipf:1.2", false},
		{"strided zones rewritten", "--rw=write --zonemode=strided --zonesize=4k --zoneskip=4k --size=32k", false},
		{"randwrite loops=2", "--rw=randwrite --loops=2", false},
		{"rw", "--rw=rw", false},
		{"backlog", "--rw=write --verify_backlog=2", false},
		{"backlog loops=2", "--rw=write --verify_backlog=2 --loops=2", false},
		{"backlog libaio", "--rw=randwrite --verify_backlog=2 --ioengine=libaio --iodepth=4", false},
		{"backlog two files", "--rw=write --verify_backlog=2 --nrfiles=2", false},
		{"io_size 24k", "--rw=write --io_size=24k", false},
		{"io_size 48k", "--rw=write --io_size=48k", false},
		{"io_size 40k loops=2", "--rw=write --io_size=40k --loops=2", false},
		{"verify_only write", "--rw=write", true},
		{"verify_only rw", "--rw=rw", true},
		{"verify_only randrw two files", "--rw=randrw --nrfiles=2", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			job := append([]string{"--name=v", "--size=16k", "--bs=4k", "--verify=crc32c"}, args(c.job)...)
			var setup func(string)
			a := append(job, "--write_iolog=trace.log", "--output-format=json")
			if c.only {
				setup = func(dir string) {
					if r := runIn(fioPath, dir, job); r.rc != 0 {
						t.Fatalf("writing with fio: exit %d: %s", r.rc, r.stderr)
					}
				}
				a = append(a, "--verify_only")
			}
			fr, gr, ft, gt := replayRun(t, a, setup, func(dir string) string { return traceBody(dir, "trace.log") })
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d\nfio stderr:\n%s\ngofio stderr:\n%s", fr.rc, gr.rc, fr.stderr, gr.stderr)
			}
			if ft != gt {
				t.Errorf("traces differ:\nfio:\n%s\ngofio:\n%s", ft, gt)
			}
			if c.only {
				fc, ferr := ioTotals(fr.stdout)
				gc, gerr := ioTotals(gr.stdout)
				if ferr != nil || gerr != nil || !slices.Equal(fc, gc) {
					t.Errorf("I/O counts: fio %v (%v), gofio %v (%v)", fc, ferr, gc, gerr)
				}
			}
		})
	}
}

// replayTrace is a v2 trace of two files with every action; {DIR} is the
// scratch directory.
const replayTrace = `fio version 2 iolog
{DIR}/a add
{DIR}/b add
{DIR}/a open
{DIR}/b open
{DIR}/a read 0 4096
{DIR}/b write 8192 8192
{DIR}/a write 4096 4096
{DIR}/a sync 0 0
{DIR}/b read 0 16384
{DIR}/b datasync 0 0
{DIR}/a read 12288 2048
{DIR}/b close
{DIR}/a close
`

// replayTraceV3 is a v3 trace spanning 20 ms, with bad lines fio reports.
const replayTraceV3 = `fio version 3 iolog
10 {DIR}/a add
300 {DIR}/a open
310 {DIR}/a read 0 4096
5000 {DIR}/a write 4096 4096
junk
7000 {DIR}/a frob
8000 {DIR}/a wait 10 0
{DIR}/a read 0 4096
12000 {DIR}/a read 8192 4096
20000 {DIR}/a write 12288 8192
20100 {DIR}/a close
`

// TestReplay compares replays of fixed traces: the issued I/O, per
// direction, the syncs, the errors and fio's messages.
func TestReplay(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, trace, opts string
	}{
		{"v2 two files", replayTrace, "--replay_no_stall=1"},
		{"v2 chunked", replayTrace, "--replay_no_stall=1 --read_iolog_chunked=1"},
		{"v2 redirect", replayTrace, "--replay_no_stall=1 --replay_redirect={DIR}/a"},
		{"v2 scale and align", replayTrace, "--replay_no_stall=1 --replay_scale=2 --replay_align=4096"},
		{"v2 skip (no effect on iologs)", replayTrace, "--replay_no_stall=1 --replay_skip=write,sync"},
		{"v3 timed, bad lines", replayTraceV3, ""},
		{"v3 time scale", replayTraceV3, "--replay_time_scale=200"},
		{"write_iolog overridden", replayTrace, "--replay_no_stall=1 --write_iolog=out.log"},
		{"readonly drops writes and trims", replayTrace + "{DIR}/a trim 0 4096\n", "--readonly --replay_no_stall=1"},
		{"syncs only", "fio version 2 iolog\n{DIR}/a add\n{DIR}/a open\n{DIR}/a sync 0 0\n{DIR}/a close\n", ""},
		{"no I/O", "fio version 2 iolog\n{DIR}/a add\n{DIR}/a read 0\n", ""},
		{"not a trace", "fio version 1 iolog\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setup := func(dir string) {
				trace := strings.ReplaceAll(c.trace, "{DIR}", dir)
				must(t, os.WriteFile(filepath.Join(dir, "trace"), []byte(trace), 0o644))
				for _, f := range []string{"a", "b"} {
					must(t, os.WriteFile(filepath.Join(dir, f), make([]byte, 64<<10), 0o644))
				}
			}
			a := append([]string{"--name=r", "--read_iolog=trace", "--output-format=json"}, args(c.opts)...)
			for i := range a {
				a[i] = strings.ReplaceAll(a[i], "{DIR}", ".")
			}
			fr, gr, fo, gofOut := replayRun(t, a, setup, func(dir string) string {
				_, err := os.Stat(filepath.Join(dir, "out.log"))
				return strings.ReplaceAll(existence(err), dir, "{DIR}")
			})
			if fr.rc != gr.rc {
				t.Fatalf("exit status: fio %d, gofio %d\nfio stderr:\n%s\ngofio stderr:\n%s", fr.rc, gr.rc, fr.stderr, gr.stderr)
			}
			if fo != gofOut {
				t.Errorf("write_iolog: fio %s, gofio %s", fo, gofOut)
			}
			if fm, gm := replayMessages(fr), replayMessages(gr); !reflect.DeepEqual(fm, gm) {
				t.Errorf("messages:\nfio   %q\ngofio %q", fm, gm)
			}
			if fr.rc != 0 {
				return
			}
			fj, gj := replayJSON(t, fr.stdout), replayJSON(t, gr.stdout)
			if !reflect.DeepEqual(fj, gj) {
				t.Errorf("JSON differs:\nfio   %q\ngofio %q", fj, gj)
			}
		})
	}
}

// existence says whether a file was found.
func existence(err error) string {
	if err != nil {
		return "no file"
	}
	return "file"
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// replayMessages are the stderr lines of a replay, without fio's
// failure line.
func replayMessages(r result) []string {
	var out []string
	for _, l := range lines(strings.ReplaceAll(r.stderr, r.dir, "{DIR}")) {
		if strings.HasPrefix(l, "fio: pid=") {
			continue // fio prints it on stdout, gofio on stderr
		}
		out = append(out, l)
	}
	return out
}

// replayJSON is what must match in a replay's JSON report.
func replayJSON(t *testing.T, out string) []string {
	t.Helper()
	root, err := ParseJSON([]byte(out))
	if err != nil {
		t.Fatalf("JSON: %v\n%s", err, head(out))
	}
	v := DeterministicJSON(root, IOPerDir)
	for i, j := range root.Get("jobs").Kids {
		for _, d := range []string{"read", "write", "trim"} {
			v = append(v, d+"/short_ios="+text(j.Get(d, "short_ios")), d+"/drop_ios="+text(j.Get(d, "drop_ios")))
		}
		v = append(v, "sync/total_ios="+text(j.Get("sync", "total_ios")), "job "+string(rune('0'+i)))
	}
	return v
}
