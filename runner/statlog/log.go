// Package statlog keeps a job's statistics logs (write_bw_log,
// write_iops_log, write_lat_log, write_hist_log) while it runs and writes
// them when it ends, as fio 3.33 does: the samples, their log_avg_msec
// windows, log_compression and log_store_compressed, and --inflate-log.
package statlog

import (
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// This file keeps a job's I/O logs (write_bw_log, write_iops_log,
// write_lat_log; write_hist_log in hist.go) in memory while the job runs; file.go writes them
// when it ends, as fio does.
//
// fio 3.33's behaviour, as observed:
//   - per-I/O logging (log_avg_msec=0): one line per completed data I/O
//     that the statistics count (none in ramp_time, no syncs): clat, lat
//     and the bw value bytes×10⁶/clat_ns are logged at completion, slat
//     at submission (so sync engines leave the slat log empty), and iops
//     is always 1. These per-I/O bw and iops values are also the job's
//     bw and iops samples (stats-algorithms.md §3.2);
//   - windowed latency logs: per direction, each sample joins the window;
//     when a completion comes log_avg_msec or more after the window's
//     start the window's mean (or max, log_max_value) is logged at that
//     time and the next window starts at the completion time rounded down
//     to a multiple of log_avg_msec; what is left is logged when the job
//     ends, at its end time;
//   - windowed bw and iops logs are the helper thread's samples
//     (stats.Sampler), taken every log_avg_msec;
//   - windowed lines have block size and offset 0; times are ms since the
//     job's epoch (the end of ramp_time).

// logEntry is one line of a log.
type logEntry struct {
	at   int64  // when, ns on nanotime's clock
	val  uint64 // the value: ns, KiB/s or I/Os per second
	off  uint64 // offset of the I/O (0 for a window)
	bs   uint32 // block size (0 for a window)
	dir  uint8
	prio uint16 // the I/O's priority, ioprio_set's value (0 for a window)
}

// ioLog is one log file's entries, in chunks that are allocated ahead,
// so that adding an entry is an append into spare capacity.
type ioLog struct {
	suffix string // "bw", "iops", "slat", "clat", "lat"
	chunks [][]logEntry
	cur    []logEntry
	next   int // size of the next chunk
	win    [stats.NDirs]logWindow
	zip    *logZip // log_compression: the full chunks, compressed (compress.go)
}

// logWindow is one direction's log_avg_msec window of a latency log.
type logWindow struct {
	sum, max, n uint64
	start       int64 // ms since the epoch
}

// maxChunk caps the growth of the chunks (entries).
const maxChunk = 1 << 20

func newIOLog(suffix string, entries int) *ioLog {
	l := &ioLog{suffix: suffix, next: max(entries, 1024)}
	l.grow()
	return l
}

// add appends e; it allocates only when the current chunk is full. With
// log_compression a full chunk is compressed, and the chunk reused.
func (l *ioLog) add(e logEntry) {
	if len(l.cur) == cap(l.cur) {
		if l.zip != nil {
			l.zip.compress(l.cur)
			l.cur = l.cur[:0]
		} else {
			l.grow()
		}
	}
	l.cur = append(l.cur, e)
}

// grow starts a new chunk, each one twice the size of the last.
func (l *ioLog) grow() {
	if l.cur != nil {
		l.chunks = append(l.chunks, l.cur)
	}
	l.cur = make([]logEntry, 0, l.next)
	l.next = min(2*l.next, maxChunk)
}

// entries calls f with every entry in order.
func (l *ioLog) entries(f func(e *logEntry)) {
	if l.zip != nil {
		l.zip.entries(f)
	}
	for _, c := range l.chunks {
		for i := range c {
			f(&c[i])
		}
	}
	for i := range l.cur {
		f(&l.cur[i])
	}
}

// len returns the number of entries not compressed.
func (l *ioLog) len() int {
	n := len(l.cur)
	for _, c := range l.chunks {
		n += len(c)
	}
	return n
}

// sample logs a latency-style value v for direction d at time at: as an
// entry of its own when avg (ms) is 0, else into d's window, which is
// logged once it spans avg ms or more.
func (l *ioLog) sample(d stats.Dir, at, epoch, avg int64, maxVal bool, v, off uint64, bs uint32, prio uint16) {
	if avg == 0 {
		l.add(logEntry{at: at, val: v, off: off, bs: bs, dir: uint8(d), prio: prio})
		return
	}
	w := &l.win[d]
	w.sum += v
	w.n++
	w.max = max(w.max, v)
	ms := max(at-epoch, 0) / 1e6
	if ms-w.start >= avg {
		l.flush(d, at, maxVal)
		w.start = ms - ms%avg
	}
}

// flush logs d's window at time at, if it holds samples, and empties it.
func (l *ioLog) flush(d stats.Dir, at int64, maxVal bool) {
	w := &l.win[d]
	if w.n == 0 {
		return
	}
	v := w.sum / w.n
	if maxVal {
		v = w.max
	}
	l.add(logEntry{at: at, val: v, dir: uint8(d)})
	w.sum, w.max, w.n = 0, 0, 0
}

// Logs are the logs of one job; nil when it writes none.
type Logs struct {
	opts   jobspec.LogOptions
	name   string // the job's name: the default prefix
	avg    int64  // log_avg_msec
	maxVal bool

	bw, iops         *ioLog
	slat, clat, lat  *ioLog
	bwPerIO, iopsPer bool // per-I/O bw / iops samples (period 0)
	hist             *histLog

	// bwAcc and iopsAcc are the per-I/O samples' statistics, which
	// replace the sampler's when bwPerIO / iopsPer.
	bwAcc, iopsAcc [stats.NDirs]stats.Accum

	// prio is the job's I/O priority (prio, prioclass) as ioprio_set
	// takes it: class<<13 | level; every I/O of the job has it.
	prio uint16

	// altOffset turns nanotime into the log_unix_epoch /
	// log_alternate_epoch clock (ns); alt says whether to.
	altOffset int64
	alt       bool
}

// Intervals returns the bw and iops sampling intervals (ms) of job j,
// 0 meaning a sample per I/O. A bw (iops) log takes them over (stats-
// algorithms.md §3.2): with log_avg_msec=0 every I/O is a sample, else
// the interval is log_avg_msec, or bwavgtime (iopsavgtime) if that was
// given. (Observed on fio 3.33: bwavgtime=800 with log_avg_msec=300
// samples every 800 ms, bwavgtime=300 with log_avg_msec=0 every I/O.)
func Intervals(j *jobspec.Job) (bw, iops int) {
	bw, iops = j.BWAvgTime, j.IOPSAvgTime
	if j.WriteBWLog && (j.LogAvgMsec == 0 || !j.BWAvgTimeSet) {
		bw = j.LogAvgMsec
	}
	if j.WriteIOPSLog && (j.LogAvgMsec == 0 || !j.IOPSAvgTimeSet) {
		iops = j.LogAvgMsec
	}
	return bw, iops
}

// New returns j's logs, or nil when it writes none. prio is the job's
// I/O priority as ioprio_set takes it, which every I/O of the job has
// unless its engine gives it another; now is the time on the clock the
// samples are taken on (ns), which the log_unix_epoch and
// log_alternate_epoch clocks are set against.
func New(j *jobspec.Job, prio uint16, now int64) *Logs {
	if !j.WriteBWLog && !j.WriteIOPSLog && !j.WriteLatLog && !j.WriteHistLog {
		return nil
	}
	l := &Logs{opts: j.LogOptions, name: j.Name, avg: int64(j.LogAvgMsec), maxVal: j.LogMaxValue}
	bw, iops := Intervals(j)
	// fio takes no per-I/O bw samples with disable_bw_measurement, and
	// no per-I/O iops samples either when every time measurement is off
	// (gtod_reduce); the files are still written, empty. A latency log
	// file exists only for the latencies measured.
	timed := !(j.DisableBWMeasurement && j.DisableClat && j.DisableLat && j.DisableSlat)
	if j.WriteBWLog {
		l.bw = newIOLog("bw", j.LogEntries)
		l.bwPerIO = bw == 0 && !j.DisableBWMeasurement
	}
	if j.WriteIOPSLog {
		l.iops = newIOLog("iops", j.LogEntries)
		l.iopsPer = iops == 0 && timed
	}
	if j.WriteLatLog {
		if !j.DisableSlat {
			l.slat = newIOLog("slat", j.LogEntries)
		}
		if !j.DisableClat {
			l.clat = newIOLog("clat", j.LogEntries)
		}
		if !j.DisableLat {
			l.lat = newIOLog("lat", j.LogEntries)
		}
	}
	if j.LogCompression > 0 {
		for _, log := range []*ioLog{l.bw, l.iops, l.slat, l.clat, l.lat} {
			if log != nil {
				log.setCompression(j.LogCompression, j.LogOffset, j.LogCompressionCPUs)
			}
		}
	}
	l.prio = prio
	if j.WriteHistLog {
		l.hist = newHistLog(j.LogHistMsec, j.LogHistCoarseness)
	}
	if j.LogUnixEpoch || j.LogAlternateEpoch {
		l.alt = true
		l.altOffset = altClock(j.LogAlternateEpochClockID) - now
	}
	return l
}

// Attach sends sampler s's samples to the windowed bw and iops logs, bw
// and iops being the sampler's intervals (ms), as Intervals gives them.
func (l *Logs) Attach(s *stats.Sampler, bw, iops int) {
	s.SetRecorder(l.record, l.bw != nil && bw > 0, l.iops != nil && iops > 0)
}

// record logs a sampler's sample; it runs on the ticker's goroutine,
// which alone touches the windowed bw and iops logs.
func (l *Logs) record(iops bool, d stats.Dir, at int64, v uint64) {
	log := l.bw
	if iops {
		log = l.iops
	}
	log.add(logEntry{at: at, val: v, dir: uint8(d)})
}

// Complete logs the completion of a data I/O in direction d, counted by
// the statistics: at offset off, of block size bs, with priority prio
// (0: the job's), started at start, issued at issue and done at done;
// bytes is what it moved. epoch is the job's epoch (the end of
// ramp_time); times are ns on the clock New was given.
func (l *Logs) Complete(d stats.Dir, off uint64, bs uint32, prio uint16, bytes uint64, start, issue, done, epoch int64) {
	clat := uint64(max(done-issue, 0))
	prio = l.unitPrio(prio)
	if l.clat != nil {
		l.clat.sample(d, done, epoch, l.avg, l.maxVal, clat, off, bs, prio)
	}
	if l.lat != nil {
		l.lat.sample(d, done, epoch, l.avg, l.maxVal, uint64(max(done-start, 0)), off, bs, prio)
	}
	if l.hist != nil {
		l.hist.add(d, done, epoch, clat, bs)
	}
	if l.bwPerIO {
		v := bytes * 1e6 / max(clat, 1)
		l.bwAcc[d].Add(v)
		l.bw.add(logEntry{at: done, val: v, off: off, bs: bs, dir: uint8(d), prio: prio})
	}
	if l.iopsPer {
		l.iopsAcc[d].Add(1)
		l.iops.add(logEntry{at: done, val: 1, off: off, bs: bs, dir: uint8(d), prio: prio})
	}
}

// unitPrio is the priority logged for an I/O of priority p: the one its
// engine gave it (cmdprio options), else the job's.
func (l *Logs) unitPrio(p uint16) uint16 {
	if p != 0 {
		return p
	}
	return l.prio
}

// Submitted logs the submission latency slat of an I/O in direction d
// at offset off, of block size bs and priority prio (0: the job's),
// issued at issue.
func (l *Logs) Submitted(d stats.Dir, slat, off uint64, bs uint32, prio uint16, issue, epoch int64) {
	if l.slat != nil {
		l.slat.sample(d, issue, epoch, l.avg, l.maxVal, slat, off, bs, l.unitPrio(prio))
	}
}

// End closes the logs of a job that ended at end: the latency windows
// still open are logged then, and per-I/O bw and iops samples replace
// the sampler's statistics in st.
func (l *Logs) End(st *stats.Job, end int64) {
	if l.avg > 0 {
		for _, log := range []*ioLog{l.slat, l.clat, l.lat} {
			if log == nil {
				continue
			}
			for d := range stats.NDirs {
				log.flush(stats.Dir(d), end, l.maxVal)
			}
		}
	}
	for d := range st.Dir {
		if l.bwPerIO {
			st.Dir[d].BW = l.bwAcc[d]
		}
		if l.iopsPer {
			st.Dir[d].IOPS = l.iopsAcc[d]
		}
	}
}
