package output

import (
	"math"

	"github.com/gofio/gofio/stats"
)

// This file holds the numbers every format derives from the raw
// statistics at print time, as fio 3.33 computes them (observed): the
// unified_rw_reporting fold, run status group aggregates, bandwidth and
// IOPS, per=/bw_agg, distribution percentages with their floors, and the
// latency unit choice.

// Unified reporting modes (Job.Unified, Group.Unified).
const (
	unifiedNone  = 0
	unifiedMixed = 1
	unifiedBoth  = 2
)

var dirLabels = [stats.NDirs]string{"read", "write", "trim"}

// dirRep is one reported direction section of a job.
type dirRep struct {
	label string
	st    *stats.DirStats
	// aggSlot is the direction whose group aggregate is the per=/bw_agg
	// denominator (the read aggregate for the "both" mixed section).
	aggSlot int
}

// jobRep is a job as the reports see it: its statistics after the
// unified_rw_reporting fold, and its direction sections in order.
type jobRep struct {
	*Job
	st stats.Job
	// mixed is the merged direction of unified_rw_reporting=both.
	mixed *stats.DirStats
}

// newJobRep folds j's statistics as its unified_rw_reporting asks.
func newJobRep(j *Job) *jobRep {
	r := &jobRep{Job: j, st: j.Stats}
	switch j.Unified {
	case unifiedMixed:
		m := mergeDirs(&j.Stats)
		r.st.Dir = [stats.NDirs]stats.DirStats{m}
	case unifiedBoth:
		m := mergeDirs(&j.Stats)
		r.mixed = &m
	}
	return r
}

// mergeDirs folds the three directions of s into one, read first, by the
// group_reporting rules: counts summed, runtime the longest, latencies
// pooled, histograms summed, bandwidth/IOPS sample statistics summed.
func mergeDirs(s *stats.Job) stats.DirStats {
	m := s.Dir[stats.Read]
	for d := stats.Write; d < stats.NDirs; d++ {
		m.Merge(&s.Dir[d])
	}
	return m
}

// dirs returns the job's direction sections for the normal and JSON
// reports: read, write, trim (or the one mixed slot), then the extra
// mixed direction of unified_rw_reporting=both.
func (r *jobRep) dirs() []dirRep {
	if r.Unified == unifiedMixed {
		return []dirRep{{"mixed", &r.st.Dir[0], 0}}
	}
	out := make([]dirRep, 0, 4)
	for d := range stats.NDirs {
		out = append(out, dirRep{dirLabels[d], &r.st.Dir[d], d})
	}
	if r.mixed != nil {
		out = append(out, dirRep{"mixed", r.mixed, 0})
	}
	return out
}

// issued is the job's issued read+write+trim count, the divisor of the
// depth and latency distributions.
func (r *jobRep) issued() uint64 {
	var t uint64
	for d := range r.st.Dir {
		t += r.st.Dir[d].TotalIOs
	}
	return t
}

// didIO reports whether the job moved bytes or issued I/O at all (a job
// that did neither has no block in the normal report).
func (r *jobRep) didIO() bool {
	for d := range r.st.Dir {
		if r.st.Dir[d].IOBytes != 0 || r.st.Dir[d].TotalIOs != 0 {
			return true
		}
	}
	return false
}

// members is the jobs= count of the title line.
func (r *jobRep) members() int { return max(r.st.Members, 1) }

// cpu returns the user and system CPU percentages.
func (r *jobRep) cpu() (usr, sys float64) {
	if r.st.RuntimeMS == 0 {
		return 0, 0
	}
	rt := float64(r.st.RuntimeMS)
	return float64(r.st.UsrMS) * 100 / rt, float64(r.st.SysMS) * 100 / rt
}

// percentileList returns the effective percentile list and the decimals
// of its labels in the normal report.
func (r *jobRep) percentileList() ([]float64, int) {
	if r.Percentiles == nil {
		return stats.DefaultPercentiles, 2
	}
	return stats.EffectiveList(r.Percentiles), r.PercentilePrecision
}

// bwPerSec is the direction's bandwidth in bytes per second.
func bwPerSec(d *stats.DirStats) uint64 {
	rt := d.RuntimeMS()
	if rt == 0 {
		return 0
	}
	return d.IOBytes * 1000 / rt
}

// iopsInt is the integer IOPS of the normal and terse reports.
func iopsInt(d *stats.DirStats) uint64 {
	rt := d.RuntimeMS()
	if rt == 0 {
		return 0
	}
	return d.TotalIOs * 1000 / rt
}

// iopsFloat is the JSON iops value.
func iopsFloat(d *stats.DirStats) float64 {
	rt := d.RuntimeMS()
	if rt == 0 {
		return 0
	}
	return float64(d.TotalIOs) * 1000 / float64(rt)
}

// dirAgg is one direction line of a run status group.
type dirAgg struct {
	IOBytes        uint64
	Agg            uint64 // bytes/s: total bytes × 1000 / longest runtime
	MinBW, MaxBW   uint64 // bytes/s of the slowest and fastest job
	MinRun, MaxRun uint64 // ms
}

// groupAgg holds a group's aggregates per direction slot, and the
// "MIXED" line of unified_rw_reporting=both.
type groupAgg struct {
	Dir   [stats.NDirs]dirAgg
	Mixed dirAgg
}

