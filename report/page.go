package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// Run is what a report shows.
type Run struct {
	// Result is the final result, as the normal and JSON reports print it.
	Result *output.Result
	// Series holds per-interval results by index in Result.Jobs; a job
	// without one gets no over-time charts.
	Series map[int]*Series
	// Host is the machine; nil leaves the section out.
	Host *Host
	// Source says where the result came from ("gofio run", a file name).
	Source string
}

// Chart kinds, as the data-chart attribute of each chart's svg element
// names them: per job and direction, then per job.
var (
	DirCharts = []string{"iops", "bw", "lat-time", "lat-hist", "lat-pct"}
	JobCharts = []string{"iodepth"}
)

// WriteHTML writes run's report: one HTML page holding everything, with
// no script and no reference to anything outside it (its
// Content-Security-Policy forbids any load), laid out for screens from a
// phone's up.
func WriteHTML(w io.Writer, run *Run) error {
	var b bytes.Buffer
	r := run.Result
	title := "gofio report"
	if len(r.Jobs) > 0 {
		var names []string
		for _, j := range r.Jobs {
			names = append(names, j.Name)
		}
		title += ": " + strings.Join(uniq(names), ", ")
	}
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>%s</title>
<style>%s</style>
</head>
<body>
<h1>%s</h1>
`, esc(title), css, esc(title))
	fmt.Fprintf(&b, "<p class=\"meta\">%s · %s · run time %s</p>\n", esc(output.FioVersion), esc(r.Time.UTC().Format("2006-01-02 15:04:05 UTC")), esc(msText(float64(r.ElapsedMS))))
	if run.Source != "" {
		fmt.Fprintf(&b, "<p class=\"meta\">From %s.</p>\n", esc(run.Source))
	}
	if len(r.Jobs) > 1 {
		b.WriteString("<nav><ul>\n")
		for i, j := range r.Jobs {
			fmt.Fprintf(&b, "<li><a href=\"#job-%d\">%s</a></li>\n", i, esc(j.Name))
		}
		b.WriteString("</ul></nav>\n")
	}
	if run.Host != nil {
		writeHost(&b, run.Host)
	}
	if len(r.GlobalOptions) > 0 {
		b.WriteString("<section><h2>Global options</h2>\n")
		writeOptions(&b, r.GlobalOptions)
		b.WriteString("</section>\n")
	}
	for i := range r.Jobs {
		writeJob(&b, run, i)
	}
	var normal bytes.Buffer
	if err := output.Normal(&normal, r); err == nil {
		b.WriteString("<section><h2>fio's report</h2>\n<details><summary>The normal report of this result, as fio prints it</summary>\n<pre>")
		b.WriteString(esc(normal.String()))
		b.WriteString("</pre></details></section>\n")
	}
	b.WriteString("</body>\n</html>\n")
	_, err := w.Write(b.Bytes())
	return err
}

func uniq(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// css styles the page: readable on a phone (charts scale to the width,
// wide tables scroll), dark text on light ground.
const css = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;padding:8px 12px;max-width:1200px;color:#1a1a1a;background:#fff;line-height:1.4}
h1{font-size:1.4em;word-break:break-word}h2{font-size:1.2em;border-bottom:1px solid #bbb;margin-top:1.6em}h3{font-size:1.05em}
.meta{color:#444;margin:.2em 0}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,460px),1fr));gap:12px}
figure{margin:0;border:1px solid #ddd;border-radius:4px;padding:4px}
svg.chart{width:100%;height:auto;display:block}
.grid{stroke:#e3e3e3;stroke-width:1}.axis{stroke:#333;stroke-width:1}
.tick{font-size:11px;fill:#333}.label{font-size:12px;fill:#1a1a1a}.title{font-size:14px;font-weight:bold;fill:#1a1a1a}.legend{font-size:12px;fill:#1a1a1a}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.9em;margin:.4em 0}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:right;white-space:nowrap}
th:first-child,td:first-child,table.kv td{text-align:left}
table.kv td{white-space:normal;word-break:break-word}table.kv td:first-child{white-space:nowrap;word-break:normal}
pre{font-size:.8em;overflow-x:auto}
.nodata{color:#555;font-style:italic;border:1px dashed #bbb;padding:8px}
nav ul{padding-left:1.2em}
@media (max-width:600px){.tick{font-size:16px}.label{font-size:17px}.title{font-size:18px}.legend{font-size:16px}body{padding:4px 6px}}
`

func writeHost(b *bytes.Buffer, h *Host) {
	b.WriteString("<section id=\"host\"><h2>Host</h2>\n")
	if h.Note != "" {
		fmt.Fprintf(b, "<p class=\"meta\">%s</p>\n", esc(h.Note))
	}
	b.WriteString("<div class=\"scroll\"><table class=\"kv\">\n")
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(b, "<tr><td>%s</td><td>%s</td></tr>\n", esc(k), esc(v))
		}
	}
	row("host name", h.Hostname)
	row("kernel", h.Kernel)
	row("system", h.OS)
	row("CPU", h.CPU)
	if h.CPUs > 0 {
		row("CPUs", strconv.Itoa(h.CPUs))
	}
	if h.MemoryKiB > 0 {
		row("memory", fmt.Sprintf("%.1f GiB", float64(h.MemoryKiB)/(1<<20)))
	}
	b.WriteString("</table></div>\n")
	if len(h.Targets) > 0 {
		b.WriteString("<h3>Targets</h3><div class=\"scroll\"><table>\n<tr><th>file or device</th><th>device</th><th>model</th><th>file system</th><th>scheduler</th></tr>\n")
		for _, t := range h.Targets {
			fmt.Fprintf(b, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", esc(t.Path), esc(t.Device), esc(t.Model), esc(t.FS), esc(t.Scheduler))
		}
		b.WriteString("</table></div>\n")
	}
	b.WriteString("</section>\n")
}

