package runner

// The latency target mode's glue (the depth search is runner/lattarget).

import (
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/lattarget"
	"github.com/gofio/gofio/runner/limits"
)

// depthFull reports whether the latency target's depth allows no more
// I/Os in flight. Jobs without one pay one nil test.
func (w *worker) depthFull() bool {
	return w.lim != nil && w.lim.Target() != nil && w.flight+len(w.queued) >= w.lim.Target().QD()
}

// restartMeasuring drops the statistics taken so far and measures again
// from now, as at the end of a ramp, keeping the runtime's end.
func (w *worker) restartMeasuring(now int64) {
	deadline := w.deadline
	w.ramping = true
	w.startMeasuring(now)
	w.deadline = deadline
	w.lim.Restart()
}

// latTargetCompleted counts one accounted completion with total latency
// lat (ns) at now, and judges the window when it is over.
func (w *worker) latTargetCompleted(u *engine.IOUnit, lat, now int64) {
	t := w.lim.Target()
	switch t.Completed(lat, now) {
	case lattarget.Exceeded:
		w.latencyExceeded(u, lat, t.Target())
	case lattarget.Stop:
		w.stopping = true
	case lattarget.Restart:
		w.restartMeasuring(now)
	}
}

// reportedDepth is the depth the report shows for job j run by w: the
// latency target's depth, or iodepth. w may be a live snapshot.
func reportedDepth(w *worker, j *jobspec.Job) int {
	if w != nil && w.lim != nil && w.lim.Target() != nil {
		return w.lim.Target().Depth()
	}
	if w != nil && len(w.units) > 0 {
		return len(w.units) // io_uring's power of two (engine.Info.Pow2Depth)
	}
	return j.IODepth
}

// limitsOf returns w's limits for a live snapshot of it; nil without w.
func limitsOf(w *worker) *limits.Limits {
	if w == nil {
		return nil
	}
	return w.lim
}
