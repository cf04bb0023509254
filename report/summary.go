package report

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// writeSummary writes a job's final numbers, those of fio's normal
// report, as tables: per direction the I/O, rates, latencies, clat
// percentiles and bandwidth/IOPS samples; then CPU and the latency
// distribution.
func writeSummary(b *bytes.Buffer, j *output.Job) {
	dirs := activeDirs(j)
	b.WriteString("<div class=\"scroll\"><table data-table=\"summary\">\n<tr><th>direction</th><th>I/O</th><th>bandwidth</th><th>IOPS</th><th>runtime</th>" +
		"<th>slat avg (µs)</th><th>clat min (µs)</th><th>clat avg (µs)</th><th>clat max (µs)</th><th>clat stdev (µs)</th><th>lat avg (µs)</th>" +
		"<th>bw min–max (KiB/s)</th><th>bw avg (KiB/s)</th><th>IOPS min–max</th><th>IOPS avg</th></tr>\n")
	for _, d := range dirs {
		ds := &j.Stats.Dir[d]
		ms := ds.RuntimeMS()
		bw, iops := 0.0, 0.0
		if ms > 0 {
			bw = float64(ds.IOBytes) * 1000 / float64(ms)
			iops = float64(ds.TotalIOs) * 1000 / float64(ms)
		}
		bwDiv, bwU := bwUnit(bw)
		fmt.Fprintf(b, "<tr><td>%s</td><td>%s</td><td>%s %s</td><td>%s</td><td>%s</td>", esc(dirLabel(j, d)), bytesText(ds.IOBytes), f3(bw/bwDiv), bwU, f3(iops), msText(float64(ms)))
		for _, v := range []float64{ds.Slat.Mean, float64(ds.Clat.Min), ds.Clat.Mean, float64(ds.Clat.Max), ds.Clat.Stddev(), ds.Lat.Mean} {
			fmt.Fprintf(b, "<td>%s</td>", f3(v/1000))
		}
		fmt.Fprintf(b, "<td>%d–%d</td><td>%s</td><td>%d–%d</td><td>%s</td></tr>\n", ds.BW.Min, ds.BW.Max, f3(ds.BW.Mean), ds.IOPS.Min, ds.IOPS.Max, f3(ds.IOPS.Mean))
	}
	b.WriteString("</table></div>\n")

	list := stats.DefaultPercentiles
	if j.Percentiles != nil {
		list = stats.EffectiveList(j.Percentiles)
	}
	b.WriteString("<div class=\"scroll\"><table data-table=\"percentiles\">\n<tr><th>clat percentile (µs)</th>")
	for _, p := range list {
		fmt.Fprintf(b, "<th>%s%%</th>", strconv.FormatFloat(p, 'f', -1, 64))
	}
	b.WriteString("</tr>\n")
	for _, d := range dirs {
		ds := &j.Stats.Dir[d]
		h, n := &ds.ClatHist, ds.Clat.N
		if n == 0 || histCount(h) == 0 {
			h, n = &ds.LatHist, ds.Lat.N
		}
		if histCount(h) == 0 {
			continue
		}
		fmt.Fprintf(b, "<tr><td>%s</td>", esc(dirLabel(j, d)))
		for _, v := range stats.Percentiles(h, n, list) {
			fmt.Fprintf(b, "<td>%s</td>", f3(float64(v)/1000))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table></div>\n")

	st := &j.Stats
	cpu := func(v uint64) string {
		if st.RuntimeMS == 0 {
			return "0"
		}
		return f3(float64(v) * 100 / float64(st.RuntimeMS))
	}
	fmt.Fprintf(b, "<div class=\"scroll\"><table data-table=\"cpu\"><tr><th>usr CPU</th><th>sys CPU</th><th>context switches</th><th>major faults</th><th>minor faults</th><th>job runtime</th></tr>\n<tr><td>%s%%</td><td>%s%%</td><td>%d</td><td>%d</td><td>%d</td><td>%s</td></tr></table></div>\n",
		cpu(st.UsrMS), cpu(st.SysMS), st.Ctx, st.Majf, st.Minf, msText(float64(st.RuntimeMS)))

	var total uint64
	for _, a := range [][]uint64{st.LatNsec[:], st.LatUsec[:], st.LatMsec[:]} {
		for _, c := range a {
			total += c
		}
	}
	if total > 0 {
		// One row, as fio's "lat (nsec/usec/msec)" lines: the share of
		// I/Os in each bucket, by its upper bound.
		var head, row strings.Builder
		for _, x := range []struct {
			counts []uint64
			labels []string
			unit   string
		}{{st.LatNsec[:], stats.LatLabels, "ns"}, {st.LatUsec[:], stats.LatLabels, "µs"}, {st.LatMsec[:], stats.LatMsecLabels, "ms"}} {
			for k, c := range x.counts {
				if c > 0 {
					fmt.Fprintf(&head, "<th>%s %s</th>", x.labels[k], x.unit)
					fmt.Fprintf(&row, "<td>%s%%</td>", f3(float64(c)*100/float64(total)))
				}
			}
		}
		fmt.Fprintf(b, "<div class=\"scroll\"><table data-table=\"latdist\"><tr><th>latency up to</th>%s</tr>\n<tr><td>share of I/Os</td>%s</tr></table></div>\n", head.String(), row.String())
	}
}

// f3 formats x with up to 3 decimals, as few as needed.
func f3(x float64) string {
	s := strconv.FormatFloat(x, 'f', 3, 64)
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

// bytesText writes n bytes in binary units.
func bytesText(n uint64) string {
	div, unit := 1.0, "B"
	for _, u := range []struct {
		d float64
		n string
	}{{1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if float64(n) >= u.d {
			div, unit = u.d, u.n
			break
		}
	}
	return f3(float64(n)/div) + " " + unit
}

// msText writes a time given in ms.
func msText(ms float64) string {
	if ms >= 10000 {
		return f3(ms/1000) + " s"
	}
	return f3(ms) + " ms"
}
