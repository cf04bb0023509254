package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/debuglog"
)

// --cpuclock-test (fio's manual: "Perform test and validation of
// internal CPU clock"). fio 3.33 prints, all on stdout (observed):
//
//	cs: reliable_tsc: yes
//	time     PID  cycles[0]=2600392          (50 calibration samples,
//	...                                       cycles per millisecond)
//	time     PID  min=..., max=..., mean=..., S=..., N=50
//	time     PID  trimmed mean=..., N=45
//	cs: Testing 2 CPUs
//	cs: cpu  1: 17967346 clocks seen, first 29462657991636
//	cs: cpu  0: 87567446 clocks seen, first 29462660651271
//	cs: Pass!
//
// then exits 0. A counter seen going backwards between CPUs prints
// "cs: CPU clock mismatch (diff=N):", the two readings and
// "cs: Failed: N". gofio measures the same counter (RDTSC on amd64) the
// same way; fio's lines about its fixed-point cycle conversion
// (clock_shift, max_cycles_shift, ...) are left out, since gofio converts
// no cycles (docs/compat.md).

const (
	clockSamples   = 50                     // calibration samples
	clockSampleDur = time.Millisecond       // each one
	clockTrim      = 5                      // samples left out of the trimmed mean
	clockTestDur   = 100 * time.Millisecond // per CPU
)

// cpuclockTest carries out --cpuclock-test and returns the exit status.
func cpuclockTest(stdout io.Writer) int {
	if !haveCPUClock {
		fmt.Fprintln(stdout, "cs: current platform does not support CPU clocks")
		return 1
	}
	reliable := "no"
	if tscReliable() {
		reliable = "yes"
	}
	fmt.Fprintf(stdout, "cs: reliable_tsc: %s\n", reliable)
	calibrateCycles(stdout)
	return crossCPUClock(stdout)
}

// tscReliable reports whether the kernel says the counter ticks at a
// constant rate that does not stop in idle states (/proc/cpuinfo's
// constant_tsc and nonstop_tsc flags).
func tscReliable() bool {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "flags") {
			f := strings.Fields(l)
			return slices.Contains(f, "constant_tsc") && slices.Contains(f, "nonstop_tsc")
		}
	}
	return false
}

// timeLine prints a line of fio's "time" debug class.
func timeLine(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "%-8s %-5d %s\n", debuglog.Time, debuglog.Pid, fmt.Sprintf(format, args...))
}

// calibrateCycles counts the counter's cycles in each of 50 busy
// milliseconds and prints the samples, their statistics and the mean of
// the 45 nearest the median.
func calibrateCycles(w io.Writer) {
	cycles := make([]uint64, clockSamples)
	for i := range cycles {
		start, c0 := time.Now(), cpuCycles()
		for time.Since(start) < clockSampleDur {
		}
		cycles[i] = cpuCycles() - c0
		timeLine(w, "cycles[%d]=%d", i, cycles[i])
	}
	var sum, sq float64
	for _, c := range cycles {
		sum += float64(c)
	}
	mean := sum / clockSamples
	for _, c := range cycles {
		sq += (float64(c) - mean) * (float64(c) - mean)
	}
	timeLine(w, "min=%d, max=%d, mean=%f, S=%f, N=%d", slices.Min(cycles), slices.Max(cycles), mean, math.Sqrt(sq/(clockSamples-1)), clockSamples)
	sorted := slices.Clone(cycles)
	slices.Sort(sorted)
	med := sorted[clockSamples/2]
	dist := func(c uint64) uint64 { return max(c, med) - min(c, med) }
	slices.SortFunc(sorted, func(a, b uint64) int { return int(dist(a)) - int(dist(b)) })
	kept := sorted[:clockSamples-clockTrim]
	var ksum uint64
	for _, c := range kept {
		ksum += c
	}
	timeLine(w, "trimmed mean=%d, N=%d", ksum/uint64(len(kept)), len(kept))
}

// clockReading is one reading of the shared sequence.
type clockReading struct {
	cpu int
	tsc uint64
	seq uint64
}

// crossCPUClock runs one thread pinned to each CPU the process may use;
// they take turns under a lock reading the counter, so each reading must
// be at least the one before, whichever CPU took it. Each thread prints
// its count as it ends.
func crossCPUClock(w io.Writer) int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		fmt.Fprintf(w, "clock cpuset init failed: %v\n", err)
		return 1
	}
	var cpus []int
	for c := range 1024 {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	fmt.Fprintf(w, "cs: Testing %d CPUs\n", len(cpus))
	var (
		mu       sync.Mutex
		last     clockReading
		seq      uint64
		failed   int
		mismatch []string
		printMu  sync.Mutex
		wg       sync.WaitGroup
	)
	for _, cpu := range cpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The thread stays locked: it ends with the goroutine
			// instead of going back to Go's pool pinned to cpu.
			runtime.LockOSThread()
			var one unix.CPUSet
			one.Set(cpu)
			if err := unix.SchedSetaffinity(0, &one); err != nil {
				printMu.Lock()
				fmt.Fprintf(w, "clock setaffinity failed: %v\n", err)
				printMu.Unlock()
				mu.Lock()
				failed++
				mu.Unlock()
				return
			}
			var n, first uint64
			end := time.Now().Add(clockTestDur)
			for i := 0; ; i++ {
				if i%1024 == 0 && time.Now().After(end) {
					break
				}
				mu.Lock()
				r := clockReading{cpu: cpu, tsc: cpuCycles(), seq: seq}
				if seq > 0 && r.tsc < last.tsc {
					failed++
					mismatch = append(mismatch, fmt.Sprintf("cs: CPU clock mismatch (diff=%d):\n\t CPU%3d: TSC=%d, SEQ=%d\n\t CPU%3d: TSC=%d, SEQ=%d\n",
						last.tsc-r.tsc, last.cpu, last.tsc, last.seq, r.cpu, r.tsc, r.seq))
				}
				last = r
				seq++
				mu.Unlock()
				if n == 0 {
					first = r.tsc
				}
				n++
			}
			printMu.Lock()
			fmt.Fprintf(w, "cs: cpu%3d: %d clocks seen, first %d\n", cpu, n, first)
			printMu.Unlock()
		}()
	}
	wg.Wait()
	for _, m := range mismatch[:min(len(mismatch), 10)] {
		fmt.Fprint(w, m)
	}
	if failed > 0 {
		fmt.Fprintf(w, "cs: Failed: %d\n", failed)
		return 1
	}
	fmt.Fprintln(w, "cs: Pass!")
	return 0
}
