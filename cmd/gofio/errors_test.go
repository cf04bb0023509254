package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/conformance"
)

// mountTmpfs mounts a tmpfs of size (e.g. "1m") on a new directory,
// unmounted at the end of the test. It skips the test where mounting is
// not possible.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: mounting a small tmpfs to fill needs root")
	}
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("skipping: cannot mount a tmpfs on %s: %v", dir, err)
	}
	t.Cleanup(func() { unix.Unmount(dir, 0) })
	return dir
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names
}

// reportSkeleton masks a normal-format stdout for comparison: the
// messages before the report (pids, fio's source file names), then the
// report's numbers.
func reportSkeleton(out string) []string {
	return conformance.DropSampleLines(conformance.MaskNormal(normalizeMessages(out)))
}

// TestFullFileSystem fills a 1 MiB tmpfs with a 4 MiB write job: fio's
// error on stderr, its pid line and report on stdout, exit status 1, and
// nothing written but the job's file.
func TestFullFileSystem(t *testing.T) {
	fioDir, gofioDir := mountTmpfs(t, "1m"), mountTmpfs(t, "1m")
	fioCwd, gofioCwd := t.TempDir(), t.TempDir()
	run := func(bin string) result {
		dir, cwd := gofioDir, gofioCwd
		if strings.HasSuffix(bin, "/fio") {
			dir, cwd = fioDir, fioCwd
		}
		// The unit changes the device, the path the file name: mask both.
		r := runUntil(t, cwd, bin, "", 0, func(*os.Process) {}, "--name=w", "--rw=write", "--size=4m", "--bs=4k", "--filename="+filepath.Join(dir, "f"))
		r.stdout = strings.ReplaceAll(r.stdout, dir, "DIR")
		r.stderr = strings.ReplaceAll(r.stderr, dir, "DIR")
		return r
	}
	gofio, fio := both(t, run)
	if gofio.status != fio.status || gofio.status != 1 {
		t.Errorf("exit status gofio %d, fio %d; want 1", gofio.status, fio.status)
	}
	const ioErr = "fio: io_u error on file DIR/f: No space left on device: write offset=1048576, buflen=4096\n"
	if gofio.stderr != ioErr || fio.stderr != ioErr {
		t.Errorf("stderr:\ngofio %q\nfio   %q\nwant  %q", gofio.stderr, fio.stderr, ioErr)
	}
	const pidLine = "fio: pid=#, err=28/file:#, func=io_u error, error=No space left on device"
	if !strings.Contains(normalizeMessages(gofio.stdout), pidLine) {
		t.Errorf("gofio's stdout lacks %q:\n%s", pidLine, gofio.stdout)
	}
	if diff := lineDiff(reportSkeleton(gofio.stdout), reportSkeleton(fio.stdout)); diff != "" {
		t.Errorf("report skeletons differ (gofio, fio):\n%s", diff)
	}
	for _, d := range []struct {
		dir  string
		want string
	}{{gofioDir, "f"}, {gofioCwd, ""}} {
		if got := strings.Join(entries(t, d.dir), " "); got != d.want {
			t.Errorf("%s holds %q after the run; want %q", d.dir, got, d.want)
		}
	}
}

