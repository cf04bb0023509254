package report

import (
	"math"
	"strconv"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// Interval is what one reported job did between two snapshots of a run.
type Interval struct {
	// Job is the job's record at the end of the interval (cumulative
	// counters).
	Job *output.Job
	// Index is the job's place in the result's Jobs.
	Index int
	// Delta holds the counters of the interval alone: bytes, I/Os,
	// latency histograms and moments, distributions.
	Delta stats.Job
	// StartMS and EndMS are the job's run time (ms since the start of
	// its I/O; for a group, its members' mean, see TimeMS) at the two
	// snapshots.
	StartMS, EndMS uint64
}

// Tracker turns successive snapshots of a run into intervals. The zero
// value is ready to use.
type Tracker struct {
	prev map[string]stats.Job
}

// key identifies a reported record across snapshots.
func key(i int, j *output.Job) string { return strconv.Itoa(i) + "\x00" + j.Name }

// Next returns, for each job of r whose run time moved since the last
// call, the interval since then; a job seen for the first time starts at
// zero. keep reports whether job i's interval is wanted now: a job it
// refuses is left for a later call, its interval growing.
func (t *Tracker) Next(r *output.Result, keep func(i int, j *output.Job) bool) []Interval {
	if t.prev == nil {
		t.prev = map[string]stats.Job{}
	}
	var out []Interval
	for i := range r.Jobs {
		j := &r.Jobs[i]
		k := key(i, j)
		p := t.prev[k]
		if TimeMS(&j.Stats) < TimeMS(&p) || ioCount(&j.Stats) < ioCount(&p) {
			// The job's statistics were reset (the end of ramp_time):
			// the interval starts from zero.
			p = stats.Job{}
		}
		if TimeMS(&j.Stats) <= TimeMS(&p) && ioCount(&j.Stats) == ioCount(&p) {
			continue
		}
		if keep != nil && !keep(i, j) {
			continue
		}
		out = append(out, Interval{Job: j, Index: i, Delta: Delta(&j.Stats, &p), StartMS: TimeMS(&p), EndMS: TimeMS(&j.Stats)})
		t.prev[k] = j.Stats
	}
	return out
}

// TimeMS is the run time of a job's record: job_runtime, which
// group_reporting sums over the group's members, divided by their
// number.
func TimeMS(s *stats.Job) uint64 { return s.RuntimeMS / uint64(max(s.Members, 1)) }

func ioCount(s *stats.Job) (n uint64) {
	for d := range s.Dir {
		n += s.Dir[d].TotalIOs
	}
	return n
}

// sub is a-b, 0 when b is larger.
func sub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// Delta returns the counters of cur that were not yet in prev, an earlier
// snapshot of the same job. Latency moments are unpooled (the inverse of
// stats.Accum.Pool); an interval's minimum and maximum are those of its
// histogram's lowest and highest buckets (a snapshot keeps no history of
// extremes). Bandwidth and IOPS sample statistics hold one sample: the
// interval's own rate.
func Delta(cur, prev *stats.Job) stats.Job {
	var d stats.Job
	for k := range cur.Dir {
		c, p, o := &cur.Dir[k], &prev.Dir[k], &d.Dir[k]
		o.IOBytes = sub(c.IOBytes, p.IOBytes)
		o.TotalIOs = sub(c.TotalIOs, p.TotalIOs)
		o.ShortIOs = sub(c.ShortIOs, p.ShortIOs)
		o.DropIOs = sub(c.DropIOs, p.DropIOs)
		o.RuntimeUS = sub(c.RuntimeUS, p.RuntimeUS)
		o.SlatHist = histDelta(&c.SlatHist, &p.SlatHist)
		o.ClatHist = histDelta(&c.ClatHist, &p.ClatHist)
		o.LatHist = histDelta(&c.LatHist, &p.LatHist)
		o.Slat = accumDelta(&c.Slat, &p.Slat, &o.SlatHist)
		o.Clat = accumDelta(&c.Clat, &p.Clat, &o.ClatHist)
		o.Lat = accumDelta(&c.Lat, &p.Lat, &o.LatHist)
		if ms := sub(TimeMS(cur), TimeMS(prev)); ms > 0 && o.TotalIOs > 0 {
			bw := o.IOBytes * 1000 / ms / 1024
			iops := o.TotalIOs * 1000 / ms
			o.BW = stats.Accum{Min: bw, Max: bw, N: 1, Mean: float64(bw)}
			o.IOPS = stats.Accum{Min: iops, Max: iops, N: 1, Mean: float64(iops)}
		}
	}
	d.SyncIOs = sub(cur.SyncIOs, prev.SyncIOs)
	d.SyncHist = histDelta(&cur.SyncHist, &prev.SyncHist)
	d.Sync = accumDelta(&cur.Sync, &prev.Sync, &d.SyncHist)
	arrDelta(d.IODepth[:], cur.IODepth[:], prev.IODepth[:])
	arrDelta(d.Submit[:], cur.Submit[:], prev.Submit[:])
	arrDelta(d.Complete[:], cur.Complete[:], prev.Complete[:])
	d.Submits = sub(cur.Submits, prev.Submits)
	d.Completes = sub(cur.Completes, prev.Completes)
	arrDelta(d.LatNsec[:], cur.LatNsec[:], prev.LatNsec[:])
	arrDelta(d.LatUsec[:], cur.LatUsec[:], prev.LatUsec[:])
	arrDelta(d.LatMsec[:], cur.LatMsec[:], prev.LatMsec[:])
	d.UsrMS = sub(cur.UsrMS, prev.UsrMS)
	d.SysMS = sub(cur.SysMS, prev.SysMS)
	d.Ctx = sub(cur.Ctx, prev.Ctx)
	d.Majf = sub(cur.Majf, prev.Majf)
	d.Minf = sub(cur.Minf, prev.Minf)
	d.RuntimeMS = sub(cur.RuntimeMS, prev.RuntimeMS)
	d.Members = cur.Members
	return d
}

func arrDelta(dst, cur, prev []uint64) {
	for i := range dst {
		dst[i] = sub(cur[i], prev[i])
	}
}

func histDelta(cur, prev *stats.Hist) stats.Hist {
	var h stats.Hist
	for i := range h {
		h[i] = sub(cur[i], prev[i])
	}
	return h
}

// accumDelta unpools prev from cur: the moments of the samples cur has
// and prev has not.
func accumDelta(cur, prev *stats.Accum, h *stats.Hist) stats.Accum {
	n := sub(cur.N, prev.N)
	if n == 0 {
		return stats.Accum{}
	}
	if prev.N == 0 {
		return *cur
	}
	n1, n2, nt := float64(prev.N), float64(n), float64(cur.N)
	mean := (cur.Mean*nt - prev.Mean*n1) / n2
	d := mean - prev.Mean
	s := cur.S - prev.S - d*d*n1*n2/nt
	if s < 0 || math.IsNaN(s) {
		s = 0
	}
	a := stats.Accum{N: n, Mean: mean, S: s}
	lo, hi := -1, -1
	for i, c := range h {
		if c > 0 {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if lo >= 0 {
		a.Min, a.Max = stats.HistValue(lo), stats.HistValue(hi)
	} else {
		a.Min, a.Max = uint64(math.Max(mean, 0)), uint64(math.Max(mean, 0))
	}
	return a
}
