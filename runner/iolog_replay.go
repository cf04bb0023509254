package runner

// Replaying a trace (read_iolog): the trace, not the generator, gives
// each I/O's file, direction, offset and length, as in fio 3.33:
//
//   - The job's files are the trace's (added with "add"), or the one
//     replay_redirect names. They are opened with "open" (or on first
//     use) and closed with "close"; missing files are created empty, not
//     laid out.
//   - Each action waits for its time: the growth of the v3 timestamps
//     from one action to the next (a timestamp that goes back, as in a
//     log appended to, adds nothing), scaled by replay_time_scale. A v2
//     "wait N" waits until N ms after the job was set up (fio 3.33
//     counts from before startdelay; its manual says µs and relative).
//     replay_no_stall issues at once.
//   - replay_scale divides the offsets, then replay_align aligns them
//     down. replay_skip does not apply to these traces: fio 3.33 skips
//     only in blktrace replays, which gofio does not support.
//   - write_iolog is ignored ("fio: read iolog overrides write_iolog").
//   - The trace is replayed once, whatever loops says; size and io_size
//     do not bound it.
//   - A trace with no read, write or trim fails the job as in fio
//     ("failed initializing iolog"). --readonly drops writes and trims
//     (each trim with fio's "bad ddir: 2").
//   - read_iolog_chunked reads the trace while replaying it (a first pass
//     finds its files and largest I/O).

import (
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// traceLog is a parsed trace: its files and either all its actions or,
// chunked, a reader that gives them on demand.
type traceLog struct {
	names   []string
	actions []traceAction
	pos     int
	chunked *traceReader
	file    *os.File // the chunked reader's

	maxLen   uint64 // largest I/O
	writes   bool   // writes or trims present
	readonly bool   // --readonly: writes and trims dropped
}

// dropped reports whether the replay leaves out actions of kind k.
func (l *traceLog) dropped(k traceKind) bool {
	return l.readonly && (k == traceWrite || k == traceTrim)
}

// traceLogs hands the traces read while planning to the workers, by job.
var traceLogs sync.Map // *jobspec.Job -> *traceLog

// errNoIolog is fio's failure for a trace without I/O.
var errNoIolog = &setupError{errno: unix.EINVAL, fn: "failed initializing iolog", msgOnly: true,
	msg: "fio: pid=0, err=22/file:iolog.c:795, func=failed initializing iolog, error=Invalid argument"}

// planJobFiles works out the files of job j: the trace's for a replay
// (messages about its bad lines go to warn; readonly drops its writes and
// trims), else planFiles'.
func planJobFiles(j *jobspec.Job, warn io.Writer, readonly bool) ([]*jobFile, error) {
	if len(j.ReadIolog) > 0 {
		return planReplay(j, warn, readonly)
	}
	return planFiles(j)
}

// planReplay reads the trace job j replays and returns its files.
// Messages about bad lines go to warn. Under --readonly the trace's
// writes and trims are dropped, as in fio.
func planReplay(j *jobspec.Job, warn io.Writer, readonly bool) ([]*jobFile, error) {
	name := j.IologFor(j.JobNum)
	var src io.Reader
	if name == "-" {
		src = os.Stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("fio: open iolog: %w", err)
		}
		defer f.Close()
		src = f
	}
	if j.WriteIolog != "" {
		fmt.Fprintln(warn, "fio: read iolog overrides write_iolog")
	}
	r, err := newTraceReader(src, warn, j.ReplayRedirect)
	if err != nil {
		return nil, err
	}
	l := &traceLog{readonly: readonly}
	ios := 0
	var extent []uint64 // per file, the end of its furthest I/O
	for {
		a, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if l.dropped(a.kind) {
			if a.kind == traceTrim {
				fmt.Fprintf(warn, "bad ddir: %d\n", traceTrim) // fio's message
			}
			continue
		}
		if a.kind <= traceTrim {
			// Only reads, writes and trims count: a trace of syncs
			// fails as in fio.
			ios++
			l.maxLen = max(l.maxLen, a.len)
			for len(extent) <= a.file {
				extent = append(extent, 0)
			}
			extent[a.file] = max(extent[a.file], a.off+a.len)
			l.writes = l.writes || a.kind != traceRead
		}
		if !j.ReadIologChunked || name == "-" {
			l.actions = append(l.actions, a)
		}
	}
	if ios == 0 {
		return nil, errNoIolog
	}
	l.names = r.names
	if j.ReadIologChunked && name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("fio: open iolog: %w", err)
		}
		if l.chunked, err = newTraceReader(f, io.Discard, j.ReplayRedirect); err != nil {
			f.Close()
			return nil, err
		}
		l.file = f
	}
	traceLogs.Store(j, l)
	// A file's region is what the trace reaches in it; the trace, not the
	// region, bounds the I/O.
	files := make([]*jobFile, len(l.names))
	for i, n := range l.names {
		size := uint64(4096)
		if i < len(extent) {
			size = max(size, extent[i])
		}
		files[i] = &jobFile{path: n, fd: -1, size: size}
	}
	return files, nil
}

