package jobspec

import (
	"fmt"
	"runtime"
)

// LogOptions are the options of the I/O logs a job writes when it ends
// (write_bw_log, write_iops_log, write_lat_log and their modifiers).
type LogOptions struct {
	// WriteBWLog, WriteIOPSLog and WriteLatLog switch the logs on; the
	// matching *Prefix is the file name prefix given as the option's
	// value ("" means the job name, resolved when the job runs).
	WriteBWLog, WriteIOPSLog, WriteLatLog    bool
	BWLogPrefix, IOPSLogPrefix, LatLogPrefix string
	LogAvgMsec                               int  // log_avg_msec: window in ms, 0 = every I/O
	LogMaxValue                              bool // log_max_value: window maximum instead of mean
	LogOffset                                bool // log_offset: add the offset column
	LogPrio                                  bool // log_prio: priority column as 0x%04x
	PerJobLogs                               bool // per_job_logs: ".N" job number in the names
	LogEntries                               int  // log_entries: initial entries (sizing only)
	LogUnixEpoch, LogAlternateEpoch          bool
	LogAlternateEpochClockID                 int
	BWAvgTimeSet, IOPSAvgTimeSet             bool // bwavgtime / iopsavgtime given explicitly

	// WriteHistLog is write_hist_log (prefix in HistLogPrefix): the clat
	// histogram every LogHistMsec ms (none when 0), with 1856>>coarseness
	// bins.
	WriteHistLog      bool
	HistLogPrefix     string
	LogHistMsec       int
	LogHistCoarseness int

	// LogCompression is log_compression: the bw, iops and latency logs
	// are kept in memory as zlib chunks of about this many bytes of
	// fio's binary samples (0: uncompressed). LogStoreCompressed is
	// log_store_compressed: those logs are written as NAME.fz, zlib
	// streams of the binary samples that --inflate-log reads.
	LogCompression     int
	LogStoreCompressed bool
}

// setLogCompressionCPUs stores log_compression_cpus (cpus_allowed's
// syntax; the reader has checked the CPUs exist here).
func setLogCompressionCPUs(j *Job, value string) error {
	cpus, _ := cpuList(value, runtime.NumCPU())
	j.LogCompressionCPUs = cpus
	return nil
}

// setLog returns the setter of a write_*_log option: the option switches
// the log on and its value, if any, is the file name prefix.
func setLog(on func(*Job) (*bool, *string)) func(*Job, string) error {
	return func(j *Job, value string) error {
		b, prefix := on(j)
		*b, *prefix = true, value
		return nil
	}
}

// avgTimeStore is the typed setter of bwavgtime or iopsavgtime, which
// also notes that the interval was given (it then caps log_avg_msec).
type avgTimeStore func(*Job) (*int, *bool)

func (f avgTimeStore) store(o *Option, j *Job, value string, p parsed) error {
	v, ok, err := firstInt(o, value, p)
	if err != nil {
		return err
	}
	n, given := f(j)
	if ok {
		*n = v
	}
	*given = true
	return nil
}

// altClockProblem is the error of a job gofio refuses to run for its
// log_alternate_epoch_clock_id, or "". The id is used only by a job that
// writes logs with log_unix_epoch or log_alternate_epoch: fio 3.33 then
// passes it to clock_gettime and, for an id Linux refuses, logs
// uninitialized times; otherwise it has no effect, in fio as in gofio.
func (j *Job) altClockProblem() string {
	id := j.LogAlternateEpochClockID
	logs := j.WriteBWLog || j.WriteIOPSLog || j.WriteLatLog || j.WriteHistLog
	if id >= 0 && id <= 11 || !logs || !(j.LogUnixEpoch || j.LogAlternateEpoch) {
		return ""
	}
	return fmt.Sprintf("gofio: log_alternate_epoch_clock_id=%d is refused: Linux's clock ids are 0 to 11, and fio 3.33 logs "+
		"uninitialized times with any other; use 0 (CLOCK_REALTIME, the default) or another id from 0 to 11", id)
}
