package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// Document is one result file read back: its jobs as the output package
// models them, with the raw counters rebuilt from the JSON.
type Document struct {
	// Name is where the document came from (a file name), for messages.
	Name string
	// Time is the report's timestamp (timestamp_ms, else timestamp).
	Time time.Time
	// Client is set for a client/server document ("client_stats").
	Client bool
	// GlobalOptions are the document's "global options", in order.
	GlobalOptions []output.Option
	// ElapsedMS is the longest "elapsed" of its jobs, in milliseconds.
	ElapsedMS uint64
	// Jobs are the job records in document order. In a client document
	// the "All clients" sum is left out (it repeats the others) and kept
	// in AllClients.
	Jobs       []Job
	AllClients *Job
}

// Job is one job record of a document.
type Job struct {
	// Report is the record as output.JSON would take it to write the
	// same job again. Report.Remote names the server in a client
	// document.
	Report output.Job
	// Clat holds, per direction slot (read, write, trim; slot 0 holds
	// "mixed" under unified_rw_reporting=mixed), the completion latency
	// percentiles printed in the document, keyed by percentile.
	Clat [stats.NDirs]map[float64]uint64
	// Bins is false when the document printed percentiles without the
	// JSON+ histogram behind them (plain JSON): the histograms are then
	// empty and the job cannot be merged.
	Bins bool
}

// Host is the job's server ("" for a local run).
func (j *Job) Host() string {
	if j.Report.Remote == nil {
		return ""
	}
	return j.Report.Remote.Hostname
}

// ReadFile reads the result document in file name.
func ReadFile(name string) (*Document, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	d, err := Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d.Name = name
	return d, nil
}

// nonFinite matches the nan/inf tokens C's printf can put into fio's JSON
// (not valid JSON); they are read as 0.
var nonFinite = regexp.MustCompile(`(:\s*)-?(nan|inf)\b`)

// Read reads one JSON or JSON+ report of fio or gofio. Text around the
// document (a normal report, notices) is skipped: a document starts at a
// line that begins with '{'. Of several documents (--status-interval
// prints one per interval) the last, the final report, is read.
func Read(data []byte) (*Document, error) {
	var starts []int
	if bytes.HasPrefix(data, []byte("{")) {
		starts = append(starts, 0)
	}
	for i := 0; ; {
		k := bytes.Index(data[i:], []byte("\n{"))
		if k < 0 {
			break
		}
		starts = append(starts, i+k+1)
		i += k + 1
	}
	if len(starts) == 0 {
		return nil, fmt.Errorf("no JSON document found (run fio with --output-format=json or json+)")
	}
	var raw jsonDoc
	var err error
	for k := len(starts) - 1; k >= 0; k-- {
		raw = jsonDoc{}
		doc := nonFinite.ReplaceAll(data[starts[k]:], []byte("${1}0"))
		if err = json.NewDecoder(bytes.NewReader(doc)).Decode(&raw); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reading the JSON document: %w", err)
	}
	if raw.Version == "" {
		return nil, fmt.Errorf(`not a fio result document (no "fio version")`)
	}
	d := &Document{GlobalOptions: raw.GlobalOptions}
	switch {
	case raw.TimestampMS != 0:
		d.Time = time.UnixMilli(raw.TimestampMS)
	default:
		d.Time = time.Unix(raw.Timestamp, 0)
	}
	jobs := raw.Jobs
	if raw.ClientStats != nil {
		d.Client = true
		jobs = raw.ClientStats
		if n := len(jobs); n > 1 && jobs[n-1].Name == "All clients" {
			all, err := jobs[n-1].job(true)
			if err != nil {
				return nil, fmt.Errorf("job %q: %w", "All clients", err)
			}
			d.AllClients = &all
			jobs = jobs[:n-1]
		}
	}
	for k := range jobs {
		j, err := jobs[k].job(d.Client)
		if err != nil {
			return nil, fmt.Errorf("job %q: %w", jobs[k].Name, err)
		}
		d.Jobs = append(d.Jobs, j)
		d.ElapsedMS = max(d.ElapsedMS, jobs[k].Elapsed*1000)
	}
	return d, nil
}

