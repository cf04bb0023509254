package trace

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
//     only in blktrace replays (blktrace.go).
//   - write_iolog is ignored ("fio: read iolog overrides write_iolog").
//   - The trace is replayed once, whatever loops says; size and io_size
//     do not bound it.
//   - A trace with no read, write or trim fails the job as in fio
//     ("failed initializing iolog"). --readonly drops writes and trims
//     (each trim with fio's "bad ddir: 2").
//   - read_iolog_chunked reads the trace while replaying it (a first pass
//     finds its files and largest I/O).

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gofio/gofio/jobspec"
)

// Log is a parsed trace: its files and either all its actions or,
// chunked, a reader that gives them on demand.
type Log struct {
	// Names are the trace's files, in the order of their indexes.
	Names []string
	// Extents are, per file, the end of its furthest I/O; files past
	// the end of the slice have none.
	Extents []uint64
	// MaxLen is the largest I/O: the buffers must hold it.
	MaxLen uint64
	// Writes says whether writes or trims are present, Reads whether
	// reads are.
	Writes, Reads bool
	// Depth is a blktrace's queue depth, which becomes the job's iodepth
	// unless iodepth is given; 0 for other traces.
	Depth int

	blktrace bool // a blktrace: syncs are issued at offset 0

	actions []Action
	pos     int
	chunked *reader
	file    *os.File // the chunked reader's

	readonly bool // --readonly: writes and trims dropped
}

// dropped reports whether the replay leaves out actions of kind k.
func (l *Log) dropped(k Kind) bool {
	return l.readonly && (k == Write || k == Trim)
}

// ErrNoIO is Load's error for a trace without a read, write or trim,
// which fails the job as in fio ("failed initializing iolog").
var ErrNoIO = errors.New("read_iolog: the trace has no I/O")

// ErrUnreadable is Load's error for an empty trace, which fails the job
// as in fio ("unable to read iolog", func=iolog read).
var ErrUnreadable = errors.New("fio: unable to read iolog")

// Load reads the trace job j replays. Messages about bad lines go to
// warn. Under --readonly the trace's writes and trims are dropped, as in
// fio.
func Load(j *jobspec.Job, warn io.Writer, readonly bool) (*Log, error) {
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
	br := bufio.NewReaderSize(src, 64<<10)
	// fio looks for a blktrace's magic in a file, not in stdin: a short
	// read there, or a text trace's header that is not known, is
	// preceded by "short read on blktrace file".
	stdin := name == "-"
	head, _ := br.Peek(4)
	switch {
	case len(head) == 0:
		if !stdin {
			fmt.Fprintln(warn, "fio: short read on blktrace file")
		}
		return nil, ErrUnreadable
	case isBlktrace(head) && !stdin:
		return loadBlktrace(j, br, warn, readonly)
	}
	r, err := newReader(br, warn, j.ReplayRedirect)
	if errors.Is(err, errVersion1) && !stdin {
		return nil, fmt.Errorf("fio: short read on blktrace file\n%w", err)
	}
	if err != nil {
		return nil, err
	}
	l := &Log{readonly: readonly}
	ios := 0
	for {
		a, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if !l.add(a, warn) {
			continue
		}
		if a.Kind <= Trim {
			// Only reads, writes and trims count: a trace of syncs
			// fails as in fio.
			ios++
		}
		if !j.ReadIologChunked || name == "-" {
			l.actions = append(l.actions, a)
		}
	}
	if ios == 0 {
		return nil, ErrNoIO
	}
	l.Names = r.names
	if j.ReadIologChunked && name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("fio: open iolog: %w", err)
		}
		if l.chunked, err = newReader(f, io.Discard, j.ReplayRedirect); err != nil {
			f.Close()
			return nil, err
		}
		l.file = f
	}
	return l, nil
}

// add accounts action a in the trace's extents and largest I/O; it
// returns false for an action the replay leaves out (--readonly).
func (l *Log) add(a Action, warn io.Writer) bool {
	if l.dropped(a.Kind) {
		if a.Kind == Trim {
			fmt.Fprintf(warn, "bad ddir: %d\n", Trim) // fio's message
		}
		return false
	}
	if a.Kind <= Trim {
		l.MaxLen = max(l.MaxLen, a.Len)
		for len(l.Extents) <= a.File {
			l.Extents = append(l.Extents, 0)
		}
		l.Extents[a.File] = max(l.Extents[a.File], a.Off+a.Len)
		l.Writes = l.Writes || a.Kind != Read
		l.Reads = l.Reads || a.Kind == Read
	}
	return true
}

