package report

import (
	"fmt"
	"html"
	"strconv"
	"strings"
)

// svgDoc builds one inline SVG element. Coordinates are written with one
// decimal, so that a chart's text is the same on every machine.
type svgDoc struct {
	b strings.Builder
}

// num formats a coordinate.
func num(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// esc escapes text for SVG and HTML.
func esc(s string) string { return html.EscapeString(s) }

// open starts the element: a w×h view box scaled to the page's width, a
// title for screen readers, and data attributes naming the chart.
func (s *svgDoc) open(w, h int, title string, attrs ...string) {
	fmt.Fprintf(&s.b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg"`, w, h, esc(title))
	for i := 0; i+1 < len(attrs); i += 2 {
		fmt.Fprintf(&s.b, ` %s="%s"`, attrs[i], esc(attrs[i+1]))
	}
	fmt.Fprintf(&s.b, "><title>%s</title>\n", esc(title))
}

func (s *svgDoc) close() string {
	s.b.WriteString("</svg>\n")
	return s.b.String()
}

func (s *svgDoc) line(x1, y1, x2, y2 float64, class string) {
	fmt.Fprintf(&s.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" class="%s"/>`+"\n", num(x1), num(y1), num(x2), num(y2), class)
}

func (s *svgDoc) rect(x, y, w, h float64, fill, tip string) {
	fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`+"\n", num(x), num(y), num(w), num(h), fill, esc(tip))
}

// text writes a label; anchor is start, middle or end; rotate turns it
// by -90° about its position (a y-axis label).
func (s *svgDoc) text(x, y float64, anchor, class, t string, rotate bool) {
	tr := ""
	if rotate {
		tr = fmt.Sprintf(` transform="rotate(-90 %s %s)"`, num(x), num(y))
	}
	fmt.Fprintf(&s.b, `<text x="%s" y="%s" text-anchor="%s" class="%s"%s>%s</text>`+"\n", num(x), num(y), anchor, class, tr, esc(t))
}

// polyline draws a line through pts in colour with a dash pattern ("" for
// solid).
func (s *svgDoc) polyline(pts [][2]float64, color, dash string) {
	s.b.WriteString(`<polyline fill="none" stroke-width="2" stroke="` + color + `"`)
	if dash != "" {
		s.b.WriteString(` stroke-dasharray="` + dash + `"`)
	}
	s.b.WriteString(` points="`)
	for i, p := range pts {
		if i > 0 {
			s.b.WriteByte(' ')
		}
		s.b.WriteString(num(p[0]) + "," + num(p[1]))
	}
	s.b.WriteString("\"/>\n")
}

// marker draws a small square at each point, so that a series of one
// point still shows.
func (s *svgDoc) markers(pts [][2]float64, color string) {
	for _, p := range pts {
		fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="4" height="4" fill="%s"/>`+"\n", num(p[0]-2), num(p[1]-2), color)
	}
}
