package results

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gofio/gofio/stats"
)

// Comparison is a new result set against one or more baseline runs.
type Comparison struct {
	Baselines []string // document names
	New       string
	Gates     []Gate
	Rows      []Row
	// OnlyBaseline and OnlyNew name the jobs found on one side only
	// (as Row.Label writes them).
	OnlyBaseline []string
	OnlyNew      []string
	// Crossed is set when any gate is crossed.
	Crossed bool
}

// Row is one job's direction: each metric's baseline, new value and
// change.
type Row struct {
	Job  string
	Host string // the server of a client/server run, "" for a local one
	// Index tells apart jobs of one name and host (numjobs clones without
	// group_reporting): the k-th such record matches the k-th.
	Index   int
	Dir     string // read, write, trim or mixed
	Metrics []Change
}

// Label names the row's job: "name", "name@host", with "#k" for the k-th
// clone of the name.
func (r *Row) Label() string { return jobLabel(r.Job, r.Host, r.Index) }

func jobLabel(name, host string, index int) string {
	s := name
	if host != "" {
		s += "@" + host
	}
	if index > 0 {
		s += "#" + strconv.Itoa(index)
	}
	return s
}

// Change is one metric of one row.
type Change struct {
	Metric string
	// Runs are the baseline values, one per baseline document that has
	// the metric; Baseline is their mean, Min, Max and Stddev (the
	// sample standard deviation) their spread.
	Runs                       []float64
	Baseline, Min, Max, Stddev float64
	New                        float64
	// Missing is set when the metric is not in every document (no
	// percentiles printed and no histogram to compute them from).
	Missing bool
	// Pct is the change from Baseline to New in percent: NaN when
	// Missing, ±Inf from a zero baseline.
	Pct float64
	// Beyond is set, with two or more baseline runs, when New lies
	// outside the runs' own range [Min, Max].
	Beyond bool
	// Crossed lists the gates this change crosses.
	Crossed []Gate
}

// key identifies a job record across documents.
type key struct {
	name, host string
	index      int
}

// Compare sets doc against the baseline documents: jobs are matched by
// name and host (and, for several records of one name, by their order),
// and for each direction that did I/O on either side every metric of
// Metrics is compared. Gates mark the changes they are crossed by.
func Compare(baselines []*Document, doc *Document, gates []Gate) (*Comparison, error) {
	if len(baselines) == 0 {
		return nil, fmt.Errorf("no baseline")
	}
	c := &Comparison{New: doc.Name, Gates: gates}
	base := make([]map[key]*Job, len(baselines))
	for i, b := range baselines {
		c.Baselines = append(c.Baselines, b.Name)
		base[i], _ = keyed(b)
	}
	cur, order := keyed(doc)
	for _, k := range order {
		nj := cur[k]
		var bjs []*Job
		for i := range base {
			if bj := base[i][k]; bj != nil {
				bjs = append(bjs, bj)
			}
		}
		if len(bjs) == 0 {
			c.OnlyNew = append(c.OnlyNew, jobLabel(k.name, k.host, k.index))
			continue
		}
		for d := range stats.NDirs {
			if !didIO(nj, d) && !anyIO(bjs, d) {
				continue
			}
			row := Row{Job: k.name, Host: k.host, Index: k.index, Dir: dirName(nj.Report.Unified, d)}
			for _, m := range Metrics {
				ch := change(m, bjs, nj, d)
				for _, g := range gates {
					if g.Metric == m && g.Crossed(ch.Pct) {
						ch.Crossed = append(ch.Crossed, g)
						c.Crossed = true
					}
				}
				row.Metrics = append(row.Metrics, ch)
			}
			c.Rows = append(c.Rows, row)
		}
	}
	_, border := keyed(baselines[0])
	seen := map[key]bool{}
	for _, k := range border {
		seen[k] = true
	}
	for _, b := range baselines[1:] {
		_, o := keyed(b)
		for _, k := range o {
			if !seen[k] {
				seen[k] = true
				border = append(border, k)
			}
		}
	}
	for _, k := range border {
		if cur[k] == nil {
			c.OnlyBaseline = append(c.OnlyBaseline, jobLabel(k.name, k.host, k.index))
		}
	}
	if len(c.Rows) == 0 && len(c.OnlyBaseline)+len(c.OnlyNew) > 0 {
		return c, fmt.Errorf("no job of %s matches a baseline job by name and host", doc.Name)
	}
	return c, nil
}

