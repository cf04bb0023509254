package jobspec

import (
	"strings"
	"testing"
)

func TestLogOptions(t *testing.T) {
	tests := []struct {
		file        string
		want        LogOptions
		unsupported string // the first option gofio refuses, if any
	}{
		// A bare write_*_log switches the log on with the job name as
		// prefix (resolved when the job runs).
		{"[a]\nwrite_bw_log\nwrite_iops_log\nwrite_lat_log\n",
			LogOptions{WriteBWLog: true, WriteIOPSLog: true, WriteLatLog: true, PerJobLogs: true, LogEntries: 1024}, ""},
		{"[a]\nwrite_bw_log=/tmp/x\nlog_avg_msec=250\nlog_max_value=1\nlog_offset=1\nlog_prio=1\nper_job_logs=0\nlog_entries=4096\n",
			LogOptions{WriteBWLog: true, BWLogPrefix: "/tmp/x", LogAvgMsec: 250, LogMaxValue: true, LogOffset: true, LogPrio: true, LogEntries: 4096}, ""},
		{"[a]\nwrite_iops_log=p\nbwavgtime=100\n",
			LogOptions{WriteIOPSLog: true, IOPSLogPrefix: "p", PerJobLogs: true, LogEntries: 1024, BWAvgTimeSet: true}, ""},
		{"[a]\nlog_unix_epoch=1\nlog_alternate_epoch_clock_id=1\n",
			LogOptions{PerJobLogs: true, LogEntries: 1024, LogUnixEpoch: true, LogAlternateEpochClockID: 1}, ""},
		{"[a]\nwrite_hist_log=h\nlog_hist_msec=100\nlog_hist_coarseness=3\n",
			LogOptions{PerJobLogs: true, LogEntries: 1024, WriteHistLog: true, HistLogPrefix: "h", LogHistMsec: 100, LogHistCoarseness: 3}, ""},
		// Without log_unix_epoch or log_alternate_epoch the id has no
		// effect, in fio 3.33 too (TestAltClockID refuses the others).
		{"[a]\nlog_alternate_epoch_clock_id=99\n", withClockID(defaults().LogOptions, 99), ""},
		{"[a]\nlog_compression=10K\nlog_store_compressed=1\n",
			LogOptions{PerJobLogs: true, LogEntries: 1024, LogCompression: 10240, LogStoreCompressed: true}, ""},
		{"[a]\nlog_store_compressed=1\n", LogOptions{PerJobLogs: true, LogEntries: 1024, LogStoreCompressed: true}, ""},
		{"[a]\nlog_compression=1m\nlog_compression_cpus=0\n", LogOptions{PerJobLogs: true, LogEntries: 1024, LogCompression: 1 << 20}, ""},
	}
	for _, tt := range tests {
		s := &session{files: []string{tt.file}}
		p, err := s.run(t)
		if err != nil {
			t.Fatalf("%q: %v", tt.file, err)
		}
		if got := p.Jobs[0].LogOptions; got != tt.want {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tt.file, got, tt.want)
		}
		err = p.Unsupported()
		if got := ""; err != nil {
			got = err.Error()
			if !strings.Contains(got, tt.unsupported) || tt.unsupported == "" {
				t.Errorf("%q: Unsupported() = %q, want %q", tt.file, got, tt.unsupported)
			}
		} else if tt.unsupported != "" {
			t.Errorf("%q: Unsupported() = nil, want %q", tt.file, tt.unsupported)
		}
	}
}

func withClockID(o LogOptions, id int) LogOptions {
	o.LogAlternateEpochClockID = id
	return o
}

// TestAltClockID checks that a log_alternate_epoch_clock_id Linux has
// no clock for is refused only where it is used: by a job that logs with
// log_unix_epoch or log_alternate_epoch.
func TestAltClockID(t *testing.T) {
	tests := []struct {
		file string
		err  string
	}{
		{"[a]\nlog_alternate_epoch_clock_id=99\nwrite_bw_log=x\n", ""},
		{"[a]\nlog_alternate_epoch_clock_id=99\nlog_unix_epoch=1\n", ""},
		{"[a]\nlog_alternate_epoch_clock_id=11\nlog_unix_epoch=1\nwrite_bw_log=x\n", ""},
		{"[a]\nlog_alternate_epoch_clock_id=99\nlog_unix_epoch=1\nwrite_bw_log=x\n", "gofio: log_alternate_epoch_clock_id=99 is refused: Linux's clock ids are 0 to 11, and fio 3.33 logs uninitialized times with any other; use 0 (CLOCK_REALTIME, the default) or another id from 0 to 11"},
		{"[a]\nwrite_lat_log=x\nlog_alternate_epoch=1\nlog_alternate_epoch_clock_id=12\n", "gofio: log_alternate_epoch_clock_id=12 is refused: Linux's clock ids are 0 to 11"},
	}
	for _, tt := range tests {
		got := fileErr(t, tt.file)
		if (tt.err == "") != (got == "") || !strings.Contains(got, tt.err) {
			t.Errorf("%q: error %q, want %q", tt.file, got, tt.err)
		}
	}
}
