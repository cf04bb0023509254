// Package gtod is fio's gtod_cpu time-keeping thread: a thread pinned to
// one CPU that does nothing but read the clock into memory the run shares.
package gtod

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
)

// now is the time the thread last read (nanotime).
var now atomic.Int64

// Last is the time the thread last read (the clock's nanotime), 0 before
// it first ran.
func Last() int64 { return now.Load() }

// Start starts fio's gtod_cpu time-keeping thread when a job of the
// plan sets gtod_cpu: a thread pinned to that CPU that does nothing but
// read the clock into shared memory for the run. As in fio 3.33 the jobs'
// own CPU masks are left alone, and a CPU the thread cannot be pinned to
// is reported ("gtod: setaffinity failed") without failing the run. It
// returns the function that stops the thread.
func Start(plan *jobspec.Plan, errs io.Writer) func() {
	cpu := -1
	for _, j := range plan.Jobs {
		if j.Misc.GtodCPU > 0 {
			cpu = j.Misc.GtodCPU - 1
			break
		}
	}
	if cpu < 0 {
		return func() {}
	}
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// The thread stays locked: it ends with the goroutine rather than
		// going back to the scheduler pinned to one CPU.
		runtime.LockOSThread()
		var set unix.CPUSet
		if cpu < runtime.NumCPU() {
			set.Set(cpu)
		}
		if cpu >= runtime.NumCPU() || unix.SchedSetaffinity(0, &set) != nil {
			if errs != nil {
				fmt.Fprintln(errs, "gtod: setaffinity failed")
			}
		}
		for !done.Load() {
			now.Store(clock.Now())
		}
	}()
	return func() {
		done.Store(true)
		wg.Wait()
	}
}
