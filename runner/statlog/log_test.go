package statlog

import (
	"strings"
	"testing"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

func TestLogFileName(t *testing.T) {
	tests := []struct {
		prefix, suffix string
		num            int
		perJob         bool
		want           string
	}{
		{"job", "bw", 1, true, "job_bw.1.log"},       // write_bw_log without value: the job name
		{"pre", "clat", 12, true, "pre_clat.12.log"}, // N counts every job of the run
		{"/tmp/x", "iops", 3, false, "/tmp/x_iops.log"},
	}
	for _, tt := range tests {
		if got := logFileName(tt.prefix, tt.suffix, tt.num, tt.perJob); got != tt.want {
			t.Errorf("logFileName(%q, %q, %d, %v) = %q, want %q", tt.prefix, tt.suffix, tt.num, tt.perJob, got, tt.want)
		}
	}
}

// TestLogWindows feeds latency samples at known times into windowed logs
// and checks the lines fio 3.33 would write (rate-limited runs observed:
// completions every 200 ms, log_avg_msec=500 → lines at 600 and at the
// end, 800).
func TestLogWindows(t *testing.T) {
	const ms = int64(1e6)
	tests := []struct {
		name   string
		avg    int64
		maxVal bool
		at     []int64 // ms since the epoch
		vals   []uint64
		end    int64
		want   string
	}{
		{"per I/O", 0, false, []int64{0, 5}, []uint64{7, 9}, 5,
			"0, 7, 0, 4096\n5, 9, 0, 4096\n"},
		{"mean", 500, false, []int64{0, 200, 400, 600, 800}, []uint64{10, 20, 30, 41, 5}, 800,
			"600, 25, 0, 0\n800, 5, 0, 0\n"},
		{"max", 500, true, []int64{0, 200, 400, 600, 800}, []uint64{10, 20, 30, 41, 5}, 800,
			"600, 41, 0, 0\n800, 5, 0, 0\n"},
		{"window restarts at a multiple", 300, false, []int64{0, 143, 433, 500, 714}, []uint64{1, 2, 3, 4, 5}, 714,
			// 433 closes [0, 433]; the next window starts at 300, so 714 closes it
			"433, 2, 0, 0\n714, 4, 0, 0\n"},
		{"nothing left at the end", 100, false, []int64{150}, []uint64{3}, 150,
			"150, 3, 0, 0\n"},
	}
	for _, tt := range tests {
		l := &Logs{avg: tt.avg, maxVal: tt.maxVal}
		l.clat = newIOLog("clat", 0)
		epoch := int64(1000) * ms
		for i, at := range tt.at {
			l.clat.sample(stats.Read, epoch+at*ms, epoch, l.avg, l.maxVal, tt.vals[i], 0, 4096, 0)
		}
		var st stats.Job
		l.End(&st, epoch+tt.end*ms)
		var b strings.Builder
		l.clat.entries(func(e *logEntry) {
			line := string(l.appendEntry(nil, e, epoch))
			b.WriteString(strings.TrimSuffix(line, ", 0\n") + "\n")
		})
		if got := b.String(); got != tt.want {
			t.Errorf("%s: got\n%swant\n%s", tt.name, got, tt.want)
		}
	}
}

func TestAppendEntry(t *testing.T) {
	e := logEntry{at: 3_999_999 + 10, val: 42, off: 8192, bs: 4096, dir: 1}
	tests := []struct {
		opts jobspec.LogOptions
		alt  int64
		want string
		prio uint16
	}{
		{jobspec.LogOptions{}, 0, "3, 42, 1, 4096, 0\n", 0},
		{jobspec.LogOptions{LogOffset: true}, 0, "3, 42, 1, 4096, 8192, 0\n", 0},
		{jobspec.LogOptions{LogPrio: true}, 0, "3, 42, 1, 4096, 0x0000\n", 0},
		{jobspec.LogOptions{LogOffset: true, LogPrio: true}, 0, "3, 42, 1, 4096, 8192, 0x0000\n", 0},
		{jobspec.LogOptions{LogUnixEpoch: true}, 1_700_000_000_000 * 1e6, "1700000000004, 42, 1, 4096, 0\n", 0},
		// prioclass=1 prio=3: 0x2003 with log_prio, else 1 (realtime).
		{jobspec.LogOptions{LogPrio: true}, 0, "3, 42, 1, 4096, 0x2003\n", 0x2003},
		{jobspec.LogOptions{}, 0, "3, 42, 1, 4096, 1\n", 0x2003},
		// prio=5 alone is in the best-effort class: 0x4005, else 0.
		{jobspec.LogOptions{LogPrio: true}, 0, "3, 42, 1, 4096, 0x4005\n", 0x4005},
		{jobspec.LogOptions{}, 0, "3, 42, 1, 4096, 0\n", 0x4005},
	}
	for _, tt := range tests {
		l := &Logs{opts: tt.opts, alt: tt.alt != 0, altOffset: tt.alt}
		e := e
		e.prio = tt.prio
		if got := string(l.appendEntry(nil, &e, 10)); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.opts, got, tt.want)
		}
	}
}

// TestIOLogGrowth checks that entries survive the chunk changes, in
// order, and that adding into a chunk allocates nothing.
func TestIOLogGrowth(t *testing.T) {
	l := newIOLog("lat", 1024)
	const n = 5000
	for i := range n {
		l.add(logEntry{val: uint64(i)})
	}
	if l.len() != n {
		t.Fatalf("len %d, want %d", l.len(), n)
	}
	i := uint64(0)
	l.entries(func(e *logEntry) {
		if e.val != i {
			t.Fatalf("entry %d has value %d", i, e.val)
		}
		i++
	})
	l = newIOLog("lat", 4096)
	if a := testing.AllocsPerRun(1000, func() { l.add(logEntry{val: 1}) }); a != 0 {
		t.Errorf("add allocates %v times per entry", a)
	}
}
