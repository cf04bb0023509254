package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Metrics are the measures Compare reports for each job and direction,
// in order: IOPS, bandwidth (KiB/s), and the completion latency's mean
// and 50th, 99th and 99.9th percentiles (ns).
var Metrics = []string{"iops", "bw", "mean", "p50", "p99", "p99.9"}

// Gate is one threshold on the relative change of a metric.
type Gate struct {
	Metric string
	// Limit is the change in percent that crosses the gate. Sign is -1
	// when the gate is crossed by a fall below Limit (iops=-5%), +1 by a
	// rise above it (p99=+10%), and 0 by a change of either sign larger
	// than Limit in size (p99=10%).
	Limit float64
	Sign  int
}

// String is the gate as written on the command line.
func (g Gate) String() string {
	s := strconv.FormatFloat(g.Limit, 'f', -1, 64)
	if g.Sign > 0 {
		s = "+" + s
	}
	return g.Metric + "=" + s + "%"
}

// Crossed reports whether a change of pct percent crosses g. An
// undefined change (NaN: the metric is missing) crosses nothing.
func (g Gate) Crossed(pct float64) bool {
	switch {
	case math.IsNaN(pct):
		return false
	case g.Sign < 0:
		return pct < g.Limit
	case g.Sign > 0:
		return pct > g.Limit
	}
	return math.Abs(pct) > g.Limit
}

// ParseGates reads a comma-separated list of gates, each METRIC=CHANGE
// with CHANGE a percentage: "-5%" is crossed by a fall of more than 5%,
// "+10%" by a rise of more than 10%, "10%" by either. The '%' may be left
// out.
func ParseGates(list string) ([]Gate, error) {
	var gates []Gate
	for _, item := range strings.Split(list, ",") {
		if item == "" {
			continue
		}
		name, val, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("gate %q: want METRIC=CHANGE%%, e.g. iops=-5%%", item)
		}
		name = strings.ToLower(strings.TrimSpace(name))
		known := false
		for _, m := range Metrics {
			known = known || m == name
		}
		if !known {
			return nil, fmt.Errorf("gate %q: unknown metric %q (one of %s)", item, name, strings.Join(Metrics, ", "))
		}
		val = strings.TrimSuffix(strings.TrimSpace(val), "%")
		g := Gate{Metric: name}
		switch {
		case strings.HasPrefix(val, "-"):
			g.Sign = -1
		case strings.HasPrefix(val, "+"):
			g.Sign = 1
		}
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("gate %q: %q is not a percentage", item, val)
		}
		g.Limit = v
		gates = append(gates, g)
	}
	if len(gates) == 0 {
		return nil, fmt.Errorf("no gate in %q", list)
	}
	return gates, nil
}
