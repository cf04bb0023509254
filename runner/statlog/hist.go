package statlog

import (
	"bufio"
	"fmt"
	"os"
	"strconv"

	"github.com/gofio/gofio/stats"
)

// histLog is a job's write_hist_log: completion latency histograms of
// each direction, one line per log_hist_msec window. fio 3.33's rule, as
// fitted to its output on rate-limited jobs: each completion's clat joins
// its direction's histogram; then, if the previous completion of the job
// came log_hist_msec or more after the start of the direction's window,
// a line is logged at this completion's time with the window's counts,
// the histogram is emptied and the next window starts at the previous
// completion's time rounded down to a multiple of log_hist_msec. (So at
// 1000 I/Os per second and 100 ms, lines come at 101, 201, … ms; at 10
// per second and 150 ms, at 300 and 400 ms.) The window still open when
// the job ends is not logged. A line is "time, direction, block size,
// bins…", with stats.HistBuckets>>log_hist_coarseness bins, each the sum
// of 2^coarseness buckets.
type histLog struct {
	msec   int64 // log_hist_msec; 0 logs nothing
	coarse uint
	cur    [stats.NDirs]*stats.Hist
	last   [stats.NDirs]int64 // start of each direction's window (ms since the epoch)
	prev   int64              // time of the previous completion (ms since the epoch)
	lines  []histLine
	bins   []uint64 // the lines' bins, in chunks (see pool)
}

// histLine is one logged window.
type histLine struct {
	at   int64 // ns, nanotime's clock
	dir  uint8
	bs   uint32
	bins []uint64
}

func newHistLog(msec, coarseness int) *histLog {
	h := &histLog{msec: int64(msec), coarse: uint(min(coarseness, 16))}
	if h.msec > 0 {
		for d := range h.cur {
			h.cur[d] = new(stats.Hist)
		}
		h.lines = make([]histLine, 0, 64)
	}
	return h
}

// nbins is the number of bins of a line.
func (h *histLog) nbins() int { return stats.HistBuckets >> h.coarse }

// add counts a completion of direction d with latency clat at time at.
func (h *histLog) add(d stats.Dir, at, epoch int64, clat uint64, bs uint32) {
	if h.msec == 0 {
		return
	}
	h.cur[d].Add(clat)
	prev := h.prev
	h.prev = max(at-epoch, 0) / 1e6
	if prev-h.last[d] >= h.msec {
		h.flush(d, at, bs, prev)
	}
}

// flush logs d's window at time at, empties it and starts the next
// window at prev (ms since the epoch) rounded down to a multiple of
// msec.
func (h *histLog) flush(d stats.Dir, at int64, bs uint32, prev int64) {
	h.last[d] = prev - prev%h.msec
	n := h.nbins()
	if len(h.bins)+n > cap(h.bins) {
		// Lines come at most every log_hist_msec: a new chunk of 64
		// lines' bins now and then is no per-I/O cost.
		h.bins = make([]uint64, 0, 64*n)
	}
	bins := h.bins[len(h.bins) : len(h.bins)+n]
	h.bins = h.bins[:len(h.bins)+n]
	hist := h.cur[d]
	group := 1 << h.coarse
	for i := range bins {
		var sum uint64
		for _, c := range hist[i*group : (i+1)*group] {
			sum += c
		}
		bins[i] = sum
	}
	*hist = stats.Hist{}
	h.lines = append(h.lines, histLine{at: at, dir: uint8(d), bs: bs, bins: bins})
}

// writeFile writes the lines to the file name, as (*Logs).writeFile
// does for the other logs.
func (h *histLog) writeFile(l *Logs, name string, epoch int64) error {
	f, err := l.openLog(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	var b []byte
	for i := range h.lines {
		ln := &h.lines[i]
		b = strconv.AppendInt(b[:0], l.logMS(ln.at, epoch), 10)
		b = append(b, ", "...)
		b = strconv.AppendUint(b, uint64(ln.dir), 10)
		b = append(b, ", "...)
		b = strconv.AppendUint(b, uint64(ln.bs), 10)
		for _, v := range ln.bins {
			b = append(b, ", "...)
			b = strconv.AppendUint(b, v, 10)
		}
		b = append(b, '\n')
		bw.Write(b)
	}
	return closeLog(f, bw, name)
}

// closeLog flushes and closes a log file.
func closeLog(f *os.File, bw *bufio.Writer, name string) error {
	err := bw.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		// fio 3.33 loses a log it cannot write (a full disk) without a
		// word; gofio says so (docs/compat.md), and the job is not failed.
		return fmt.Errorf("gofio: writing log %s: %w", name, err)
	}
	return nil
}
