package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofio/gofio/parser"
)

// runIn runs program with args in dir and returns its exit status and
// output.
func runIn(t *testing.T, program, dir string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	status, stdout, stderr, err := runInErr(program, dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return status, stdout, stderr
}

// runInErr is runIn for any goroutine: a program that could not be run
// is an error.
func runInErr(program, dir string, args ...string) (status int, stdout, stderr string, err error) {
	cmd := exec.Command(program, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String(), nil
	} else if err != nil {
		return 0, "", "", fmt.Errorf("%s %v: %v", program, args, err)
	}
	return 0, out.String(), errb.String(), nil
}

// TestProfileTiobenchParseVsFio compares the options --profile=tiobench
// generates with fio 3.33's, as --debug=parse shows them with
// --parse-only: every option, its value, fio's type name and the number
// read (the size is 4 KiB per MiB of this machine's memory). fio's lines
// about its own memory ("dup options", "free options") are left out.
func TestProfileTiobenchParseVsFio(t *testing.T) {
	keep := func(msg string) bool { return msg != "dup options" && msg != "free options" }
	args := []string{"--profile=tiobench", "--parse-only", "--debug=parse"}
	wantOut, _ := runFio(t, t.TempDir(), args...)
	status, out, errs := gofio(t, args...)
	got, want := debugLines(t, out, "parse", keep), debugLines(t, wantOut, "parse", keep)
	if status != 0 || errs != "" || len(want) < 40 || !slices.Equal(got, want) {
		t.Errorf("gofio %v = %d, %q\n got %q\nwant %q", args, status, errs, got, want)
	}
}

// reportShape masks the numbers that differ between runs in the lines
// of a normal report that name a job or a phase: the job lines, the
// Starting line, the title lines (pid, date), ACT's table.
var (
	shapeTitle  = regexp.MustCompile(`pid=\d+: .*$`)
	shapeNumber = regexp.MustCompile(`\d+\.\d\d`)
)

func reportShape(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, " ") && !strings.HasPrefix(l, " slice") && !strings.HasPrefix(l, " -----") && !strings.HasPrefix(l, "    1\t") && !strings.HasPrefix(l, "        ") {
			continue // the statistics
		}
		if strings.HasPrefix(l, "Run status") || strings.HasPrefix(l, "Disk stats") || strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "    1\t") && !strings.HasPrefix(l, "        ") {
			continue
		}
		l = shapeTitle.ReplaceAllString(l, "pid=N: DATE")
		l = shapeNumber.ReplaceAllString(l, "N.NN")
		lines = append(lines, l)
	}
	return lines
}

// TestProfileActVsFio runs --profile=act for a second on a 64 MiB file
// with fio 3.33 and gofio and compares the job lines (a read job of 8
// threads at 250 IOPS of 1536 bytes and a write job of 128 KiB blocks at
// 12 IOPS), the Starting line (no version line), ACT's latency table and
// verdict (values masked), and the report's title line.
func TestProfileActVsFio(t *testing.T) {
	dir := t.TempDir()
	dev := filepath.Join(dir, "act.img")
	if err := os.WriteFile(dev, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(dev, 64<<20); err != nil {
		t.Fatal(err)
	}
	// fio 3.33 overflows a buffer (and aborts) on a long device path:
	// the file is named relative to the working directory.
	args := []string{"--profile=act", "--device-names=act.img", "--test-duration=1"}
	fs, fout, ferr := runIn(t, fioBinary(t), dir, args...)
	gs, gout, gerr := runIn(t, gofioBinary(t), dir, args...)
	// On a loaded machine a run may miss ACT's criteria: the verdict
	// word is the machine's.
	verdict := strings.NewReplacer("FAILED", "VERDICT", "PASSED", "VERDICT")
	got, want := reportShape(verdict.Replace(gout)), reportShape(verdict.Replace(fout))
	if gs != fs || gerr != ferr || !slices.Equal(got, want) {
		t.Errorf("gofio %v = %d, %q\n got %q\nwant %q (status %d, stderr %q)", args, gs, gerr, got, want, fs, ferr)
	}
}

// TestProfileTiobenchRunVsFio runs --profile=tiobench as fio 3.33 runs
// it (its options have no effect in fio: 4 files of 1 KiB per MiB of
// memory in the working directory) with both programs and compares the
// job lines, the Starting and layout lines and the report's title lines.
func TestProfileTiobenchRunVsFio(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads 4 KiB per MiB of memory four times")
	}
	if mb := parser.HostKeywords().MBMemory; mb > 64<<10 {
		t.Skipf("the profile's files would take %d MiB (4 KiB per MiB of memory): over 256 MiB", 4*mb>>10)
	}
	args := []string{"--profile=tiobench"}
	// Side by side, each in a directory of its own (go test's time).
	fio, fdir := fioBinary(t), t.TempDir()
	var fs int
	var fout, ferr string
	var fioErr error
	done := make(chan struct{})
	go func() { defer close(done); fs, fout, ferr, fioErr = runInErr(fio, fdir, args...) }()
	gs, gout, gerr := runIn(t, gofioBinary(t), t.TempDir(), args...)
	<-done
	if fioErr != nil {
		t.Fatal(fioErr)
	}
	got, want := reportShape(gout), reportShape(fout)
	if gs != fs || gerr != ferr || !slices.Equal(got, want) {
		t.Errorf("gofio %v = %d, %q\n got %q\nwant %q (status %d, stderr %q)", args, gs, gerr, got, want, fs, ferr)
	}
}

// TestProfileTiobenchOptions checks that gofio honours tiobench's own
// options, which fio 3.33 ignores (docs/compat.md).
func TestProfileTiobenchOptions(t *testing.T) {
	status, out, errs := gofio(t, "--profile=tiobench", "--parse-only", "--debug=parse", "--size=8", "--block=8192", "--numruns=2", "--dir=/nonexistent/x", "--threads=3")
	for _, want := range []string{"handle_option=size, ptr=8388608", "handle_option=bs, ptr=8192", "handle_option=loops, ptr=2", "handle_option=directory, ptr=/nonexistent/x", "handle_option=numjobs, ptr=3"} {
		if !strings.Contains(out, want) {
			t.Errorf("gofio --profile=tiobench with options = %d, %q: no %q in\n%s", status, errs, want, out)
		}
	}
}

// TestProfileActSlices checks that ACT's table has one row per slice of
// test-duration (an hour in fio; shortened here to 500 ms for a 2 s
// run: ceil(2/0.5) = 4 rows at most). On a loaded machine the jobs may
// start late, so at least 2 rows are required, not exactly 4.
func TestProfileActSlices(t *testing.T) {
	defer func(d time.Duration) { actSlice = d }(actSlice)
	actSlice = 500 * time.Millisecond
	dev := filepath.Join(t.TempDir(), "act.img")
	if err := os.WriteFile(dev, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(dev, 16<<20); err != nil {
		t.Fatal(err)
	}
	status, out, errs := gofio(t, "--profile=act", "--device-names="+dev, "--test-duration=2")
	row := regexp.MustCompile(`(?m)^ +(\d+)(\t\d+\.\d\d){6}$`)
	rows := row.FindAllStringSubmatch(out, -1)
	if status != 0 || len(rows) < 2 || len(rows) > 4 || !strings.Contains(out, "act: test complete, device(s): ") {
		t.Fatalf("gofio = %d, %q, %d rows:\n%s", status, errs, len(rows), out)
	}
	for i, r := range rows {
		if r[1] != strconv.Itoa(i+1) {
			t.Errorf("row %d is numbered %s", i+1, r[1])
		}
	}
}
