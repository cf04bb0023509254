package report

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gofio/gofio/stats"
)

// This file reads fio's log files (write_bw_log, write_iops_log,
// write_lat_log, write_hist_log) into per-interval series, so that a
// report of a finished fio run can draw its results over time. The
// formats are those of fio's manual ("Log File Formats"): a line is
// "time (ms), value, direction, block size, offset[, priority]", the
// value in KiB/s for bw, I/Os for iops, ns for latencies; a line of
// log_avg_msec's windows has block size 0. A histogram log line is
// "time, direction, block size, bucket counts..." with fio's 1856
// latency buckets, merged 2^log_hist_coarseness at a time.

// logName matches fio's log file names: PREFIX_KIND[.N].log.
var logName = regexp.MustCompile(`^(.+)_(bw|iops|clat|slat|lat|clat_hist|lat_hist)(?:\.(\d+))?\.log$`)

// logFile is one log read.
type logFile struct {
	name, prefix, kind string
	rows               []logRow
}

type logRow struct {
	t, v, bs uint64
	dir      int
	hist     *stats.Hist
}

// bucketMS is the interval the report puts log samples into, unless the
// log's own windows are longer.
const bucketMS = 1000

// ReadLogs reads fio log files and returns a series per job: jobs are
// the result's job names, and a log goes to the job its prefix names
// (write_bw_log=PREFIX; fio's default prefix is the job name), or to the
// only job. Compressed logs (log_compression) must be inflated first
// (gofio --inflate-log).
func ReadLogs(names []string, jobs []string) (map[int]*Series, error) {
	byJob := map[int][]*logFile{}
	for _, n := range names {
		lf, err := readLog(n)
		if err != nil {
			return nil, err
		}
		j := slices.Index(jobs, lf.prefix)
		if j < 0 && len(jobs) == 1 {
			j = 0
		}
		if j < 0 {
			return nil, fmt.Errorf("%s: no job named %q in the result (logs are matched to jobs by their prefix)", n, lf.prefix)
		}
		byJob[j] = append(byJob[j], lf)
	}
	out := map[int]*Series{}
	for j, files := range byJob {
		out[j] = logSeries(files)
	}
	return out, nil
}

