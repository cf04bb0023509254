package runner

import "github.com/gofio/gofio/runner/engine"

// serialize_overlap keeps I/Os whose ranges overlap from being in flight
// together: a unit that overlaps one queued or in flight is held back, as
// an engine's Busy answer is, until completions have been reaped, and
// then offered again. Only the asynchronous loop has I/Os in flight
// together, so only it checks.

// overlapState is a serialize_overlap job's scratch: which units are free.
type overlapState struct {
	free []bool // by unit index
}

// newOverlapState returns the state of a job with serialize_overlap, nil
// without it.
func newOverlapState(on bool, units int) *overlapState {
	if !on {
		return nil
	}
	return &overlapState{free: make([]bool, units)}
}

// overlaps reports whether u's range overlaps that of a unit of w queued
// or in flight.
func (w *worker) overlaps(u *engine.IOUnit) bool {
	s := w.overlap
	clear(s.free)
	for _, f := range w.free {
		s.free[f.Index] = true
	}
	lo, hi := u.Offset, u.Offset+int64(len(u.Buf))
	for _, o := range w.units {
		if o == u || s.free[o.Index] || o.File != u.File || !o.Op.IsData() {
			continue
		}
		if o.Offset < hi && lo < o.Offset+int64(len(o.Buf)) {
			return true
		}
	}
	return false
}