func writeOptions(b *bytes.Buffer, opts []output.Option) {
	b.WriteString("<div class=\"scroll\"><table class=\"kv\">\n")
	for _, o := range opts {
		fmt.Fprintf(b, "<tr><td>%s</td><td>%s</td></tr>\n", esc(o.Name), esc(o.Value))
	}
	b.WriteString("</table></div>\n")
}

// dirLabel names direction d of job j.
func dirLabel(j *output.Job, d int) string {
	if j.Unified == 1 {
		return "mixed"
	}
	return dirNames[d]
}

// activeDirs returns the directions of j with I/O.
func activeDirs(j *output.Job) []int {
	var out []int
	for d := range j.Stats.Dir {
		if j.Stats.Dir[d].TotalIOs > 0 || j.Stats.Dir[d].IOBytes > 0 {
			out = append(out, d)
		}
	}
	return out
}

func writeJob(b *bytes.Buffer, run *Run, i int) {
	j := &run.Result.Jobs[i]
	fmt.Fprintf(b, "<section id=\"job-%d\" data-job=\"%s\">\n<h2>Job %s</h2>\n", i, esc(j.Name), esc(j.Name))
	members := max(j.Stats.Members, 1)
	fmt.Fprintf(b, "<p class=\"meta\">group %d · jobs=%d · error %d", j.GroupID, members, j.Error)
	if j.Description != "" {
		fmt.Fprintf(b, " · %s", esc(j.Description))
	}
	b.WriteString("</p>\n")
	writeSummary(b, j)
	ser := run.Series[i]
	if ser != nil && ser.Source != "" {
		fmt.Fprintf(b, "<p class=\"meta\">Over time: %s.</p>\n", esc(ser.Source))
	}
	attrJob := []string{"data-job", j.Name}
	for _, d := range activeDirs(j) {
		dl := dirLabel(j, d)
		fmt.Fprintf(b, "<h3>%s</h3>\n<div class=\"charts\">\n", esc(dl))
		attrs := append(append([]string(nil), attrJob...), "data-dir", dl)
		var pts []Point
		if ser != nil {
			pts = ser.Dir[d]
		}
		for _, c := range timeCharts(j.Name, dl, pts, attrs) {
			b.WriteString("<figure>" + c + "</figure>\n")
		}
		ds := &j.Stats.Dir[d]
		h, n, what := &ds.ClatHist, ds.Clat.N, "completion latency"
		if n == 0 || histCount(h) == 0 {
			h, n, what = &ds.LatHist, ds.Lat.N, "total latency"
		}
		if histCount(h) == 0 {
			n = 0
		}
		if n == 0 {
			for _, id := range []string{"lat-hist", "lat-pct"} {
				fmt.Fprintf(b, "<p class=\"nodata\" data-missing=\"%s\">No latency histogram for %s %s: a plain JSON result has no bins (run with --output-format=json+).</p>\n", id, esc(j.Name), esc(dl))
			}
		} else {
			b.WriteString("<figure>" + histChart(j.Name+" "+dl+": "+what+" distribution", what, h, n, attrs) + "</figure>\n")
			b.WriteString("<figure>" + percentileChart(j.Name+" "+dl+": "+what+" percentiles", what, h, n, attrs) + "</figure>\n")
		}
		b.WriteString("</div>\n")
	}
	b.WriteString("<div class=\"charts\">\n<figure>" + depthChart(j, attrJob) + "</figure>\n</div>\n")
	if len(j.Options) > 0 {
		b.WriteString("<h3>Job options</h3>\n")
		writeOptions(b, j.Options)
	}
	b.WriteString("</section>\n")
}

