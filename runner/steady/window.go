// Package steady is the rolling window of a steady-state check
// (steadystate): a sample a second of IOPS and bandwidth, and the
// criterion over the window, computed as fio 3.33 computes it.
package steady

import (
	"math"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
)

// Window is the rolling window of steady-state samples, one a second:
// IOPS and bandwidth (bytes/s), oldest first once it has wrapped.
type Window struct {
	iops, bw []uint64
	n, head  int // samples held; index of the oldest
}

// NewWindow returns an empty window of slots samples.
func NewWindow(slots int) *Window {
	return &Window{iops: make([]uint64, slots), bw: make([]uint64, slots)}
}

// Add puts a sample in, dropping the oldest when the window is full.
func (w *Window) Add(iops, bw uint64) {
	slots := len(w.iops)
	i := (w.head + w.n) % slots
	if w.n == slots {
		w.head = (w.head + 1) % slots
	} else {
		w.n++
	}
	w.iops[i], w.bw[i] = iops, bw
}

// ordered returns the samples oldest first, with zeros for the slots not
// filled yet (fio reports the whole window).
func (w *Window) ordered(v []uint64) []uint64 {
	out := make([]uint64, len(v))
	for k := range v {
		out[k] = v[(w.head+k)%len(v)]
	}
	return out
}

// Evaluate computes the criterion over a full window into res and
// reports whether it is below the limit: the maximum deviation from the
// mean, or the least squares slope over x = 0, 1, ..., either as is or
// as a percentage of the mean. A window not yet full leaves res's
// criterion at zero and is not steady.
func (w *Window) Evaluate(opt *jobspec.SteadyOptions, res *output.SteadyState) bool {
	slots := len(w.iops)
	res.IOPSData, res.BWData = w.ordered(w.iops), w.ordered(w.bw)
	var sumIOPS, sumBW uint64
	for k := range w.iops {
		sumIOPS += w.iops[k]
		sumBW += w.bw[k]
	}
	res.IOPSMean, res.BWMean = sumIOPS/uint64(slots), sumBW/uint64(slots)
	if w.n < slots {
		return false
	}
	y := res.BWData
	if opt.IOPS {
		y = res.IOPSData
	}
	var sum float64
	for _, v := range y {
		sum += float64(v)
	}
	mean := sum / float64(slots)
	var crit float64
	if opt.Slope {
		var sumX, sumX2, sumXY float64
		for k, v := range y {
			x := float64(k)
			sumX += x
			sumX2 += x * x
			sumXY += x * float64(v)
		}
		n := float64(slots)
		slope := 0.0
		if d := n*sumX2 - sumX*sumX; d != 0 {
			slope = (n*sumXY - sumX*sum) / d
		}
		res.SlopeValue, res.MaxDeviation = slope, 0
		crit = slope
	} else {
		dev := 0.0
		for _, v := range y {
			dev = max(dev, math.Abs(float64(v)-mean))
		}
		res.MaxDeviation, res.SlopeValue = dev, 0
		crit = dev
	}
	if opt.Pct {
		crit = crit / mean * 100
	}
	res.Criterion = float32(crit)
	return math.Abs(crit) < opt.Limit
}
