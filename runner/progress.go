package runner

import (
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/runner/diskutil"
	"github.com/gofio/gofio/stats"
)

// JobState is where a job is in its life. The status line shows one
// character per job for it.
type JobState uint32

// The states, in the order a job goes through them.
const (
	StatePending   JobState = iota // not started: waiting for a stonewall or its startdelay
	StateSetup                     // started, opening its files
	StateRamp                      // doing I/O within its ramp_time
	StateRunning                   // doing I/O
	StateFsyncing                  // end_fsync
	StateFinishing                 // I/O over, gathering its statistics
	StateDone                      // ended without an error
	StateFailed                    // ended with an error
)

// Ended reports whether the job has ended, with or without an error.
func (s JobState) Ended() bool { return s >= StateDone }

// publishEvery is how often a running worker publishes its counters: the
// only moment it touches shared memory.
const publishEvery = 50 * time.Millisecond

// JobStatus is a snapshot of one job, as the status line needs it.
type JobStatus struct {
	State JobState
	// Files is the number of files the job has open (its nrfiles once it
	// runs, 0 before).
	Files int
	// Ran is the time since the start of the job's I/O (0 before).
	Ran time.Duration
	// Bytes and IOs are the completed bytes and I/Os per direction, as of
	// the worker's last publication (at most publishEvery old).
	Bytes, IOs [stats.NDirs]uint64
	// TotalBytes is what the job is set to move: io_size, or size ×
	// loops.
	TotalBytes uint64
}

// Progress is the live view of a run: each job's state and counters as
// its worker last published them, and full reports on request. Workers
// publish from their sampling path at most every publishEvery, so the I/O
// loop takes no lock and makes no atomic access per I/O. A Progress is
// safe for concurrent use.
type Progress struct {
	jobs    []jobProgress
	genesis atomic.Int64 // nanotime when the jobs were started; 0 before
	started chan struct{}

	mu   sync.Mutex
	live *liveRun // what a live report is built from; nil before genesis
}

// jobProgress is what one worker publishes.
type jobProgress struct {
	state atomic.Uint32
	files atomic.Int32
	epoch atomic.Int64 // nanotime of the start of I/O; 0 before
	total atomic.Uint64
	tid   atomic.Int32
	bytes [stats.NDirs]atomic.Uint64
	ios   [stats.NDirs]atomic.Uint64

	// want asks the worker for a copy of its statistics; the worker
	// clears it once snap holds the copy. snap is made at the first
	// request: a stats.Job is large, and most runs ask for none.
	want atomic.Bool
	mu   sync.Mutex
	snap *stats.Job
}

// liveRun is what a live report needs from Run.
type liveRun struct {
	plan  *jobspec.Plan
	tasks []*task
	disks *diskutil.Tracker
	// errs are the setup errors known when the jobs started.
	errs []taskErr
}

type taskErr struct {
	err unix.Errno
	fn  string
}

// NewProgress returns the live view for a run of plan's jobs, every job
// pending.
func NewProgress(plan *jobspec.Plan) *Progress {
	return &Progress{jobs: make([]jobProgress, len(plan.Jobs)), started: make(chan struct{})}
}

// Started is closed when the jobs start, after file layout.
func (p *Progress) Started() <-chan struct{} { return p.started }

// Elapsed returns the time since the jobs were started (0 before).
func (p *Progress) Elapsed() time.Duration {
	g := p.genesis.Load()
	if g == 0 {
		return 0
	}
	return time.Duration(clock.Now() - g)
}

// Snapshot fills st, one entry per job in plan order, and returns the time
// since the jobs were started. st must have one entry per job.
func (p *Progress) Snapshot(st []JobStatus) time.Duration {
	now := clock.Now()
	for i := range p.jobs {
		jp := &p.jobs[i]
		s := &st[i]
		s.State = JobState(jp.state.Load())
		s.Files = int(jp.files.Load())
		s.Ran = 0
		if e := jp.epoch.Load(); e != 0 {
			s.Ran = time.Duration(now - e)
		}
		for d := range s.Bytes {
			s.Bytes[d] = jp.bytes[d].Load()
			s.IOs[d] = jp.ios[d].Load()
		}
		s.TotalBytes = jp.total.Load()
	}
	g := p.genesis.Load()
	if g == 0 {
		return 0
	}
	return time.Duration(now - g)
}

// begin records the start of the jobs; Run calls it once, after layout.
func (p *Progress) begin(plan *jobspec.Plan, tasks []*task, disks *diskutil.Tracker) {
	live := &liveRun{plan: plan, tasks: tasks, disks: disks, errs: make([]taskErr, len(tasks))}
	for i, t := range tasks {
		live.errs[i] = taskErr{t.err, t.errFn}
	}
	p.mu.Lock()
	p.live = live
	p.mu.Unlock()
	p.genesis.Store(clock.Now())
	close(p.started)
}

func (p *Progress) setState(i int, s JobState) { p.jobs[i].state.Store(uint32(s)) }

func (p *Progress) state(i int) JobState { return JobState(p.jobs[i].state.Load()) }

