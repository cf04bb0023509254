package runner

import (
	"testing"
	"time"

	"github.com/gofio/gofio/stats"
)

// rate and rate_iops hold a null job to the target within a few percent
// over about a second; thinktime stretches a sync job by its pauses.
func TestRatePacing(t *testing.T) {
	cases := []struct {
		name string
		args []string
		// want is the I/Os the job does in its runtime of 1 s.
		want float64
	}{
		// 4 MiB/s of 4k reads: 1024 I/Os.
		{"rate", []string{"rate=4m"}, 1024},
		// rate_iops=500.
		{"rate_iops", []string{"rate_iops=500"}, 500},
		// Poisson arrivals keep the mean rate.
		{"poisson", []string{"rate_iops=500", "rate_process=poisson"}, 500},
		// Per direction: reads capped at 2 MiB/s, writes at 1 MiB/s.
		{"per direction", []string{"rw=randrw", "rate=2m,1m"}, 768},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tol := 0.05
			if c.name == "poisson" {
				tol = 0.15 // random arrivals: about ±4.5% is one σ
			}
			args := append([]string{"name=r", "ioengine=null", "size=1g", "time_based", "runtime=1"}, c.args...)
			var got float64
			var n [3]uint64
			// A shared machine may starve the job near its end, where it
			// cannot catch up: a short count is tried once more; a count
			// over the cap never is.
			for try := 0; try < 2; try++ {
				oc, _ := runJobs(t, t.TempDir(), args...)
				_, n = dirStats(&oc.Result.Jobs[0])
				if got = float64(n[0] + n[1] + n[2]); got >= c.want*(1-tol) {
					break
				}
			}
			if got < c.want*(1-tol) || got > c.want*(1+tol) {
				t.Errorf("%.0f I/Os in 1 s (%v); want %.0f ±%.0f%%", got, n, c.want, tol*100)
			}
		})
	}
}

// Pacing and non-uniform offsets allocate nothing per I/O.
func TestPacingAllocs(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		// A rate high enough to pace without long sleeps, poisson draws.
		{"rate_iops poisson", []string{"rate_iops=200000", "rate_process=poisson", "rw=randrw"}},
		// zipf offsets and a think time every 500 I/Os.
		{"zipf thinktime", []string{"random_distribution=zipf:1.2", "thinktime=10", "thinktime_blocks=500", "rw=randread"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"name=p", "ioengine=null", "size=1g", "time_based", "runtime=1h"}, c.args...)
			w := steadyWorker(t, t.TempDir(), args...)
			stop := make(chan struct{})
			w.stretch(2000, stop)
			if allocs := testing.AllocsPerRun(2, func() { w.stretch(2000, stop) }); allocs != 0 {
				t.Errorf("%v allocations per 2000 I/Os; want 0", allocs)
			}
		})
	}
}

// thinktime pauses after every thinktime_blocks I/Os.
func TestThinkTime(t *testing.T) {
	cases := []struct {
		name string
		args []string
		min  time.Duration
	}{
		// 20 I/Os, 5 ms after each: at least 100 ms.
		{"every I/O", []string{"thinktime=5ms"}, 100 * time.Millisecond},
		// thinktime in µs by default, after every 4 I/Os: 5 pauses of 20 ms.
		{"blocks", []string{"thinktime=20000", "thinktime_blocks=4"}, 100 * time.Millisecond},
		// Spinning part of it still takes the whole time.
		{"spin", []string{"thinktime=5000", "thinktime_spin=1000"}, 100 * time.Millisecond},
	}
	for _, c := range cases {
		args := append([]string{"name=t", "ioengine=null", "size=1m", "number_ios=20"}, c.args...)
		start := time.Now()
		oc, _ := runJobs(t, t.TempDir(), args...)
		if took := time.Since(start); took < c.min {
			t.Errorf("%s: took %v; want at least %v", c.name, took, c.min)
		}
		if _, n := dirStats(&oc.Result.Jobs[0]); n[0] != 20 {
			t.Errorf("%s: %d I/Os; want 20", c.name, n[0])
		}
	}
}

// An async job waiting for its rate reaps what is in flight first, so the
// wait is not counted in completion latency. rate_iops sets every
// direction, trims included, which a read job never issues: those must
// not count as "uncapped, may go" (they did, and the worker slept with
// I/Os in flight: clat ≈ 1/rate).
func TestRateWaitOutsideClat(t *testing.T) {
	dir := t.TempDir()
	// 10 buffered 4k reads at 20 IOPS: a 50 ms gap between issues; each
	// read completes within io_submit. Had the wait been counted, every
	// I/O but the last would show about 50 ms; the median is robust to a
	// loaded machine delaying a few.
	oc, errs := runJobs(t, dir, "name=r", "ioengine=libaio", "iodepth=2", "rate_iops=20", "rw=randread", "size=40k")
	if errs != "" {
		t.Fatalf("errors: %q", errs)
	}
	d := &oc.Result.Jobs[0].Stats.Dir[0]
	if d.TotalIOs != 10 {
		t.Fatalf("%d reads, want 10", d.TotalIOs)
	}
	if p50 := stats.Percentiles(&d.ClatHist, d.Clat.N, []float64{50})[0]; p50 > 20e6 {
		t.Errorf("clat median %d ns; want well under the 50 ms rate gap", p50)
	}
}

// pauseLink chains a long pause as fio 3.33 was seen to (strace of its
// sleeps): one second plus the fraction first, then two seconds at most.
func TestPauseLink(t *testing.T) {
	const s = int64(1e9)
	for _, c := range []struct {
		rem   int64
		first bool
		want  int64
	}{
		{s / 2, true, s / 2},
		{3*s/2 + 7, true, 3*s/2 + 7},
		{10*s + s/4, true, s + s/4}, // 10.25 s: 1.25, then 2, 2, 2, 2, 1
		{3 * s, true, s},
		{3*s - 1, true, 2*s - 1},
		{9 * s, false, 2 * s},
		{s, false, s},
	} {
		if got := pauseLink(c.rem, c.first); got != c.want {
			t.Errorf("pauseLink(%d, %v) = %d; want %d", c.rem, c.first, got, c.want)
		}
	}
}
