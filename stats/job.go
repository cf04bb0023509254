package stats

import "slices"

// Dir is a data direction.
type Dir int

// The data directions, in fio's order.
const (
	Read Dir = iota
	Write
	Trim
	NDirs = 3
)

// DirStats holds the counters of one data direction.
type DirStats struct {
	IOBytes  uint64 // bytes of successfully completed I/Os
	TotalIOs uint64 // issued I/Os
	ShortIOs uint64
	DropIOs  uint64
	// RuntimeUS is the direction's accumulated run time in microseconds;
	// reports show RuntimeMS.
	RuntimeUS uint64

	Slat, Clat, Lat             Accum
	SlatHist, ClatHist, LatHist Hist
	BW, IOPS                    Accum // per-interval samples, KiB/s and I/O/s

	// Prios holds the latency of each I/O priority seen, when the engine
	// gives I/Os priorities of their own (cmdprio options): completion
	// latency, or total latency with lat_percentiles, as fio's manual
	// says for cmdprio_percentage. Reports show them when there are two
	// or more with samples.
	Prios []PrioStat
}

// PrioStat is the latency of the I/Os of one priority in one direction.
type PrioStat struct {
	IOPrio uint16 // ioprio value: class<<13 | level
	Lat    Accum
	Hist   Hist // kept when the reported latency has percentiles
}

// Class is the priority class of p.
func (p *PrioStat) Class() int { return int(p.IOPrio >> 13) }

// Level is the priority level of p within its class.
func (p *PrioStat) Level() int { return int(p.IOPrio & 0x1fff) }

// prio returns d's entry for ioprio, appending it if new.
func (d *DirStats) prio(ioprio uint16) *PrioStat {
	for i := range d.Prios {
		if d.Prios[i].IOPrio == ioprio {
			return &d.Prios[i]
		}
	}
	d.Prios = append(d.Prios, PrioStat{IOPrio: ioprio})
	return &d.Prios[len(d.Prios)-1]
}

// DeclarePrios adds empty entries for the priorities of direction d, in
// order, ahead of any sample: fio 3.33 lists a job's priorities in the
// order they are configured (the job's own first), not as they occur.
func (j *Job) DeclarePrios(d Dir, ioprios ...uint16) {
	for _, p := range ioprios {
		j.Dir[d].prio(p)
	}
}

