package runner

import (
	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
)

// The I/O loop's clock. A job that measures a latency reads the clock
// once per submission and once per completion (stats-algorithms.md §0.1:
// start and issue of a unit completed in the engine's call are one read,
// nothing happens between them). A job that measures none (gtod_reduce,
// or disable_lat, disable_clat and disable_slat) still needs the time for
// its runtime, ramp and publication checks, but not to the nanosecond: it
// reads the clock only every few calls, as fio's gtod_reduce does.

// Bounds of the coarse clock: the gap between two reads is kept between
// coarseMinGap and coarseMaxGap by doubling or halving the number of
// calls served per read, up to coarseMaxEvery.
const (
	coarseMinGap   = 20e3  // ns
	coarseMaxGap   = 200e3 // ns
	coarseMaxEvery = 256
)

// loopClock is the worker's clock state.
type loopClock struct {
	coarse bool  // no latency measured: read every `every` calls
	usec   bool  // clocksource=gettimeofday: whole microseconds
	every  int   // calls per read (coarse)
	left   int   // calls left before the next read (coarse)
	last   int64 // time of the last read (ns)
}

// stamp returns the time for a point of the I/O loop: a fresh reading of
// the monotonic clock when the job measures latencies, otherwise the last
// reading, renewed every so often. Late by at most about coarseMaxGap
// times two, a coarse stamp is good for deadlines, never for latencies.
func (w *worker) stamp() int64 {
	c := &w.clk
	if !c.coarse {
		now := clock.Now()
		if c.usec {
			// gettimeofday's resolution: fio 3.33's latencies are
			// then whole microseconds (0 ns for a sub-µs I/O).
			now -= now % 1000
		}
		return now
	}
	if c.left > 0 {
		c.left--
		return c.last
	}
	now := clock.Now()
	switch gap := now - c.last; {
	case gap < coarseMinGap && c.every < coarseMaxEvery:
		c.every *= 2
	case gap > coarseMaxGap && c.every > 1:
		c.every /= 2
	}
	c.left, c.last = c.every-1, now
	return now
}

// initClock sets the clock up for the job's measurements.
func (w *worker) initClock() {
	w.clk = loopClock{coarse: !w.clat && !w.lat && !w.slat, every: 1,
		usec: w.job.Misc.Clock == jobspec.ClockGettimeofday}
}
