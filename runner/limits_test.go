package runner

import (
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/limits"
)

// TestCheckMinRate checks when the minimum rates are checked and what a
// miss prints: nothing before 2 s, a baseline first, then a check once a
// rate_cycle has passed.
func TestCheckMinRate(t *testing.T) {
	const ms = int64(1e6)
	tests := []struct {
		name    string
		job     jobspec.Job
		cycle   int        // rate_cycle, ms
		events  [][2]int64 // ms since the epoch, bytes completed (4 KiB I/Os)
		failAt  int        // index of the event that fails; -1: none
		message string
	}{
		{
			name: "too slow",
			job:  jobspec.Job{Name: "a", Limits: jobspec.Limits{RateMin: [3]uint64{1 << 20}}}, cycle: 500,
			events: [][2]int64{{1000, 4096}, {1999, 4096}, {2000, 4096}, {2300, 4096}, {2500, 4096}},
			failAt: 4, message: "a: rate_min=1048576B/s not met, got 16384B/s\n",
		},
		{
			name: "fast enough",
			job:  jobspec.Job{Name: "a", Limits: jobspec.Limits{RateMin: [3]uint64{4096}}}, cycle: 1000,
			events: [][2]int64{{2000, 4096}, {2500, 4096}, {3000, 4096}},
			failAt: -1,
		},
		{
			name: "iops",
			job:  jobspec.Job{Name: "b", Limits: jobspec.Limits{RateIOPSMin: [3]uint64{100}}}, cycle: 0,
			events: [][2]int64{{2000, 4096}, {2000, 4096}, {2100, 4096}},
			failAt: 2, message: "b: rate_iops_min=100 not met, got 20 IOPS\n",
		},
		{
			// A direction the job has not done is not checked.
			name: "other direction",
			job:  jobspec.Job{Name: "a", Limits: jobspec.Limits{RateMin: [3]uint64{0, 1 << 20}}}, cycle: 0,
			events: [][2]int64{{2000, 4096}, {2100, 4096}, {2200, 4096}},
			failAt: -1,
		},
	}
	for _, tt := range tests {
		var out strings.Builder
		tt.job.RateCycle = tt.cycle
		w := &worker{job: &tt.job, epoch: 1}
		w.ioerr.out = &out
		w.lim = limits.New(w.job)
		if w.lim == nil {
			t.Fatalf("%s: no limits", tt.name)
		}
		failed := -1
		for i, e := range tt.events {
			u := &engine.IOUnit{Op: engine.OpRead, Result: int(e[1]), Buf: make([]byte, e[1])}
			w.limitsCompleted(u, 0, 0, 1+e[0]*ms)
			if w.err != 0 && failed < 0 {
				failed = i
			}
		}
		if failed != tt.failAt {
			t.Errorf("%s: failed at event %d; want %d", tt.name, failed, tt.failAt)
		}
		if tt.failAt >= 0 && (w.err != unix.EIO || w.errFunc != "check_min_rate") {
			t.Errorf("%s: error %v in %q; want EIO in check_min_rate", tt.name, w.err, w.errFunc)
		}
		if out.String() != tt.message {
			t.Errorf("%s: printed %q; want %q", tt.name, out.String(), tt.message)
		}
	}
}

