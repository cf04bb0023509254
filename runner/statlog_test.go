package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gofio/gofio/runner/statlog"
	"github.com/gofio/gofio/stats"
)

func TestLogIntervals(t *testing.T) {
	tests := []struct {
		args     []string
		bw, iops int
	}{
		{nil, 500, 500},                    // no logs: bwavgtime and iopsavgtime
		{[]string{"write_bw_log"}, 0, 500}, // per-I/O bw samples
		{[]string{"write_iops_log=x", "log_avg_msec=200"}, 500, 200},              // the log's window
		{[]string{"write_bw_log", "log_avg_msec=800", "bwavgtime=300"}, 300, 500}, // an explicit bwavgtime wins
		{[]string{"write_bw_log", "log_avg_msec=300", "bwavgtime=800"}, 800, 500}, // also when longer
		{[]string{"write_bw_log", "bwavgtime=300"}, 0, 500},                       // min(0, 300)
		{[]string{"write_lat_log", "log_avg_msec=100"}, 500, 500},                 // latency logs leave sampling alone
	}
	for _, tt := range tests {
		j := jobOf(t, append([]string{"name=j", "ioengine=null", "size=4k"}, tt.args...)...)
		if bw, iops := statlog.Intervals(j); bw != tt.bw || iops != tt.iops {
			t.Errorf("%q: intervals %d, %d; want %d, %d", tt.args, bw, iops, tt.bw, tt.iops)
		}
	}
}

// TestWriteLogs runs a small job with every per-I/O log and checks the
// files' names and lines, and that the bw and iops samples are per I/O.
func TestWriteLogs(t *testing.T) {
	dir := t.TempDir()
	pre := filepath.Join(dir, "p")
	w := steadyWorker(t, dir, "name=j", "ioengine=null", "size=32k", "bs=4k", "rw=write", "time_based", "runtime=60",
		"write_bw_log="+pre, "write_iops_log="+pre, "write_lat_log="+pre, "log_offset=1")
	if w.logs == nil {
		t.Fatal("no logs")
	}
	stop := make(chan struct{})
	w.stretch(8, stop)
	var errs strings.Builder
	w.writeLogs(7, &errs)
	if errs.Len() > 0 {
		t.Fatal(errs.String())
	}
	for _, s := range []string{"bw", "iops", "slat", "clat", "lat"} {
		b, err := os.ReadFile(pre + "_" + s + ".7.log")
		if err != nil {
			t.Fatal(err)
		}
		n := strings.Count(string(b), "\n")
		want := 8
		if s == "slat" {
			want = 0 // a sync engine has no submission latency
		}
		if n != want {
			t.Errorf("%s log: %d lines, want %d:\n%s", s, n, want, b)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if want == 0 {
				break
			}
			f := strings.Split(line, ", ")
			if len(f) != 6 || f[2] != "1" || f[3] != "4096" || f[4] != strconv.Itoa(i*4096) || f[5] != "0" {
				t.Errorf("%s log line %d: %q", s, i, line)
			}
			if s == "iops" && f[1] != "1" {
				t.Errorf("iops log line %d: %q, want value 1", i, line)
			}
		}
	}
	if got := w.st.Dir[stats.Write].BW.N; got != 8 {
		t.Errorf("bw samples %d, want 8 (one per I/O)", got)
	}
	if got := w.st.Dir[stats.Write].IOPS.N; got != 8 {
		t.Errorf("iops samples %d, want 8 (one per I/O)", got)
	}
	// Further I/O adds log entries into the preallocated chunk without
	// allocating.
	if a := testing.AllocsPerRun(2, func() { w.stretch(100, stop) }); a != 0 {
		t.Errorf("%v allocations per 100 logged I/Os; want 0", a)
	}
}

// TestWriteCompressedLogs runs a job with log_compression and
// log_store_compressed and checks the .fz files: they inflate to the
// lines the plain log files hold.
func TestWriteCompressedLogs(t *testing.T) {
	dir := t.TempDir()
	pre := filepath.Join(dir, "p")
	opts := []string{"name=j", "ioengine=null", "size=32k", "bs=4k", "rw=write", "time_based", "runtime=60",
		"write_bw_log=" + pre, "write_iops_log=" + pre, "write_lat_log=" + pre, "log_offset=1", "log_compression=1k"}
	plain := steadyWorker(t, dir, opts...)
	stored := steadyWorker(t, dir, append(opts, "log_store_compressed=1")...)
	for _, w := range []*worker{plain, stored} {
		stop := make(chan struct{})
		w.stretch(300, stop) // several chunks of 25 entries
		var errs strings.Builder
		w.writeLogs(1, &errs)
		if errs.Len() > 0 {
			t.Fatal(errs.String())
		}
	}
	for _, s := range []string{"bw", "iops", "slat", "clat", "lat"} {
		name := pre + "_" + s + ".1.log"
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(name + ".fz")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		err = statlog.InflateLog(&out, f)
		f.Close()
		if err != nil {
			t.Fatalf("%s.fz: %v", name, err)
		}
		if want := 300; s != "slat" && strings.Count(string(text), "\n") != want {
			t.Errorf("%s: %d lines, want %d", name, strings.Count(string(text), "\n"), want)
		}
		// The two jobs ran at different times: compare all but the time.
		cut := func(s string) string {
			var b strings.Builder
			for _, l := range strings.Split(s, "\n") {
				_, rest, _ := strings.Cut(l, ", ")
				_, rest, _ = strings.Cut(rest, ", ")
				b.WriteString(rest + "\n")
			}
			return b.String()
		}
		if s == "iops" && cut(out.String()) != cut(string(text)) {
			t.Errorf("%s.fz inflates to\n%s\nwant\n%s", name, out.String(), text)
		}
		if len(strings.Split(out.String(), "\n")) != len(strings.Split(string(text), "\n")) {
			t.Errorf("%s.fz: %d lines, text %d", name, strings.Count(out.String(), "\n"), strings.Count(string(text), "\n"))
		}
	}
}
