package steady

import (
	"math"
	"slices"
	"testing"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
)

// The window's criterion, checked against the values fio 3.33 printed
// for the same samples (JSON "steadystate" and --debug=steadystate).
func TestSteadyWindow(t *testing.T) {
	cases := []struct {
		name    string
		opt     jobspec.SteadyOptions
		slots   int
		iops    []uint64
		bw      []uint64
		steady  bool
		crit    float64
		dev     float64
		slope   float64
		iopsAvg uint64
		bwAvg   uint64
	}{
		{"iops:5%", jobspec.SteadyOptions{IOPS: true, Limit: 5, Pct: true}, 3,
			[]uint64{1001, 1000, 1001}, []uint64{4100597, 4096000, 4100100},
			true, 0.066622, 0.666667, 0, 1000, 4098899},
		{"bw_slope:2%", jobspec.SteadyOptions{Slope: true, Limit: 2, Pct: true}, 4,
			[]uint64{1001, 1001, 1000, 992}, []uint64{4100561, 4100096, 4096000, 4067299},
			true, -0.253929, 0, -10388.2, 998, 4090989},
		// Not full: the criterion stays 0 and the means count the empty
		// slots, as in fio ([1001, 1001, 0] → iops_mean 667).
		{"not full", jobspec.SteadyOptions{IOPS: true, Slope: true}, 3,
			[]uint64{1001, 1001}, []uint64{4100571, 4100100},
			false, 0, 0, 0, 667, 2733557},
		// A fixed limit: deviation 2 is not below 2.
		{"iops:2", jobspec.SteadyOptions{IOPS: true, Limit: 2}, 2,
			[]uint64{100, 104}, []uint64{1, 1}, false, 2, 2, 0, 102, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := NewWindow(c.slots)
			for i := range c.iops {
				w.Add(c.iops[i], c.bw[i])
			}
			var res output.SteadyState
			got := w.Evaluate(&c.opt, &res)
			near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-5*max(1, math.Abs(b)) }
			if got != c.steady || !near(float64(res.Criterion), c.crit) || !near(res.MaxDeviation, c.dev) ||
				!near(res.SlopeValue, c.slope) || res.IOPSMean != c.iopsAvg || res.BWMean != c.bwAvg {
				t.Errorf("steady %v criterion %v dev %v slope %v means %d %d; want %v %v %v %v %d %d",
					got, res.Criterion, res.MaxDeviation, res.SlopeValue, res.IOPSMean, res.BWMean,
					c.steady, c.crit, c.dev, c.slope, c.iopsAvg, c.bwAvg)
			}
			if len(res.IOPSData) != c.slots || !slices.Equal(res.IOPSData[:len(c.iops)], c.iops) {
				t.Errorf("data %v; want %v padded to %d", res.IOPSData, c.iops, c.slots)
			}
		})
	}
}

// A full window keeps the newest samples, oldest first.
func TestSteadyWindowWraps(t *testing.T) {
	w := NewWindow(3)
	for _, v := range []uint64{1, 2, 3, 4, 5} {
		w.Add(v, v*10)
	}
	if got := w.ordered(w.iops); !slices.Equal(got, []uint64{3, 4, 5}) {
		t.Errorf("iops %v; want [3 4 5]", got)
	}
}
