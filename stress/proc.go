package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofio/gofio/internal/proctree"
)

// outcome is what one run of a command left.
type outcome struct {
	status  int // exit status; 128+N when killed by signal N
	hung    bool
	wall    time.Duration
	peakRSS uint64 // KiB: the largest sum of VmRSS over the run's processes
	stdout  []byte
	stderr  []byte
}

// rssPoll is how often a run's processes are measured.
const rssPoll = 10 * time.Millisecond

// runMeasured runs bin with args in dir, in a process group of its own,
// and measures its peak RSS: the largest sum, over the polls, of the
// resident sets of the process and all its descendants (fio runs a
// process per job; gofio one). A run still going after limit is killed
// (the whole group) and marked hung.
func runMeasured(dir, bin string, args []string, limit time.Duration) (outcome, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return outcome{}, fmt.Errorf("starting %s: %w", bin, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Start returns once the program is executing: a first look then
	// catches runs shorter than a poll.
	o := outcome{peakRSS: treeRSS(cmd.Process.Pid)}
	tick := time.NewTicker(rssPoll)
	defer tick.Stop()
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	var err error
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-tick.C:
			o.peakRSS = max(o.peakRSS, treeRSS(cmd.Process.Pid))
		case <-deadline.C:
			o.hung = true
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			err = <-done
			break wait
		}
	}
	o.wall = time.Since(start)
	o.stdout, o.stderr = out.Bytes(), errb.Bytes()
	o.status = exitStatus(err)
	return o, nil
}

// exitStatus is a finished command's status, 128+N for signal N.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return -1
}

// treeRSS returns the summed VmRSS (KiB) of pid and its descendants.
func treeRSS(pid int) uint64 {
	var sum uint64
	for _, p := range proctree.Descendants(pid) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/status")
		if err == nil {
			sum += statusField(string(b), "VmRSS:")
		}
	}
	return sum
}

// statusField returns the number (in kB) of a /proc/PID/status field.
func statusField(status, field string) uint64 {
	for _, l := range strings.Split(status, "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseUint(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}
