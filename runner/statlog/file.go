package statlog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
)

// logFileMu serialises the writing of log files: with per_job_logs=0 the
// jobs of a run append to the same files.
var logFileMu sync.Mutex

// logFileName returns the name of a log file, as fio 3.33 names them:
// PREFIX_SUFFIX.N.log, N the job's number in the run (1-based, counting
// every job and clone), or PREFIX_SUFFIX.log with per_job_logs=0.
func logFileName(prefix, suffix string, num int, perJob bool) string {
	if perJob {
		return prefix + "_" + suffix + "." + strconv.Itoa(num) + ".log"
	}
	return prefix + "_" + suffix + ".log"
}

// Write writes the logs, num being the job's number in the run and
// epoch its epoch (the end of ramp_time, ns); End must have closed them.
// Failures are reported on errs, as fio does, and do not fail the job.
func (l *Logs) Write(num int, epoch int64, errs io.Writer) {
	logFileMu.Lock()
	defer logFileMu.Unlock()
	for _, g := range []struct {
		log    *ioLog
		prefix string
	}{
		{l.bw, l.opts.BWLogPrefix},
		{l.iops, l.opts.IOPSLogPrefix},
		{l.slat, l.opts.LatLogPrefix},
		{l.clat, l.opts.LatLogPrefix},
		{l.lat, l.opts.LatLogPrefix},
	} {
		if g.log == nil {
			continue
		}
		prefix := g.prefix
		if prefix == "" {
			prefix = l.name
		}
		name := logFileName(prefix, g.log.suffix, num, l.opts.PerJobLogs)
		write := l.writeFile
		if l.opts.LogStoreCompressed {
			write = l.writeFileCompressed // compress.go
		}
		if err := write(name, g.log, epoch); err != nil {
			fmt.Fprintln(errs, err)
		}
	}
	if l.hist != nil {
		prefix := l.opts.HistLogPrefix
		if prefix == "" {
			prefix = l.name
		}
		if err := l.hist.writeFile(l, logFileName(prefix, "clat_hist", num, l.opts.PerJobLogs), epoch); err != nil {
			fmt.Fprintln(errs, err)
		}
	}
}

// openLog opens the log file name: truncated with per_job_logs, appended
// to without (fio 3.33 appends then, also across runs). The error is
// fio's message.
func (l *Logs) openLog(name string) (*os.File, error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !l.opts.PerJobLogs {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(name, flags, 0o644)
	if err != nil {
		var e unix.Errno
		if errors.As(err, &e) {
			return nil, fmt.Errorf("fopen log: %s", errno.Text(e))
		}
		return nil, fmt.Errorf("fopen log: %w", err)
	}
	return f, nil
}

// writeFile writes log to the file name.
func (l *Logs) writeFile(name string, log *ioLog, epoch int64) error {
	f, err := l.openLog(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	var line []byte
	log.entries(func(e *logEntry) {
		line = l.appendEntry(line[:0], e, epoch)
		bw.Write(line)
	})
	return closeLog(f, bw, name)
}

// logMS is the time column of an entry taken at (ns, on the monotonic
// clock): ms since the epoch, or on the log_unix_epoch /
// log_alternate_epoch clock.
func (l *Logs) logMS(at, epoch int64) int64 {
	if l.alt {
		return (at + l.altOffset) / 1e6
	}
	return max(at-epoch, 0) / 1e6
}

// appendEntry appends e's line to b: "time, value, direction, block
// size[, offset], priority": with log_prio the I/O's ioprio value as
// 0x%04x, else 1 for the realtime class and 0 for others, as fio 3.33
// prints them. Time is ms since the epoch, or on the log_unix_epoch /
// log_alternate_epoch clock.
func (l *Logs) appendEntry(b []byte, e *logEntry, epoch int64) []byte {
	b = strconv.AppendInt(b, l.logMS(e.at, epoch), 10)
	b = append(b, ", "...)
	b = strconv.AppendUint(b, e.val, 10)
	b = append(b, ", "...)
	b = strconv.AppendUint(b, uint64(e.dir), 10)
	b = append(b, ", "...)
	b = strconv.AppendUint(b, uint64(e.bs), 10)
	if l.opts.LogOffset {
		b = append(b, ", "...)
		b = strconv.AppendUint(b, e.off, 10)
	}
	switch {
	case l.opts.LogPrio:
		const hex = "0123456789abcdef"
		p := e.prio
		b = append(b, ", 0x"...)
		b = append(b, hex[p>>12&15], hex[p>>8&15], hex[p>>4&15], hex[p&15], '\n')
	case e.prio>>13 == 1:
		b = append(b, ", 1\n"...) // a realtime-class I/O
	default:
		b = append(b, ", 0\n"...)
	}
	return b
}

// altClock reads clock id (log_alternate_epoch_clock_id) in ns.
func altClock(id int) int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(int32(id), &ts); err != nil {
		unix.ClockGettime(unix.CLOCK_REALTIME, &ts)
	}
	return ts.Nano()
}