// jsonDoc is the root of a report.
type jsonDoc struct {
	Version       string    `json:"fio version"`
	Timestamp     int64     `json:"timestamp"`
	TimestampMS   int64     `json:"timestamp_ms"`
	GlobalOptions options   `json:"global options"`
	Jobs          []jsonJob `json:"jobs"`
	ClientStats   []jsonJob `json:"client_stats"`
}

// options is a JSON object of option strings, kept in order.
type options []output.Option

func (o *options) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("options: not an object")
	}
	*o = options{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("option %v: %w", k, err)
		}
		*o = append(*o, output.Option{Name: k.(string), Value: v})
	}
	return nil
}

type jsonJob struct {
	Name              string             `json:"jobname"`
	GroupID           int64              `json:"groupid"`
	Error             int                `json:"error"`
	Elapsed           uint64             `json:"elapsed"`
	Options           options            `json:"job options"`
	Read              *jsonDir           `json:"read"`
	Write             *jsonDir           `json:"write"`
	Trim              *jsonDir           `json:"trim"`
	Mixed             *jsonDir           `json:"mixed"`
	Sync              *jsonSync          `json:"sync"`
	JobRuntime        uint64             `json:"job_runtime"`
	UsrCPU            float64            `json:"usr_cpu"`
	SysCPU            float64            `json:"sys_cpu"`
	Ctx               uint64             `json:"ctx"`
	Majf              uint64             `json:"majf"`
	Minf              uint64             `json:"minf"`
	IODepthLevel      map[string]float64 `json:"iodepth_level"`
	IODepthSubmit     map[string]float64 `json:"iodepth_submit"`
	IODepthComplete   map[string]float64 `json:"iodepth_complete"`
	LatencyNS         map[string]float64 `json:"latency_ns"`
	LatencyUS         map[string]float64 `json:"latency_us"`
	LatencyMS         map[string]float64 `json:"latency_ms"`
	TotalErr          *uint64            `json:"total_err"`
	FirstError        int                `json:"first_error"`
	LatencyDepth      int                `json:"latency_depth"`
	LatencyTarget     uint64             `json:"latency_target"`
	LatencyPercentile float64            `json:"latency_percentile"`
	LatencyWindow     uint64             `json:"latency_window"`
	Desc              string             `json:"desc"`
	Hostname          *string            `json:"hostname"`
	Port              int                `json:"port"`
}

type jsonDir struct {
	IOBytes     uint64     `json:"io_bytes"`
	Runtime     uint64     `json:"runtime"`
	TotalIOs    uint64     `json:"total_ios"`
	ShortIOs    uint64     `json:"short_ios"`
	DropIOs     uint64     `json:"drop_ios"`
	Slat        jsonLat    `json:"slat_ns"`
	Clat        jsonLat    `json:"clat_ns"`
	Lat         jsonLat    `json:"lat_ns"`
	Prios       []jsonPrio `json:"prios"`
	BWMin       uint64     `json:"bw_min"`
	BWMax       uint64     `json:"bw_max"`
	BWMean      float64    `json:"bw_mean"`
	BWDev       float64    `json:"bw_dev"`
	BWSamples   uint64     `json:"bw_samples"`
	IOPSMin     uint64     `json:"iops_min"`
	IOPSMax     uint64     `json:"iops_max"`
	IOPSMean    float64    `json:"iops_mean"`
	IOPSStddev  float64    `json:"iops_stddev"`
	IOPSSamples uint64     `json:"iops_samples"`
}

type jsonPrio struct {
	Class int      `json:"prioclass"`
	Level int      `json:"prio"`
	Clat  *jsonLat `json:"clat_ns"`
	Lat   *jsonLat `json:"lat_ns"`
}

type jsonSync struct {
	TotalIOs uint64  `json:"total_ios"`
	Lat      jsonLat `json:"lat_ns"`
}

type jsonLat struct {
	Min        uint64            `json:"min"`
	Max        uint64            `json:"max"`
	Mean       float64           `json:"mean"`
	Stddev     float64           `json:"stddev"`
	N          uint64            `json:"N"`
	Percentile map[string]uint64 `json:"percentile"`
	Bins       map[string]uint64 `json:"bins"`
}