// Report returns the report of the run so far, as --status-interval and
// SIGUSR1 print it, or nil before the jobs have started. Each running job
// is asked for a copy of its statistics at its next publication; a job
// that does not answer within wait (stuck in a long I/O) is shown as of
// its previous copy.
func (p *Progress) Report(wait time.Duration) *output.Result {
	p.mu.Lock()
	live := p.live
	p.mu.Unlock()
	if live == nil {
		return nil
	}
	asked := make([]bool, len(p.jobs))
	for i := range p.jobs {
		if s := p.state(i); s >= StateRamp && !s.Ended() {
			p.jobs[i].want.Store(true)
			asked[i] = true
		}
	}
	deadline := time.Now().Add(wait)
	for {
		pending := false
		for i := range p.jobs {
			if asked[i] && p.jobs[i].want.Load() && !p.state(i).Ended() {
				pending = true
			}
		}
		if !pending || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}

	tasks := make([]*task, len(live.tasks))
	for i, t := range live.tasks {
		c := &task{job: t.job, info: t.info, err: live.errs[i].err, errFn: live.errs[i].fn}
		jp := &p.jobs[i]
		switch s := p.state(i); {
		case s.Ended():
			// The worker is done with its statistics: the state was
			// stored after its last write.
			c.w = t.w
			if c.err == 0 && t.w != nil && t.w.err != 0 {
				c.err, c.errFn = t.w.err, t.w.errFunc
			}
		case s >= StateRamp:
			jp.want.Store(false)
			c.w = &worker{tid: int(jp.tid.Load()), epoch: jp.epoch.Load(), lim: limitsOf(t.w)}
			jp.mu.Lock()
			if jp.snap != nil {
				c.w.st = *jp.snap
			}
			jp.mu.Unlock()
		}
		tasks[i] = c
	}
	return buildResult(live.plan, tasks, live.disks, p.Elapsed())
}

// workerProgress is a worker's side of the live view.
type workerProgress struct {
	jp   *jobProgress
	next int64 // nanotime of the next publication
}

// progressStart publishes the start of the worker's I/O. It runs on the
// worker's thread, after the epoch is set.
func (w *worker) progressStart() {
	jp := w.prog.jp
	if jp == nil {
		return
	}
	total := w.totalLimit
	if total == 0 {
		total = w.regionBytes * uint64(w.job.Loops)
	}
	jp.total.Store(total)
	jp.tid.Store(int32(w.tid))
	jp.files.Store(int32(len(w.files)))
	w.publish(w.epoch)
}

// setState publishes a change of the worker's state.
func (w *worker) setState(s JobState) {
	if w.prog.jp != nil {
		w.prog.jp.state.Store(uint32(s))
	}
}

// progressTick publishes the worker's counters when publishEvery has
// passed. The I/O loops call it after completions; it costs one
// comparison.
func (w *worker) progressTick(now int64) {
	if now >= w.prog.next {
		w.publish(now)
	}
}

// publish stores the worker's counters for the status line and answers a
// pending report request.
func (w *worker) publish(now int64) {
	jp := w.prog.jp
	w.prog.next = now + int64(publishEvery)
	if jp == nil {
		return
	}
	for d := range jp.bytes {
		jp.bytes[d].Store(w.st.Dir[d].IOBytes)
		jp.ios[d].Store(w.blocks[d])
	}
	// The epoch moves when the ramp ends.
	jp.epoch.Store(w.epoch)
	if s := JobState(jp.state.Load()); s <= StateRunning {
		if w.ramping {
			jp.state.Store(uint32(StateRamp))
		} else {
			jp.state.Store(uint32(StateRunning))
		}
	}
	if jp.want.Load() {
		jp.mu.Lock()
		if jp.snap == nil {
			jp.snap = new(stats.Job)
		}
		w.liveStats(now, jp.snap)
		jp.mu.Unlock()
		jp.want.Store(false)
	}
}

// liveStats copies the worker's statistics into st as a report printed
// now shows them: run times up to now, CPU figures up to now.
func (w *worker) liveStats(now int64, st *stats.Job) {
	*st = w.st
	st.RuntimeMS = uint64(now-w.epoch) / 1e6
	// The loop in progress counts in whole milliseconds, as fio shows it.
	loop := uint64(now-w.loopStart) / 1e6 * 1000
	for d := range st.Dir {
		if st.Dir[d].IOBytes > 0 {
			st.Dir[d].RuntimeUS += loop
		}
	}
	var ru unix.Rusage
	unix.Getrusage(unix.RUSAGE_THREAD, &ru)
	ru0 := &w.ru0
	st.UsrMS = uint64(max(ru.Utime.Nano()-ru0.Utime.Nano(), 0)) / 1e6
	st.SysMS = uint64(max(ru.Stime.Nano()-ru0.Stime.Nano(), 0)) / 1e6
	st.Ctx = uint64(ru.Nvcsw + ru.Nivcsw - ru0.Nvcsw - ru0.Nivcsw)
	st.Majf = uint64(ru.Majflt - ru0.Majflt)
	st.Minf = uint64(ru.Minflt - ru0.Minflt)
	if w.smp != nil {
		bw, iops := w.smp.Results()
		for d := range st.Dir {
			st.Dir[d].BW, st.Dir[d].IOPS = bw[d], iops[d]
		}
	}
}
