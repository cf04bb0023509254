package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// profileJob runs gofio once more on j with a CPU profile
// (GOFIO_CPUPROFILE, see docs/perf.md), writes it to out/NAME.prof and
// returns the per-I/O cost breakdown of the run: each sampled stack is put
// in one bucket (the first rule of costBucket it matches) and the
// bucket's CPU time is divided by the I/Os done. The profile counts the
// CPU time of Go's threads only; "not in the profile" is the rest of the
// process's CPU time (rusage): the kernel's io_uring workers and SQ
// polling thread, and what the sampling missed.
func profileJob(gofio, out, dir string, j job) (string, error) {
	prof, err := filepath.Abs(filepath.Join(out, j.name+".prof"))
	if err != nil {
		return "", err
	}
	args := append(append([]string{}, j.args...), "--output-format=json")
	cmd := exec.Command(gofio, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFIO_CPUPROFILE="+prof)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.Output()
	if err != nil {
		return "", err
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	s, err := parseSample(stdout)
	if err != nil {
		return "", err
	}
	traces, err := exec.Command("go", "tool", "pprof", "-traces", gofio, prof).Output()
	if err != nil {
		return "", fmt.Errorf("go tool pprof -traces: %w", err)
	}
	buckets, total, err := bucketTraces(traces)
	if err != nil {
		return "", err
	}
	if s.ios == 0 {
		return "", fmt.Errorf("no I/O done")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %.0f I/Os, process CPU %v (%.0f ns/I/O), profiled %v\n", j.name, s.ios, cpu.Round(time.Millisecond),
		float64(cpu.Nanoseconds())/s.ios, total.Round(time.Millisecond))
	names := make([]string, 0, len(buckets))
	for k := range buckets {
		names = append(names, k)
	}
	sort.Slice(names, func(a, c int) bool { return buckets[names[a]] > buckets[names[c]] })
	for _, k := range names {
		fmt.Fprintf(&b, "  %8.0f ns  %5.1f%%  %s\n", float64(buckets[k].Nanoseconds())/s.ios, 100*float64(buckets[k])/float64(cpu), k)
	}
	if rest := cpu - total; rest > 0 {
		fmt.Fprintf(&b, "  %8.0f ns  %5.1f%%  not in the profile (kernel threads of the ring, sampling)\n",
			float64(rest.Nanoseconds())/s.ios, 100*float64(rest)/float64(cpu))
	}
	if err := os.WriteFile(filepath.Join(out, j.name+".txt"), []byte(b.String()), 0o644); err != nil {
		return "", err
	}
	return b.String(), nil
}

// bucketTraces reads `go tool pprof -traces` output and sums the sampled
// time per cost bucket.
func bucketTraces(out []byte) (map[string]time.Duration, time.Duration, error) {
	buckets := map[string]time.Duration{}
	var total time.Duration
	var value time.Duration
	var stack []string
	flush := func() {
		if len(stack) > 0 {
			buckets[costBucket(stack)] += value
			total += value
		}
		stack, value = stack[:0], 0
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "-----------+") {
			flush()
			continue
		}
		if len(stack) == 0 && value == 0 {
			f := strings.Fields(line)
			if len(f) >= 2 {
				if d, err := time.ParseDuration(f[0]); err == nil {
					value = d
					stack = append(stack, f[1])
				}
			}
			continue
		}
		if f := strings.Fields(line); len(f) > 0 {
			stack = append(stack, f[0])
		}
	}
	flush()
	return buckets, total, sc.Err()
}

// costBucket names what a sampled stack (leaf first) spent its time on.
func costBucket(stack []string) string {
	has := func(sub string) bool {
		for _, f := range stack {
			if strings.Contains(f, sub) {
				return true
			}
		}
		return false
	}
	leaf := stack[0]
	engineCall := func() string {
		for _, f := range stack {
			if i := strings.Index(f, "runner/engine."); i >= 0 {
				name := f[i+len("runner/engine."):]
				for _, m := range []string{"Commit", "Reap", "Queue", "OpenFile", "CloseFile"} {
					if strings.HasSuffix(name, ")."+m) {
						return m
					}
				}
			}
		}
		return ""
	}
	switch {
	case strings.Contains(leaf, "Syscall") || strings.Contains(leaf, "syscall."):
		switch engineCall() {
		case "Commit":
			return "kernel: submit (io_uring_enter / io_submit)"
		case "Reap":
			return "kernel: reap (io_uring_enter GETEVENTS / io_getevents)"
		case "Queue":
			return "kernel: the transfer (sync engines' pread/pwrite)"
		}
		if has("runner.(*worker)") {
			return "kernel: other system calls of the job (files, cache drops)"
		}
		return "kernel: system calls outside the job's loop"
	case has("runtime.nanotime") || has("runtime.walltime"):
		return "clock reads (issue and completion stamps)"
	case has("runner.(*worker).next"):
		return "generator (offset, size, direction)"
	case has("runner.(*worker).complete") || has("stats."):
		return "completion accounting (latency stats, histograms)"
	case engineCall() != "":
		return "engine, user side (SQE/CQE, iocb handling)"
	case has("runtime.gcBgMarkWorker") || has("runtime.gcStart") || has("runtime.mallocgc"):
		return "GC and allocation"
	case has("runner.(*worker).asyncLoop") || has("runner.(*worker).syncLoop"):
		return "the loop itself (bookkeeping, rate, stop checks)"
	}
	return "runtime and other goroutines (scheduler, sampler, report)"
}
