package output

import (
	"io"
	"math"
	"strconv"

	"github.com/gofio/gofio/stats"
)

// JSON writes fio's JSON report (--output-format=json), or JSON+ with the
// latency histogram "bins" when plus is set, followed by one newline.
func JSON(w io.Writer, r *Result, plus bool) error {
	j := &jsonWriter{}
	j.open('{')
	j.str("fio version", FioVersion)
	sec := r.Time.Unix()
	j.int("timestamp", sec)
	j.int("timestamp_ms", sec*1000+int64(r.Time.Nanosecond()/1000)/1000)
	j.str("time", Ctime(r.Time))
	if r.GlobalOptions != nil {
		writeJSONOptions(j, "global options", r.GlobalOptions)
	}

	reps := make([]*jobRep, len(r.Jobs))
	for k := range r.Jobs {
		reps[k] = newJobRep(&r.Jobs[k])
	}
	aggs := aggregates(reps)
	elapsed := (r.ElapsedMS + 999) / 1000
	j.array("jobs")
	for _, rep := range reps {
		writeJSONJob(j, rep, aggs[rep.GroupID], elapsed, plus)
	}
	j.close(']')

	if len(r.Disks) > 0 {
		j.array("disk_util")
		for k := range r.Disks {
			writeJSONDisk(j, &r.Disks[k])
		}
		j.close(']')
	}
	j.close('}')
	j.b.WriteByte('\n')
	_, err := w.Write(j.b.Bytes())
	return err
}

// writeJSONOptions writes an options object; valueless options vanish.
func writeJSONOptions(j *jsonWriter, key string, opts []Option) {
	j.object(key)
	for _, o := range opts {
		j.str(o.Name, o.Value)
	}
	j.close('}')
}

// writeJSONJob writes one element of "jobs".
func writeJSONJob(j *jsonWriter, r *jobRep, ga *groupAgg, elapsed uint64, plus bool) {
	if ga == nil {
		ga = &groupAgg{}
	}
	j.element()
	j.str("jobname", r.Name)
	j.uint("groupid", uint64(uint32(r.GroupID)))
	j.int("error", int64(r.Error))
	if r.Remote == nil { // fio's client-mode objects have no eta, elapsed or desc
		eta := int64(math.MaxInt32)
		if elapsed >= 3 {
			eta = 0
		}
		j.int("eta", eta)
		j.uint("elapsed", elapsed)
	}
	if len(r.Options) > 0 { // fio leaves out an empty "job options"
		writeJSONOptions(j, "job options", r.Options)
	}
	list, _ := r.percentileList()
	for _, d := range r.dirs() {
		if d.st == r.mixed {
			// unified_rw_reporting=both: "mixed" follows "sync".
			continue
		}
		writeJSONDir(j, r, d, ga.Dir[d.aggSlot].Agg, list, plus)
	}
	if r.Unified != unifiedMixed {
		j.object("sync")
		j.uint("total_ios", r.st.SyncIOs)
		writeJSONLat(j, "lat_ns", &r.st.Sync, &r.st.SyncHist, r.ClatPercentiles || r.LatPercentiles, list, plus)
		j.close('}')
	}
	if r.mixed != nil {
		writeJSONDir(j, r, dirRep{"mixed", r.mixed, 0}, ga.Dir[0].Agg, list, plus)
	}

	j.uint("job_runtime", r.st.RuntimeMS)
	usr, sys := r.cpu()
	j.float("usr_cpu", usr)
	j.float("sys_cpu", sys)
	j.uint("ctx", r.st.Ctx)
	j.uint("majf", r.st.Majf)
	j.uint("minf", r.st.Minf)
	total := r.issued()
	writeJSONDist(j, "iodepth_level", stats.DepthLabels, distPcts(r.st.IODepth[:], total, depthFloor))
	writeJSONDist(j, "iodepth_submit", stats.CallLabels, distPcts(r.st.Submit[:], r.st.Submits, depthFloor))
	writeJSONDist(j, "iodepth_complete", stats.CallLabels, distPcts(r.st.Complete[:], r.st.Completes, depthFloor))
	writeJSONDist(j, "latency_ns", stats.LatLabels, distPcts(r.st.LatNsec[:], total, latFloor))
	writeJSONDist(j, "latency_us", stats.LatLabels, distPcts(r.st.LatUsec[:], total, latFloor))
	writeJSONDist(j, "latency_ms", stats.LatMsecLabels, distPcts(r.st.LatMsec[:], total, latFloor))
	if r.ErrorCheck {
		j.uint("total_err", r.TotalErrors)
		j.int("first_error", int64(r.FirstError))
	}
	if r.Depth != 0 {
		j.int("latency_depth", int64(r.Depth))
		j.uint("latency_target", r.LatencyTarget)
		j.float("latency_percentile", r.LatencyPercentile)
		j.uint("latency_window", r.LatencyWindow)
	}
	if r.Remote == nil {
		j.str("desc", r.Description)
	}
	if r.Steady != nil {
		writeJSONSteady(j, r.Steady)
	}
	writeJSONRemote(j, r.Remote)
	j.close('}')
}

