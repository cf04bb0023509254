package report

import (
	"math"
	"strconv"
)

// Colours of the Okabe–Ito palette, distinguishable with the common
// colour-vision deficiencies; each series also gets its own dash pattern,
// so that none is told apart by colour alone.
var palette = []struct{ color, dash string }{
	{"#0072B2", ""},        // blue
	{"#D55E00", "6 3"},     // vermillion
	{"#009E73", "2 3"},     // bluish green
	{"#CC79A7", "8 3 2 3"}, // reddish purple
	{"#E69F00", "4 4"},     // orange
	{"#56B4E9", "1 2"},     // sky blue
}

// Chart geometry: the view box and the plot area inside it.
const (
	chartW, chartH   = 640, 300
	plotL, plotR     = 72, 620
	plotT, plotB     = 58, 250
	legendY          = 42
	titleX, titleY   = 8, 20
	xLabelY, yLabelX = 290, 16
)

// series is one line of a line chart.
type series struct {
	name string
	pts  [][2]float64 // data coordinates
}

// lineSpec describes a line chart.
type lineSpec struct {
	id, title      string
	xLabel, yLabel string   // with units
	xKind, yKind   int      // linear, logScale or nines
	xDiv, yDiv     float64  // tick labels show value/div (1 if 0)
	attrs          []string // data attributes
	lines          []series
}

// lineChart draws spec as SVG.
func lineChart(spec lineSpec) string {
	var s svgDoc
	s.open(chartW, chartH, spec.title, append([]string{"data-chart", spec.id}, spec.attrs...)...)
	// Values are shown in the axis' units: divide first, so that the
	// ticks are round numbers of those units.
	xd, yd := div(spec.xDiv), div(spec.yDiv)
	lines := make([]series, len(spec.lines))
	for i, l := range spec.lines {
		lines[i].name = l.name
		for _, p := range l.pts {
			lines[i].pts = append(lines[i].pts, [2]float64{p[0] / xd, p[1] / yd})
		}
	}
	spec.lines = lines
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, l := range spec.lines {
		for _, p := range l.pts {
			xlo, xhi = math.Min(xlo, p[0]), math.Max(xhi, p[0])
			if spec.yKind != logScale || p[1] > 0 {
				ylo, yhi = math.Min(ylo, p[1]), math.Max(yhi, p[1])
			}
		}
	}
	if math.IsInf(xlo, 0) {
		xlo, xhi, ylo, yhi = 0, 1, 1, 1
	}
	if math.IsInf(ylo, 0) {
		ylo, yhi = 1, 1
	}
	xs := newScale(spec.xKind, xlo, xhi, plotL, plotR)
	ys := newScale(spec.yKind, ylo, yhi, plotB, plotT)
	frame(&s, spec.title, spec.xLabel, spec.yLabel, &xs, &ys, 1, 1)
	for i, l := range spec.lines {
		pc := palette[i%len(palette)]
		var pts [][2]float64
		for _, p := range l.pts {
			if spec.yKind == logScale && p[1] <= 0 {
				continue
			}
			pts = append(pts, [2]float64{xs.px(p[0]), ys.px(p[1])})
		}
		if len(pts) > 1 {
			s.polyline(pts, pc.color, pc.dash)
		}
		if len(pts) < 40 {
			s.markers(pts, pc.color)
		}
		legend(&s, i, len(spec.lines), l.name)
	}
	return s.close()
}

func div(d float64) float64 {
	if d == 0 {
		return 1
	}
	return d
}

// legend writes entry i of n in the row above the plot.
func legend(s *svgDoc, i, n int, name string) {
	if n < 2 && name == "" {
		return
	}
	pc := palette[i%len(palette)]
	x := float64(plotL + i*120)
	s.polyline([][2]float64{{x, legendY - 4}, {x + 24, legendY - 4}}, pc.color, pc.dash)
	s.text(x+28, legendY, "start", "legend", name, false)
}