// accum rebuilds the Welford accumulator from its printed moments: the
// sum of squared deviations is stddev²·(N−1).
func accum(min, max uint64, mean, stddev float64, n uint64) stats.Accum {
	a := stats.Accum{Min: min, Max: max, N: n, Mean: mean}
	if n > 1 {
		a.S = stddev * stddev * float64(n-1)
	}
	return a
}

func (l *jsonLat) accum() stats.Accum { return accum(l.Min, l.Max, l.Mean, l.Stddev, l.N) }

// hist rebuilds fio's histogram from JSON+ bins: each key is the value
// fio prints for one of its buckets.
func (l *jsonLat) hist() (stats.Hist, error) {
	var h stats.Hist
	for k, c := range l.Bins {
		v, err := strconv.ParseUint(k, 10, 64)
		if err != nil {
			return h, fmt.Errorf("bin %q: not a latency", k)
		}
		i := stats.HistIndex(v)
		if stats.HistValue(i) != v {
			return h, fmt.Errorf("bin %q is not one of fio's histogram buckets", k)
		}
		h[i] += c
	}
	return h, nil
}

// pcts reads the printed percentiles.
func (l *jsonLat) pcts() (map[float64]uint64, error) {
	if l.Percentile == nil {
		return nil, nil
	}
	m := make(map[float64]uint64, len(l.Percentile))
	for k, v := range l.Percentile {
		p, err := strconv.ParseFloat(k, 64)
		if err != nil {
			return nil, fmt.Errorf("percentile %q: %w", k, err)
		}
		m[p] = v
	}
	return m, nil
}

// list returns the percentile list the document was printed with.
func (l *jsonLat) list() []float64 {
	var out []float64
	for k := range l.Percentile {
		if p, err := strconv.ParseFloat(k, 64); err == nil {
			out = append(out, p)
		}
	}
	return stats.EffectiveList(out)
}

// stat rebuilds a latency statistic; missing reports percentiles printed
// without bins.
func (l *jsonLat) stat() (a stats.Accum, h stats.Hist, missing bool, err error) {
	a = l.accum()
	h, err = l.hist()
	missing = l.Percentile != nil && l.Bins == nil && l.N > 0
	return a, h, missing, err
}

