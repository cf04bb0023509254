package runner

import (
	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// This file prints the --debug lines of a job's thread in fio's shapes
// (observed with fio 3.33 --debug=process,file,io,rate): the class, the
// thread id, then the message. The call sites test w.dbg first, so a run
// without --debug formats nothing.

// dprintf prints one line of class c for the worker's thread.
func (w *worker) dprintf(c debuglog.Class, format string, args ...any) {
	debuglog.Printf(c, w.tid, format, args...)
}

// debugIO prints fio's io line for u at step what ("queue", "complete"):
// the unit, its offset and length in hexadecimal, its direction as fio
// numbers them (0 read, 1 write, 2 trim, then the syncs) and its file.
func (w *worker) debugIO(what string, u *engine.IOUnit) {
	name := ""
	if u.File >= 0 && u.File < len(w.files) {
		name = w.files[u.File].path
	}
	w.dprintf(debuglog.IO, "%s: io_u %p: off=0x%x,len=0x%x,ddir=%d,file=%s", what, u, u.Offset, len(u.Buf), int(u.Op), name)
}

// debugRunstate prints fio's process line for a change of the job's
// state, in fio's names for the states.
func (w *worker) debugRunstate(from, to string) {
	w.dprintf(debuglog.Process, "pid=%d: runstate %s -> %s", w.tid, from, to)
}

// debugStart prints the lines of a job's thread starting and hands the
// rate pacer what it needs for its own lines.
func (w *worker) debugStart() {
	if w.dbg.On(debuglog.Process) {
		w.dprintf(debuglog.Process, "jobs pid=%d started", w.tid)
		w.debugRunstate("CREATED", "INITIALIZED")
	}
	if w.dbg.On(debuglog.IO) {
		w.dprintf(debuglog.IO, "load ioengine %s", w.engineName())
	}
	w.gen.pace.SetDebug(w.dbg, w.tid)
}

// engineName is the job's engine as fio names it.
func (w *worker) engineName() string {
	name, _ := jobspec.ResolveEngine(w.job.IOEngine)
	return name
}

// debugEngineEnd prints fio's io lines for the job's engine at its end.
func (w *worker) debugEngineEnd() {
	w.dprintf(debuglog.IO, "close ioengine %s", w.engineName())
	w.dprintf(debuglog.IO, "free ioengine %s", w.engineName())
}

// debugQueue prints fio's io lines for a unit about to be queued: a data
// unit is filled and prepared first.
func (w *worker) debugQueue(u *engine.IOUnit) {
	if u.Op.IsData() {
		w.debugIO("fill", u)
		w.debugIO("prep", u)
	}
	w.debugIO("queue", u)
}

// debugRunning prints the state change at the start of the job's I/O.
func (w *worker) debugRunning() {
	to := "RUNNING"
	if w.ramping {
		to = "RAMP"
	}
	w.debugRunstate("INITIALIZED", to)
}

// debugCreate prints fio's line for starting job j, from the main
// thread: fio forks a process for it, or starts a thread with thread=1
// (gofio always starts a thread).
func debugCreate(j *jobspec.Job) {
	how := "fork"
	if j.Thread {
		how = "pthread_create"
	}
	debuglog.Printf(debuglog.Process, debuglog.Pid, "pid=0: runstate NOT_CREATED -> CREATED")
	debuglog.Printf(debuglog.Process, debuglog.Pid, "will %s", how)
}

// debugSetup prints fio's process lines for setting up a job's files,
// from the main thread, before the job has a pid.
func debugSetup() {
	debuglog.Printf(debuglog.Process, debuglog.Pid, "pid=0: runstate NOT_CREATED -> SETTING_UP")
	debuglog.Printf(debuglog.Process, debuglog.Pid, "pid=0: runstate SETTING_UP -> NOT_CREATED")
}

// debugReaped prints fio's process lines for the jobs of a wave that
// ended, from the main thread.
func debugReaped(wave []*task) {
	for _, t := range wave {
		if t.w != nil {
			debuglog.Printf(debuglog.Process, debuglog.Pid, "pid=%d: runstate EXITED -> REAPED", t.w.tid)
		}
	}
}

// debugTerminate prints fio's process lines at the end of the run: fio
// tells every job to terminate, and each reaped one goes through
// FINISHING again.
func debugTerminate(tasks []*task) {
	debuglog.Printf(debuglog.Process, debuglog.Pid, "terminate group_id=-1")
	for _, t := range tasks {
		if t.w != nil {
			debuglog.Printf(debuglog.Process, debuglog.Pid, "setting terminate on %s/%d", t.job.Name, t.w.tid)
		}
	}
	for _, t := range tasks {
		if t.w != nil {
			debuglog.Printf(debuglog.Process, debuglog.Pid, "pid=%d: runstate REAPED -> FINISHING", t.w.tid)
			debuglog.Printf(debuglog.Process, debuglog.Pid, "pid=%d: runstate FINISHING -> REAPED", t.w.tid)
		}
	}
}

// drawOffset is the offset stream's draw of a random block index below
// n; with --debug=random it prints fio's line with the raw number drawn
// before it is scaled ("off rand 259043585").
func (w *worker) drawOffset(n uint64) uint64 {
	g := &w.gen
	if !w.dbg.On(debuglog.Random) {
		return g.offRng.Scale(n)
	}
	r := g.offRng.Next()
	w.dprintf(debuglog.Random, "off rand %d", r)
	return uint64(float64(n) * (float64(r) / g.offRng.Span())) // as rng.Stream.Scale
}

// debugVerifyChunks prints one of fio's verify lines per chunk of u
// (the block, or each verify_interval) stamped or checked with a
// checksum, format taking the type, the unit and the chunk's length;
// meta, pattern and null have none.
func (w *worker) debugVerifyChunks(u *engine.IOUnit, format string) {
	n := len(u.Buf)
	if format != "fill %s io_u %p, len %d" {
		n = u.Result
	}
	w.vfy.Chunks(len(u.Buf), n, func(l int) {
		w.dprintf(debuglog.Verify, format, w.job.Verify.Type, u, l)
	})
}

// debugFile prints a file line from the main thread, which sets up the
// jobs' files, if the class is on.
func debugFile(format string, args ...any) {
	if debuglog.On(debuglog.File) {
		debuglog.Printf(debuglog.File, debuglog.Pid, format, args...)
	}
}
