package engine

// The cpuio engine burns CPU instead of doing I/O. Each unit is one cycle
// of work, then a pause long enough that the work takes cpuload percent
// of the time. cpumode=noop works for cpuchunks µs (a spin on the clock);
// cpumode=qsort sorts an array of random numbers once, a fixed amount of
// work whatever cpuchunks says, and pauses for what that took (fio 3.33
// does the same: its qsort units take about 55 ms of CPU each on a
// machine where noop ones take cpuchunks, and their pause scales with
// their duration, so a loaded machine does few of them). The work is
// the unit's latency; the pause is think time, outside it (Thinker).
// Units move no data (Info.NoIO), so only runtime ends a cpuio job,
// as in fio.
//
// cpuload is required. exit_on_io_done ends the job when the I/O jobs
// have ended: the runner closes its stop channel (runner/control.go).

import (
	"errors"
	"fmt"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
)

// Thinker is implemented by engines that pause between units: the runner
// sleeps ThinkTime nanoseconds after each completion, outside the unit's
// latency, asking again each time.
type Thinker interface {
	ThinkTime() int64
}

// A cpumode=qsort unit fills an array of cpuQsortLen random 64-bit
// numbers and sorts it, cpuQsortRounds times: 2 MiB, about the memory
// fio's qsort jobs take beyond its noop ones, and about as much CPU time
// per unit (measured side by side with fio 3.33).
const (
	cpuQsortLen    = 1 << 18
	cpuQsortRounds = 2
)

type cpuEngine struct {
	load  int   // cpuload, percent
	chunk int64 // cpuchunks, µs
	qsort bool
	arr   []uint64
	rng   rng.Taus88
	last  int64 // ns the last qsort unit took
}

var (
	_ Engine  = (*cpuEngine)(nil)
	_ Thinker = (*cpuEngine)(nil)
	_ Noticer = (*cpuEngine)(nil)
)

// errCPULoad is fio's message for a cpuio job without cpuload.
var errCPULoad = errors.New("fio: pid=0, err=22/file:engines/cpu.c, func=cpuio, error=cpu thread needs rate (cpuload=)\nfio: io engine cpuio init failed.")

func newCPUIO(cfg Config) (Engine, error) {
	o := &cfg.Options
	// fio 3.33 takes a cpuload over 100 as 100.
	e := &cpuEngine{load: min(o.CPULoad, 100), chunk: int64(o.CPUChunks), qsort: o.CPUMode == jobspec.CPUQsort}
	e.rng.Seed(cfg.Seed ^ 0xc9)
	if e.load == 0 {
		return nil, errCPULoad
	}
	if e.qsort {
		e.arr = make([]uint64, cpuQsortLen)
	}
	return e, nil
}

// Notice is the line fio prints when a cpuio job starts.
func (e *cpuEngine) Notice(job string) string {
	mode := "noop"
	if e.qsort {
		mode = "qsort"
	}
	return fmt.Sprintf("%s (%s): ioengine=cpuio, cpuload=%d, cpucycle=%d", job, mode, e.load, e.chunk)
}

// ThinkTime is the pause after a cycle that brings the load to cpuload
// percent: of cpuchunks (noop), of the last unit's duration (qsort).
func (e *cpuEngine) ThinkTime() int64 {
	work := e.chunk * 1000
	if e.qsort {
		work = e.last
	}
	return work * int64(100-e.load) / int64(e.load)
}

// Queue works for cpuchunks µs (noop) or sorts the array once (qsort).
func (e *cpuEngine) Queue(u *IOUnit) Status {
	start := clock.Now()
	if e.qsort {
		for range cpuQsortRounds {
			e.sortRound()
		}
		e.last = clock.Now() - start
	} else {
		for end := start + e.chunk*1000; clock.Now() < end; {
		}
	}
	u.Result, u.Err = len(u.Buf), 0 // counted as no bytes (NoIO)
	return Completed
}

// sortRound fills the array with random numbers and sorts it (heap sort:
// in place, no allocation).
func (e *cpuEngine) sortRound() {
	a := e.arr
	for i := range a {
		a[i] = uint64(e.rng.Next())<<32 | uint64(e.rng.Next())
	}
	n := len(a)
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(a, i, n)
	}
	for end := n - 1; end > 0; end-- {
		a[0], a[end] = a[end], a[0]
		siftDown(a, 0, end)
	}
}

func siftDown(a []uint64, root, n int) {
	for {
		child := 2*root + 1
		if child >= n {
			return
		}
		if child+1 < n && a[child+1] > a[child] {
			child++
		}
		if a[root] >= a[child] {
			return
		}
		a[root], a[child] = a[child], a[root]
		root = child
	}
}