// timeCharts draws a direction's results over time, or says why not.
func timeCharts(job, dir string, pts []Point, attrs []string) []string {
	var rate, lat []Point
	for _, p := range pts {
		if p.HasRate {
			rate = append(rate, p)
		}
		if p.HasLat {
			lat = append(lat, p)
		}
	}
	missing := func(id, what string) string {
		return fmt.Sprintf("<p class=\"nodata\" data-missing=\"%s\">No %s over time for %s %s: run gofio with --html, or give fio's %s logs.</p>", id, what, esc(job), esc(dir), what)
	}
	var out []string
	with := func(id string) []string {
		return append(append([]string(nil), attrs...), "data-points", strconv.Itoa(len(pts)))
	}
	if len(rate) == 0 {
		out = append(out, missing("iops", "IOPS"), missing("bw", "bandwidth"))
	} else {
		var iops, bw series
		top := 0.0
		for _, p := range rate {
			iops.pts = append(iops.pts, [2]float64{p.TimeMS / 1000, p.IOPS})
			bw.pts = append(bw.pts, [2]float64{p.TimeMS / 1000, p.BW})
			top = math.Max(top, p.BW)
		}
		div, unit := bwUnit(top)
		out = append(out, lineChart(lineSpec{id: "iops", title: job + " " + dir + ": IOPS", xLabel: "time (s)", yLabel: "IOPS (I/Os per second)", attrs: with("iops"), lines: []series{iops}}))
		out = append(out, lineChart(lineSpec{id: "bw", title: job + " " + dir + ": bandwidth", xLabel: "time (s)", yLabel: "bandwidth (" + unit + ")", yDiv: div, attrs: with("bw"), lines: []series{bw}}))
	}
	if len(lat) == 0 {
		out = append(out, missing("lat-time", "latency"))
	} else {
		ls := []series{{name: "p50"}, {name: "p99"}, {name: "p99.9"}}
		top := 0.0
		for _, p := range lat {
			for k := range ls {
				ls[k].pts = append(ls[k].pts, [2]float64{p.TimeMS / 1000, float64(p.Lat[k])})
				top = math.Max(top, float64(p.Lat[k]))
			}
		}
		div, unit := latUnit(top)
		out = append(out, lineChart(lineSpec{id: "lat-time", title: job + " " + dir + ": completion latency per interval", xLabel: "time (s)", yLabel: "latency (" + unit + ", log scale)", yKind: logScale, yDiv: div, attrs: with("lat-time"), lines: ls}))
	}
	return out
}

