// Package lattarget is the latency target mode (latency_target, latency_window,
// latency_percentile, latency_run), as fio 3.33 was seen to behave:
//
// The job starts at queue depth 1. At the end of each latency_window it
// judges the window: a success when at least latency_percentile percent
// of the I/Os completed in it took at most latency_target (total
// latency). A success doubles the depth (up to iodepth) until a window
// has failed; after that the search halves the gap between the deepest
// depth known good and the shallowest known bad. A failure moves the
// depth halfway down to the deepest good one. With latency_percentile
// 100 one I/O over the target fails the window at once; at depth 1 it
// ends the job as max_latency would (ETIMEDOUT).
//
// Without a latency_window the search ends at the first I/O, at depth 1.
// When a success leaves the depth where it was (iodepth reached, or the
// search closed), the search has converged. With latency_run=0 the job
// then drops the statistics taken so far, runs one more window at that
// depth and ends; with latency_run=1 it keeps running: after three good
// windows at the converged depth (the converging one included) it tries
// one deeper, and falls back when that fails. The depth reached is the
// report's "depth=" and JSON's latency_depth.
package lattarget

import (
	"sync/atomic"

	"github.com/gofio/gofio/jobspec"
)

// Search is the state of the queue depth search.
type Search struct {
	target int64 // ns
	window int64 // ns
	pct    float64
	run    bool
	maxQD  int

	qd, low, high int   // current depth; deepest good, shallowest bad (0: none)
	winStart      int64 // start of the current window; 0 before the first I/O
	ok, total     uint64
	final         bool // converged (latency_run=0): this window is the last
	held          int  // good windows at the converged depth (latency_run=1)

	// depth is qd for live reports, read on other goroutines.
	depth atomic.Int32
}

// New returns job j's search, at depth 1.
func New(j *jobspec.Job) *Search {
	t := &Search{
		target: int64(j.LatencyTarget) * 1000,
		window: int64(j.LatencyWindow) * 1000,
		pct:    j.LatencyPercentile,
		run:    j.LatencyRun,
		maxQD:  max(j.IODepth, 1),
		qd:     1,
	}
	t.depth.Store(1)
	return t
}

// QD is the current depth: the most I/Os in flight.
func (t *Search) QD() int { return t.qd }

// Depth is the current depth, for live reports (safe on any goroutine).
func (t *Search) Depth() int { return int(t.depth.Load()) }

// Target is latency_target, in ns.
func (t *Search) Target() int64 { return t.target }

// Action is what a completion asks of the job.
type Action int

// What Completed asks of the job.
const (
	None     Action = iota // go on
	Exceeded               // an I/O over the target at depth 1 with latency_percentile 100: fail as max_latency would
	Stop                   // the last window (latency_run=0) is over: end the job
	Restart                // converged (latency_run=0): drop the statistics so far and measure again
)

// Completed counts one accounted completion with total latency lat (ns)
// at now, judges the window when it is over, and returns what the job
// must do.
func (t *Search) Completed(lat, now int64) Action {
	if t.winStart == 0 {
		t.winStart = now
	}
	t.total++
	switch {
	case lat <= t.target:
		t.ok++
	case t.pct >= 100 && !t.final:
		if t.qd <= 1 {
			return Exceeded
		}
		t.step(false, now)
		return None
	}
	if now-t.winStart < t.window {
		return None
	}
	if t.final {
		return Stop
	}
	good := float64(t.ok)*100 >= t.pct*float64(t.total)
	if t.held > 0 && good {
		t.hold(now)
		return None
	}
	t.held = 0
	// Without a window (latency_window=0) fio settles on the depth it
	// has (1) at the first I/O.
	if t.window == 0 || t.step(good, now) {
		if !t.run {
			t.final = true
			return Restart
		}
		t.held = 1
	}
	return None
}

// holdWindows is how many good windows latency_run=1 keeps a converged
// depth before it tries one more (fio 3.33: the converging window and
// two more).
const holdWindows = 3

// hold counts a good window at a converged depth (latency_run=1), and
// after holdWindows of them tries the next depth.
func (t *Search) hold(now int64) {
	t.ok, t.total, t.winStart = 0, 0, now
	if t.held++; t.held < holdWindows {
		return
	}
	t.held = 0
	t.low, t.high = t.qd, min(t.qd+2, t.maxQD+1)
	t.qd = min(t.qd+1, t.maxQD)
	t.depth.Store(int32(t.qd))
}

// step moves the depth after a window that was good or not, starts the
// next window at now, and reports whether the search has converged.
func (t *Search) step(good bool, now int64) bool {
	defer func() { t.depth.Store(int32(t.qd)) }()
	t.ok, t.total, t.winStart = 0, 0, now
	if !good {
		t.high = t.qd
		t.qd = max((t.low+t.qd)/2, 1)
		return false
	}
	t.low = t.qd
	if t.high == 0 {
		t.qd = min(t.qd*2, t.maxQD)
	} else {
		t.qd = (t.qd + t.high) / 2
	}
	return t.qd == t.low
}