// ReportedPrios returns the entries of d that have samples when there
// are at least two of them, as fio reports per-priority latencies, else
// nil.
func (d *DirStats) ReportedPrios() []*PrioStat {
	var out []*PrioStat
	for i := range d.Prios {
		if d.Prios[i].Lat.N > 0 {
			out = append(out, &d.Prios[i])
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// AddPrio records latency ns of an I/O of priority ioprio in direction
// d, with its histogram when hist is set.
func (j *Job) AddPrio(d Dir, ioprio uint16, ns uint64, hist bool) {
	p := j.Dir[d].prio(ioprio)
	p.Lat.Add(ns)
	if hist {
		p.Hist.Add(ns)
	}
}

// RuntimeMS is the run time rounded up to whole milliseconds.
func (d *DirStats) RuntimeMS() uint64 { return (d.RuntimeUS + 999) / 1000 }

// Depth-distribution bucket labels.
var (
	// DepthLabels label IODepth: I/Os in flight 1, 2–3, 4–7, …, ≥64.
	DepthLabels = []string{"1", "2", "4", "8", "16", "32", ">=64"}
	// CallLabels label Submit and Complete: I/Os per call 0, 1–4, 5–8,
	// 9–16, 17–32, 33–64, ≥65.
	CallLabels = []string{"0", "4", "8", "16", "32", "64", ">=64"}
	// LatLabels label the nsec and usec latency buckets.
	LatLabels = []string{"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"}
	// LatMsecLabels label the msec latency buckets.
	LatMsecLabels = []string{"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"}
)

// Job is everything counted for one job, or for a group of jobs merged
// under group_reporting (fio's "thread stat").
type Job struct {
	Dir [NDirs]DirStats

	SyncIOs  uint64 // fsync-type operations issued (not end_fsync)
	Sync     Accum  // latency of fsync-type operations
	SyncHist Hist

	IODepth   [7]uint64 // I/Os committed, by depth at the time (DepthLabels)
	Submit    [7]uint64 // submit calls, by I/Os per call (CallLabels)
	Complete  [7]uint64 // reap calls, by I/Os per call (CallLabels)
	Submits   uint64    // number of submit calls
	Completes uint64    // number of reap calls

	LatNsec [10]uint64 // clat < 1µs (LatLabels)
	LatUsec [10]uint64 // 1µs ≤ clat < 1ms (LatLabels)
	LatMsec [12]uint64 // clat ≥ 1ms (LatMsecLabels)

	UsrMS, SysMS    uint64 // CPU time of the job's thread
	Ctx, Majf, Minf uint64
	RuntimeMS       uint64 // job_runtime: ms from epoch to the end of I/O
	Members         int    // jobs merged into this record (1 for a single job)
	ZoneResets      uint64 // zone resets under zonemode=zbd
}

// depthBucket maps an I/O depth to its IODepth slot.
func depthBucket(n int) int {
	switch {
	case n <= 1:
		return 0
	case n < 4:
		return 1
	case n < 8:
		return 2
	case n < 16:
		return 3
	case n < 32:
		return 4
	case n < 64:
		return 5
	}
	return 6
}

// callBucket maps a per-call I/O count to its Submit/Complete slot.
func callBucket(n int) int {
	switch {
	case n <= 0:
		return 0
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	case n <= 16:
		return 3
	case n <= 32:
		return 4
	case n <= 64:
		return 5
	}
	return 6
}

// AddDepth counts n I/Os committed while depth I/Os were in flight.
func (j *Job) AddDepth(depth, n int) { j.IODepth[depthBucket(depth)] += uint64(n) }

// AddSubmit counts one submit call that handed n I/Os to the kernel.
func (j *Job) AddSubmit(n int) {
	j.Submit[callBucket(n)]++
	j.Submits++
}

// AddComplete counts one reap call that returned n completions.
func (j *Job) AddComplete(n int) {
	j.Complete[callBucket(n)]++
	j.Completes++
}

// AddClat records a completion latency, with its histogram when hist is
// set (clat_percentiles), and the latency-distribution bucket.
func (j *Job) AddClat(d Dir, ns uint64, hist bool) {
	s := &j.Dir[d]
	s.Clat.Add(ns)
	if hist {
		s.ClatHist.Add(ns)
	}
	switch {
	case ns < 1000:
		j.LatNsec[latBucket(ns)]++
	case ns < 1000000:
		j.LatUsec[latBucket(ns/1000)]++
	default:
		ms := ns / 1000000
		switch {
		case ms >= 2000:
			j.LatMsec[11]++
		case ms >= 1000:
			j.LatMsec[10]++
		default:
			j.LatMsec[latBucket(ms)]++
		}
	}
}

// latBucket maps x in 0…999 to its LatLabels slot.
func latBucket(x uint64) int {
	switch {
	case x < 2:
		return 0
	case x < 4:
		return 1
	case x < 10:
		return 2
	case x < 20:
		return 3
	case x < 50:
		return 4
	case x < 100:
		return 5
	case x < 250:
		return 6
	case x < 500:
		return 7
	case x < 750:
		return 8
	}
	return 9
}

// AddLat records a total latency.
func (j *Job) AddLat(d Dir, ns uint64, hist bool) {
	s := &j.Dir[d]
	s.Lat.Add(ns)
	if hist {
		s.LatHist.Add(ns)
	}
}

// AddClatLat records an I/O's completion latency (AddClat) and its total
// latency (AddLat). An I/O completed inside the engine's call has both
// equal (its issue is its start), and while the two accumulators hold
// the same state a copy stands for the second Welford update and its
// division: equal states given equal samples stay equal, bit for bit.
func (j *Job) AddClatLat(d Dir, clat, lat uint64, clatHist, latHist bool) {
	s := &j.Dir[d]
	twin := clat == lat && s.Lat.same(&s.Clat)
	j.AddClat(d, clat, clatHist)
	if twin {
		s.Lat = s.Clat
	} else {
		s.Lat.Add(lat)
	}
	if latHist {
		s.LatHist.Add(lat)
	}
}

// AddSlat records a submission latency.
func (j *Job) AddSlat(d Dir, ns uint64, hist bool) {
	s := &j.Dir[d]
	s.Slat.Add(ns)
	if hist {
		s.SlatHist.Add(ns)
	}
}

// AddSyncLat records the latency of an fsync-type operation.
func (j *Job) AddSyncLat(ns uint64) {
	j.Sync.Add(ns)
	j.SyncHist.Add(ns)
}

// Merge folds o into d by fio's merge rules: counts summed, runtime the
// longest, latencies pooled, histograms summed, bandwidth/IOPS sample
// statistics summed. Group reporting merges jobs this way, and unified
// reporting merges directions.
func (d *DirStats) Merge(o *DirStats) {
	d.IOBytes += o.IOBytes
	d.TotalIOs += o.TotalIOs
	d.ShortIOs += o.ShortIOs
	d.DropIOs += o.DropIOs
	d.RuntimeUS = max(d.RuntimeUS, o.RuntimeUS)
	d.Slat.Pool(&o.Slat)
	d.Clat.Pool(&o.Clat)
	d.Lat.Pool(&o.Lat)
	d.SlatHist.Merge(&o.SlatHist)
	d.ClatHist.Merge(&o.ClatHist)
	d.LatHist.Merge(&o.LatHist)
	d.BW.Sum(&o.BW)
	d.IOPS.Sum(&o.IOPS)
	if len(o.Prios) > 0 {
		// d's entries may be shared with the record d was copied from.
		d.Prios = slices.Clone(d.Prios)
		for i := range o.Prios {
			p := d.prio(o.Prios[i].IOPrio)
			p.Lat.Pool(&o.Prios[i].Lat)
			p.Hist.Merge(&o.Prios[i].Hist)
		}
	}
}

// Merge folds o into j by fio's group_reporting rules: latencies pooled,
// bandwidth/IOPS sample statistics summed, histograms and counters summed,
// per-direction runtime the maximum.
func (j *Job) Merge(o *Job) {
	for d := range j.Dir {
		j.Dir[d].Merge(&o.Dir[d])
	}
	j.SyncIOs += o.SyncIOs
	j.Sync.Pool(&o.Sync)
	j.SyncHist.Merge(&o.SyncHist)
	addAll(j.IODepth[:], o.IODepth[:])
	addAll(j.Submit[:], o.Submit[:])
	addAll(j.Complete[:], o.Complete[:])
	j.Submits += o.Submits
	j.Completes += o.Completes
	addAll(j.LatNsec[:], o.LatNsec[:])
	addAll(j.LatUsec[:], o.LatUsec[:])
	addAll(j.LatMsec[:], o.LatMsec[:])
	j.UsrMS += o.UsrMS
	j.SysMS += o.SysMS
	j.Ctx += o.Ctx
	j.Majf += o.Majf
	j.Minf += o.Minf
	j.RuntimeMS += o.RuntimeMS
	j.Members += o.Members
	j.ZoneResets += o.ZoneResets
}

func addAll(dst, src []uint64) {
	for i := range dst {
		dst[i] += src[i]
	}
}
