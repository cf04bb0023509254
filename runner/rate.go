package runner

// Pacing: the rate caps (rate, rate_iops) and think time (thinktime).
//
// A capped direction has a due time for its next I/O; an I/O of b bytes
// moves it on by b/rate seconds (or 1/rate_iops, whichever is longer, and
// with rate_process=poisson by an exponentially distributed multiple of
// that), and the worker sleeps until the direction it picked is due. Due
// times start at the direction's first I/O and run on from there, so a
// job that fell behind (after a think time) catches up, as fio does unless
// rate_ignore_thinktime is set. Think time pauses the job after every
// thinktime_blocks I/Os (counted at completion, or at issue with
// thinktime_blocks_type=issue) or after thinktime_iotime of I/O, spinning
// thinktime_spin of it and sleeping the rest. Nothing here allocates.

import (
	"math"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// pacer is a worker's rate and think-time state.
type pacer struct {
	rated   bool
	active  [3]bool    // the directions the job issues
	perByte [3]float64 // ns per byte (rate)
	perIO   [3]float64 // ns per I/O (rate_iops)
	due     [3]int64   // when the next I/O may start; 0 before the first
	poisson bool
	rng     taus88

	think      int64 // thinktime, ns; 0: none
	spin       int64
	blocks     int
	issueSide  bool
	iotime     int64
	count      int   // I/Os since the last think
	lastThink  int64 // end of the last think (or the first I/O)
	ignoreRate bool  // rate_ignore_thinktime

	stop <-chan struct{}
}

// init reads job j's rate and think-time options.
func (p *pacer) init(j *jobspec.Job, seed uint64) {
	p.active = [3]bool{j.RW.Reads(), j.RW.Writes(), j.RW.Trims()}
	for d := range 3 {
		if j.Rate[d] > 0 {
			p.perByte[d] = 1e9 / float64(j.Rate[d])
			p.rated = true
		}
		if j.RateIOPS[d] > 0 {
			p.perIO[d] = 1e9 / float64(j.RateIOPS[d])
			p.rated = true
		}
	}
	p.poisson = j.RatePoisson
	p.rng.seed(seed ^ 0x4e1)
	p.think = int64(j.ThinkTime) * 1000
	p.iotime = int64(j.ThinkTimeIOTime) * 1000
	p.spin = min(int64(j.ThinkTimeSpin)*1000, p.think)
	p.blocks = max(j.ThinkTimeBlocks, 1)
	if p.iotime > 0 && j.ThinkTimeBlocks == 1 {
		p.blocks = math.MaxInt // thinktime_iotime alone: by time only
	}
	p.issueSide = j.ThinkTimeIssue
	p.ignoreRate = j.RateIgnoreThinktime
}

// issued moves direction d's due time on for an I/O of n bytes issued at
// now.
func (p *pacer) issued(d stats.Dir, n uint64, now int64) {
	if !p.rated || d >= 3 {
		return
	}
	gap := max(float64(n)*p.perByte[d], p.perIO[d])
	if gap == 0 {
		return
	}
	if p.poisson {
		gap *= -math.Log((float64(p.rng.next()) + 1) / (1 << 32)) // a draw in (0, 1]
	}
	if p.due[d] == 0 {
		p.due[d] = now
	}
	p.due[d] += int64(gap)
}

// waitDue sleeps until direction d may issue its next I/O. It returns
// false when the job was stopped or ran out of time while waiting.
func (w *worker) waitDue(d stats.Dir) bool {
	p := &w.gen.pace
	if !p.rated || d >= 3 || p.due[d] == 0 {
		return true
	}
	return w.pauseUntil(p.due[d])
}

// dueFirst returns d, or in a mixed job the other of read and write
// when d is not due at now and the other is due sooner (each direction
// keeps to its own cap, as in fio).
func (p *pacer) dueFirst(d stats.Dir, now int64) stats.Dir {
	o := stats.Read
	if d == stats.Read {
		o = stats.Write
	}
	if p.due[d] <= now || p.perByte[o] == 0 && p.perIO[o] == 0 {
		return d
	}
	if p.due[o] < p.due[d] {
		return o
	}
	return d
}

// notDue reports whether no direction the job issues may issue at now
// (the async loop then reaps before it waits, so the wait does not count
// in the completion latency of the I/Os in flight).
func (p *pacer) notDue(now int64) bool {
	if !p.rated {
		return false
	}
	for d := range p.due {
		if !p.active[d] {
			continue
		}
		if p.perByte[d] == 0 && p.perIO[d] == 0 {
			return false // an uncapped direction may go
		}
		if p.due[d] <= now {
			return false
		}
	}
	return true
}

// pauseUntil sleeps until the time t, in slices short enough to notice a
// stop or the runtime's end; false when one of them came first.
func (w *worker) pauseUntil(t int64) bool {
	const slice = 20e6 // 20 ms
	for {
		now := nanotime()
		if now >= t {
			return true
		}
		if stopped(w.gen.pace.stop) || (w.deadline != 0 && now >= w.deadline) {
			w.stopping = true
			return false
		}
		wait := min(t-now, slice)
		if w.deadline != 0 {
			wait = min(wait, max(w.deadline-now, 1))
		}
		sleepNS(wait)
	}
}

// thinkAfter counts n I/Os (issued or completed, as side says) and takes
// the think time when it is due.
func (w *worker) thinkAfter(n int, issueSide bool, now int64) {
	p := &w.gen.pace
	if p.think == 0 || n == 0 || issueSide != p.issueSide {
		return
	}
	if p.lastThink == 0 {
		p.lastThink = now
	}
	p.count += n
	if p.count < p.blocks && (p.iotime == 0 || now-p.lastThink < p.iotime) {
		return
	}
	p.count = 0
	start := nanotime()
	for end := start + p.spin; nanotime() < end; {
	}
	w.pauseUntil(start + p.think)
	end := nanotime()
	p.lastThink = end
	if p.ignoreRate {
		for d := range p.due {
			if p.due[d] != 0 {
				p.due[d] += end - start
			}
		}
	}
}
