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

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/internal/rng"
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
	pBase   [3]float32    // rate_process=poisson: the mean gap, µs
	pRng    [3]rng.Stream // rate_process=poisson, per direction

	think      int64 // thinktime, ns; 0: none
	spin       int64
	blocks     int
	issueSide  bool
	iotime     int64
	count      int   // I/Os since the last think
	lastThink  int64 // end of the last think (or the first I/O)
	ignoreRate bool  // rate_ignore_thinktime

	dbg debuglog.Mask // --debug=rate lines (debug.go)
	tid int

	stop <-chan struct{} // closed by a signal or exitall
	hard <-chan struct{} // closed by a signal only; nil: stop
}

// init reads job j's rate and think-time options.
func (p *pacer) init(j *jobspec.Job) {
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
	for d := range 3 {
		// As fio 3.33 does (its --debug=rate lines show it): the mean
		// gap is a whole number of µs, a million over the I/Os per
		// second the cap gives at the direction's smallest block size.
		bs := max(j.BS[d], 1)
		bps := j.Rate[d]
		if bps == 0 {
			bps = j.RateIOPS[d] * bs
		}
		if iops := bps / bs; iops > 0 {
			p.pBase[d] = float32(1000000 / iops)
		}
	}
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
		// As in fio 3.33: the mean gap times -ln of a draw in (0, 1],
		// in single precision, cut to whole µs.
		u := float32((float64(p.pRng[d].Next()) + 1) / (1 << 32))
		us := uint64(p.pBase[d] * float32(-math.Log(float64(u))))
		if us > 0 && p.dbg.On(debuglog.Rate) {
			// fio's line gives the rate this gap stands for.
			debuglog.Printf(debuglog.Rate, p.tid, "poisson rate iops=%d, ddir=%d", 1000000/us, int(d))
		}
		gap = float64(us) * 1000
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
	return w.pacePause(p.due[d])
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
	hard := w.gen.pace.hard
	if !chained || hard == nil {
		hard = w.gen.pace.stop
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
			if stopped(w.gen.pace.stop) {
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
	start := clock.Now()
	for end := start + p.spin; clock.Now() < end; {
	}
	w.pacePause(start + p.think)
	end := clock.Now()
	p.lastThink = end
	if p.ignoreRate {
		for d := range p.due {
			if p.due[d] != 0 {
				p.due[d] += end - start
			}
		}
	}
}

// seedPoisson seeds rate_process=poisson's streams, one per direction,
// from the job's seed slots, as fio does.
func (p *pacer) seedPoisson(seeds *[nSeeds]uint64) {
	for d, slot := range [3]int{seedPoisson, seedPoisson2, seedPoisson3} {
		p.pRng[d].Seed(seeds[slot], false)
	}
}
