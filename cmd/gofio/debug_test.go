package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// debugLine is a --debug line: fio's class in 8 columns, the pid in 5,
// the message.
var debugLine = regexp.MustCompile(`^([a-z]+) +(\d+) +(.*)$`)

// runFio runs real fio with args in dir.
func runFio(t *testing.T, dir string, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(fioBinary(t), args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("fio %v: %v\n%s", args, err, errb.String())
	}
	return out.String(), errb.String()
}

// debugLines returns the --debug lines of class in out, each as
// "class message" (the pid dropped), those of messages that keep
// reports false left out. It fails the test on a line of class that
// does not have fio's layout.
func debugLines(t *testing.T, out, class string, keep func(msg string) bool) []string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, class+" ") {
			continue
		}
		m := debugLine.FindStringSubmatch(l)
		if m == nil || len(class) < 8 && l[8] != ' ' || len(m[2]) < 5 && l[9+len(m[2])] != ' ' && l[14] != ' ' {
			t.Errorf("line %q is not laid out as fio's debug lines", l)
			continue
		}
		if keep(m[3]) {
			lines = append(lines, m[1]+" "+m[3])
		}
	}
	return lines
}

// fioLines returns the lines of out that start with "fio: ".
func fioLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "fio: ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestDebugOptionVsFio compares what gofio and fio 3.33 print for
// --debug values: the "fio: ..." lines on stdout, stderr, the exit
// status.
func TestDebugOptionVsFio(t *testing.T) {
	for _, value := range []string{"help", "?", "parse", "parse,file", "all", "all,", "job:1,parse", "job", "jobs", "job:x", "bogus", "parse,?", "help,parse", "parsex", "PARSE"} {
		args := []string{"--debug=" + value, "--parse-only", "--name=x", "--ioengine=null", "--size=1m"}
		wantOut, wantErr := runFio(t, t.TempDir(), args...)
		status, out, errs := gofio(t, args...)
		if status != 0 || !slices.Equal(fioLines(out), fioLines(wantOut)) || errs != wantErr {
			t.Errorf("gofio %v = %d, %q, %q; fio printed %q, %q", args, status, fioLines(out), errs, fioLines(wantOut), wantErr)
		}
	}
}

// TestDebugParseVsFio compares gofio's --debug=parse lines with fio's:
// per option, handle_option with the canonical name and the value as
// given ("(null)" for none), __handle_option with fio's type name, the
// number read for numeric options, and the steadystate threshold lines
// t/steadystate_tests.py looks for. fio's lines about its own memory
// ("dup options", "free options") are left out.
func TestDebugParseVsFio(t *testing.T) {
	keep := func(msg string) bool {
		for _, p := range []string{"handle_option=", "__handle_option=", "  ret=", "set steady state"} {
			if strings.HasPrefix(msg, p) {
				return true
			}
		}
		return false
	}
	tests := [][]string{
		{"--name=x", "--ioengine=null", "--size=1m", "--rw=randrw", "--bs=4k", "--iodepth=4", "--direct=1", "--runtime=2", "--time_based", "--numjobs=2", "--filename=/tmp/a", "--rwmixread=70", "--thread", "--ramp_time=1s", "--verify=crc32c", "--norandommap", "--group_reporting", "--loops=2", "--fsync=0"},
		{"--ss_dur=10s", "--ss=iops:10", "--ss_ramp=5"},
		{"--ss_dur=10s", "--ss=iops:10%", "--ss_ramp=5"},
		{"--ss_dur=10s", "--ss=iops:.1%", "--ss_ramp=5"},
		{"--ss_dur=10s", "--ss=bw:10%", "--ss_ramp=5"},
		{"--ss_dur=10s", "--ss=bw:.1%", "--ss_ramp=5"},
		{"--ss_dur=10s", "--ss=bw:12", "--ss_ramp=5"},
		{"--ss=bw:1m", "--ss=iops:1k", "--ss=iops_slope:10", "--ss=bw_slope:10%", "--ss=iops:10.5", "--ss=bw:10.5"},
		{"--offset=10%", "--startdelay=2", "--thinktime=10"},
	}
	for _, opts := range tests {
		args := append([]string{"--parse-only", "--debug=parse"}, opts...)
		wantOut, _ := runFio(t, t.TempDir(), args...)
		status, out, errs := gofio(t, args...)
		got, want := debugLines(t, out, "parse", keep), debugLines(t, wantOut, "parse", keep)
		if status != 0 || errs != "" || !slices.Equal(got, want) {
			t.Errorf("gofio %v = %d, %q\n got %q\nwant %q", args, status, errs, got, want)
		}
	}
}