// loadBlktrace reads the blktrace binary trace in r (blktrace.go).
func loadBlktrace(j *jobspec.Job, r io.Reader, warn io.Writer, readonly bool) (*Log, error) {
	p, err := parseBlktrace(r, warn, j.ReplayRedirect, j.ReplaySkip, FindBlockDevice)
	if err != nil {
		return nil, err
	}
	l := &Log{readonly: readonly, Names: p.names, Depth: p.depth, blktrace: true}
	skipped := 0
	for _, a := range p.actions {
		if l.dropped(a.Kind) {
			skipped++ // no "bad ddir" here: fio counts them
			continue
		}
		l.add(a, warn)
		l.actions = append(l.actions, a)
	}
	if skipped > 0 {
		fmt.Fprintf(warn, "fio: %s skips replay of %d writes due to read-only\n", j.Name, skipped)
	}
	if len(l.actions) == 0 {
		fmt.Fprintln(warn, "fio: found no ios in blktrace data")
		return nil, ErrNoIO
	}
	if l.MaxLen == 0 {
		// Flushes alone: fio 3.33 issues nothing.
		l.actions = nil
	}
	return l, nil
}

// next returns the trace's next action.
func (l *Log) next() (Action, bool) {
	if l.chunked != nil {
		a, ok, err := l.chunked.next()
		return a, ok && err == nil
	}
	if l.pos >= len(l.actions) {
		return Action{}, false
	}
	l.pos++
	return l.actions[l.pos-1], true
}

// close releases the chunked reader's file.
func (l *Log) close() {
	if l.file != nil {
		l.file.Close()
		l.file = nil
	}
}

// Replayer is the replay state of a worker: it gives the trace's actions
// and when each is due.
type Replayer struct {
	log       *Log
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
	syncAt0   bool  // a blktrace's syncs are at offset 0
}

// NewReplayer returns the replay of trace l by job j.
func NewReplayer(l *Log, j *jobspec.Job) *Replayer {
	r := &Replayer{log: l, noStall: j.ReplayNoStall, timeScale: int64(max(j.ReplayTimeScale, 1)),
		scale: max(j.ReplayScale, 1), alignMask: ^uint64(0), syncAt0: l.blktrace}
	if j.ReplayAlign > 0 {
		r.alignMask = ^(j.ReplayAlign - 1)
	}
	return r
}

// wait adds the delay of µs microseconds of trace time, scaled by
// replay_time_scale.
func (r *Replayer) wait(us uint64) {
	if !r.noStall {
		r.due += int64(us) * 1000 * 100 / r.timeScale
	}
}

// Started reports whether Start has been called.
func (r *Replayer) Started() bool { return r.started }

// Start starts the replay at now (ns, on the clock Due's times are on);
// the job was set up setup ns before (its startdelay), which v2 waits
// count from.
func (r *Replayer) Start(now, setup int64) {
	r.started, r.due = true, now
	r.base = r.due - setup
}

// Next returns the trace's next action on one of the job's nfiles files,
// having added its wait to the time it is due (Due). It returns false at
// the trace's end.
func (r *Replayer) Next(nfiles int) (Action, bool) {
	for {
		a, ok := r.log.next()
		if !ok {
			r.ended = true
			return a, false
		}
		if a.File >= nfiles || r.log.dropped(a.Kind) {
			continue // a file the first pass did not see (changed trace)
		}
		switch {
		case a.Kind == Wait:
			// fio 3.33 takes a v2 wait for a time in milliseconds since
			// the job was set up (startdelay included), whatever
			// replay_time_scale.
			if !r.noStall {
				r.due = max(r.due, r.base+int64(a.TS)*1000)
			}
			continue
		case a.TS > r.lastTS:
			r.wait(a.TS - r.lastTS)
		}
		r.lastTS = a.TS
		return a, true
	}
}

// Due returns when the action Next returned is due (ns), and whether to
// wait for it (not with replay_no_stall).
func (r *Replayer) Due() (int64, bool) { return r.due, !r.noStall }

// Ended reports whether the trace is done.
func (r *Replayer) Ended() bool { return r.ended }

// Offset returns the offset data action a is issued at: scaled by
// replay_scale, aligned by replay_align. A sync that follows is issued
// at it (LastOffset).
func (r *Replayer) Offset(a Action) int64 {
	r.lastOff = int64((a.Off / r.scale) & r.alignMask)
	return r.lastOff
}

// LastOffset returns the offset a sync is issued at: that of the last
// data action, or 0 in a blktrace replay (as fio 3.33 issues a flush).
func (r *Replayer) LastOffset() int64 {
	if r.syncAt0 {
		return 0
	}
	return r.lastOff
}

// Close releases the trace's file, if it is read while replaying.
func (r *Replayer) Close() { r.log.close() }
