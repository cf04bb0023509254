package report

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// halves is a job whose completion latency changes halfway: 1000 reads of
// 10 µs in its first second, 1000 of 1 ms in its second. It returns the
// snapshots at 1 s and at 2 s.
func halves() (first, second *output.Result) {
	var st stats.Job
	st.Members = 1
	add := func(ns uint64) {
		st.AddClat(stats.Read, ns, true)
		st.Dir[stats.Read].IOBytes += 4096
		st.Dir[stats.Read].TotalIOs++
	}
	for range 1000 {
		add(10_000)
	}
	st.RuntimeMS, st.Dir[stats.Read].RuntimeUS = 1000, 1_000_000
	r1 := &output.Result{Jobs: []output.Job{{Name: "j", Stats: st, ClatPercentiles: true}}, Groups: []output.Group{{}}}
	for range 1000 {
		add(1_000_000)
	}
	st.RuntimeMS, st.Dir[stats.Read].RuntimeUS = 2000, 2_000_000
	r2 := &output.Result{Jobs: []output.Job{{Name: "j", Stats: st, ClatPercentiles: true}}, Groups: []output.Group{{}}}
	return r1, r2
}

// TestIntervalPercentilesFromIntervalHistograms checks that an interval's
// percentiles are those of the latencies completed within it: in the
// second interval of a job whose latency rose from 10 µs to 1 ms, p50 is
// 1 ms, where the cumulative p50 is still 10 µs.
func TestIntervalPercentilesFromIntervalHistograms(t *testing.T) {
	r1, r2 := halves()
	var tr Tracker
	var lines bytes.Buffer
	for _, r := range []*output.Result{r1, r2} {
		ivs := tr.Next(r, nil)
		if len(ivs) != 1 {
			t.Fatalf("got %d intervals, want 1", len(ivs))
		}
		if err := WriteIntervalLine(&lines, r, &ivs[0], false); err != nil {
			t.Fatal(err)
		}
	}
	cum := stats.Percentiles(&r2.Jobs[0].Stats.Dir[stats.Read].ClatHist, 2000, []float64{50})[0]
	want := []struct {
		p50, p99 uint64
		mean     float64
		ioBytes  uint64
		timeMS   uint64
	}{
		{stats.HistValue(stats.HistIndex(10_000)), stats.HistValue(stats.HistIndex(10_000)), 10_000, 4096000, 1000},
		{stats.HistValue(stats.HistIndex(1_000_000)), stats.HistValue(stats.HistIndex(1_000_000)), 1_000_000, 4096000, 2000},
	}
	if cum != want[0].p50 {
		t.Fatalf("cumulative p50 = %d, want %d (the test's premise)", cum, want[0].p50)
	}
	dec := json.NewDecoder(&lines)
	for k, w := range want {
		var line struct {
			Read struct {
				IOBytes uint64  `json:"io_bytes"`
				IOPS    float64 `json:"iops"`
				Clat    struct {
					Mean       float64           `json:"mean"`
					Stddev     float64           `json:"stddev"`
					N          uint64            `json:"N"`
					Percentile map[string]uint64 `json:"percentile"`
				} `json:"clat_ns"`
			} `json:"read"`
			TimeMS     uint64 `json:"time_ms"`
			Cumulative struct {
				Read struct {
					IOBytes uint64 `json:"io_bytes"`
				} `json:"read"`
			} `json:"cumulative"`
		}
		if err := dec.Decode(&line); err != nil {
			t.Fatalf("line %d: %v", k+1, err)
		}
		c := line.Read.Clat
		if got := c.Percentile["50.000000"]; got != w.p50 {
			t.Errorf("interval %d: p50 = %d, want %d", k+1, got, w.p50)
		}
		if got := c.Percentile["99.000000"]; got != w.p99 {
			t.Errorf("interval %d: p99 = %d, want %d", k+1, got, w.p99)
		}
		if c.N != 1000 || math.Abs(c.Mean-w.mean) > 1e-6*w.mean || c.Stddev > 1e-6*w.mean { // unpooling costs some float precision
			t.Errorf("interval %d: N %d mean %g stddev %g, want 1000, %g, 0", k+1, c.N, c.Mean, c.Stddev, w.mean)
		}
		if line.Read.IOBytes != w.ioBytes || line.TimeMS != w.timeMS || line.Read.IOPS != 1000 {
			t.Errorf("interval %d: io_bytes %d time_ms %d iops %g, want %d, %d, 1000", k+1, line.Read.IOBytes, line.TimeMS, line.Read.IOPS, w.ioBytes, w.timeMS)
		}
		if got := line.Cumulative.Read.IOBytes; got != uint64(k+1)*4096000 {
			t.Errorf("interval %d: cumulative io_bytes %d, want %d", k+1, got, uint64(k+1)*4096000)
		}
	}
	// Nothing new: no interval.
	if ivs := tr.Next(r2, nil); len(ivs) != 0 {
		t.Errorf("a repeated snapshot gave %d intervals, want 0", len(ivs))
	}
}

// TestAccumDeltaUnpools checks that the moments of an interval are those
// of its samples alone: pooling two sample sets and taking the first off
// again gives the second's mean and variance.
func TestAccumDeltaUnpools(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var a, b stats.Accum
	var hb stats.Hist
	for range 500 {
		a.Add(uint64(rng.IntN(1000)) + 100)
	}
	for range 300 {
		x := uint64(rng.IntN(100000)) + 5000
		b.Add(x)
		hb.Add(x)
	}
	all := a
	all.Pool(&b)
	d := accumDelta(&all, &a, &hb)
	if d.N != b.N || math.Abs(d.Mean-b.Mean) > 1e-9*b.Mean || math.Abs(d.Stddev()-b.Stddev()) > 1e-6*b.Stddev() {
		t.Errorf("delta N %d mean %g stddev %g, want %d, %g, %g", d.N, d.Mean, d.Stddev(), b.N, b.Mean, b.Stddev())
	}
	if d.Min != stats.HistValue(stats.HistIndex(b.Min)) || d.Max != stats.HistValue(stats.HistIndex(b.Max)) {
		t.Errorf("delta min/max %d/%d, want the buckets of %d/%d", d.Min, d.Max, b.Min, b.Max)
	}
}
