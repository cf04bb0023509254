package runner

// The worker's I/O trace hooks: write_iolog records what the job issues
// (iolog_write.go), read_iolog replays a trace in place of the generator
// (iolog_replay.go). A job without either has a nil tracer and pays one
// branch per I/O (in next).

import (
	"errors"
	"fmt"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/runner/engine"
)

// tracer is a worker's trace state.
type tracer struct {
	out    *traceWriter // write_iolog; nil without
	replay *replayer    // read_iolog; nil without
}

// newTracer sets up w's traces; it returns nil for a job without any.
func newTracer(w *worker) (*tracer, error) {
	j := w.job
	if j.WriteIolog == "" && len(j.ReadIolog) == 0 {
		return nil, nil
	}
	t := &tracer{}
	if len(j.ReadIolog) > 0 {
		if w.vfy != nil {
			return nil, errors.New("fio: read_iolog with verify is not supported yet")
		}
		r, err := newReplayer(j)
		if err != nil {
			return nil, err
		}
		t.replay = r
		// The trace decides the directions: open the files for writing
		// when it writes.
		w.writes = w.writes || r.log.writes
	}
	if j.WriteIolog != "" && t.replay == nil { // a replay writes none, as in fio
		out, err := newTraceWriter(j.WriteIolog)
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
	if t.out != nil && !t.out.added {
		t.out.added = true
		for _, f := range w.files {
			t.out.fileAction(f.path, "add", clock.Now()-w.epoch)
		}
	}
	var ok bool
	switch {
	case t.replay != nil:
		ok = w.replayNext(u)
	case w.vfy != nil:
		ok = w.nextVerified(u, now) // verify.go
	default:
		ok = w.nextIO(u, now)
	}
	if ok && t.out != nil {
		t.out.io(w.files[u.File].path, u, clock.Now()-w.epoch)
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
		t.out.io(w.files[fi].path, &engine.IOUnit{Op: engine.OpFsync}, ns)
		return
	}
	t.out.fileAction(w.files[fi].path, action, ns)
}

// close ends the traces: the written one is flushed.
func (t *tracer) close() {
	if t.out != nil {
		t.out.close()
		t.out = nil
	}
	if t.replay != nil {
		t.replay.log.close()
	}
}
