// Package pace paces a job's I/O: the rate caps (rate, rate_iops) and
// think time (thinktime).
//
// A capped direction has a due time for its next I/O; an I/O of b bytes
// moves it on by b/rate seconds (or 1/rate_iops, whichever is longer, and
// with rate_process=poisson by an exponentially distributed multiple of
// that), and the job sleeps until the direction it picked is due. Due
// times start at the direction's first I/O and run on from there, so a
// job that fell behind (after a think time) catches up, as fio does unless
// rate_ignore_thinktime is set. Think time pauses the job after every
// thinktime_blocks I/Os (counted at completion, or at issue with
// thinktime_blocks_type=issue) or after thinktime_iotime of I/O, spinning
// thinktime_spin of it and sleeping the rest. Nothing here allocates.
package pace

import (
	"math"

	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// Pacer is a job's rate and think-time state.
type Pacer struct {
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

	dbg debuglog.Mask // --debug=rate lines
	tid int
}

// Init reads job j's rate and think-time options.
func (p *Pacer) Init(j *jobspec.Job) {
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

// Issued moves direction d's due time on for an I/O of n bytes issued at
// now.
func (p *Pacer) Issued(d stats.Dir, n uint64, now int64) {
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

// DueFirst returns d, or in a mixed job the other of read and write
// when d is not due at now and the other is due sooner (each direction
// keeps to its own cap, as in fio).
func (p *Pacer) DueFirst(d stats.Dir, now int64) stats.Dir {
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

// NotDue reports whether no direction the job issues may issue at now
// (the async loop then reaps before it waits, so the wait does not count
// in the completion latency of the I/Os in flight).
func (p *Pacer) NotDue(now int64) bool {
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

// SeedPoisson seeds rate_process=poisson's streams, one per direction,
// as fio does.
func (p *Pacer) SeedPoisson(seeds [3]uint64) {
	for d, s := range seeds {
		p.pRng[d].Seed(s, false)
	}
}

// SetDebug turns --debug=rate lines on (dbg) for the job's thread tid.
func (p *Pacer) SetDebug(dbg debuglog.Mask, tid int) { p.dbg, p.tid = dbg, tid }

// Rated reports whether a rate cap applies to the job.
func (p *Pacer) Rated() bool { return p.rated }

// Thinks reports whether the job has a think time.
func (p *Pacer) Thinks() bool { return p.think != 0 }

// Due is when direction d may issue its next I/O; 0 when whenever.
func (p *Pacer) Due(d stats.Dir) int64 {
	if !p.rated || d >= 3 {
		return 0
	}
	return p.due[d]
}

// ThinkDue counts n I/Os (issued or completed, as issueSide says) at now
// and reports whether the think time is due; it then returns the think
// time's spin and its whole length, in ns.
func (p *Pacer) ThinkDue(n int, issueSide bool, now int64) (spin, think int64, due bool) {
	if p.think == 0 || n == 0 || issueSide != p.issueSide {
		return 0, 0, false
	}
	if p.lastThink == 0 {
		p.lastThink = now
	}
	p.count += n
	if p.count < p.blocks && (p.iotime == 0 || now-p.lastThink < p.iotime) {
		return 0, 0, false
	}
	p.count = 0
	return p.spin, p.think, true
}

// Thought notes a think time taken from start to end: the next one
// counts from end, and with rate_ignore_thinktime the due times move on
// by its length.
func (p *Pacer) Thought(start, end int64) {
	p.lastThink = end
	if p.ignoreRate {
		for d := range p.due {
			if p.due[d] != 0 {
				p.due[d] += end - start
			}
		}
	}
}
