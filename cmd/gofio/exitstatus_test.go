package main

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/runner"
)

// TestExitStatusDetailed: with --exit-status=detailed the status says
// what failed; without it the status stays fio's 0 or 1.
func TestExitStatusDetailed(t *testing.T) {
	dir := t.TempDir()
	zeros := filepath.Join(dir, "zeros")
	if err := os.WriteFile(zeros, make([]byte, 64<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	misread := filepath.Join(dir, "m.fio")
	os.WriteFile(misread, []byte("[m]\nsize=1.5m\n"), 0o644)
	job := []string{"--output-format=json", "--name=x", "--size=64k", "--bs=4k"}
	tests := []struct {
		name      string
		args      []string
		fio, want int
	}{
		{"ok", []string{"--filename=" + zeros, "--rw=read"}, 0, 0},
		{"bad value", []string{"--rw=bogus"}, 1, exitUsage},
		{"unknown option", []string{"--nosuchoption=1"}, 1, exitUsage},
		{"lint", []string{"--lint", misread}, 1, exitUsage},
		{"metrics address", []string{"--metrics=127.0.0.1:99999", "--filename=" + zeros, "--rw=read"}, 1, exitUsage},
		// /dev/full refuses writes: ENOSPC.
		{"I/O error", []string{"--filename=/dev/full", "--rw=write"}, 1, exitIOError},
		// A file of zeros has no verify headers.
		{"verify", []string{"--filename=" + zeros, "--rw=read", "--verify=crc32c"}, 1, exitVerify},
		// Any completion takes longer than 1 µs.
		{"max_latency", []string{"--filename=" + zeros, "--rw=read", "--max_latency=1ns"}, 1, exitTargetMissed},
		// 20 IOPS at most against a minimum of 1000: fails after 2.1 s.
		{"rate_iops_min", []string{"--filename=" + zeros, "--rw=read", "--thinktime=50ms", "--rate_iops_min=1000", "--rate_cycle=100", "--time_based", "--runtime=30"}, 1, exitTargetMissed},
	}
	for _, tt := range tests {
		args := append(append([]string{}, job...), tt.args...)
		for _, detailed := range []bool{false, true} {
			a, want := args, tt.fio
			if detailed {
				a, want = append([]string{"--exit-status=detailed"}, args...), tt.want
			}
			var out, errb bytes.Buffer
			if got := run(a, nil, &out, &errb); got != want {
				t.Errorf("%s (detailed %v): exit %d, want %d; stderr:\n%s", tt.name, detailed, got, want, errb.String())
			}
		}
	}
}

// TestExitStatusSeverity: of several failures the most serious decides.
func TestExitStatusSeverity(t *testing.T) {
	rate := runner.JobError{Errno: unix.EIO, Func: "check_min_rate"}
	lat := runner.JobError{Errno: unix.ETIMEDOUT, Func: "max latency exceeded"}
	io := runner.JobError{Errno: unix.EIO, Func: "io_u error"}
	ver := runner.JobError{Errno: unix.EILSEQ, Func: "io_u_sync_complete"}
	setup := runner.JobError{} // files or region refused
	tests := []struct {
		errs        []runner.JobError
		interrupted bool
		want        int
	}{
		{nil, false, 0},
		{[]runner.JobError{rate}, false, exitTargetMissed},
		{[]runner.JobError{lat, rate}, false, exitTargetMissed},
		{[]runner.JobError{rate, io}, false, exitIOError},
		{[]runner.JobError{setup}, false, exitIOError},
		{[]runner.JobError{ver, io, rate}, false, exitVerify},
		{[]runner.JobError{io, ver}, false, exitVerify},
		{[]runner.JobError{ver}, true, exitInterrupted},
		{nil, true, exitInterrupted},
	}
	for _, tt := range tests {
		if got := detailedStatus(&runner.Outcome{Errors: tt.errs}, tt.interrupted); got != tt.want {
			t.Errorf("%+v interrupted=%v: %d, want %d", tt.errs, tt.interrupted, got, tt.want)
		}
	}
}

// TestExitStatusInterrupted: SIGINT during a run gives 130 with
// --exit-status=detailed (fio's 128 without).
func TestExitStatusInterrupted(t *testing.T) {
	bin := gofioBinary(t)
	for _, detailed := range []bool{false, true} {
		dir := t.TempDir()
		file := filepath.Join(dir, "s.dat")
		args := []string{"--name=s", "--ioengine=psync", "--rw=read", "--size=1m", "--time_based", "--runtime=60", "--filename=" + file}
		want := 128
		if detailed {
			args, want = append([]string{"--exit-status=detailed"}, args...), exitInterrupted
		}
		r := runWhen(t, dir, bin, until{stdout: "Starting 1 process\n", reads: file, read: 8 << 20}, 0, func(p *os.Process) { p.Signal(syscall.SIGINT) }, args...)
		if r.status != want {
			t.Errorf("detailed %v: exit %d, want %d; stderr %q", detailed, r.status, want, r.stderr)
		}
	}
}