// writeJSONSteady writes the "steadystate" object.
func writeJSONSteady(j *jsonWriter, ss *SteadyState) {
	j.object("steadystate")
	name := ss.metric()
	if ss.Slope {
		name += "_slope"
	}
	j.str("ss", name+":"+fmtF(float64(ss.Limit), 6)+ss.pctSign())
	j.uint("duration", ss.DurationS)
	attained := int64(0)
	if ss.Attained {
		attained = 1
	}
	j.int("attained", attained)
	j.str("criterion", fmtF(float64(ss.Criterion), 6)+ss.pctSign())
	j.float("max_deviation", ss.MaxDeviation)
	j.float("slope", ss.SlopeValue)
	j.object("data")
	j.uint("bw_mean", ss.BWMean)
	j.uint("iops_mean", ss.IOPSMean)
	j.array("iops")
	for _, v := range ss.IOPSData {
		j.elemUint(v)
	}
	j.close(']')
	j.array("bw")
	for _, v := range ss.BWData {
		j.elemUint(v)
	}
	j.close(']')
	j.close('}')
	j.close('}')
}

// writeJSONDir writes a direction object ("read", "write", "trim",
// "mixed"); agg is the group aggregate bw_agg is measured against.
func writeJSONDir(j *jsonWriter, r *jobRep, d dirRep, agg uint64, list []float64, plus bool) {
	st := d.st
	j.object(d.label)
	bw := bwPerSec(st)
	j.uint("io_bytes", st.IOBytes)
	j.uint("io_kbytes", st.IOBytes>>10)
	j.uint("bw_bytes", bw)
	j.uint("bw", bw/1024)
	j.float("iops", iopsFloat(st))
	j.uint("runtime", st.RuntimeMS())
	j.uint("total_ios", st.TotalIOs)
	j.uint("short_ios", st.ShortIOs)
	j.uint("drop_ios", st.DropIOs)
	writeJSONLat(j, "slat_ns", &st.Slat, &st.SlatHist, r.SlatPercentiles, list, plus)
	writeJSONLat(j, "clat_ns", &st.Clat, &st.ClatHist, r.ClatPercentiles, list, plus)
	writeJSONLat(j, "lat_ns", &st.Lat, &st.LatHist, r.LatPercentiles, list, plus)
	if prios := st.ReportedPrios(); prios != nil {
		// Per-priority latencies (cmdprio options), as fio 3.33 writes
		// them: total latency with lat_percentiles, else completion
		// latency, each entry laid out as the combined object.
		key, pct := "clat_ns", r.ClatPercentiles
		if r.LatPercentiles {
			key, pct = "lat_ns", true
		}
		j.array("prios")
		for _, p := range prios {
			j.element()
			j.int("prioclass", int64(p.Class()))
			j.int("prio", int64(p.Level()))
			writeJSONLat(j, key, &p.Lat, &p.Hist, pct, list, plus)
			j.close('}')
		}
		j.close(']')
	}
	j.uint("bw_min", st.BW.Min)
	j.uint("bw_max", st.BW.Max)
	share := 0.0
	if st.BW.N > 0 {
		share = perAgg(st.BW.Mean, agg)
	}
	j.float("bw_agg", share)
	j.float("bw_mean", st.BW.Mean)
	j.float("bw_dev", st.BW.Stddev())
	j.uint("bw_samples", st.BW.N)
	j.uint("iops_min", st.IOPS.Min)
	j.uint("iops_max", st.IOPS.Max)
	j.float("iops_mean", st.IOPS.Mean)
	j.float("iops_stddev", st.IOPS.Stddev())
	j.uint("iops_samples", st.IOPS.N)
	j.close('}')
}

// writeJSONLat writes a latency object; its percentiles (and, for JSON+,
// bins) when pct is set and the statistic has samples.
func writeJSONLat(j *jsonWriter, key string, a *stats.Accum, h *stats.Hist, pct bool, list []float64, plus bool) {
	j.object(key)
	j.uint("min", a.Min)
	j.uint("max", a.Max)
	j.float("mean", a.Mean)
	j.float("stddev", a.Stddev())
	j.uint("N", a.N)
	if pct && a.N > 0 {
		vals := stats.Percentiles(h, a.N, list)
		j.object("percentile")
		for k, p := range list {
			j.uint(fmtF(p, 6), vals[k])
		}
		j.close('}')
		if plus {
			j.object("bins")
			for k, c := range h {
				if c != 0 {
					j.uint(strconv.FormatUint(stats.HistValue(k), 10), c)
				}
			}
			j.close('}')
		}
	}
	j.close('}')
}

// writeJSONDist writes a distribution object (label → percentage).
func writeJSONDist(j *jsonWriter, key string, labels []string, pcts []float64) {
	j.object(key)
	for k, p := range pcts {
		j.float(labels[k], p)
	}
	j.close('}')
}

// writeJSONDisk writes one element of "disk_util".
func writeJSONDisk(j *jsonWriter, d *Disk) {
	j.element()
	j.str("name", d.Name)
	j.uint("read_ios", d.ReadIOs)
	j.uint("write_ios", d.WriteIOs)
	j.uint("read_merges", d.ReadMerges)
	j.uint("write_merges", d.WriteMerges)
	j.uint("read_ticks", d.ReadTicks)
	j.uint("write_ticks", d.WriteTicks)
	j.uint("in_queue", d.InQueue)
	j.float("util", d.Util)
	if s := d.Slaves; s != nil {
		j.uint("aggr_read_ios", s.ReadIOs)
		j.uint("aggr_write_ios", s.WriteIOs)
		j.uint("aggr_read_merges", s.ReadMerges)
		j.uint("aggr_write_merge", s.WriteMerges)
		j.uint("aggr_read_ticks", s.ReadTicks)
		j.uint("aggr_write_ticks", s.WriteTicks)
		j.uint("aggr_in_queue", s.InQueue)
		j.float("aggr_util", s.Util)
	}
	writeJSONRemote(j, d.Remote)
	j.close('}')
}