// keyed indexes a document's jobs by key, in document order, with the
// "All clients" sum of a client document last (under no host).
func keyed(d *Document) (map[key]*Job, []key) {
	m := map[key]*Job{}
	var order []key
	count := map[key]int{}
	for i := range d.Jobs {
		j := &d.Jobs[i]
		k := key{name: j.Report.Name, host: j.Host()}
		n := count[k]
		count[k]++
		k.index = n
		m[k] = j
		order = append(order, k)
	}
	if j := d.AllClients; j != nil {
		k := key{name: j.Report.Name}
		m[k] = j
		order = append(order, k)
	}
	return m, order
}

func didIO(j *Job, d int) bool {
	s := &j.Report.Stats.Dir[d]
	return s.TotalIOs != 0 || s.IOBytes != 0
}

func anyIO(js []*Job, d int) bool {
	for _, j := range js {
		if didIO(j, d) {
			return true
		}
	}
	return false
}

// change compares metric m of direction d.
func change(m string, bjs []*Job, nj *Job, d int) Change {
	ch := Change{Metric: m, Pct: math.NaN()}
	v, ok := value(m, nj, d)
	ch.New = v
	if !ok {
		ch.Missing = true
	}
	for _, bj := range bjs {
		v, ok := value(m, bj, d)
		if !ok {
			ch.Missing = true
			continue
		}
		ch.Runs = append(ch.Runs, v)
	}
	if ch.Missing || len(ch.Runs) == 0 {
		ch.Missing = true
		return ch
	}
	ch.Min, ch.Max = ch.Runs[0], ch.Runs[0]
	var sum float64
	for _, x := range ch.Runs {
		sum += x
		ch.Min, ch.Max = math.Min(ch.Min, x), math.Max(ch.Max, x)
	}
	n := float64(len(ch.Runs))
	ch.Baseline = sum / n
	if len(ch.Runs) > 1 {
		var ss float64
		for _, x := range ch.Runs {
			ss += (x - ch.Baseline) * (x - ch.Baseline)
		}
		ch.Stddev = math.Sqrt(ss / (n - 1))
		ch.Beyond = ch.New < ch.Min || ch.New > ch.Max
	}
	switch {
	case ch.Baseline != 0:
		ch.Pct = (ch.New - ch.Baseline) / ch.Baseline * 100
	case ch.New == 0:
		ch.Pct = 0
	case ch.New > 0:
		ch.Pct = math.Inf(1)
	default:
		ch.Pct = math.Inf(-1)
	}
	return ch
}

// percentileOf maps the percentile metrics to their percentile.
var percentileOf = map[string]float64{"p50": 50, "p99": 99, "p99.9": 99.9}

// value reads metric m of direction d of j: IOPS and bandwidth as the
// JSON report prints them (iops, bw_bytes/1024), the completion latency
// mean, and its percentiles as printed, else computed from the JSON+
// histogram as fio computes them.
func value(m string, j *Job, d int) (float64, bool) {
	s := &j.Report.Stats.Dir[d]
	rt := s.RuntimeMS()
	switch m {
	case "iops":
		if rt == 0 {
			return 0, true
		}
		return float64(s.TotalIOs) * 1000 / float64(rt), true
	case "bw":
		if rt == 0 {
			return 0, true
		}
		return float64(s.IOBytes*1000/rt) / 1024, true
	case "mean":
		return s.Clat.Mean, true
	}
	p := percentileOf[m]
	if v, ok := j.Clat[d][p]; ok {
		return float64(v), true
	}
	if s.Clat.N == 0 {
		return 0, true
	}
	if !j.Bins || histTotal(&s.ClatHist) == 0 {
		return 0, false
	}
	return float64(stats.Percentiles(&s.ClatHist, s.Clat.N, []float64{p})[0]), true
}

func histTotal(h *stats.Hist) uint64 {
	var n uint64
	for _, c := range h {
		n += c
	}
	return n
}