// TestDebugJobVsFio runs a small psync job under --debug=process,file,io
// with gofio and fio and compares the lines about its I/O: one queue and
// one complete line per I/O with fio's offset, length, direction and
// file, the file's open and close, the job thread's start. The lines of
// two jobs interleave and are compared as sets. fio's
// io_u addresses differ from gofio's and are left out. With job:1 only
// the second job's lines are printed, by both, unless the jobs are
// threads.
func TestDebugJobVsFio(t *testing.T) {
	unit := regexp.MustCompile(`io_u 0x[0-9a-f]+: `)
	keep := func(msg string) bool {
		return strings.HasPrefix(msg, "queue: ") || strings.HasPrefix(msg, "complete: ") ||
			strings.HasPrefix(msg, "fd open ") || strings.HasPrefix(msg, "fd close ") || strings.HasPrefix(msg, "jobs pid=")
	}
	for _, tt := range []struct{ debug, jobs string }{
		{"process,file,io", "--thread --name=a --rw=randwrite --bs=4k --size=16k"},
		{"io,file,job:1", "--name=a --size=8k --name=b --size=8k --rw=write"},
		// fio 3.33 prints every thread's lines whatever job:N says.
		{"io,file,job:1", "--thread --name=a --size=8k --name=b --size=8k --rw=write"},
	} {
		fioDir, goDir := t.TempDir(), t.TempDir()
		// --directory before the jobs, for all of them.
		args := []string{"--debug=" + tt.debug, "--ioengine=psync"}
		jobs := strings.Fields(tt.jobs)
		wantOut, _ := runFio(t, fioDir, slices.Concat(args, []string{"--directory=" + fioDir}, jobs)...)
		status, out, errs := gofio(t, slices.Concat(args, []string{"--directory=" + goDir}, jobs)...)
		if status != 0 {
			t.Fatalf("gofio %v = %d, %q", args, status, errs)
		}
		norm := func(lines []string, dir string) []string {
			for i, l := range lines {
				l = strings.ReplaceAll(unit.ReplaceAllString(l, "io_u UNIT: "), dir+"/", "")
				if strings.HasPrefix(l, "process jobs pid=") {
					l = "process jobs pid=N started"
				}
				lines[i] = l
			}
			return lines
		}
		var got, want []string
		for _, c := range []string{"process", "file", "io"} {
			got = append(got, norm(debugLines(t, out, c, keep), goDir)...)
			want = append(want, norm(debugLines(t, wantOut, c, keep), fioDir)...)
		}
		// The jobs' lines interleave as their threads run: compare them
		// as sets.
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("gofio %v:\n got %q\nwant %q", args, got, want)
		}
	}
}

// TestDebugJobFileVsFio compares the --debug=parse lines of a job file:
// the file's and each section's "Parsing" line, then its options as
// TestDebugParseVsFio compares them.
func TestDebugJobFileVsFio(t *testing.T) {
	dir := t.TempDir()
	job := filepath.Join(dir, "j.fio")
	if err := os.WriteFile(job, []byte("[global]\nioengine=null\nbs=8k\n[x]\nsize=1m\nss=iops:5%\n[y]\nrw=randwrite\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	keep := func(msg string) bool {
		for _, p := range []string{"Parsing ", "handle_option=", "__handle_option=", "  ret=", "set steady state"} {
			if strings.HasPrefix(msg, p) {
				return true
			}
		}
		return false
	}
	args := []string{"--parse-only", "--debug=parse", job}
	wantOut, _ := runFio(t, dir, args...)
	status, out, errs := gofio(t, args...)
	got, want := debugLines(t, out, "parse", keep), debugLines(t, wantOut, "parse", keep)
	if status != 0 || errs != "" || !slices.Equal(got, want) {
		t.Errorf("gofio %v = %d, %q\n got %q\nwant %q", args, status, errs, got, want)
	}
}
