// Package stats holds the raw per-job statistics gofio collects while it
// runs (one Job per fio "thread stat") and the arithmetic fio 3.33 applies
// to them: the latency histogram, Welford accumulators, percentiles and the
// merge rules of group_reporting. The runner records into these types on
// its hot path; the output package reads them to print reports.
//
// The rules are fio 3.33's, measured on its reports and logs.
package stats

import "math/bits"

// Histogram layout: 29 groups of 64 buckets. Values below 128 ns have a
// bucket each; above that every bucket keeps 6 bits of mantissa.
const (
	histBits   = 6
	histVal    = 1 << histBits // buckets per group
	histGroups = 29
	// HistBuckets is the number of latency histogram buckets.
	HistBuckets = histGroups * histVal
)

// Hist is fio's latency histogram: bucket counts indexed by HistIndex.
type Hist [HistBuckets]uint64

// HistIndex returns the histogram bucket that holds latency ns.
func HistIndex(ns uint64) int {
	if ns < 2*histVal {
		return int(ns)
	}
	m := bits.Len64(ns) - 1 // position of the highest set bit, ≥ 7
	e := m - histBits       // low bits dropped
	i := (e+1)*histVal + int((ns>>uint(e))&(histVal-1))
	if i >= HistBuckets {
		return HistBuckets - 1
	}
	return i
}

// HistValue returns the value fio reports for bucket i: the bucket's
// lower bound plus half its width (the midpoint rounded up).
func HistValue(i int) uint64 {
	if i < 2*histVal {
		return uint64(i)
	}
	e := uint(i/histVal - 1)
	k := uint64(i % histVal)
	return 1<<(e+histBits) + k<<e + 1<<(e-1)
}

// Add counts one latency sample.
func (h *Hist) Add(ns uint64) { h[HistIndex(ns)]++ }

// Merge adds o's counts to h.
func (h *Hist) Merge(o *Hist) {
	for i := range h {
		h[i] += o[i]
	}
}