// aggregate computes the run status group lines of group g over the
// reported jobs of that group.
func aggregate(reps []*jobRep, g int) *groupAgg {
	a := &groupAgg{}
	for d := range stats.NDirs {
		x := &a.Dir[d]
		first := true
		for _, r := range reps {
			if r.GroupID != g {
				continue
			}
			ds := &r.st.Dir[d]
			x.IOBytes += ds.IOBytes
			rt := ds.RuntimeMS()
			if rt == 0 {
				continue
			}
			bw := ds.IOBytes * 1000 / rt
			if first {
				x.MinBW, x.MaxBW, x.MinRun, x.MaxRun = bw, bw, rt, rt
				first = false
				continue
			}
			x.MinBW = min(x.MinBW, bw)
			x.MaxBW = max(x.MaxBW, bw)
			x.MinRun = min(x.MinRun, rt)
			x.MaxRun = max(x.MaxRun, rt)
		}
		if x.MaxRun > 0 {
			x.Agg = x.IOBytes * 1000 / x.MaxRun
		}
	}
	m := &a.Mixed
	first := true
	for d := range stats.NDirs {
		x := &a.Dir[d]
		m.IOBytes += x.IOBytes
		if x.MaxRun == 0 {
			continue
		}
		m.Agg += x.Agg
		if first {
			m.MinBW, m.MaxBW, m.MinRun, m.MaxRun = x.MinBW, x.MaxBW, x.MinRun, x.MaxRun
			first = false
			continue
		}
		m.MinBW = min(m.MinBW, x.MinBW)
		m.MaxBW = max(m.MaxBW, x.MaxBW)
		m.MinRun = min(m.MinRun, x.MinRun)
		m.MaxRun = max(m.MaxRun, x.MaxRun)
	}
	return a
}

// aggregates computes every group's aggregates, indexed by group ID.
func aggregates(reps []*jobRep) map[int]*groupAgg {
	out := map[int]*groupAgg{}
	for _, r := range reps {
		if _, ok := out[r.GroupID]; !ok {
			out[r.GroupID] = aggregate(reps, r.GroupID)
		}
	}
	return out
}

// trunc32 converts x to a C int the way x86 does: values outside the
// int32 range (and NaN) become -2147483648.
func trunc32(x float64) int32 {
	if !(x > -2147483649 && x < 2147483648) {
		return math.MinInt32
	}
	return int32(x)
}

// perAgg is the normal report's per= and JSON's bw_agg: the bandwidth
// mean's share of the group aggregate agg (bytes/s), capped at 100.
func perAgg(mean float64, agg uint64) float64 {
	if agg <= 1024 {
		return 100
	}
	p := float64(trunc32(mean)) * 100 / (float64(agg) / 1024.0)
	return min(p, 100)
}

// tersePer is the terse report's bandwidth share: the untruncated mean
// over the aggregate integer-divided to KiB/s, capped at 100.
func tersePer(mean float64, agg uint64) float64 {
	p := 100.0
	if agg != 0 {
		k := agg / 1024
		if k == 0 {
			switch {
			case mean > 0:
				p = math.Inf(1)
			case mean < 0:
				p = math.Inf(-1)
			default:
				p = negNaN
			}
		} else {
			p = mean * 100 / float64(k)
		}
	}
	if p > 100 {
		p = 100
	}
	return p
}

// distPct is a distribution bucket's percentage of total, raised to
// floor when the count is non-zero but the share smaller; 0 when total
// is 0.
func distPct(count, total uint64, floor float64) float64 {
	if total == 0 {
		return 0
	}
	p := float64(count) / float64(total) * 100
	if count > 0 && p < floor {
		p = floor
	}
	return p
}

// distPcts applies distPct to every bucket of counts.
func distPcts(counts []uint64, total uint64, floor float64) []float64 {
	out := make([]float64, len(counts))
	for k, c := range counts {
		out[k] = distPct(c, total, floor)
	}
	return out
}

// The distribution floors.
const (
	depthFloor = 0.1  // IO depths, submit, complete
	latFloor   = 0.01 // latency buckets
)

// latScale picks the unit of a latency summary line (values in ns): msec
// or usec when min, max and stddev all clear that unit's thresholds.
func latScale(a *stats.Accum) (unit string, div uint64) {
	sd := a.Stddev()
	switch {
	case a.Min > 2000000 && a.Max > 99999999 && sd > 1000000:
		return "msec", 1000000
	case a.Min > 2000 && a.Max > 99999 && sd > 1000:
		return "usec", 1000
	}
	return "nsec", 1
}

// percentiles computes a latency statistic's percentiles from its
// histogram; nil when the statistic has no samples or the list is empty.
func percentiles(a *stats.Accum, h *stats.Hist, list []float64) []uint64 {
	if a.N == 0 || len(list) == 0 {
		return nil
	}
	return stats.Percentiles(h, a.N, list)
}

// KBBase returns the kb_base a report uses for the setting kb: 1000
// when kb is 1000, else fio's default of 1024 (0, unset, included).
func KBBase(kb int) int {
	if kb == 1000 {
		return 1000
	}
	return 1024
}

// SigFigs returns the significant_figures a report uses for the
// setting n: n, or fio's default of 4 when n is 0 (unset) or less.
func SigFigs(n int) int {
	if n <= 0 {
		return 4
	}
	return n
}

// bwUnit is the num2str unit of bandwidths for a unit_base setting
// (1 means bits, -1 no unit as in fio's "All clients" report, anything
// else bytes).
func bwUnit(unitBase int) Unit {
	switch unitBase {
	case 1:
		return UnitBitPerSec
	case -1:
		return UnitNone
	}
	return UnitBytePerSec
}

// metric names the steady-state metric: "iops" or "bw".
func (ss *SteadyState) metric() string {
	if ss.IOPS {
		return "iops"
	}
	return "bw"
}

// pctSign is "%" when the steady-state limit is a percentage.
func (ss *SteadyState) pctSign() string {
	if ss.Pct {
		return "%"
	}
	return ""
}