// histLower returns the lower bound of histogram bucket i (the layout of
// stats.Hist: one bucket per ns below 128 ns, then 64 per power of two).
func histLower(i int) uint64 {
	if i < 128 {
		return uint64(i)
	}
	e := uint(i/64 - 1)
	return (64 + uint64(i%64)) << e
}

// histChart draws a latency histogram: fio's buckets gathered into bars
// of an eighth of a power of two or wider, on a log axis, as a share of
// the samples.
func histChart(title, what string, h *stats.Hist, n uint64, attrs []string) string {
	var bars []bar
	hiNS := 1.0
	if n > 0 {
		first, last := -1, -1
		for i, c := range h {
			if c > 0 {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		var cur *bar
		for i := first; i <= last; i++ {
			lo, hi := float64(max(histLower(i), 1)), float64(histLower(i+1))
			if i+1 >= stats.HistBuckets {
				hi = lo * 2
			}
			if cur == nil || math.Log2(cur.hi/cur.lo) >= 0.125 {
				bars = append(bars, bar{lo: lo, hi: hi})
				cur = &bars[len(bars)-1]
			}
			cur.hi = math.Max(cur.hi, hi)
			cur.value += float64(h[i]) * 100 / float64(n)
		}
		hiNS = bars[len(bars)-1].hi
	}
	div, unit := latUnit(hiNS)
	for k := range bars {
		bars[k].label = short(bars[k].lo/div) + "–" + short(bars[k].hi/div) + " " + unit
	}
	return barChart(barSpec{id: "lat-hist", title: title, xLabel: what + " (" + unit + ", log scale)", yLabel: "share of I/Os (%)", logX: true, xDiv: div, attrs: attrs, bars: bars})
}

// curvePercentiles are the points of the percentile curve: 1% to
// 99.9999%, evenly spaced on the chart's "nines" axis.
var curvePercentiles = func() []float64 {
	var out []float64
	for x := 0.0; x <= 6.0001; x += 0.05 {
		p := 100 * (1 - math.Pow(10, -x))
		if p >= 1 {
			out = append(out, math.Round(p*1e6)/1e6)
		}
	}
	if out[0] != 1 {
		out = append([]float64{1}, out...)
	}
	return out
}()

// percentileChart draws latency against percentile, 1% to 99.9999%,
// from the histogram (stats.Percentiles, as fio's reports compute them).
func percentileChart(title, what string, h *stats.Hist, n uint64, attrs []string) string {
	var l series
	top := 1.0
	if n > 0 {
		vals := stats.Percentiles(h, n, curvePercentiles)
		for k, p := range curvePercentiles {
			l.pts = append(l.pts, [2]float64{p, float64(vals[k])})
			top = math.Max(top, float64(vals[k]))
		}
	}
	div, unit := latUnit(top)
	return lineChart(lineSpec{id: "lat-pct", title: title, xLabel: "percentile (log scale of nines)", yLabel: what + " (" + unit + ", log scale)", xKind: nines, yKind: logScale, yDiv: div, attrs: attrs, lines: []series{l}})
}

// depthChart draws the I/O depth distribution (fio's "IO depths" line).
func depthChart(j *output.Job, attrs []string) string {
	var total uint64
	for _, c := range j.Stats.IODepth {
		total += c
	}
	var bars []bar
	for k, label := range stats.DepthLabels {
		v := 0.0
		if total > 0 {
			v = float64(j.Stats.IODepth[k]) * 100 / float64(total)
		}
		bars = append(bars, bar{label: label, value: v})
	}
	return barChart(barSpec{id: "iodepth", title: j.Name + ": I/O depth distribution", xLabel: "I/Os in flight (bucket lower bound)", yLabel: "share of I/Os (%)", attrs: attrs, bars: bars})
}
