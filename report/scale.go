package report

import (
	"math"
	"strconv"
)

// scale maps data values onto a chart's axis: linear from zero, base-10
// logarithmic, or "nines" for percentiles (x ↦ −log10(1 − x/100), so
// that 90%, 99%, 99.9% … are evenly spaced).
type scale struct {
	kind     int // linear, logScale, nines
	lo, hi   float64
	from, to float64 // pixels
}

const (
	linear = iota
	logScale
	nines
)

// t returns the transformed value of x before mapping to pixels.
func (s *scale) t(x float64) float64 {
	switch s.kind {
	case logScale:
		return math.Log10(math.Max(x, 1e-9))
	case nines:
		return -math.Log10(math.Max(1-x/100, 1e-9))
	}
	return x
}

// px maps x to a pixel position.
func (s *scale) px(x float64) float64 {
	a, b := s.t(s.lo), s.t(s.hi)
	if b == a {
		return (s.from + s.to) / 2
	}
	v := (s.t(x) - a) / (b - a)
	return s.from + v*(s.to-s.from)
}

// newScale fits a scale of kind to data in [lo, hi]: a linear one starts
// at 0 and ends at a round number, a log one at whole decades.
func newScale(kind int, lo, hi, from, to float64) scale {
	s := scale{kind: kind, from: from, to: to}
	switch kind {
	case linear:
		s.lo, s.hi = 0, axisCeil(hi)
	case logScale:
		if lo <= 0 {
			lo = 1
		}
		if hi < lo {
			hi = lo
		}
		s.lo = math.Pow(10, math.Floor(math.Log10(lo)))
		s.hi = math.Pow(10, math.Ceil(math.Log10(hi)))
		if s.hi <= s.lo {
			s.hi = s.lo * 10
		}
	case nines:
		s.lo, s.hi = 0, 99.9999
	}
	return s
}

// niceCeil returns the smallest of 1, 2, 2.5, 5 × 10ⁿ at least x (1 for
// x ≤ 0).
func niceCeil(x float64) float64 {
	if x <= 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// axisCeil returns the end of a linear axis holding x: x rounded up to
// a multiple of its tick step.
func axisCeil(x float64) float64 {
	step := niceCeil(x / 6)
	return math.Ceil(x/step*(1-1e-12)) * step
}

// ticks returns the values to mark on the axis.
func (s *scale) ticks() []float64 {
	var out []float64
	switch s.kind {
	case linear:
		step := niceCeil(s.hi / 6)
		for k := 0; float64(k)*step <= s.hi*(1+1e-9); k++ {
			out = append(out, float64(k)*step)
		}
	case logScale:
		for v := s.lo; v <= s.hi*(1+1e-9); v *= 10 {
			out = append(out, v)
		}
	case nines:
		out = []float64{0, 90, 99, 99.9, 99.99, 99.999, 99.9999}
	}
	return out
}

// tickLabel formats a tick value shown as v/div.
func (s *scale) tickLabel(v, div float64) string {
	if s.kind == nines {
		return strconv.FormatFloat(v, 'f', -1, 64) + "%"
	}
	return short(v / div)
}

// short formats x compactly: 1.5k, 20M, 0.25.
func short(x float64) string {
	ax := math.Abs(x)
	switch {
	case ax >= 1e9:
		return trim(x/1e9) + "G"
	case ax >= 1e6:
		return trim(x/1e6) + "M"
	case ax >= 1e4:
		return trim(x/1e3) + "k"
	}
	return trim(x)
}

func trim(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// latUnit picks the unit to show latencies of at most maxNS in: the
// divisor and its name.
func latUnit(maxNS float64) (float64, string) {
	switch {
	case maxNS >= 10e9:
		return 1e9, "s"
	case maxNS >= 10e6:
		return 1e6, "ms"
	case maxNS >= 10e3:
		return 1e3, "µs"
	}
	return 1, "ns"
}

// bwUnit picks the unit to show bandwidths of at most max bytes/s in.
func bwUnit(max float64) (float64, string) {
	switch {
	case max >= 10*(1<<30):
		return 1 << 30, "GiB/s"
	case max >= 10*(1<<20):
		return 1 << 20, "MiB/s"
	case max >= 10*(1<<10):
		return 1 << 10, "KiB/s"
	}
	return 1, "B/s"
}