func readLog(name string) (*logFile, error) {
	m := logName.FindStringSubmatch(filepath.Base(name))
	if m == nil {
		return nil, fmt.Errorf("%s: not a fio log name (PREFIX_bw.N.log, _iops, _lat, _clat, _slat, _clat_hist)", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lf := &logFile{name: filepath.Base(name), prefix: m[1], kind: m[2]}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	hist := strings.HasSuffix(lf.kind, "_hist")
	for ln := 1; sc.Scan(); ln++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		fields := strings.Split(text, ",")
		vals := make([]uint64, len(fields))
		for i, fs := range fields {
			v, err := strconv.ParseUint(strings.TrimSpace(fs), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: field %d: %q is not a number (a compressed log? inflate it with --inflate-log)", name, ln, i+1, fs)
			}
			vals[i] = v
		}
		if hist {
			if len(vals) < 4 || vals[1] >= stats.NDirs {
				return nil, fmt.Errorf("%s:%d: not a histogram log line", name, ln)
			}
			h, err := histFromLog(vals[3:])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, ln, err)
			}
			lf.rows = append(lf.rows, logRow{t: vals[0], dir: int(vals[1]), bs: vals[2], hist: h})
			continue
		}
		if len(vals) < 4 || vals[2] >= stats.NDirs {
			return nil, fmt.Errorf("%s:%d: not a log line (time, value, direction, block size, ...)", name, ln)
		}
		lf.rows = append(lf.rows, logRow{t: vals[0], v: vals[1], dir: int(vals[2]), bs: vals[3]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return lf, nil
}

// histFromLog spreads a histogram log line's buckets back over fio's
// buckets: with coarseness c, log bucket i covers buckets i·2^c onwards;
// its count goes to the first of them.
func histFromLog(b []uint64) (*stats.Hist, error) {
	c := 0
	for c <= 6 && stats.HistBuckets>>c != len(b) {
		c++
	}
	if c > 6 {
		return nil, fmt.Errorf("%d histogram buckets: not %d shifted by a log_hist_coarseness", len(b), stats.HistBuckets)
	}
	var h stats.Hist
	for i, n := range b {
		h[i<<c] += n
	}
	return &h, nil
}

// acc is what one bucket of time gathers.
type acc struct {
	bw, iops        float64 // sums over files of the windowed means
	bytes, ios      uint64  // per-I/O entries
	hasRate         bool
	hist            stats.Hist
	latN            uint64
	lastMS, firstMS uint64
}

// logSeries puts a job's logs into buckets of time.
func logSeries(files []*logFile) *Series {
	s := &Series{}
	var names []string
	for _, f := range files {
		names = append(names, f.name)
	}
	slices.Sort(names)
	s.Source = "fio logs: " + strings.Join(names, ", ")

	width := uint64(bucketMS)
	for _, f := range files {
		if w := window(f); w > width {
			width = w
		}
	}
	perIO := ""
	for _, k := range []string{"iops", "bw", "clat", "lat", "slat"} {
		for _, f := range files {
			if f.kind == k && len(f.rows) > 0 && f.rows[0].bs != 0 && perIO == "" {
				perIO = k
			}
		}
	}
	latKind := ""
	for _, k := range []string{"clat", "lat", "clat_hist", "lat_hist"} {
		for _, f := range files {
			if f.kind == k && latKind == "" && len(f.rows) > 0 && (f.rows[0].hist != nil || f.rows[0].bs != 0) {
				latKind = k
			}
		}
	}
	var buckets [stats.NDirs]map[uint64]*acc
	get := func(d int, t uint64) *acc {
		if buckets[d] == nil {
			buckets[d] = map[uint64]*acc{}
		}
		b := (t + width - 1) / width
		if b == 0 {
			b = 1
		}
		a := buckets[d][b]
		if a == nil {
			a = &acc{firstMS: t}
			buckets[d][b] = a
		}
		a.lastMS = max(a.lastMS, t)
		return a
	}
	for _, f := range files {
		// Windowed bw and iops: each file's mean over the bucket, summed
		// over files (the jobs of numjobs log one file each).
		type fb struct {
			d int
			b uint64
		}
		sum, cnt := map[fb]float64{}, map[fb]float64{}
		for _, r := range f.rows {
			switch {
			case r.hist != nil:
				if f.kind == latKind {
					a := get(r.dir, r.t)
					a.hist.Merge(r.hist)
					a.latN += histCount(r.hist)
				}
			case r.bs == 0 && (f.kind == "bw" || f.kind == "iops"):
				get(r.dir, r.t)
				k := fb{r.dir, (max(r.t, 1) + width - 1) / width}
				sum[k] += float64(r.v)
				cnt[k]++
			case r.bs != 0:
				a := get(r.dir, r.t)
				if f.kind == perIO {
					a.bytes += r.bs
					a.ios++
					a.hasRate = true
				}
				if f.kind == latKind {
					a.hist.Add(r.v)
					a.latN++
				}
			}
		}
		for k, v := range sum {
			a := buckets[k.d][k.b]
			mean := v / cnt[k]
			if f.kind == "bw" {
				a.bw += mean * 1024
			} else {
				a.iops += mean
			}
			a.hasRate = true
		}
	}
	for d := range buckets {
		var keys []uint64
		var last uint64
		for b, a := range buckets[d] {
			keys = append(keys, b)
			last = max(last, a.lastMS)
		}
		slices.Sort(keys)
		for _, b := range keys {
			a := buckets[d][b]
			span := float64(width)
			if end := b * width; end > last && last > (b-1)*width {
				span = float64(last - (b-1)*width)
			}
			p := Point{TimeMS: float64(min(b*width, max(last, (b-1)*width+1))), SpanMS: span, HasRate: a.hasRate}
			p.BW, p.IOPS = a.bw, a.iops
			if a.ios > 0 {
				p.BW += float64(a.bytes) * 1000 / span
				p.IOPS += float64(a.ios) * 1000 / span
			}
			p.Lat, p.HasLat = histPercentiles(&a.hist, a.latN)
			s.Dir[d] = append(s.Dir[d], p)
		}
	}
	return s
}

// window returns the spacing of a windowed log's lines (log_avg_msec), 0
// for a per-I/O log.
func window(f *logFile) uint64 {
	var prev [stats.NDirs]uint64
	var w uint64
	for _, r := range f.rows {
		if r.hist == nil && r.bs != 0 {
			return 0
		}
		if p := prev[r.dir]; p != 0 && r.t > p && (w == 0 || r.t-p < w) {
			w = r.t - p
		}
		prev[r.dir] = r.t
	}
	return w
}
