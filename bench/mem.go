package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/gofio/gofio/internal/proctree"
)

// pssInterval is how often the memory of a run's process tree is read.
const pssInterval = 20 * time.Millisecond

// watchPSS samples the summed proportional set size (Pss of
// /proc/PID/smaps_rollup, KiB) of cmd's process and its descendants
// (without cmd's own process when skipRoot: GNU time's) until done is
// closed, and sends the peak on the returned channel. Unlike one
// process's peak RSS it counts every process of fio (one per job) and
// counts the memory they share once.
func watchPSS(cmd *exec.Cmd, skipRoot bool, done <-chan struct{}) <-chan int64 {
	peak := make(chan int64, 1)
	go func() {
		var max int64
		t := time.NewTicker(pssInterval)
		defer t.Stop()
		for {
			procs := proctree.Descendants(cmd.Process.Pid)
			if skipRoot {
				procs = procs[1:]
			}
			var sum int64
			for _, p := range procs {
				sum += pss(p)
			}
			max = maxInt64(max, sum)
			select {
			case <-done:
				peak <- max
				return
			case <-t.C:
			}
		}
	}()
	return peak
}

func maxInt64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// pss is a process's Pss in KiB, 0 when it is gone.
func pss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Pss:"); ok {
			if f := strings.Fields(v); len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}
