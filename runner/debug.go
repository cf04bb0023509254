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
	w.gen.pace.dbg, w.gen.pace.tid = w.dbg, w.tid
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
	debuglog.Printf(debuglog.Process, debuglog.Pid, "will %s", how)
}