// TestLimitJobs runs jobs that max_latency and latency_target end, and
// checks the error, the message and the reported depth.
func TestLimitJobs(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		err   int
		msg   string // a prefix of a line on the error stream
		depth int
		ios   uint64 // reads counted; 0: not checked
	}{
		{
			name: "max_latency", args: []string{"ioengine=psync", "size=256k", "max_latency=1ns"},
			err: int(unix.ETIMEDOUT), msg: "fio: latency of ", depth: 1,
		},
		{
			// The I/Os in flight when the job stops are counted, as fio
			// counts them.
			name: "max_latency depth 8", args: []string{"ioengine=libaio", "iodepth=8", "size=256k", "max_latency=1ns"},
			err: int(unix.ETIMEDOUT), msg: "fio: latency of ", depth: 8, ios: 8,
		},
		{
			name: "max_latency writes only", args: []string{"ioengine=null", "size=256k", "max_latency=1h,1ns"},
			depth: 1,
		},
		{
			// Converged at iodepth: statistics restart for one last
			// window, then the job ends before its runtime.
			name: "latency target", args: []string{"ioengine=null", "size=1g", "iodepth=4", "time_based", "runtime=10",
				"latency_target=1h", "latency_window=20ms"},
			depth: 4,
		},
		{
			name: "latency target at depth 1", args: []string{"ioengine=psync", "size=256k", "latency_target=1ns"},
			err: int(unix.ETIMEDOUT), msg: "fio: latency of ", depth: 1,
		},
	}
	for _, tt := range tests {
		start := clock.Now()
		oc, errs := runJobs(t, t.TempDir(), append([]string{"name=a"}, tt.args...)...)
		j := oc.Result.Jobs[0]
		if j.Error != tt.err {
			t.Errorf("%s: error %d; want %d\n%s", tt.name, j.Error, tt.err, errs)
		}
		if tt.msg != "" && !strings.Contains(errs, "\n"+tt.msg) && !strings.HasPrefix(errs, tt.msg) {
			t.Errorf("%s: no line %q on the error stream:\n%s", tt.name, tt.msg, errs)
		}
		if tt.ios != 0 && (j.Stats.Dir[0].IOBytes != tt.ios*4096 || j.Stats.Dir[0].TotalIOs != tt.ios) {
			t.Errorf("%s: %d bytes in %d reads; want %d reads", tt.name, j.Stats.Dir[0].IOBytes, j.Stats.Dir[0].TotalIOs, tt.ios)
		}
		if j.Depth != tt.depth {
			t.Errorf("%s: depth %d; want %d", tt.name, j.Depth, tt.depth)
		}
		if tt.name == "latency target" {
			if el := clock.Now() - start; el > 5e9 {
				t.Errorf("%s: ran %d ms; want it to end after converging", tt.name, el/1e6)
			}
			if rt := j.Stats.Dir[0].RuntimeUS; rt > 1e6 {
				t.Errorf("%s: read runtime %d µs; want only the last window's", tt.name, rt)
			}
			if j.LatencyTarget != 3600e9 || j.LatencyWindow != 20000 || j.LatencyPercentile != 100 {
				t.Errorf("%s: target %d window %d percentile %g", tt.name, j.LatencyTarget, j.LatencyWindow, j.LatencyPercentile)
			}
		}
	}
}

// TestLatTargetRun checks latency_run=1 after the search converged: the
// depth is held for three good windows, then one deeper is tried (fio
// 3.33 was seen going 5, 5, 5, 6, back to 5 for three windows, 6 …;
// what follows a good deeper window is not known: here it is held too).
func TestLatTargetRun(t *testing.T) {
	const window = int64(1e6)
	j := &jobspec.Job{Name: "a", IODepth: 32, Limits: jobspec.Limits{LatencyTarget: 10, LatencyWindow: 1000, LatencyPercentile: 50, LatencyRun: true}}
	w := &worker{job: j, epoch: 1}
	w.lim = limits.New(j)
	u := &engine.IOUnit{Op: engine.OpRead}
	w.latTargetCompleted(u, 0, 1) // opens the first window
	windows := "ggggbbbg" + "gg" + "b" + "g" + "gg" + "g" + "gg"
	want := []int{2, 4, 8, 16, 12, 10, 9, 9, 9, 10, 9, 9, 9, 10, 10, 10, 11}
	for i, c := range windows {
		lat := int64(0)
		if c == 'b' {
			lat = 1e9
		}
		w.latTargetCompleted(u, lat, 1+int64(i+1)*window)
		if got := w.lim.Target().QD(); got != want[i] {
			t.Fatalf("after window %d (%q): depth %d; want %d", i, windows[:i+1], got, want[i])
		}
	}
	if w.stopping || w.err != 0 {
		t.Errorf("latency_run=1 stopped the job (err %v)", w.err)
	}
}