// TestFileShrinksMidRun truncates the file a time_based read job reads:
// the next read moves nothing, which fio reports as an I/O error of its
// own ("full resid", EIO) that ends the job.
func TestFileShrinksMidRun(t *testing.T) {
	// In memory where possible: laying the file out on a busy disk could
	// take longer than the wait before the truncation.
	dir := t.TempDir()
	if d, err := os.MkdirTemp("/dev/shm", "gofio-test-"); err == nil {
		dir = d
		t.Cleanup(func() { os.RemoveAll(d) })
	}
	run := func(bin string) result {
		name := filepath.Join(dir, filepath.Base(bin)+".dat")
		// Truncate once the job reads the file (fio's job process has
		// it open read-only; the layout opened it for writing) and has
		// read it through a few times (8 MiB).
		r := runWhen(t, dir, bin, until{reads: name, read: 8 << 20}, 0, func(*os.Process) {
			if err := os.Truncate(name, 0); err != nil {
				t.Error(err)
			}
		}, "--name=r", "--rw=read", "--size=1m", "--time_based", "--runtime=20", "--filename="+name)
		r.stdout = strings.ReplaceAll(r.stdout, name, "FILE")
		return r
	}
	gofio, fio := both(t, run)
	if gofio.status != fio.status || gofio.status != 1 {
		t.Errorf("exit status gofio %d, fio %d; want 1", gofio.status, fio.status)
	}
	if gofio.took > time.Second {
		t.Errorf("gofio took %v to end after the truncation", gofio.took)
	}
	const pidLine = "fio: pid=#, err=5/file:#, func=full resid, error=Input/output error"
	for _, r := range []result{gofio, fio} {
		if !strings.Contains(normalizeMessages(r.stdout), pidLine) {
			t.Errorf("stdout lacks %q:\n%s", pidLine, r.stdout)
		}
	}
	if gofio.stderr != fio.stderr {
		t.Errorf("stderr: gofio %q, fio %q", gofio.stderr, fio.stderr)
	}
	if diff := lineDiff(reportSkeleton(gofio.stdout), reportSkeleton(fio.stdout)); diff != "" {
		t.Errorf("report skeletons differ (gofio, fio):\n%s", diff)
	}
}

// terseReadRE picks a terse line's job name and read KiB.
var terseReadRE = regexp.MustCompile(`^3;fio-3\.33;([^;]*);\d+;\d+;(\d+);`)

// TestExitAll: a job with exitall ends the other jobs of its group; with
// exit_what=all later jobs start stopped and report nothing done.
func TestExitAll(t *testing.T) {
	tests := []struct {
		what string
		want string // per job, "name:moved" where moved says whether it did I/O
	}{
		// The 30 s job stops with the 16 MiB one; the next group runs.
		{"group", "a:yes b:any c:yes"},
		// Every job stops; the job behind the stonewall does nothing.
		{"all", "a:yes b:any c:no"},
	}
	for _, tt := range tests {
		start := time.Now()
		status, out, errs := gofio(t, "--output-format=terse",
			"--name=a", "--ioengine=null", "--size=16m", "--exitall", "--exit_what="+tt.what,
			"--name=b", "--ioengine=null", "--size=1t", "--time_based", "--runtime=30",
			"--name=c", "--stonewall", "--ioengine=null", "--size=16m")
		if took := time.Since(start); status != 0 || errs != "" || took > 10*time.Second {
			t.Fatalf("exit_what=%s: status %d, stderr %q, took %v", tt.what, status, errs, took)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			m := terseReadRE.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("exit_what=%s: not a terse line: %q", tt.what, l)
			}
			moved := "yes"
			if m[2] == "0" {
				moved = "no"
			}
			if m[1] == "b" {
				moved = "any" // whether b did I/O before a ended is timing
			}
			got = append(got, m[1]+":"+moved)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("exit_what=%s: jobs %q; want %q", tt.what, g, tt.want)
		}
	}
}

// TestContinueOnError checks which errors a job survives, on a full
// tmpfs: ENOSPC is fatal whatever continue_on_error says, but an error of
// a covered direction is counted.
func TestContinueOnError(t *testing.T) {
	dir := mountTmpfs(t, "256k")
	tests := []struct {
		mode string
		want string // the errors line of the report; "" for none
	}{
		{"none", ""}, // no errors line
		{"write", "errors    : total=1, first_error=28/<No space left on device>"}, // counted, still fatal
		{"read", "errors    : total=0, first_error=0/<Success>"},                   // not a read error
		{"1", "errors    : total=1, first_error=28/<No space left on device>"},     // 1 is all
	}
	for _, tt := range tests {
		name := filepath.Join(dir, "f")
		os.Remove(name)
		status, out, errs := gofio(t, "--name=w", "--rw=write", "--size=1m", "--filename="+name, "--continue_on_error="+tt.mode)
		if status != 1 || !strings.Contains(errs, "No space left on device: write offset=262144, buflen=4096") {
			t.Errorf("continue_on_error=%s: status %d, stderr %q; want 1 and the ENOSPC error", tt.mode, status, errs)
		}
		has := strings.Contains(out, "errors    :")
		if (tt.want == "") == has || (tt.want != "" && !strings.Contains(out, tt.want)) {
			t.Errorf("continue_on_error=%s: report without %q:\n%s", tt.mode, tt.want, out)
		}
	}
}