// frame draws the title, the axes with their ticks and grid lines, and
// the axis labels.
func frame(s *svgDoc, title, xLabel, yLabel string, xs, ys *scale, xDiv, yDiv float64) {
	s.text(titleX, titleY, "start", "title", title, false)
	for _, v := range ys.ticks() {
		y := ys.px(v)
		s.line(plotL, y, plotR, y, "grid")
		s.text(plotL-6, y+4, "end", "tick", ys.tickLabel(v, yDiv), false)
	}
	xt := xs.ticks()
	for k, v := range xt {
		x := xs.px(v)
		s.line(x, plotB, x, plotB+5, "axis")
		anchor := "middle"
		if k == len(xt)-1 && xs.kind == nines {
			anchor = "end" // the longest label, at the right edge
		}
		s.text(x, plotB+18, anchor, "tick", xs.tickLabel(v, xDiv), false)
	}
	s.line(plotL, plotB, plotR, plotB, "axis")
	s.line(plotL, plotT, plotL, plotB, "axis")
	s.text((plotL+plotR)/2, xLabelY, "middle", "label", xLabel, false)
	s.text(yLabelX, (plotT+plotB)/2, "middle", "label", yLabel, true)
}

// bar is one bar of a bar chart: over [lo, hi) on a log axis, or a
// category (lo, hi unused) with a label.
type bar struct {
	label  string
	lo, hi float64
	value  float64
}

// barSpec describes a bar chart.
type barSpec struct {
	id, title      string
	xLabel, yLabel string
	logX           bool    // bars over ranges on a log axis; else categories
	xDiv           float64 // log axis tick labels show value/xDiv
	attrs          []string
	bars           []bar
}

// barChart draws spec as SVG.
func barChart(spec barSpec) string {
	var s svgDoc
	s.open(chartW, chartH, spec.title, append([]string{"data-chart", spec.id}, spec.attrs...)...)
	top := 0.0
	for _, b := range spec.bars {
		top = math.Max(top, b.value)
	}
	ys := newScale(linear, 0, top, plotB, plotT)
	color := palette[0].color
	if spec.logX {
		lo, hi := math.Inf(1), 0.0
		for _, b := range spec.bars {
			lo, hi = math.Min(lo, b.lo), math.Max(hi, b.hi)
		}
		if math.IsInf(lo, 0) {
			lo, hi = 1, 10
		}
		xs := newScale(logScale, lo, hi, plotL, plotR)
		frame(&s, spec.title, spec.xLabel, spec.yLabel, &xs, &ys, div(spec.xDiv), 1)
		for _, b := range spec.bars {
			x0, x1 := xs.px(b.lo), xs.px(b.hi)
			y := ys.px(b.value)
			s.rect(x0, y, math.Max(x1-x0-0.5, 0.5), plotB-y, color, b.label+": "+strconv.FormatFloat(b.value, 'f', 2, 64)+"%")
		}
		return s.close()
	}
	// Categories: an axis of its own.
	s.text(titleX, titleY, "start", "title", spec.title, false)
	for _, v := range ys.ticks() {
		y := ys.px(v)
		s.line(plotL, y, plotR, y, "grid")
		s.text(plotL-6, y+4, "end", "tick", short(v), false)
	}
	s.line(plotL, plotB, plotR, plotB, "axis")
	s.line(plotL, plotT, plotL, plotB, "axis")
	n := float64(max(len(spec.bars), 1))
	w := (plotR - plotL) / n
	for i, b := range spec.bars {
		x := plotL + float64(i)*w
		y := ys.px(b.value)
		s.rect(x+w*0.15, y, w*0.7, plotB-y, color, b.label+": "+strconv.FormatFloat(b.value, 'f', 2, 64)+"%")
		s.text(x+w/2, plotB+18, "middle", "tick", b.label, false)
	}
	s.text((plotL+plotR)/2, xLabelY, "middle", "label", spec.xLabel, false)
	s.text(yLabelX, (plotT+plotB)/2, "middle", "label", spec.yLabel, true)
	return s.close()
}
