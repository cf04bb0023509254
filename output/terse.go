package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/gofio/gofio/stats"
)

// Terse writes fio's terse ("minimal") report: one ';'-separated line per
// reported job, in terse version 2, 3 (fio's default), 4 or 5.
func Terse(w io.Writer, r *Result, version int) error {
	if version < 2 || version > 5 {
		return fmt.Errorf("output: bad terse version %d", version)
	}
	reps := make([]*jobRep, len(r.Jobs))
	for k := range r.Jobs {
		reps[k] = newJobRep(&r.Jobs[k])
	}
	aggs := aggregates(reps)
	var disks []string
	if version != 2 {
		disks = terseDisks(r.Disks)
	}
	var b strings.Builder
	for _, rep := range reps {
		b.WriteString(terseLine(rep, aggs[rep.GroupID], version, disks))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// terseLine builds one job's line, newline included.
func terseLine(r *jobRep, ga *groupAgg, version int, disks []string) string {
	if ga == nil {
		ga = &groupAgg{}
	}
	f := []string{itoa(version)}
	if version != 2 {
		f = append(f, FioVersion)
	}
	f = append(f, r.Name, itoa(r.GroupID), itoa(r.Error))

	ndirs := 3
	if version == 3 {
		ndirs = 2
	}
	if r.Unified == unifiedMixed {
		ndirs = 1
	}
	for d := range ndirs {
		f = terseDir(f, r, &r.st.Dir[d], ga.Dir[d].Agg, version)
	}
	if r.mixed != nil {
		f = terseDir(f, r, r.mixed, ga.Dir[0].Agg, version)
	}

	usr, sys := r.cpu()
	f = append(f, fmtF(usr, 6)+"%", fmtF(sys, 6)+"%", utoa(r.st.Ctx), utoa(r.st.Majf), utoa(r.st.Minf))
	total := r.issued()
	for _, p := range distPcts(r.st.IODepth[:], total, depthFloor) {
		f = append(f, fmtF(p, 1)+"%")
	}
	us := distPcts(r.st.LatUsec[:], total, latFloor)
	// The first µs bucket also holds every sub-microsecond completion,
	// unfloored (0/0 when nothing was issued).
	var nsec uint64
	for _, c := range r.st.LatNsec {
		nsec += c
	}
	if total == 0 {
		us[0] += negNaN
	} else {
		us[0] += float64(nsec) * 100 / float64(total)
	}
	for _, p := range us {
		f = append(f, fmtF(p, 2)+"%")
	}
	for _, p := range distPcts(r.st.LatMsec[:], total, latFloor) {
		f = append(f, fmtF(p, 2)+"%")
	}
	f = append(f, disks...)
	if r.ErrorCheck {
		f = append(f, utoa(r.TotalErrors), itoa(r.FirstError))
	}
	line := strings.Join(f, ";")
	if r.Description != "" {
		if version == 2 {
			line += "\n"
		}
		line += ";" + r.Description
	}
	return line + "\n"
}

// terseDir appends a direction block: 41 fields, 47 in version 5.
func terseDir(f []string, r *jobRep, st *stats.DirStats, agg uint64, version int) []string {
	bw := bwPerSec(st)
	f = append(f, utoa(st.IOBytes>>10), utoa(bw/1024), utoa(iopsInt(st)), utoa(st.RuntimeMS()))
	f = terseLat(f, &st.Slat)
	f = terseLat(f, &st.Clat)

	var (
		a *stats.Accum
		h *stats.Hist
	)
	switch {
	case r.LatPercentiles:
		a, h = &st.Lat, &st.LatHist
	case r.ClatPercentiles:
		a, h = &st.Clat, &st.ClatHist
	}
	n := 0
	if a != nil {
		list, _ := r.percentileList()
		vals := make([]uint64, len(list))
		if a.N > 0 {
			vals = stats.Percentiles(h, a.N, list)
		}
		for k, p := range list {
			f = append(f, fmtF(p, 6)+"%="+utoa(vals[k]/1000))
		}
		n = len(list)
	}
	for ; n < 20; n++ {
		f = append(f, "0%=0")
	}
	f = terseLat(f, &st.Lat)

	if st.BW.N > 0 {
		f = append(f, utoa(st.BW.Min), utoa(st.BW.Max), fmtF(tersePer(st.BW.Mean, agg), 6)+"%",
			fmtF(st.BW.Mean, 6), fmtF(st.BW.Stddev(), 6))
	} else {
		f = append(f, "0", "0", "0.000000%", "0.000000", "0.000000")
	}
	if version == 5 {
		f = append(f, utoa(st.BW.N), utoa(st.IOPS.Min), utoa(st.IOPS.Max),
			fmtF(st.IOPS.Mean, 6), fmtF(st.IOPS.Stddev(), 6), utoa(st.IOPS.N))
	}
	return f
}

// terseLat appends a latency statistic in µs: min, max (truncated),
// mean, stddev; zeros when it has no samples.
func terseLat(f []string, a *stats.Accum) []string {
	if a.N == 0 {
		return append(f, "0", "0", "0.000000", "0.000000")
	}
	return append(f, utoa(a.Min/1000), utoa(a.Max/1000), fmtF(a.Mean/1000, 6), fmtF(a.Stddev()/1000, 6))
}

// terseDisks returns the disk trailer fields shared by every line.
func terseDisks(disks []Disk) []string {
	var f []string
	for _, d := range disks {
		f = append(f, d.Name, utoa(d.ReadIOs), utoa(d.WriteIOs), utoa(d.ReadMerges), utoa(d.WriteMerges),
			utoa(d.ReadTicks), utoa(d.WriteTicks), utoa(d.InQueue), fmtF(d.Util, 2)+"%")
		if s := d.Slaves; s != nil {
			f = append(f, "slaves", utoa(s.ReadIOs), utoa(s.WriteIOs), utoa(s.ReadMerges), utoa(s.WriteMerges),
				utoa(s.ReadTicks), utoa(s.WriteTicks), utoa(s.InQueue), fmtF(s.Util, 2)+"%")
		}
	}
	return f
}
