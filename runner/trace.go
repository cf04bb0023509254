package runner

// The worker's I/O trace hooks: write_iolog records what the job issues
// (trace.Writer), read_iolog replays a trace in place of the generator
// (trace.Replayer). A job without either has a nil tracer and pays one
// branch per I/O (in next). The trace a job replays is read while
// planning (planJobFiles) and handed to its worker (newWorker).

import (
	"errors"
	"fmt"
	"io"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/trace"
)

// tracer is a worker's trace state.
type tracer struct {
	out   *trace.Writer // write_iolog; nil without
	added bool          // the files' add lines are written
	// skipped: the I/Os are not done (verify_only's write phase), so
	// they are not logged; file actions still are, as in fio 3.33.
	skipped bool
	replay  *trace.Replayer // read_iolog; nil without
}

// errNoIolog is fio's failure for a trace without I/O.
var errNoIolog = &setupError{errno: unix.EINVAL, fn: "failed initializing iolog", msgOnly: true,
	msg: "fio: pid=0, err=22/file:iolog.c:795, func=failed initializing iolog, error=Invalid argument"}

// errIologRead is fio's failure for an empty trace.
var errIologRead = &setupError{errno: unix.ENOENT, fn: "iolog read", msgOnly: true,
	msg: "fio: unable to read iolog\nfio: pid=0, err=2/file:iolog.c:704, func=iolog read, error=No such file or directory"}

// planJobFiles works out the files of job j: the trace's for a replay
// (messages about its bad lines go to warn; readonly drops its writes and
// trims), with the trace read, else planFiles'.
func planJobFiles(j *jobspec.Job, warn io.Writer, readonly bool) ([]*jobFile, *trace.Log, error) {
	if len(j.ReadIolog) > 0 {
		return planReplay(j, warn, readonly)
	}
	files, err := planFiles(j)
	return files, nil, err
}

// planReplay reads the trace job j replays and returns its files and the
// trace. Messages about bad lines go to warn. Under --readonly the
// trace's writes and trims are dropped, as in fio.
func planReplay(j *jobspec.Job, warn io.Writer, readonly bool) ([]*jobFile, *trace.Log, error) {
	if err := trace.MergeFor(j, warn); err != nil {
		return nil, nil, err
	}
	l, err := trace.Load(j, warn, readonly)
	switch {
	case errors.Is(err, trace.ErrNoIO):
		return nil, nil, errNoIolog
	case errors.Is(err, trace.ErrUnreadable):
		return nil, nil, errIologRead
	}
	if err != nil {
		return nil, nil, err
	}
	if l.Depth > 0 && !givenOption(j, "iodepth") {
		// A blktrace's queue depth is the job's, unless iodepth is
		// given (fio 3.33).
		j.IODepth = l.Depth
	}
	// A file's region is what the trace reaches in it; the trace, not the
	// region, bounds the I/O.
	files := make([]*jobFile, len(l.Names))
	for i, n := range l.Names {
		size := uint64(4096)
		if i < len(l.Extents) {
			size = max(size, l.Extents[i])
		}
		files[i] = &jobFile{path: n, fd: -1, size: size}
	}
	return files, l, nil
}

// givenOption reports whether option name is set for job j.
func givenOption(j *jobspec.Job, name string) bool {
	for _, o := range j.Options {
		if o.Name == name {
			return true
		}
	}
	return false
}

// replayMaxBS is the largest I/O of trace l (0 without one): the buffers
// must hold it.
func replayMaxBS(l *trace.Log) uint64 {
	if l != nil {
		return l.MaxLen
	}
	return 0
}

// newTracer sets up w's traces, replay being the trace planned for a
// read_iolog job; it returns nil for a job without any.
func newTracer(w *worker, replay *trace.Log) (*tracer, error) {
	j := w.job
	if j.WriteIolog == "" && len(j.ReadIolog) == 0 {
		return nil, nil
	}
	t := &tracer{}
	if len(j.ReadIolog) > 0 {
		if replay == nil {
			return nil, fmt.Errorf("read_iolog: no trace read for job %s", j.Name)
		}
		t.replay = trace.NewReplayer(replay, j)
		// The trace decides the directions: open the files for writing
		// when it writes.
		w.writes = w.writes || replay.Writes
		if w.vfy != nil && replay.Writes {
			w.vfy.ReplayWrites()
			w.vfy.mixed = replay.Reads
		}
	}
	if j.WriteIolog != "" && t.replay == nil { // a replay writes none, as in fio
		out, err := trace.NewWriter(j.WriteIolog)
		if err != nil {
			t.close()
			return nil, fmt.Errorf("%w\nfio: job %s failed to set up write_iolog", err, j.Name)
		}
		t.out = out
	}
	return t, nil
}

