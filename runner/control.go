package runner

import (
	"fmt"
	"sync"
	"time"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
)

// control decides when jobs stop early: on Config.Stop (signals) every
// job; once any job ends, when some job of the run has exitall (fio
// 3.33's exitall is one flag for the whole run, as its status line's ETA
// shows), or when a job with exitall_on_error ends in error, the jobs its
// exit_what names. Each job has its own stop channel, which
// its worker polls between I/Os.
type control struct {
	tasks []*task
	index map[*task]int
	prog  *Progress

	mu      sync.Mutex
	stops   []chan struct{}
	closed  []bool
	halted  bool          // start no more jobs
	exitAll bool          // some job has exitall: every job's end stops others
	sig     chan struct{} // closed by stopAll: a signal, which cuts pauses short
	done    chan struct{}
	// ends are closed when each task's job has ended or will not start
	// (wait_for waits on them).
	ends  []chan struct{}
	ended []bool
}

func newControl(tasks []*task, prog *Progress, cfg Config) *control {
	c := &control{
		tasks:  tasks,
		prog:   prog,
		stops:  make([]chan struct{}, len(tasks)),
		closed: make([]bool, len(tasks)),
		done:   make(chan struct{}),
		sig:    make(chan struct{}),
		index:  make(map[*task]int, len(tasks)),
	}
	c.ends, c.ended = make([]chan struct{}, len(tasks)), make([]bool, len(tasks))
	for i, t := range tasks {
		c.stops[i] = make(chan struct{})
		c.ends[i] = make(chan struct{})
		c.index[t] = i
		c.exitAll = c.exitAll || t.job.ExitAll
	}
	if stopped(cfg.Stop) {
		// Stopped already (during the layouts): no job starts.
		c.stopAll()
	} else if cfg.Stop != nil {
		go func() {
			select {
			case <-cfg.Stop:
				c.stopAll()
			case <-c.done:
			}
		}()
	}
	return c
}

// close ends the watch on Config.Stop.
func (c *control) close() { close(c.done) }

// stop returns t's stop channel.
func (c *control) stop(t *task) <-chan struct{} { return c.stops[c.index[t]] }

// attach connects t's new worker, whose thread setup is made, to the
// live view and the error stream.
func (c *control) attach(t *task) {
	t.w.prog.jp = &c.prog.jobs[c.index[t]]
	t.w.ioerr.out = t.w.ts.errs
	t.w.ioerr.info = t.w.ts.info
}

// stopAll stops every job and starts no more.
func (c *control) stopAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.halted {
		close(c.sig)
	}
	c.halted = true
	for i := range c.stops {
		c.closeLocked(i)
	}
}

func (c *control) closeLocked(i int) {
	if !c.closed[i] {
		c.closed[i] = true
		close(c.stops[i])
	}
}

// startable reports whether more jobs may start.
func (c *control) startable() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.halted
}

// wait sleeps through t's startdelay. It returns false when the job was
// stopped during it: like a job fio has not created yet, it never starts.
// A job stopped before it got to its I/O still starts, does none, and is
// reported, as fio reports a job it created.
func (c *control) wait(t *task) bool {
	i := c.index[t]
	if name := t.job.WaitFor; name != "" && name != t.job.Name {
		// wait_for: as in fio, the job starts once every job of that
		// name has ended.
		for k, o := range c.tasks {
			if o.job.Name != name {
				continue
			}
			select {
			case <-c.ends[k]:
			case <-c.stops[i]:
				return false
			}
		}
	}
	if d := t.job.StartDelay; d > 0 {
		t := time.NewTimer(time.Duration(d) * time.Microsecond)
		defer t.Stop()
		select {
		case <-t.C:
		case <-c.stops[i]:
			return false
		}
	}
	c.prog.setState(i, StateSetup)
	return true
}

// end records that t's job has ended, or will not start.
func (c *control) end(t *task) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := c.index[t]; !c.ended[i] {
		c.ended[i] = true
		close(c.ends[i])
	}
}

// finished records the end of t's worker: its last counters, its final
// state, fio's error line, and exitall.
func (c *control) finished(t *task) {
	i := c.index[t]
	w := t.w
	w.publish(clock.Now())
	if w.err != 0 {
		// fio prints a job's error on its info stream when the job failed
		// during its I/O or setting up its thread (thread.go), on stderr
		// when it failed before.
		out := w.ts.errs
		if w.epoch != 0 || w.ts.errInfo {
			out = w.ts.info
		}
		fmt.Fprintf(out, "fio: pid=%d, err=%d/file:runner, func=%s, error=%s\n", w.tid, int(w.err), w.errFunc, errno.Text(w.err))
		c.prog.setState(i, StateFailed)
	} else {
		c.prog.setState(i, StateDone)
	}
	if w.dbg.On(debuglog.Process) {
		w.debugRunstate("FINISHING", "EXITED")
	}
	if !t.info.NoIO {
		c.ioJobDone(t)
	}
	j := t.job
	if !c.exitAll && !(j.ExitAllOnError && w.err != 0) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, o := range c.tasks {
		switch j.ExitWhat {
		case jobspec.ExitGroup:
			if o.job.GroupID == j.GroupID {
				c.closeLocked(k)
			}
		case jobspec.ExitStonewall:
			if s := c.prog.state(k); s >= StateRunning && !s.Ended() {
				c.closeLocked(k)
			}
		case jobspec.ExitEverything:
			// Later jobs still start, stopped: fio reports them.
			c.closeLocked(k)
		}
	}
}

// ioJobDone stops the cpuio jobs with exit_on_io_done once t, an I/O
// job, has ended and no other I/O job is left, running or still to start
// (observed in fio 3.33: a cpuio job ends when the last I/O job does,
// one in its startdelay included; with no I/O job at all it runs its
// runtime).
func (c *control) ioJobDone(t *task) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, o := range c.tasks {
		if o != t && !o.info.NoIO && !o.skipped && !c.prog.state(k).Ended() {
			return
		}
	}
	for k, o := range c.tasks {
		if o.info.NoIO && o.job.EngineOptions.ExitOnIODone {
			c.closeLocked(k)
		}
	}
}

// neverStarted reports whether t was stopped (by a signal or exitall)
// before it started: fio reports nothing for such a job.
func neverStarted(t *task) bool {
	return t.err == 0 && (t.w == nil || t.w.epoch == 0)
}
