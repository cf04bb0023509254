package results

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// units are the units the metrics are shown in.
var units = map[string]string{"iops": "IO/s", "bw": "KiB/s", "mean": "ns", "p50": "ns", "p99": "ns", "p99.9": "ns"}

// WriteTable prints the comparison as a table: one line per job,
// direction and metric, then the gates crossed and the jobs found on one
// side only.
func (c *Comparison) WriteTable(w io.Writer) error {
	var b strings.Builder
	runs := len(c.Baselines)
	if runs == 1 {
		fmt.Fprintf(&b, "baseline: %s\n", c.Baselines[0])
	} else {
		fmt.Fprintf(&b, "baseline: mean of %d runs: %s\n", runs, strings.Join(c.Baselines, " "))
	}
	fmt.Fprintf(&b, "new:      %s\n", c.New)
	if len(c.Gates) > 0 {
		var gs []string
		for _, g := range c.Gates {
			gs = append(gs, g.String())
		}
		fmt.Fprintf(&b, "gates:    %s\n", strings.Join(gs, " "))
	}
	b.WriteByte('\n')
	head := []string{"job", "dir", "metric", "unit", "baseline", "new", "change"}
	if runs > 1 {
		head = append(head, "runs' range", "spread")
	}
	table := [][]string{append(head, "gate")}
	var crossed []string
	for _, r := range c.Rows {
		for _, m := range r.Metrics {
			line := []string{r.Label(), r.Dir, m.Metric, units[m.Metric]}
			if m.Missing {
				line = append(line, "n/a", "n/a", "n/a")
				if runs > 1 {
					line = append(line, "", "")
				}
			} else {
				line = append(line, num(m.Metric, m.Baseline), num(m.Metric, m.New), pct(m.Pct))
				if runs > 1 {
					spread := "within"
					if m.Beyond {
						spread = "beyond"
					}
					line = append(line, num(m.Metric, m.Min)+".."+num(m.Metric, m.Max), spread)
				}
			}
			gate := ""
			for _, g := range m.Crossed {
				gate += " CROSSED " + g.String()
				crossed = append(crossed, fmt.Sprintf("%s %s %s %s crosses %s", r.Label(), r.Dir, m.Metric, pct(m.Pct), g))
			}
			table = append(table, append(line, strings.TrimSpace(gate)))
		}
	}
	writeColumns(&b, table, 4)
	if len(c.OnlyBaseline) > 0 {
		fmt.Fprintf(&b, "\nonly in the baseline: %s\n", strings.Join(c.OnlyBaseline, " "))
	}
	if len(c.OnlyNew) > 0 {
		fmt.Fprintf(&b, "\nonly in the new result: %s\n", strings.Join(c.OnlyNew, " "))
	}
	switch {
	case len(crossed) > 0:
		fmt.Fprintf(&b, "\n%d gate(s) crossed:\n  %s\n", len(crossed), strings.Join(crossed, "\n  "))
	case len(c.Gates) > 0:
		fmt.Fprintf(&b, "\nno gate crossed\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeColumns writes rows as columns two spaces apart: the first left
// columns aligned left (text), the others right (numbers) but for the
// last, which is left unpadded.
func writeColumns(b *strings.Builder, rows [][]string, left int) {
	var width []int
	for _, r := range rows {
		for k, c := range r {
			if k == len(width) {
				width = append(width, 0)
			}
			width[k] = max(width[k], len(c))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		for k, c := range r {
			if k > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[k]-len(c))
			switch {
			case k == len(r)-1:
				line.WriteString(c)
			case k < left:
				line.WriteString(c + pad)
			default:
				line.WriteString(pad + c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// num formats a metric value: IOPS with 2 decimals, bandwidth with 1,
// the latency mean with 1 and percentiles as integers.
func num(metric string, v float64) string {
	switch metric {
	case "iops":
		return strconv.FormatFloat(v, 'f', 2, 64)
	case "bw", "mean":
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// pct formats a change in percent with its sign.
func pct(p float64) string {
	switch {
	case math.IsNaN(p):
		return "n/a"
	case math.IsInf(p, 1):
		return "+inf%"
	case math.IsInf(p, -1):
		return "-inf%"
	}
	s := strconv.FormatFloat(p, 'f', 2, 64)
	if p >= 0 {
		s = "+" + s
	}
	return s + "%"
}

// jsonComparison is the JSON layout of a Comparison.
type jsonComparison struct {
	Baselines    []string  `json:"baselines"`
	New          string    `json:"new"`
	Gates        []string  `json:"gates"`
	Crossed      bool      `json:"crossed"`
	Jobs         []jsonRow `json:"jobs"`
	OnlyBaseline []string  `json:"only_baseline"`
	OnlyNew      []string  `json:"only_new"`
}

type jsonRow struct {
	Job       string       `json:"jobname"`
	Host      string       `json:"hostname,omitempty"`
	Index     int          `json:"index,omitempty"`
	Direction string       `json:"direction"`
	Metrics   []jsonChange `json:"metrics"`
}

type jsonChange struct {
	Metric         string    `json:"metric"`
	Unit           string    `json:"unit"`
	Baseline       *float64  `json:"baseline"`
	BaselineRuns   []float64 `json:"baseline_runs"`
	BaselineMin    *float64  `json:"baseline_min,omitempty"`
	BaselineMax    *float64  `json:"baseline_max,omitempty"`
	BaselineStddev *float64  `json:"baseline_stddev,omitempty"`
	New            *float64  `json:"new"`
	ChangePct      *float64  `json:"change_pct"`
	BeyondSpread   *bool     `json:"beyond_spread,omitempty"`
	Crossed        []string  `json:"crossed"`
}

// finite returns &v, or nil (JSON null) for NaN and infinities.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// WriteJSON prints the comparison as a JSON document. A change that is
// undefined (a missing metric) or infinite (from a zero baseline) is
// null.
func (c *Comparison) WriteJSON(w io.Writer) error {
	out := jsonComparison{Baselines: c.Baselines, New: c.New, Crossed: c.Crossed,
		Gates: []string{}, Jobs: []jsonRow{}, OnlyBaseline: c.OnlyBaseline, OnlyNew: c.OnlyNew}
	if out.OnlyBaseline == nil {
		out.OnlyBaseline = []string{}
	}
	if out.OnlyNew == nil {
		out.OnlyNew = []string{}
	}
	for _, g := range c.Gates {
		out.Gates = append(out.Gates, g.String())
	}
	for _, r := range c.Rows {
		jr := jsonRow{Job: r.Job, Host: r.Host, Index: r.Index, Direction: r.Dir}
		for _, m := range r.Metrics {
			jc := jsonChange{Metric: m.Metric, Unit: units[m.Metric], BaselineRuns: m.Runs, Crossed: []string{}}
			if jc.BaselineRuns == nil {
				jc.BaselineRuns = []float64{}
			}
			if !m.Missing {
				jc.New = finite(m.New)
				jc.Baseline, jc.ChangePct = finite(m.Baseline), finite(m.Pct)
				if len(m.Runs) > 1 {
					jc.BaselineMin, jc.BaselineMax, jc.BaselineStddev = finite(m.Min), finite(m.Max), finite(m.Stddev)
					beyond := m.Beyond
					jc.BeyondSpread = &beyond
				}
			}
			for _, g := range m.Crossed {
				jc.Crossed = append(jc.Crossed, g.String())
			}
			jr.Metrics = append(jr.Metrics, jc)
		}
		out.Jobs = append(out.Jobs, jr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
