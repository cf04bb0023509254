package main

import (
	"strings"
	"time"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/runner"
	"github.com/gofio/gofio/stats"
)

// etaJob is what the status line needs to know of one job besides its
// live status.
type etaJob struct {
	// char is the job's character while it does I/O: R/r read, W/w
	// write, M/m mixed, D/d trim; upper case for sequential.
	char      byte
	runtime   uint64 // whole seconds; 0 when unset
	ramp      uint64 // ramp_time, whole seconds
	before    uint64 // whole seconds of runtime + startdelay + ramp_time
	timeBased bool
	stonewall bool
}

func newETAJob(j *jobspec.Job) etaJob {
	e := etaJob{
		char:      runChar(j),
		runtime:   j.Runtime / 1e6,
		ramp:      j.RampTime / 1e6,
		before:    (j.Runtime + j.StartDelay + j.RampTime) / 1e6,
		timeBased: j.TimeBased,
		stonewall: j.Stonewall,
	}
	return e
}

// runChar is the status character of job j while it does I/O.
func runChar(j *jobspec.Job) byte {
	var c byte
	switch {
	case j.RW.Reads() && j.RW.Writes():
		switch j.RWMixRead {
		case 100:
			c = 'R'
		case 0:
			c = 'W'
		default:
			c = 'M'
		}
	case j.RW.Reads():
		c = 'R'
	case j.RW.Writes():
		c = 'W'
	default:
		c = 'D'
	}
	if j.RW.Random() {
		c += 'a' - 'A'
	}
	return c
}

// statusLine samples the run for fio's status lines ("Jobs: 1 (f=1):
// [r(1)][45.0%][r=56.2MiB/s][r=14.4k IOPS][eta 00m:11s]"), which
// output.StatusLine renders, and keeps what one line needs from the
// previous ones: the totals and time of the last printed line, its
// length for padding, the --eta-newline mark.
type statusLine struct {
	jobs    []etaJob
	exitAll bool // any job has exitall: the ETA is the smallest estimate
	unified bool // any job has unified_rw_reporting: all directions as r=
	pow2    bool // any job has kb_base=1024
	bits    bool // unit_base=1 (of the last job): rates in bit/s
	newline time.Duration

	ref       time.Duration // reference time for cadence and rates
	prevBytes [stats.NDirs]uint64
	prevIOs   [stats.NDirs]uint64
	pctShown  bool
	prevLen   int
	printed   bool
	mark      time.Duration // the last --eta-newline mark
	breakNext bool          // start the next line with a newline
}

func newStatusLine(plan *jobspec.Plan, newline time.Duration) *statusLine {
	s := &statusLine{newline: newline}
	for _, j := range plan.Jobs {
		s.jobs = append(s.jobs, newETAJob(j))
		s.exitAll = s.exitAll || j.ExitAll
		s.unified = s.unified || j.UnifiedRWReporting != 0
		s.pow2 = s.pow2 || j.KBBase == 1024
		s.bits = j.UnitBase == 1
	}
	return s
}

// due reports whether a line is due at since (time since the jobs
// started): 95 % of the interval has passed since the last printed line,
// or since the start of the run as long as no byte has been counted.
func (s *statusLine) due(since, interval time.Duration) bool {
	return since-s.ref >= interval*95/100
}

// active reports whether some job is running or has yet to run; fio
// prints no line otherwise.
func active(st []runner.JobStatus) bool {
	for i := range st {
		if !st[i].State.Ended() {
			return true
		}
	}
	return false
}

