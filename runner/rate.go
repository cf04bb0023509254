package runner

// Pacing (runner/pace): the worker's waits for a rate cap's due time
// and its think times, cut short by a stop or the runtime's end.

import (
	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/stats"
)

// waitDue sleeps until direction d may issue its next I/O. It returns
// false when the job was stopped or ran out of time while waiting.
func (w *worker) waitDue(d stats.Dir) bool {
	due := w.gen.pace.Due(d)
	if due == 0 {
		return true
	}
	return w.pacePause(due)
}

// pauseUntil sleeps until the time t, in slices short enough to notice a
// stop or the runtime's end; false when one of them came first.
func (w *worker) pauseUntil(t int64) bool {
	return w.pause(t, false)
}

// pacePause is pauseUntil for a rate wait or a think time. fio 3.33 takes
// those as a chain of sleeps and looks at exitall only between them
// (observed: a job exitall ends mid-pause sleeps on to the end of the
// sleep it is in, or to its runtime's end): the first sleep is the
// pause's fraction of a second plus one second, the others two seconds
// at most. A signal and the runtime's end still cut the pause at once.
// The pause has no stop of its own for exitall to cut short.
func (w *worker) pacePause(t int64) bool {
	return w.pause(t, true)
}

func (w *worker) pause(t int64, chained bool) bool {
	const slice = 20e6 // 20 ms
	hard := w.gen.paceHard
	if !chained || hard == nil {
		hard = w.gen.paceStop
	}
	next := int64(0) // the end of the sleep in the chain, for exitall
	if chained {
		// The chain runs to the pause's end or the runtime's, whichever
		// comes first (observed: a rate wait past the runtime is one
		// chain to the runtime's end).
		end := t
		if w.deadline != 0 {
			end = min(end, w.deadline)
		}
		now := clock.Now()
		next = now + pauseLink(end-now, true)
	}
	for {
		now := clock.Now()
		if now >= t && !chained {
			return true
		}
		if chained && (now >= next || now >= t) {
			if stopped(w.gen.paceStop) {
				w.stopping = true
				return false
			}
			if now >= t {
				return true
			}
			next = now + pauseLink(t-now, false)
		}
		if stopped(hard) || (w.deadline != 0 && now >= w.deadline) {
			w.stopping = true
			return false
		}
		wait := min(t-now, slice)
		if chained {
			wait = min(wait, max(next-now, 1))
		}
		if w.deadline != 0 {
			wait = min(wait, max(w.deadline-now, 1))
		}
		clock.Sleep(wait)
	}
}

// pauseLink is the length of the next sleep of a chained pause with rem
// ns left: one second plus rem's fraction of a second first, then two
// seconds at most.
func pauseLink(rem int64, first bool) int64 {
	if first {
		return min(rem, 1e9+rem%1e9)
	}
	return min(rem, 2e9)
}

// thinkAfter counts n I/Os (issued or completed, as side says) and takes
// the think time when it is due.
func (w *worker) thinkAfter(n int, issueSide bool, now int64) {
	p := &w.gen.pace
	spin, think, due := p.ThinkDue(n, issueSide, now)
	if !due {
		return
	}
	start := clock.Now()
	for end := start + spin; clock.Now() < end; {
	}
	w.pacePause(start + think)
	p.Thought(start, clock.Now())
}

// paceSeeds are rate_process=poisson's seeds of the job's seed slots.
func paceSeeds(seeds *[nSeeds]uint64) [3]uint64 {
	return [3]uint64{seeds[seedPoisson], seeds[seedPoisson2], seeds[seedPoisson3]}
}