// job rebuilds one job record.
func (r *jsonJob) job(client bool) (Job, error) {
	j := Job{Bins: true}
	rep := &j.Report
	rep.Name, rep.Description = r.Name, r.Desc
	rep.GroupID = int(int32(uint32(r.GroupID)))
	rep.Error = r.Error
	rep.Options = r.Options
	rep.ClatPercentiles = true
	if client && r.Hostname != nil {
		rep.Remote = &output.Remote{Hostname: *r.Hostname, Port: r.Port}
	}
	dirs := [stats.NDirs]*jsonDir{r.Read, r.Write, r.Trim}
	switch {
	case r.Mixed != nil && r.Read == nil:
		rep.Unified = 1
		dirs = [stats.NDirs]*jsonDir{r.Mixed}
	case r.Mixed != nil:
		rep.Unified = 2
	}
	st := &rep.Stats
	st.Members = 1
	var pcts []float64
	sawClat := false
	for d, jd := range dirs {
		if jd == nil {
			continue
		}
		ds := &st.Dir[d]
		ds.IOBytes, ds.TotalIOs, ds.ShortIOs, ds.DropIOs = jd.IOBytes, jd.TotalIOs, jd.ShortIOs, jd.DropIOs
		ds.RuntimeUS = jd.Runtime * 1000
		for _, x := range []struct {
			l    *jsonLat
			a    *stats.Accum
			h    *stats.Hist
			flag *bool
			name string
		}{
			{&jd.Slat, &ds.Slat, &ds.SlatHist, &rep.SlatPercentiles, "slat_ns"},
			{&jd.Clat, &ds.Clat, &ds.ClatHist, nil, "clat_ns"},
			{&jd.Lat, &ds.Lat, &ds.LatHist, &rep.LatPercentiles, "lat_ns"},
		} {
			a, h, missing, err := x.l.stat()
			if err != nil {
				return j, fmt.Errorf("%s %s: %w", dirName(rep.Unified, d), x.name, err)
			}
			*x.a, *x.h = a, h
			if missing {
				j.Bins = false
			}
			if x.l.Percentile != nil {
				if x.flag != nil {
					*x.flag = true
				}
				if pcts == nil {
					pcts = x.l.list()
				}
			}
		}
		if jd.Clat.N > 0 {
			if !sawClat {
				rep.ClatPercentiles = false
				sawClat = true
			}
			if jd.Clat.Percentile != nil {
				rep.ClatPercentiles = true
			}
		}
		p, err := jd.Clat.pcts()
		if err != nil {
			return j, err
		}
		j.Clat[d] = p
		for _, jp := range jd.Prios {
			l := jp.Clat
			if l == nil {
				l = jp.Lat
			}
			if l == nil {
				continue
			}
			a, h, missing, err := l.stat()
			if err != nil {
				return j, fmt.Errorf("%s prios: %w", dirName(rep.Unified, d), err)
			}
			if missing {
				j.Bins = false
			}
			ds.Prios = append(ds.Prios, stats.PrioStat{IOPrio: uint16(jp.Class<<13 | jp.Level), Lat: a, Hist: h})
		}
		ds.BW = accum(jd.BWMin, jd.BWMax, jd.BWMean, jd.BWDev, jd.BWSamples)
		ds.IOPS = accum(jd.IOPSMin, jd.IOPSMax, jd.IOPSMean, jd.IOPSStddev, jd.IOPSSamples)
	}
	if pcts != nil && !slices.Equal(pcts, stats.DefaultPercentiles) {
		rep.Percentiles = pcts
		rep.PercentilePrecision = 6
	}
	if s := r.Sync; s != nil {
		st.SyncIOs = s.TotalIOs
		a, h, missing, err := s.Lat.stat()
		if err != nil {
			return j, fmt.Errorf("sync lat_ns: %w", err)
		}
		if missing {
			j.Bins = false
		}
		st.Sync, st.SyncHist = a, h
	}
	st.RuntimeMS = r.JobRuntime
	st.UsrMS = uint64(math.Round(r.UsrCPU * float64(r.JobRuntime) / 100))
	st.SysMS = uint64(math.Round(r.SysCPU * float64(r.JobRuntime) / 100))
	st.Ctx, st.Majf, st.Minf = r.Ctx, r.Majf, r.Minf

	// fio prints the depth and latency distributions as percentages, not
	// counts: they are turned back into counts of the job's issued I/Os
	// (exact but for buckets fio raised to its floor), so that merged
	// percentages are weighted by each job's I/O count.
	var issued uint64
	for d := range st.Dir {
		issued += st.Dir[d].TotalIOs
	}
	counts(st.IODepth[:], r.IODepthLevel, stats.DepthLabels, issued)
	counts(st.Submit[:], r.IODepthSubmit, stats.CallLabels, issued)
	counts(st.Complete[:], r.IODepthComplete, stats.CallLabels, issued)
	st.Submits, st.Completes = issued, issued
	counts(st.LatNsec[:], r.LatencyNS, stats.LatLabels, issued)
	counts(st.LatUsec[:], r.LatencyUS, stats.LatLabels, issued)
	counts(st.LatMsec[:], r.LatencyMS, stats.LatMsecLabels, issued)

	if r.TotalErr != nil {
		rep.ErrorCheck = true
		rep.TotalErrors = *r.TotalErr
		rep.FirstError = r.FirstError
	}
	rep.Depth = r.LatencyDepth
	rep.LatencyTarget, rep.LatencyPercentile, rep.LatencyWindow = r.LatencyTarget, r.LatencyPercentile, r.LatencyWindow
	return j, nil
}

// counts turns a distribution's percentages back into counts of total.
func counts(dst []uint64, pcts map[string]float64, labels []string, total uint64) {
	for k, l := range labels {
		if k < len(dst) {
			dst[k] = uint64(math.Round(pcts[l] * float64(total) / 100))
		}
	}
}

// dirName names direction slot d of a job.
func dirName(unified, d int) string {
	if unified == 1 {
		return "mixed"
	}
	return [...]string{"read", "write", "trim"}[d]
}