// replayMaxBS is the largest I/O of the trace job j replays (0 without
// one): the buffers must hold it.
func replayMaxBS(j *jobspec.Job) uint64 {
	if l, ok := traceLogs.Load(j); ok {
		return l.(*traceLog).maxLen
	}
	return 0
}

// next returns the trace's next action.
func (l *traceLog) next() (traceAction, bool) {
	if l.chunked != nil {
		a, ok, err := l.chunked.next()
		return a, ok && err == nil
	}
	if l.pos >= len(l.actions) {
		return traceAction{}, false
	}
	l.pos++
	return l.actions[l.pos-1], true
}

// close releases the chunked reader's file.
func (l *traceLog) close() {
	if l.file != nil {
		l.file.Close()
		l.file = nil
	}
}

// replayer is the replay state of a worker.
type replayer struct {
	log       *traceLog
	started   bool
	due       int64  // when the next I/O is due (ns, monotonic)
	lastTS    uint64 // the last v3 timestamp
	noStall   bool
	timeScale int64
	scale     uint64
	alignMask uint64
	lastOff   int64
	ended     bool  // the trace is done
	base      int64 // the time v2 waits count from
}

// newReplayer takes the trace planned for job j.
func newReplayer(j *jobspec.Job) (*replayer, error) {
	v, ok := traceLogs.LoadAndDelete(j)
	if !ok {
		return nil, fmt.Errorf("read_iolog: no trace read for job %s", j.Name)
	}
	r := &replayer{log: v.(*traceLog), noStall: j.ReplayNoStall, timeScale: int64(max(j.ReplayTimeScale, 1)),
		scale: max(j.ReplayScale, 1), alignMask: ^uint64(0)}
	if j.ReplayAlign > 0 {
		r.alignMask = ^(j.ReplayAlign - 1)
	}
	return r, nil
}

// wait adds the delay of µs microseconds of trace time, scaled by
// replay_time_scale.
func (r *replayer) wait(us uint64) {
	if !r.noStall {
		r.due += int64(us) * 1000 * 100 / r.timeScale
	}
}

// replayNext fills u with the trace's next I/O, doing its file actions
// and waiting for its time. It returns false at the trace's end.
func (w *worker) replayNext(u *engine.IOUnit) bool {
	r := w.trace.replay
	if !r.started {
		r.started, r.due = true, clock.Now()
		r.base = r.due - int64(w.job.StartDelay)*1000
	}
	for {
		a, ok := r.log.next()
		if !ok {
			r.ended = true
			return false
		}
		if a.file >= len(w.files) || r.log.dropped(a.kind) {
			continue // a file the first pass did not see (changed trace)
		}
		switch {
		case a.kind == traceWait:
			// fio 3.33 takes a v2 wait for a time in milliseconds since
			// the job was set up (startdelay included), whatever
			// replay_time_scale.
			if !r.noStall {
				r.due = max(r.due, r.base+int64(a.ts)*1000)
			}
			continue
		case a.ts > r.lastTS:
			r.wait(a.ts - r.lastTS)
		}
		r.lastTS = a.ts
		if !r.noStall && !w.pauseUntil(r.due) {
			return false
		}
		switch a.kind {
		case traceAdd:
			continue
		case traceOpen:
			if !w.openFile(a.file, 0) {
				return false
			}
			continue
		case traceClose:
			if w.reaper == nil {
				// An async engine may still have I/O on the file: it
				// stays open until the replay ends.
				w.closeFile(a.file)
			}
			continue
		}
		if !w.openFile(a.file, 0) {
			return false
		}
		f := w.files[a.file]
		off := int64((a.off / r.scale) & r.alignMask)
		switch a.kind {
		case traceSync, traceDatasync:
			op := engine.OpFsync
			if a.kind == traceDatasync {
				op = engine.OpFdatasync
			}
			u.Op, u.File, u.FD, u.Offset = op, a.file, f.fd, r.lastOff
			u.Buf = u.Buf[:0]
		default:
			w.fillUnit(u, engine.Op(a.kind), a.file, f.fd, off, a.len)
			r.lastOff = off
			w.ios++
			w.loopIssued += a.len
			w.totalIssued += a.len
		}
		return true
	}
}
