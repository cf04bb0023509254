package main

import (
	"sync"
	"time"

	"github.com/gofio/gofio/netio"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/runner"
	"github.com/gofio/gofio/stats"
)

// serverETA answers SEND_ETA from a running job's live progress, with
// the numbers gofio's own status line shows (eta.go).
type serverETA struct {
	mu        sync.Mutex
	prog      *runner.Progress
	names     []string // the jobs' names
	line      *statusLine
	threads   int
	prevAt    time.Duration
	prevBytes [stats.NDirs]uint64
	prevIOs   [stats.NDirs]uint64
}

// set starts answering for a run (nil prog: no run).
func (e *serverETA) set(prog *runner.Progress, line *statusLine, names []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.prog, e.line, e.threads, e.names = prog, line, len(names), names
	e.prevAt, e.prevBytes, e.prevIOs = 0, [stats.NDirs]uint64{}, [stats.NDirs]uint64{}
}

// eta returns the jobs_eta of now: 168 zero bytes before the jobs start.
func (e *serverETA) eta() netio.ETA {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.prog == nil {
		return netio.ETA{}
	}
	st := make([]runner.JobStatus, e.threads)
	since := e.prog.Snapshot(st)
	var r netio.ETA
	var bytes, ios [stats.NDirs]uint64
	chars := make([]byte, 0, len(st))
	for i := range st {
		js := &st[i]
		switch js.State {
		case runner.StateRamp:
			r.Running++
			r.Ramp++
		case runner.StateRunning, runner.StateFsyncing, runner.StateFinishing:
			r.Running++
			r.FilesOpen += uint32(js.Files)
		case runner.StateSetup:
			r.SettingUp++
		case runner.StatePending:
			r.Pending++
		}
		for d := range bytes {
			bytes[d] += js.Bytes[d]
			ios[d] += js.IOs[d]
		}
		chars = append(chars, stateChar(js.State, e.line.jobs[i].char))
	}
	if ms := uint64((since - e.prevAt) / time.Millisecond); ms > 0 {
		for d := range bytes {
			r.RateKiB[d] = sub(bytes[d], e.prevBytes[d]) * 1000 / ms / 1024
			r.IOPS[d] = uint32(sub(ios[d], e.prevIOs[d]) * 1000 / ms)
		}
	}
	e.prevAt, e.prevBytes, e.prevIOs = since, bytes, ios
	elapsed := ceilSeconds(since)
	r.ElapsedSec = elapsed
	r.ETASec = e.line.eta(st, elapsed)
	if e.line.pow2 {
		r.IsPow2 = 1
	}
	r.UnitBase, r.SigFigs = 4, 4
	if e.line.bits {
		r.UnitBase = 5
	}
	r.Threads = uint32(e.threads)
	r.RunStr = output.CondenseStates(chars)
	return r
}

var _ netio.VerifyStater = (*serverBackend)(nil)

// VerifyStates returns the running jobs' verify state for a VTRIGGER:
// per job thread its name and its writes so far.
func (b *serverBackend) VerifyStates() []netio.VerifyState {
	return b.live.verifyStates()
}

// verifyStates returns the jobs' verify state, none without a run.
func (e *serverETA) verifyStates() []netio.VerifyState {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.prog == nil {
		return nil
	}
	return verifyStates(e.prog, e.names)
}

// verifyStates returns, per job of the run, its name and its writes.
func verifyStates(prog *runner.Progress, names []string) []netio.VerifyState {
	st := make([]runner.JobStatus, len(names))
	prog.Snapshot(st)
	out := make([]netio.VerifyState, len(names))
	for i := range st {
		out[i] = netio.VerifyState{Name: names[i], NumberIO: st[i].IOs[stats.Write]}
	}
	return out
}
