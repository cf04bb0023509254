package report

import (
	"github.com/gofio/gofio/stats"
)

// Point is what one direction of a job did in one interval.
type Point struct {
	// TimeMS is the end of the interval, ms since the start of the job's
	// I/O; SpanMS its length.
	TimeMS, SpanMS float64
	// BW (bytes/s) and IOPS are the interval's rates; HasRate is false
	// when the source gave latencies only.
	BW, IOPS float64
	HasRate  bool
	// Lat holds the interval's completion latency p50, p99 and p99.9
	// (ns), from the interval's histogram; HasLat is false when there
	// were no latency samples.
	Lat    [3]uint64
	HasLat bool
}

// intervalPercentiles are the percentiles drawn over time.
var intervalPercentiles = []float64{50, 99, 99.9}

// Series is a job's per-interval results, per direction.
type Series struct {
	Dir [stats.NDirs][]Point
	// Source says where the points came from ("gofio intervals of 1s",
	// "fio logs: a_bw.1.log, ..."), for the page.
	Source string
}

// Empty reports whether s holds no point.
func (s *Series) Empty() bool {
	for _, d := range s.Dir {
		if len(d) > 0 {
			return false
		}
	}
	return true
}

// Add records an interval of the job.
func (s *Series) Add(iv *Interval) {
	span := float64(iv.EndMS - iv.StartMS)
	if span <= 0 {
		return
	}
	for d := range iv.Delta.Dir {
		ds := &iv.Delta.Dir[d]
		if ds.TotalIOs == 0 && len(s.Dir[d]) == 0 {
			continue
		}
		p := Point{TimeMS: float64(iv.EndMS), SpanMS: span, HasRate: true,
			BW: float64(ds.IOBytes) * 1000 / span, IOPS: float64(ds.TotalIOs) * 1000 / span}
		h, n := &ds.ClatHist, ds.Clat.N
		if n == 0 {
			h, n = &ds.LatHist, ds.Lat.N
		}
		p.Lat, p.HasLat = histPercentiles(h, n)
		s.Dir[d] = append(s.Dir[d], p)
	}
}

// histPercentiles returns the interval percentiles of h (n samples).
func histPercentiles(h *stats.Hist, n uint64) ([3]uint64, bool) {
	var out [3]uint64
	if n == 0 {
		return out, false
	}
	copy(out[:], stats.Percentiles(h, n, intervalPercentiles))
	return out, true
}

// histCount sums h.
func histCount(h *stats.Hist) (n uint64) {
	for _, c := range h {
		n += c
	}
	return n
}
