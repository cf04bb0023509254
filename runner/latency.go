package runner

// The latency target mode (latency_target, latency_window,
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

import (
	"sync/atomic"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// latTarget is the state of the queue depth search.
type latTarget struct {
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

func newLatTarget(j *jobspec.Job) *latTarget {
	t := &latTarget{
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

// depthFull reports whether the latency target's depth allows no more
// I/Os in flight. Jobs without one pay one nil test.
func (w *worker) depthFull() bool {
	return w.lim != nil && w.lim.lt != nil && w.flight+len(w.queued) >= w.lim.lt.qd
}

// latTargetCompleted counts one accounted completion with total latency
// lat (ns) at now, and judges the window when it is over.
func (w *worker) latTargetCompleted(u *engine.IOUnit, lat, now int64) {
	t := w.lim.lt
	if t.winStart == 0 {
		t.winStart = now
	}
	t.total++
	switch {
	case lat <= t.target:
		t.ok++
	case t.pct >= 100 && !t.final:
		if t.qd <= 1 {
			w.latencyExceeded(u, lat, t.target)
			return
		}
		t.step(false, now)
		return
	}
	if now-t.winStart < t.window {
		return
	}
	if t.final {
		w.stopping = true
		return
	}
	good := float64(t.ok)*100 >= t.pct*float64(t.total)
	if t.held > 0 && good {
		t.hold(now)
		return
	}
	t.held = 0
	// Without a window (latency_window=0) fio settles on the depth it
	// has (1) at the first I/O.
	if t.window == 0 || t.step(good, now) {
		if !t.run {
			t.final = true
			w.restartMeasuring(now)
		} else {
			t.held = 1
		}
	}
}

// holdWindows is how many good windows latency_run=1 keeps a converged
// depth before it tries one more (fio 3.33: the converging window and
// two more).
const holdWindows = 3

// hold counts a good window at a converged depth (latency_run=1), and
// after holdWindows of them tries the next depth.
func (t *latTarget) hold(now int64) {
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
func (t *latTarget) step(good bool, now int64) bool {
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

// restartMeasuring drops the statistics taken so far and measures again
// from now, as at the end of a ramp, keeping the runtime's end.
func (w *worker) restartMeasuring(now int64) {
	deadline := w.deadline
	w.ramping = true
	w.startMeasuring(now)
	w.deadline = deadline
	w.lim.restart()
}

// reportedDepth is the depth the report shows for job j run by w: the
// latency target's depth, or iodepth. w may be a live snapshot.
func reportedDepth(w *worker, j *jobspec.Job) int {
	if w != nil && w.lim != nil && w.lim.lt != nil {
		return int(w.lim.lt.depth.Load())
	}
	if w != nil && len(w.units) > 0 {
		return len(w.units) // io_uring's power of two (engine.Info.Pow2Depth)
	}
	return j.IODepth
}

// limitsOf returns w's limits for a live snapshot of it; nil without w.
func limitsOf(w *worker) *limits {
	if w == nil {
		return nil
	}
	return w.lim
}
