package stats

import "math"

// Accum is a running min/max/mean/variance accumulator (Welford's online
// algorithm, as fio updates it sample by sample). The zero value is an
// empty accumulator.
type Accum struct {
	Min, Max uint64
	N        uint64
	Mean     float64
	S        float64 // sum of squared deviations from the mean
}

// Add records one sample.
func (a *Accum) Add(x uint64) {
	if a.N == 0 || x < a.Min {
		a.Min = x
	}
	if x > a.Max {
		a.Max = x
	}
	f := float64(x)
	if d := f - a.Mean; d != 0 {
		a.Mean += d / float64(a.N+1)
		a.S += d * (f - a.Mean)
	}
	a.N++
}

// same reports whether a and o hold the same state, bit for bit.
func (a *Accum) same(o *Accum) bool {
	return a.N == o.N && a.Min == o.Min && a.Max == o.Max &&
		math.Float64bits(a.Mean) == math.Float64bits(o.Mean) &&
		math.Float64bits(a.S) == math.Float64bits(o.S)
}

// Stddev returns the sample standard deviation, 0 for fewer than two
// samples.
func (a *Accum) Stddev() float64 {
	if a.N < 2 {
		return 0
	}
	return math.Sqrt(a.S / float64(a.N-1))
}

// Pool merges o into a as if all of o's samples had been added to a
// (fio's rule for latencies of jobs in one reporting group).
func (a *Accum) Pool(o *Accum) {
	if o.N == 0 {
		return
	}
	if a.N == 0 {
		*a = *o
		return
	}
	if o.Min < a.Min {
		a.Min = o.Min
	}
	if o.Max > a.Max {
		a.Max = o.Max
	}
	n1, n2 := float64(a.N), float64(o.N)
	d := o.Mean - a.Mean
	a.S += o.S + d*d*n1*n2/(n1+n2)
	a.Mean = (a.Mean*n1 + o.Mean*n2) / (n1 + n2)
	a.N += o.N
}

// Sum merges o into a by plain sums of every field (fio's rule for
// bandwidth and IOPS sample statistics of jobs in one reporting group).
func (a *Accum) Sum(o *Accum) {
	a.Min += o.Min
	a.Max += o.Max
	a.Mean += o.Mean
	a.S += o.S
	a.N += o.N
}
