package stats

import (
	"math/big"
	"sort"
)

// DefaultPercentiles is fio's default percentile_list.
var DefaultPercentiles = []float64{1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99}

// maxPercentiles is the most entries a percentile list may hold.
const maxPercentiles = 20

// EffectiveList returns the percentiles fio reports for list: the entries
// before the first 0, at most 20, sorted ascending.
func EffectiveList(list []float64) []float64 {
	var out []float64
	for _, p := range list {
		if p == 0 || len(out) == maxPercentiles {
			break
		}
		out = append(out, p)
	}
	sort.Float64s(out)
	return out
}

// Percentiles returns, for each entry of list (already effective, see
// EffectiveList), the representative value of the bucket of h holding the
// r-th smallest of n samples, where r is the smallest integer ≥ 1 with
// r·100 ≥ p·n. The comparison is exact: p is taken as the exact binary
// value of the float64, as fio's shipped binary behaves.
func Percentiles(h *Hist, n uint64, list []float64) []uint64 {
	out := make([]uint64, len(list))
	if n == 0 || len(list) == 0 {
		return out
	}
	ranks := make([]uint64, len(list))
	for j, p := range list {
		ranks[j] = rank(p, n)
	}
	var c uint64
	j := 0
	for i := range h {
		c += h[i]
		for j < len(list) && c >= ranks[j] {
			out[j] = HistValue(i)
			j++
		}
		if j == len(list) {
			break
		}
	}
	// Samples beyond the histogram total cannot happen, but keep every
	// entry defined: unassigned ranks take the last bucket's value.
	for ; j < len(list); j++ {
		out[j] = HistValue(HistBuckets - 1)
	}
	return out
}

// rank returns max(1, ceil(p·n/100)) computed exactly.
func rank(p float64, n uint64) uint64 {
	r := new(big.Rat).SetFloat64(p)
	if r == nil || r.Sign() <= 0 {
		return 1
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).SetUint64(n)))
	r.Quo(r, big.NewRat(100, 1))
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	if q.Sign() <= 0 {
		return 1
	}
	return q.Uint64()
}
