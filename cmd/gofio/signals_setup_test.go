package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// setupStopTolerance bounds how long gofio may take to end after SIGTERM
// in these tests. On an idle machine it ends within a second (fio too);
// the tests run beside others on a loaded 2-core machine, where starting
// the report, unlinking a file with dirty pages or reaping the I/Os in
// flight can take a few scheduler rounds, so they allow 5 s. Before the
// job's buffers were filled lazily and the layout polled the stop
// channel, gofio took far longer: it laid out every file and filled
// 1 GiB per job byte by byte first.
const setupStopTolerance = 5 * time.Second

// TestSignalDuringLayout sends SIGTERM as soon as gofio starts laying
// out the first of four files: like fio, it stops the layout at once,
// removes the partly written file, starts no job, and exits 128 with an
// empty group report.
func TestSignalDuringLayout(t *testing.T) {
	args := []string{"--name=lay", "--ioengine=psync", "--rw=read", "--bs=1M", "--filesize=64M", "--numjobs=4", "--time_based", "--runtime=60"}
	gdir, fdir := t.TempDir(), t.TempDir()
	fioBin := fioBinary(t)
	gofio, fio := both(t, func(bin string) result {
		dir := gdir
		if bin == fioBin {
			dir = fdir
		}
		return runUntil(t, dir, bin, "Laying out IO file", 0, func(p *os.Process) { p.Signal(syscall.SIGTERM) }, args...)
	})
	if gofio.took > setupStopTolerance {
		t.Errorf("gofio took %v to end after SIGTERM during the layout; want under %v", gofio.took, setupStopTolerance)
	}
	if gofio.status != 128 || fio.status != 128 {
		t.Errorf("exit status gofio %d, fio %d; want 128", gofio.status, fio.status)
	}
	if g, f := withoutLayoutLines(gofio.stdout), withoutLayoutLines(fio.stdout); g != f {
		t.Errorf("stdout (without the layout lines) differs:\ngofio:\n%s\nfio:\n%s", g, f)
	}
	// The file being laid out is removed; at most the one before it (the
	// signal came just after its layout) is complete.
	var complete int
	for i := range 4 {
		st, err := os.Stat(filepath.Join(gdir, fmt.Sprintf("lay.%d.0", i)))
		switch {
		case err != nil:
		case st.Size() == 64<<20:
			complete++
		default:
			t.Errorf("gofio left a partly laid out file of %d bytes", st.Size())
		}
	}
	if complete > 1 {
		t.Errorf("gofio laid out %d files after SIGTERM during the first; want at most 1", complete)
	}
}

// withoutLayoutLines drops the "Laying out IO file" lines (fio names the
// layouts after the signal too, at its own pace) and the signal message,
// which both print wherever the signal came.
func withoutLayoutLines(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "Laying out IO file") || strings.HasPrefix(l, "fio: terminating on signal") || l == "" {
			continue
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// TestSignalDeepQueue stops eight read jobs of iodepth 1024 × 1 MiB (the
// tester's seed command, smaller files) early in their run: they must
// end as promptly as fio's, which neither fill a read job's buffers nor
// keep submitting a deep queue once a signal came.
func TestSignalDeepQueue(t *testing.T) {
	args := []string{"--name=qd", "--ioengine=libaio", "--direct=1", "--bs=1M", "--iodepth=1024", "--filesize=8M", "--numjobs=8",
		"--rw=read", "--time_based", "--runtime=60", "--group_reporting"}
	gofio, fio := both(t, func(bin string) result {
		return runUntil(t, t.TempDir(), bin, "Starting 8 processes", 500*time.Millisecond, func(p *os.Process) { p.Signal(syscall.SIGTERM) }, args...)
	})
	if gofio.took > setupStopTolerance {
		t.Errorf("gofio took %v to end after SIGTERM; want under %v (fio: %v)", gofio.took, setupStopTolerance, fio.took)
	}
	if gofio.status != 128 || fio.status != 128 {
		t.Errorf("exit status gofio %d, fio %d; want 128", gofio.status, fio.status)
	}
	if !strings.Contains(gofio.stdout, "Run status group 0 (all jobs):") {
		t.Errorf("gofio printed no report:\n%s", gofio.stdout)
	}
}
