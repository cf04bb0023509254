package trace

// Merging blktraces (merge_blktrace_file), as fio's manual describes it:
// the traces read_iolog names are merged, in the order of their events'
// times, into one blktrace, which the job then replays. For each trace,
// merge_blktrace_scalars gives a percentage its times are scaled by
// (100: as traced) and merge_blktrace_iters how many times it is
// repeated (1: once), each repetition starting where the last ended.
//
// The merged file holds the events fio replays from each trace (queue
// events of a read, write or discard), unchanged but for their time
//
//	(time + iteration × length) × scalar / 100
//
// where length is the time of the trace's last such event, and without
// their payload (pdu_len 0); it is written little-endian. Events at the
// same time keep the order of the traces.
//
// fio 3.33 never merges: its merge always fails with "fio: iolog short
// read" and leaves the file empty (a bug fixed after 3.33, fio commit
// c55d29ef); gofio merges as the manual says (docs/compat.md).

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gofio/gofio/jobspec"
)

// MergeCountError is the error of a scalars or iterations list whose
// length is not the number of traces.
type MergeCountError struct {
	Option  string
	N, Logs int
}

func (e *MergeCountError) Error() string {
	return fmt.Sprintf("fio: %s(%d) != nr_logs(%d)", e.Option, e.N, e.Logs)
}

// mergeCursor is one trace being merged.
type mergeCursor struct {
	path   string
	events []BlkEvent // the trace's replayed events
	pos    int
	iter   int
	iters  int
	scalar float64
	length uint64
	cur    BlkEvent // the next event, its time scaled
}

// Merge merges the blktraces paths into the file out. scalars and iters,
// when not empty, give each trace's time scale (percent) and number of
// iterations.
func Merge(out string, paths []string, scalars, iters []float64) error {
	if len(scalars) > 0 && len(scalars) != len(paths) {
		return &MergeCountError{"merge_blktrace_scalars", len(scalars), len(paths)}
	}
	if len(iters) > 0 && len(iters) != len(paths) {
		return &MergeCountError{"merge_blktrace_iters", len(iters), len(paths)}
	}
	var cs []*mergeCursor
	for i, p := range paths {
		c := &mergeCursor{path: p, scalar: 100, iters: 1}
		if len(scalars) > 0 {
			c.scalar = scalars[i]
		}
		if len(iters) > 0 {
			c.iters = int(iters[i])
		}
		evs, err := mergeEvents(p)
		if err != nil {
			return err
		}
		c.events = evs
		if len(evs) > 0 {
			c.length = evs[len(evs)-1].Time
		}
		if c.iters > 0 && c.load() {
			cs = append(cs, c)
		}
	}
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("fio: merge_blktrace_file: %w", err)
	}
	w := bufio.NewWriterSize(f, 128<<10)
	buf := make([]byte, 0, blkRecordLen)
	for len(cs) > 0 {
		best := 0
		for i, c := range cs {
			if c.cur.Time < cs[best].cur.Time {
				best = i
			}
		}
		c := cs[best]
		e := c.cur
		e.PDULen = 0
		w.Write(e.encode(buf[:0]))
		if !c.advance() {
			cs = append(cs[:best], cs[best+1:]...)
		}
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("fio: merge_blktrace_file: %w", err)
	}
	return nil
}

// load sets cur to the event at pos; false when the trace has none.
func (c *mergeCursor) load() bool {
	if c.pos >= len(c.events) {
		return false
	}
	c.cur = c.events[c.pos]
	c.cur.Time = uint64(float64(c.cur.Time+uint64(c.iter)*c.length) * c.scalar / 100)
	return true
}

// advance moves to the next event, starting the next iteration at the
// trace's end; false when the trace is done.
func (c *mergeCursor) advance() bool {
	c.pos++
	if c.pos >= len(c.events) {
		c.iter++
		if c.iter >= c.iters {
			return false
		}
		c.pos = 0
	}
	return c.load()
}

// mergeEvents reads the events of the blktrace at path that a merge keeps.
func mergeEvents(path string) ([]BlkEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("fio: open iolog: %w", err)
	}
	defer f.Close()
	return readMergeEvents(f, path)
}

// readMergeEvents reads the events a merge keeps from the blktrace in r.
func readMergeEvents(r io.Reader, name string) ([]BlkEvent, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if head, _ := br.Peek(4); !isBlktrace(head) {
		return nil, fmt.Errorf("fio: %s is not a blktrace", name)
	}
	b := newBlkReader(br)
	var out []BlkEvent
	for {
		e, ok, err := b.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		if e.isQueue() && e.Action&(blkCatRead|blkCatWrite|blkCatDiscard) != 0 {
			out = append(out, e)
		}
	}
}

// MergeFor merges the blktraces job j names when it sets
// merge_blktrace_file, and makes the merged file the one it replays. A
// scalars or iterations list of the wrong length is reported on warn and
// the traces are replayed unmerged, as in fio 3.33.
func MergeFor(j *jobspec.Job, warn io.Writer) error {
	if j.MergeBlktraceFile == "" || len(j.ReadIolog) == 0 {
		return nil
	}
	err := Merge(j.MergeBlktraceFile, j.ReadIolog, j.MergeBlktraceScalars, j.MergeBlktraceIters)
	var ce *MergeCountError
	switch {
	case errors.As(err, &ce):
		fmt.Fprintln(warn, ce)
		return nil
	case err != nil:
		return err
	}
	j.ReadIolog = []string{j.MergeBlktraceFile}
	return nil
}