// next returns the line for snapshot st taken at since, including its
// leading newline, padding and carriage return, and records it as printed.
func (s *statusLine) next(st []runner.JobStatus, since time.Duration) string {
	var ramp, setup int
	var bytes, ios [stats.NDirs]uint64
	snap := output.StatusSnapshot{Pow2: s.pow2, Bits: s.bits}
	for i := range st {
		j, js := &s.jobs[i], &st[i]
		switch js.State {
		case runner.StateRamp:
			snap.Running++
			ramp++
		case runner.StateRunning, runner.StateFsyncing, runner.StateFinishing:
			snap.Running++
			snap.Files += js.Files
		case runner.StateSetup:
			setup++
		}
		if js.State >= runner.StateRunning {
			for d := range bytes {
				to := d
				if s.unified {
					to = 0
				}
				bytes[to] += js.Bytes[d]
				ios[to] += js.IOs[d]
			}
		}
		snap.States = append(snap.States, stateChar(js.State, j.char))
	}
	elapsed := ceilSeconds(since)
	snap.ETA = s.eta(st, elapsed)
	if snap.Detailed() {
		if (snap.ETA == 0 && !s.pctShown) || ramp == snap.Running {
			snap.PercentUnknown = true
		} else {
			snap.Percent = float64(elapsed) / float64(elapsed+snap.ETA) * 100
			if setup > 0 {
				snap.Percent *= max(0, 1-float64(setup)/float64(snap.Running))
			}
			s.pctShown = true
		}
		if ms := uint64((since - s.ref) / time.Millisecond); ms > 0 {
			for d := range bytes {
				snap.KiBps[d] = sub(bytes[d], s.prevBytes[d]) * 1000 / ms / 1024
				snap.IOPS[d] = sub(ios[d], s.prevIOs[d]) * 1000 / ms
			}
		}
	}

	var b strings.Builder
	if s.breakNext {
		b.WriteByte('\n')
	}
	b.WriteString(output.StatusLine(&snap))
	if snap.Detailed() {
		n := b.Len()
		if !s.breakNext && n < s.prevLen {
			b.WriteString(strings.Repeat(" ", s.prevLen-n))
		}
		s.prevLen = n
	}
	b.WriteByte('\r')

	// The next line measures from this one, unless nothing was counted
	// yet: then from the start of the run.
	var total uint64
	for d := range bytes {
		total += bytes[d]
	}
	if total > 0 {
		s.ref = since
	}
	s.prevBytes, s.prevIOs = bytes, ios

	s.breakNext = false
	switch {
	case s.newline <= 0:
	case !s.printed:
		s.mark = since
	case (since - s.mark).Truncate(time.Millisecond) > s.newline:
		s.breakNext = true
		s.mark = since
	}
	s.printed = true
	return b.String()
}

// eta combines the jobs' estimates: the largest, plus those of jobs that
// wait for a stonewall; the smallest under exitall. During the first two
// seconds nothing is known.
func (s *statusLine) eta(st []runner.JobStatus, elapsed uint64) uint64 {
	if elapsed < 3 {
		return output.ETAUnknown
	}
	var eta, waiting uint64
	for i := range st {
		e := s.jobs[i].remaining(&st[i])
		switch {
		case s.exitAll:
			if i == 0 || e < eta {
				eta = e
			}
		case st[i].State == runner.StatePending && s.jobs[i].stonewall:
			waiting += e
		default:
			eta = max(eta, e)
		}
	}
	return eta + waiting
}

// remaining estimates the seconds job j has left.
//
// A running job with a runtime has at most runtime minus its elapsed
// seconds left, and a time_based job exactly that. fio 3.33 instead
// scales the elapsed time by the fraction of bytes done, caps it with a
// sum that adds the seconds of every job already finished, and lets an
// overrun wrap around, so its ETA for time_based jobs grows when another
// job ends and jumps to minutes at the end (docs/compat.md).
func (j *etaJob) remaining(js *runner.JobStatus) uint64 {
	ran := ceilSeconds(js.Ran)
	switch js.State {
	case runner.StatePending, runner.StateSetup:
		if j.runtime == 0 {
			return 0
		}
		return j.before
	case runner.StateRamp:
		if j.runtime == 0 {
			return 0
		}
		return sub(j.ramp+j.runtime, ran)
	case runner.StateRunning:
		if j.timeBased && j.runtime > 0 {
			return sub(j.runtime, ran)
		}
		var done uint64
		for _, b := range js.Bytes {
			done += b
		}
		f := 0.0
		if js.TotalBytes > 0 {
			f = min(1, float64(done)/float64(js.TotalBytes))
		}
		est := j.runtime
		if f > 0 {
			est = uint64(float64(ran)*(1/f)) - ran
		}
		if j.runtime > 0 {
			est = min(est, sub(j.runtime, ran))
		}
		return est
	}
	return 0
}

// sub is a - b, or 0 when b is larger.
func sub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// ceilSeconds is d in whole seconds, rounded up.
func ceilSeconds(d time.Duration) uint64 {
	ms := uint64(d / time.Millisecond)
	return (ms + 999) / 1000
}

// stateChar is the status character of a job in state s; run is its
// character while it does I/O.
func stateChar(s runner.JobState, run byte) byte {
	switch s {
	case runner.StatePending:
		return 'P'
	case runner.StateSetup:
		return 'I'
	case runner.StateRamp:
		return '/'
	case runner.StateRunning:
		return run
	case runner.StateFsyncing:
		return 'F'
	case runner.StateFinishing:
		return 'f'
	case runner.StateFailed:
		return 'X'
	}
	return '_'
}
