package output

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/gofio/gofio/stats"
)

// Normal writes fio's final human-readable report: an empty line, one
// block per reported job that did I/O, one "Run status group" section per
// group and, when block devices were tracked, the "Disk stats" section.
func Normal(w io.Writer, r *Result) error {
	var b bytes.Buffer
	reps := make([]*jobRep, len(r.Jobs))
	for k := range r.Jobs {
		reps[k] = newJobRep(&r.Jobs[k])
	}
	aggs := aggregates(reps)
	date := Ctime(r.Time)

	b.WriteString("\n")
	for _, rep := range reps {
		if rep.didIO() {
			writeJobBlock(&b, rep, aggs[rep.GroupID], date)
		}
	}
	for _, g := range r.Groups {
		writeGroup(&b, &g, aggs[g.ID])
	}
	if len(r.Disks) > 0 {
		b.WriteString("\nDisk stats (read/write):\n")
		for k := range r.Disks {
			writeDisk(&b, &r.Disks[k])
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeJobBlock writes one job's block.
func writeJobBlock(b *bytes.Buffer, r *jobRep, ga *groupAgg, date string) {
	b.WriteString(r.Name + ": (groupid=" + itoa(r.GroupID) + ", jobs=" + itoa(r.members()) + "): err=")
	if r.Error != 0 {
		b.WriteString(pad(itoa(r.Error), 2) + " (" + r.ErrorText + ")")
	} else {
		b.WriteString(pad(itoa(r.Error), 2))
	}
	b.WriteString(": pid=" + itoa(r.Pid) + ": " + date + "\n")
	if r.Description != "" {
		b.WriteString("  Description  : [" + r.Description + "]\n")
	}
	if ga == nil {
		ga = &groupAgg{}
	}
	for _, d := range r.dirs() {
		broken := d.st == r.mixed
		if !broken && (d.st.IOBytes == 0 || d.st.RuntimeMS() == 0) {
			continue
		}
		writeDirSection(b, r, d, ga.Dir[d.aggSlot].Agg, broken)
	}
	writeLatDist(b, r)
	if r.st.Sync.N > 0 {
		list, prec := r.percentileList()
		b.WriteString("  fsync/fdatasync/sync_file_range:\n")
		writeLatLine(b, "sync", &r.st.Sync)
		writePercentiles(b, "sync", percentiles(&r.st.Sync, &r.st.SyncHist, list), list, prec)
	}
	usr, sys := r.cpu()
	b.WriteString("  cpu          : usr=" + fmtF(usr, 2) + "%, sys=" + fmtF(sys, 2) +
		"%, ctx=" + utoa(r.st.Ctx) + ", majf=" + utoa(r.st.Majf) + ", minf=" + utoa(r.st.Minf) + "\n")
	total := r.issued()
	writeDist(b, "  IO depths    : ", stats.DepthLabels, distPcts(r.st.IODepth[:], total, depthFloor))
	writeDist(b, "     submit    : ", stats.CallLabels, distPcts(r.st.Submit[:], r.st.Submits, depthFloor))
	writeDist(b, "     complete  : ", stats.CallLabels, distPcts(r.st.Complete[:], r.st.Completes, depthFloor))
	s := &r.st
	b.WriteString("     issued rwts: total=" + utoa(s.Dir[0].TotalIOs) + "," + utoa(s.Dir[1].TotalIOs) + "," +
		utoa(s.Dir[2].TotalIOs) + "," + utoa(s.SyncIOs) +
		" short=" + utoa(s.Dir[0].ShortIOs) + "," + utoa(s.Dir[1].ShortIOs) + "," + utoa(s.Dir[2].ShortIOs) + ",0" +
		" dropped=" + utoa(s.Dir[0].DropIOs) + "," + utoa(s.Dir[1].DropIOs) + "," + utoa(s.Dir[2].DropIOs) + ",0\n")
	if r.ErrorCheck {
		b.WriteString("     errors    : total=" + utoa(r.TotalErrors) + ", first_error=" +
			itoa(r.FirstError) + "/<" + r.FirstErrorText + ">\n")
	}
	if r.Depth != 0 {
		b.WriteString("     latency   : target=" + utoa(r.LatencyTarget) + ", window=" + utoa(r.LatencyWindow) +
			", percentile=" + fmtF(r.LatencyPercentile, 2) + "%, depth=" + itoa(r.Depth) + "\n")
	}
	if r.BlockLifetime {
		b.WriteString("  block lifetime percentiles :\n" +
			"   |        states               : unwritten=0, trimmed=0, written=0, trim failure=0, write failure=0\n")
	}
	if r.Steady != nil {
		writeSteady(b, r)
	}
}

// writeSteady writes the steadystate line.
func writeSteady(b *bytes.Buffer, r *jobRep) {
	ss := r.Steady
	kb := KBBase(r.KBBase)
	sf := SigFigs(r.SigFigs)
	pow2 := kb == 1024
	unit := bwUnit(r.UnitBase)
	bw := ss.BWMean / uint64(kb)
	b.WriteString("  steadystate  : attained=" + yesNo(ss.Attained) +
		", bw=" + Num2Str(bw, sf, kb, pow2, unit) + " (" + Num2Str(bw, sf, kb, !pow2, unit) +
		"), iops=" + Num2Str(ss.IOPSMean, sf, 1, false, UnitNone) + ", " + ss.metric())
	if ss.Slope {
		b.WriteString(" slope=")
	} else {
		b.WriteString(" mean dev=")
	}
	b.WriteString(fmtF(float64(ss.Criterion), 3) + ss.pctSign() + "\n")
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// writeDirSection writes a direction's lines: the IOPS/BW line, latency
// summaries, percentile blocks and the bw/iops sample lines. broken
// selects the zeroed first line fio 3.33 prints for the extra mixed
// direction of unified_rw_reporting=both.
func writeDirSection(b *bytes.Buffer, r *jobRep, d dirRep, agg uint64, broken bool) {
	st := d.st
	rt := st.RuntimeMS()
	if broken {
		b.WriteString("  " + d.label + ": IOPS=" + Num2Str(iopsInt(st), 0, 1, false, UnitNone) +
			", BW=" + Num2Str(bwPerSec(st), 0, 1, false, UnitNone) +
			" (" + Num2Str(bwPerSec(st), 0, 1, true, UnitNone) + ")(" +
			Num2Str(st.IOBytes, 0, 1, false, UnitByte) + "/" + utoa(rt) + "msec)\n")
	} else {
		kb := KBBase(r.KBBase)
		sf := SigFigs(r.SigFigs)
		pow2 := kb == 1024
		unit := bwUnit(r.UnitBase)
		bw := bwPerSec(st)
		b.WriteString("  " + d.label + ": IOPS=" + Num2Str(iopsInt(st), sf, 1, false, UnitNone) +
			", BW=" + Num2Str(bw, sf, 1, pow2, unit) + " (" + Num2Str(bw, sf, 1, !pow2, unit) + ")(" +
			Num2Str(st.IOBytes, sf, 1, pow2, UnitByte) + "/" + utoa(rt) + "msec)")
		if d.label == "write" {
			b.WriteString("; " + strconv.FormatUint(r.st.ZoneResets, 10) + " zone resets")
		}
		b.WriteString("\n")
	}
	writeLatLine(b, "slat", &st.Slat)
	writeLatLine(b, "clat", &st.Clat)
	writeLatLine(b, " lat", &st.Lat)
	// Per-priority latencies (cmdprio options), as fio 3.33 prints them:
	// total latency with lat_percentiles, else completion latency; their
	// summary lines follow the combined ones, their percentile blocks the
	// combined blocks.
	prioName, prioPct := "clat", r.ClatPercentiles
	if r.LatPercentiles {
		prioName, prioPct = "lat", true
	}
	var prioN uint64
	prios := st.ReportedPrios()
	for _, p := range prios {
		prioN += p.Lat.N
		writeLatLine(b, prioName+" prio "+strconv.Itoa(p.Class())+"/"+strconv.Itoa(p.Level()), &p.Lat)
	}
	list, prec := r.percentileList()
	if r.SlatPercentiles {
		writePercentiles(b, "slat", percentiles(&st.Slat, &st.SlatHist, list), list, prec)
	}
	if r.ClatPercentiles {
		writePercentiles(b, "clat", percentiles(&st.Clat, &st.ClatHist, list), list, prec)
	}
	if r.LatPercentiles {
		writePercentiles(b, "lat", percentiles(&st.Lat, &st.LatHist, list), list, prec)
	}
	if prioPct && prioN > 0 {
		for _, p := range prios {
			name := prioName + " prio " + strconv.Itoa(p.Class()) + "/" + strconv.Itoa(p.Level()) +
				" (" + fmtF(100*float64(p.Lat.N)/float64(prioN), 2) + "% of IOs)"
			writePercentiles(b, name, percentiles(&p.Lat, &p.Hist, list), list, prec)
		}
	}
	if st.BW.N > 0 {
		kb := KBBase(r.KBBase)
		label := "KiB"
		if kb == 1000 {
			label = "kB"
		}
		lo, hi := st.BW.Min, st.BW.Max
		mean, dev := st.BW.Mean, st.BW.Stddev()
		if mean > float64(kb*kb) {
			label = "MiB"
			lo /= uint64(kb)
			hi /= uint64(kb)
			mean /= float64(kb)
			dev /= float64(kb)
		}
		b.WriteString("   bw (" + pad(label, 5) + "/s): min=" + padU(lo, 5) + ", max=" + padU(hi, 5) +
			", per=" + fmtF(perAgg(st.BW.Mean, agg), 2) + "%, avg=" + fmtWF(mean, 5, 2) +
			", stdev=" + fmtWF(dev, 5, 2) + ", samples=" + utoa(st.BW.N) + "\n")
	}
	if st.IOPS.N > 0 {
		b.WriteString("   iops        : min=" + padU(st.IOPS.Min, 5) + ", max=" + padU(st.IOPS.Max, 5) +
			", avg=" + fmtWF(st.IOPS.Mean, 5, 2) + ", stdev=" + fmtWF(st.IOPS.Stddev(), 5, 2) +
			", samples=" + utoa(st.IOPS.N) + "\n")
	}
}

// writeLatLine writes a latency summary line ("    clat (usec): min=…")
// if the statistic has samples.
func writeLatLine(b *bytes.Buffer, name string, a *stats.Accum) {
	if a.N == 0 {
		return
	}
	unit, div := latScale(a)
	b.WriteString("    " + name + " (" + unit + "): min=" + Num2Str(a.Min/div, 6, 1, false, UnitNone) +
		", max=" + Num2Str(a.Max/div, 6, 1, false, UnitNone) +
		", avg=" + fmtWF(a.Mean/float64(div), 5, 2) +
		", stdev=" + fmtWF(a.Stddev()/float64(div), 5, 2) + "\n")
}

// writePercentiles writes a percentile block; vals are the values (ns)
// of the entries of list, nil when there are none.
func writePercentiles(b *bytes.Buffer, name string, vals []uint64, list []float64, prec int) {
	if len(vals) == 0 {
		return
	}
	vmin, vmax := vals[0], vals[0]
	for _, v := range vals {
		vmin = min(vmin, v)
		vmax = max(vmax, v)
	}
	unit, div, steps := "nsec", uint64(1), 0
	switch {
	case vmin > 2000000 && vmax > 99999999:
		unit, div, steps = "msec", 1000000, 2
	case vmin > 2000 && vmax > 99999:
		unit, div, steps = "usec", 1000, 1
	}
	width := 5
	if top := vmax / div; top > 0 {
		width = max(width, numDigits(top))
	}
	perLine := 73 / (prec + 10 + width)
	if perLine < 1 {
		perLine = 1
	}
	b.WriteString("    " + name + " percentiles (" + unit + "):\n")
	for k, v := range vals {
		if k%perLine == 0 {
			b.WriteString("     |")
		}
		for range steps {
			v = (v + 999) / 1000
		}
		sep := ","
		if k == len(vals)-1 {
			sep = "\n"
		}
		b.WriteString(" " + fmtWF(list[k], prec+3, prec) + "th=[" + padU(v, width) + "]" + sep)
		if (k+1)%perLine == 0 && k != len(vals)-1 {
			b.WriteString("\n")
		}
	}
}

// writeLatDist writes the lat (nsec), lat (usec) and lat (msec) lines:
// the non-zero buckets, five to a line.
func writeLatDist(b *bytes.Buffer, r *jobRep) {
	total := r.issued()
	fams := []struct {
		unit   string
		labels []string
		counts []uint64
	}{
		{"nsec", stats.LatLabels, r.st.LatNsec[:]},
		{"usec", stats.LatLabels, r.st.LatUsec[:]},
		{"msec", stats.LatMsecLabels, r.st.LatMsec[:]},
	}
	for _, f := range fams {
		n := 0
		for k, c := range f.counts {
			p := distPct(c, total, latFloor)
			if p == 0 {
				continue
			}
			if n%5 == 0 {
				if n > 0 {
					b.WriteString("\n")
				}
				b.WriteString("  lat (" + f.unit + ")   : ")
			} else {
				b.WriteString(", ")
			}
			b.WriteString(f.labels[k] + "=" + fmtF(p, 2) + "%")
			n++
		}
		if n > 0 {
			b.WriteString("\n")
		}
	}
}

// writeDist writes an IO depths/submit/complete line.
func writeDist(b *bytes.Buffer, prefix string, labels []string, pcts []float64) {
	parts := make([]string, len(pcts))
	for k, p := range pcts {
		parts[k] = labels[k] + "=" + fmtF(p, 1) + "%"
	}
	b.WriteString(prefix + strings.Join(parts, ", ") + "\n")
}

// writeGroup writes a "Run status group" section.
func writeGroup(b *bytes.Buffer, g *Group, ga *groupAgg) {
	b.WriteString("\nRun status group " + strconv.Itoa(g.ID) + " (all jobs):\n")
	if ga == nil {
		return
	}
	labels := [stats.NDirs]string{"READ", "WRITE", "TRIM"}
	if g.Unified == unifiedMixed {
		labels[0] = "MIXED"
	}
	for d := range stats.NDirs {
		if ga.Dir[d].MaxRun > 0 {
			writeGroupLine(b, g, labels[d], &ga.Dir[d])
		}
	}
	if g.Unified == unifiedBoth && ga.Mixed.MaxRun > 0 {
		writeGroupLine(b, g, "MIXED", &ga.Mixed)
	}
}

// writeGroupLine writes one direction line of a run status group.
func writeGroupLine(b *bytes.Buffer, g *Group, label string, a *dirAgg) {
	sf := SigFigs(g.SigFigs)
	pow2 := KBBase(g.KBBase) == 1024
	unit := bwUnit(g.UnitBase)
	p := func(n uint64) string { return Num2Str(n, sf, 1, pow2, unit) }
	q := func(n uint64) string { return Num2Str(n, sf, 1, !pow2, unit) }
	b.WriteString(pad(label, 7) + ": bw=" + p(a.Agg) + " (" + q(a.Agg) + "), " +
		p(a.MinBW) + "-" + p(a.MaxBW) + " (" + q(a.MinBW) + "-" + q(a.MaxBW) + "), io=" +
		Num2Str(a.IOBytes, sf, 1, pow2, UnitByte) + " (" + Num2Str(a.IOBytes, sf, 1, !pow2, UnitByte) +
		"), run=" + utoa(a.MinRun) + "-" + utoa(a.MaxRun) + "msec\n")
}

// writeDisk writes one device line of the "Disk stats" section.
func writeDisk(b *bytes.Buffer, d *Disk) {
	b.WriteString("  ")
	if d.Slaves != nil {
		b.WriteString("  ")
	}
	b.WriteString(d.Name + ": ios=" + utoa(d.ReadIOs) + "/" + utoa(d.WriteIOs) +
		", merge=" + utoa(d.ReadMerges) + "/" + utoa(d.WriteMerges) +
		", ticks=" + utoa(d.ReadTicks) + "/" + utoa(d.WriteTicks) +
		", in_queue=" + utoa(d.InQueue) + ", util=" + fmtF(d.Util, 2) + "%")
	if s := d.Slaves; s != nil {
		b.WriteString(", aggrios=" + utoa(s.ReadIOs) + "/" + utoa(s.WriteIOs) +
			", aggrmerge=" + utoa(s.ReadMerges) + "/" + utoa(s.WriteMerges) +
			", aggrticks=" + utoa(s.ReadTicks) + "/" + utoa(s.WriteTicks) +
			", aggrin_queue=" + utoa(s.InQueue) + ", aggrutil=" + fmtF(s.Util, 2) + "%")
	}
	b.WriteString("\n")
}