// traceNext is next for a job with a trace: the replayed or generated
// I/O, logged when the job writes a trace.
func (w *worker) traceNext(u *engine.IOUnit, now int64) bool {
	t := w.trace
	if t.out != nil && !t.added {
		t.added = true
		for _, f := range w.files {
			t.out.FileAction(f.path, "add", clock.Now()-w.epoch)
		}
	}
	var ok bool
	switch {
	case t.replay != nil && (w.vfy == nil || !w.vfy.Reading):
		// With verify the replayed writes carry fio's header; the
		// verify phase after the replay reads them back (verify.go).
		if ok = w.replayNext(u); ok && w.vfy != nil && u.Op == engine.OpWrite {
			w.stampVerify(u)
		}
	case w.vfy != nil:
		ok = w.nextVerified(u, now) // verify.go
	default:
		ok = w.nextIO(u, now)
	}
	if ok && t.out != nil && !t.skipped {
		t.io(w.files[u.File].path, u, clock.Now()-w.epoch)
	}
	return ok
}

// traceFile logs an action on file fi: open, close, or the sync of
// end_fsync.
func (w *worker) traceFile(fi int, action string) {
	t := w.trace
	if t == nil || t.out == nil {
		return
	}
	ns := clock.Now() - w.epoch
	if action == "sync" {
		t.io(w.files[fi].path, &engine.IOUnit{Op: engine.OpFsync}, ns)
		return
	}
	t.out.FileAction(w.files[fi].path, action, ns)
}

// traceOpNames are the actions fio logs for each operation.
var traceOpNames = [...]string{
	engine.OpRead: "read", engine.OpWrite: "write", engine.OpTrim: "trim", engine.OpFsync: "sync",
	engine.OpFdatasync: "datasync", engine.OpSyncFileRange: "sync_file_range",
}

// io logs the I/O in u on the named file at ns since the start.
func (t *tracer) io(name string, u *engine.IOUnit, ns int64) {
	if !u.Op.IsData() {
		t.out.Sync(name, traceOpNames[u.Op], ns)
		return
	}
	t.out.IO(name, traceOpNames[u.Op], u.Offset, len(u.Buf), ns)
}

// close ends the traces: the written one is flushed.
func (t *tracer) close() {
	if t.out != nil {
		t.out.Close()
		t.out = nil
	}
	if t.replay != nil {
		t.replay.Close()
	}
}

// replayNext fills u with the trace's next I/O, doing its file actions
// and waiting for its time. It returns false at the trace's end.
func (w *worker) replayNext(u *engine.IOUnit) bool {
	r := w.trace.replay
	if !r.Started() {
		r.Start(clock.Now(), int64(w.job.StartDelay)*1000)
	}
	for {
		a, ok := r.Next(len(w.files))
		if !ok {
			return false
		}
		if due, wait := r.Due(); wait && !w.pauseUntil(due) {
			return false
		}
		switch a.Kind {
		case trace.Add:
			continue
		case trace.Open:
			if !w.openFile(a.File, 0) {
				return false
			}
			continue
		case trace.Close:
			if w.reaper == nil {
				// An async engine may still have I/O on the file: it
				// stays open until the replay ends.
				w.closeFile(a.File)
			}
			continue
		}
		if !w.openFile(a.File, 0) {
			return false
		}
		f := w.files[a.File]
		switch a.Kind {
		case trace.Sync, trace.Datasync:
			op := engine.OpFsync
			if a.Kind == trace.Datasync {
				op = engine.OpFdatasync
			}
			u.Op, u.File, u.FD, u.Offset = op, a.File, f.fd, r.LastOffset()
			u.Buf = u.Buf[:0]
		default:
			w.fillUnit(u, engine.Op(a.Kind), a.File, f.fd, r.Offset(a), a.Len)
			w.ios++
			w.loopIssued += a.Len
			w.totalIssued += a.Len
		}
		return true
	}
}
