package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofio/gofio/stats"
)

// This file rebuilds an output.Result from a real fio 3.33 capture (see
// testdata/capture.sh) and holds the helpers of the golden tests.
//
// What a capture gives and how it is turned back into raw statistics:
//
//   - Latency, bandwidth and IOPS statistics come from the JSON+
//     min/max/mean/stddev/N, with S = stddev²·(N−1); latency histograms
//     from the "bins". Means and stddevs are therefore known only to the
//     six decimals JSON prints.
//   - Distribution maps (IO depths, submit, complete, latency buckets)
//     are printed as percentages only. Counts are chosen that reproduce
//     every printed percentage (see countFor); the divisor of the submit
//     and complete maps, not printed anywhere, is set to 10^8.
//   - CPU times come from usr_cpu/sys_cpu × job_runtime.
//   - pid, the jobs= member count and the error text are only in the
//     normal report's title lines, so they are read from there.
//   - Reporting settings (kb_base, unit_base, percentile_list, the
//     percentile switches) come from the captured job/global options.

// jv is a JSON value that keeps the order (and duplicates) of keys.
type jv struct {
	kind byte // '{', '[', 's', 'n', 'b', '0'
	keys []string
	vals []*jv
	str  string
	num  json.Number
}

// nanRE finds the glibc spellings of NaN and infinity fio may print as
// JSON numbers (not valid JSON); parseJV turns them into strings.
var nanRE = regexp.MustCompile(`(?m) : (-?nan|-?inf)(,?)$`)

func parseJV(data []byte) (*jv, error) {
	data = nanRE.ReplaceAll(data, []byte(` : "$1"$2`))
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return parseValue(d)
}

func parseValue(d *json.Decoder) (*jv, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		v := &jv{kind: byte(t)}
		for d.More() {
			if v.kind == '{' {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, k.(string))
			}
			e, err := parseValue(d)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, e)
		}
		if _, err := d.Token(); err != nil {
			return nil, err
		}
		return v, nil
	case string:
		return &jv{kind: 's', str: t}, nil
	case json.Number:
		return &jv{kind: 'n', num: t}, nil
	case bool:
		return &jv{kind: 'b'}, nil
	}
	return &jv{kind: '0'}, nil
}

// get returns the first member named k, or nil.
func (v *jv) get(k string) *jv {
	if v == nil {
		return nil
	}
	for n, key := range v.keys {
		if key == k {
			return v.vals[n]
		}
	}
	return nil
}

func (v *jv) u(k string) uint64 {
	e := v.get(k)
	if e == nil {
		return 0
	}
	n, err := strconv.ParseInt(string(e.num), 10, 64)
	if err != nil {
		panic(fmt.Sprintf("key %q: %v", k, err))
	}
	return uint64(n)
}

func (v *jv) f(k string) float64 {
	e := v.get(k)
	if e == nil {
		return 0
	}
	if e.kind == 's' {
		return special(e.str)
	}
	x, err := strconv.ParseFloat(string(e.num), 64)
	if err != nil {
		panic(fmt.Sprintf("key %q: %v", k, err))
	}
	return x
}

// special parses glibc's "nan", "-nan", "inf" and "-inf".
func special(s string) float64 {
	switch s {
	case "nan":
		return math.NaN()
	case "-nan":
		return negNaN
	case "inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	}
	panic("not a special float: " + s)
}

// text returns the number as printed, for comparisons of printed text.
func (v *jv) text(k string) string { return string(v.get(k).num) }

// capture is one testdata case split into its parts.
type capture struct {
	name                     string
	pre, terse, json, normal string
}

// captureDir is where the captures are read from: testdata, or the
// directory named by $GOFIO_CAPTURE_DIR, to check fresh captures made
// with testdata/capture.sh without replacing the golden files.
func captureDir() string {
	if d := os.Getenv("GOFIO_CAPTURE_DIR"); d != "" {
		return d
	}
	return "testdata"
}

func loadCapture(t *testing.T, name string) capture {
	t.Helper()
	c := capture{name: name}
	for _, p := range []struct {
		ext string
		dst *string
	}{{"pre", &c.pre}, {"terse", &c.terse}, {"json", &c.json}, {"normal", &c.normal}} {
		b, err := os.ReadFile(filepath.Join(captureDir(), name+"."+p.ext))
		if err != nil {
			t.Fatal(err)
		}
		*p.dst = string(b)
	}
	return c
}

var titleRE = regexp.MustCompile(`^(.*): \(groupid=(-?\d+), jobs=(\d+)\): err=\s*(\d+)(?: \((.*)\))?: pid=(\d+): `)

// title is what a job's normal-report title line tells.
type title struct {
	members, pid int
	errText      string
	firstErrText string // from the block's "errors" line
}

var firstErrRE = regexp.MustCompile(`^     errors    : total=\d+, first_error=\d+/<(.*)>$`)

func titles(normal string) []title {
	var out []title
	for _, line := range strings.Split(normal, "\n") {
		if m := firstErrRE.FindStringSubmatch(line); m != nil && len(out) > 0 {
			out[len(out)-1].firstErrText = m[1]
		}
		m := titleRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		members, _ := strconv.Atoi(m[3])
		pid, _ := strconv.Atoi(m[6])
		out = append(out, title{members: members, pid: pid, errText: m[5]})
	}
	return out
}

// rebuild reconstructs the Result behind a capture.
func rebuild(t *testing.T, c capture) *Result {
	t.Helper()
	root, err := parseJV([]byte(c.json))
	if err != nil {
		t.Fatalf("%s: parse JSON: %v", c.name, err)
	}
	r := &Result{
		Time:      time.UnixMilli(int64(root.u("timestamp_ms"))).In(time.UTC),
		ElapsedMS: 0,
	}
	if g := root.get("global options"); g != nil {
		r.GlobalOptions = options(g)
	}
	ts := titles(c.normal)
	tn := 0
	maxGroup := -1
	for _, jo := range root.get("jobs").vals {
		j := rebuildJob(t, jo, r.GlobalOptions)
		r.ElapsedMS = jo.u("elapsed") * 1000
		rep := newJobRep(&j)
		if rep.didIO() {
			if tn >= len(ts) {
				t.Fatalf("%s: more reported jobs than title lines", c.name)
			}
			j.Stats.Members = ts[tn].members
			j.Pid = ts[tn].pid
			j.ErrorText = ts[tn].errText
			j.FirstErrorText = ts[tn].firstErrText
			tn++
		}
		r.Jobs = append(r.Jobs, j)
		maxGroup = max(maxGroup, j.GroupID)
	}
	for g := 0; g <= maxGroup; g++ {
		grp := Group{ID: g}
		for _, j := range r.Jobs {
			if j.GroupID == g {
				grp.KBBase, grp.UnitBase, grp.SigFigs, grp.Unified = j.KBBase, j.UnitBase, j.SigFigs, j.Unified
				break
			}
		}
		r.Groups = append(r.Groups, grp)
	}
	if du := root.get("disk_util"); du != nil {
		for _, d := range du.vals {
			disk := Disk{
				Name:    d.get("name").str,
				ReadIOs: d.u("read_ios"), WriteIOs: d.u("write_ios"),
				ReadMerges: d.u("read_merges"), WriteMerges: d.u("write_merges"),
				ReadTicks: d.u("read_ticks"), WriteTicks: d.u("write_ticks"),
				InQueue: d.u("in_queue"), Util: d.f("util"),
			}
			if d.get("aggr_read_ios") != nil {
				disk.Slaves = &DiskAggregate{
					ReadIOs: d.u("aggr_read_ios"), WriteIOs: d.u("aggr_write_ios"),
					ReadMerges: d.u("aggr_read_merges"), WriteMerges: d.u("aggr_write_merge"),
					ReadTicks: d.u("aggr_read_ticks"), WriteTicks: d.u("aggr_write_ticks"),
					InQueue: d.u("aggr_in_queue"), Util: d.f("aggr_util"),
				}
			}
			r.Disks = append(r.Disks, disk)
		}
	}
	return r
}

func options(o *jv) []Option {
	out := []Option{}
	for n, k := range o.keys {
		out = append(out, Option{k, o.vals[n].str})
	}
	return out
}

func rebuildJob(t *testing.T, jo *jv, global []Option) Job {
	t.Helper()
	j := Job{
		GroupID:           int(int32(uint32(jo.u("groupid")))),
		Error:             int(jo.u("error")),
		LatencyTarget:     jo.u("latency_target"),
		LatencyWindow:     jo.u("latency_window"),
		LatencyPercentile: jo.f("latency_percentile"),
		Depth:             int(jo.u("latency_depth")),
	}
	if n := jo.get("jobname"); n != nil {
		j.Name = n.str
	}
	if d := jo.get("desc"); d != nil {
		j.Description = d.str
	}
	if o := jo.get("job options"); o != nil {
		j.Options = options(o)
	}
	opt := func(name string) string {
		for _, list := range [][]Option{j.Options, global} {
			for k := len(list) - 1; k >= 0; k-- {
				if list[k].Name == name {
					return list[k].Value
				}
			}
		}
		return ""
	}
	j.KBBase = 1024
	if opt("kb_base") == "1000" {
		j.KBBase = 1000
	}
	j.UnitBase, _ = strconv.Atoi(opt("unit_base"))
	j.SigFigs = 4
	if s := opt("significant_figures"); s != "" {
		j.SigFigs, _ = strconv.Atoi(s)
	}
	if pl := opt("percentile_list"); pl != "" {
		for _, s := range strings.Split(pl, ":") {
			p, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			j.Percentiles = append(j.Percentiles, p)
			if _, frac, ok := strings.Cut(s, "."); ok {
				j.PercentilePrecision = max(j.PercentilePrecision, len(frac))
			}
		}
	}
	gtod := opt("gtod_reduce") == "1"
	j.ClatPercentiles = !gtod && opt("disable_clat") != "1" && opt("clat_percentiles") != "0"
	j.LatPercentiles = !gtod && opt("disable_lat") != "1" && opt("lat_percentiles") == "1"
	j.SlatPercentiles = !gtod && opt("disable_slat") != "1" && opt("slat_percentiles") == "1"
	if te := jo.get("total_err"); te != nil {
		j.ErrorCheck = true
		j.TotalErrors = jo.u("total_err")
		j.FirstError = int(jo.u("first_error"))
	}

	if ss := jo.get("steadystate"); ss != nil {
		j.Steady = rebuildSteady(t, ss)
	}

	s := &j.Stats
	s.Members = 1
	switch {
	case jo.get("mixed") != nil && jo.get("read") == nil:
		j.Unified = unifiedMixed
		rebuildDir(&s.Dir[0], jo.get("mixed"))
	default:
		if jo.get("mixed") != nil {
			j.Unified = unifiedBoth
		}
		for d, name := range dirLabels {
			rebuildDir(&s.Dir[d], jo.get(name))
		}
		sy := jo.get("sync")
		s.SyncIOs = sy.u("total_ios")
		s.Sync, s.SyncHist = rebuildLat(sy.get("lat_ns"))
	}
	s.RuntimeMS = jo.u("job_runtime")
	s.UsrMS = cpuMS(t, jo, "usr_cpu", s.RuntimeMS)
	s.SysMS = cpuMS(t, jo, "sys_cpu", s.RuntimeMS)
	s.Ctx, s.Majf, s.Minf = jo.u("ctx"), jo.u("majf"), jo.u("minf")

	total := s.Dir[0].TotalIOs + s.Dir[1].TotalIOs + s.Dir[2].TotalIOs
	const calls = 100000000
	s.Submits, s.Completes = calls, calls
	countsFor(t, jo.get("iodepth_level"), s.IODepth[:], total, depthFloor)
	countsFor(t, jo.get("iodepth_submit"), s.Submit[:], calls, depthFloor)
	countsFor(t, jo.get("iodepth_complete"), s.Complete[:], calls, depthFloor)
	countsFor(t, jo.get("latency_ns"), s.LatNsec[:], total, latFloor)
	countsFor(t, jo.get("latency_us"), s.LatUsec[:], total, latFloor)
	countsFor(t, jo.get("latency_ms"), s.LatMsec[:], total, latFloor)
	return j
}

func rebuildSteady(t *testing.T, o *jv) *SteadyState {
	t.Helper()
	ss := &SteadyState{
		DurationS:    o.u("duration"),
		Attained:     o.u("attained") == 1,
		MaxDeviation: o.f("max_deviation"),
		SlopeValue:   o.f("slope"),
	}
	metric, limit, _ := strings.Cut(o.get("ss").str, ":")
	ss.IOPS = strings.HasPrefix(metric, "iops")
	ss.Slope = strings.HasSuffix(metric, "_slope")
	limit, ss.Pct = strings.CutSuffix(limit, "%")
	l, err := strconv.ParseFloat(limit, 32)
	if err != nil {
		t.Fatal(err)
	}
	ss.Limit = float32(l)
	crit := strings.TrimSuffix(o.get("criterion").str, "%")
	c, err := strconv.ParseFloat(crit, 32)
	if err != nil {
		c = special(crit)
	}
	ss.Criterion = float32(c)
	data := o.get("data")
	ss.BWMean, ss.IOPSMean = data.u("bw_mean"), data.u("iops_mean")
	for _, e := range data.get("iops").vals {
		n, _ := strconv.ParseUint(string(e.num), 10, 64)
		ss.IOPSData = append(ss.IOPSData, n)
	}
	for _, e := range data.get("bw").vals {
		n, _ := strconv.ParseUint(string(e.num), 10, 64)
		ss.BWData = append(ss.BWData, n)
	}
	return ss
}

func rebuildDir(d *stats.DirStats, o *jv) {
	d.IOBytes = o.u("io_bytes")
	d.TotalIOs = o.u("total_ios")
	d.ShortIOs = o.u("short_ios")
	d.DropIOs = o.u("drop_ios")
	d.RuntimeUS = o.u("runtime") * 1000
	d.Slat, d.SlatHist = rebuildLat(o.get("slat_ns"))
	d.Clat, d.ClatHist = rebuildLat(o.get("clat_ns"))
	d.Lat, d.LatHist = rebuildLat(o.get("lat_ns"))
	d.BW = accum(o.u("bw_min"), o.u("bw_max"), o.u("bw_samples"), o.f("bw_mean"), o.f("bw_dev"))
	d.IOPS = accum(o.u("iops_min"), o.u("iops_max"), o.u("iops_samples"), o.f("iops_mean"), o.f("iops_stddev"))
}

func accum(lo, hi, n uint64, mean, dev float64) stats.Accum {
	a := stats.Accum{Min: lo, Max: hi, N: n, Mean: mean}
	if n > 1 {
		a.S = dev * dev * float64(n-1)
	}
	return a
}

func rebuildLat(o *jv) (stats.Accum, stats.Hist) {
	a := accum(o.u("min"), o.u("max"), o.u("N"), o.f("mean"), o.f("stddev"))
	var h stats.Hist
	if bins := o.get("bins"); bins != nil {
		for n, k := range bins.keys {
			v, _ := strconv.ParseUint(k, 10, 64)
			c, _ := strconv.ParseUint(string(bins.vals[n].num), 10, 64)
			h[stats.HistIndex(v)] += c
		}
	}
	return a, h
}

// cpuMS finds the CPU milliseconds that print as the captured
// percentage over runtime ms.
func cpuMS(t *testing.T, jo *jv, key string, runtime uint64) uint64 {
	t.Helper()
	want := jo.text(key)
	if runtime == 0 {
		return 0
	}
	guess := uint64(math.Round(jo.f(key) * float64(runtime) / 100))
	for _, c := range []uint64{guess, guess - 1, guess + 1} {
		if fmtF(float64(c)*100/float64(runtime), 6) == want {
			return c
		}
	}
	t.Fatalf("no CPU time gives %s=%s over %d ms", key, want, runtime)
	return 0
}

// countsFor fills dst with counts whose percentages of total (with the
// floor) print as the captured map o. A floored entry gets the smallest
// count that prints the same, 1 where possible.
func countsFor(t *testing.T, o *jv, dst []uint64, total uint64, floor float64) {
	t.Helper()
	for k := range o.keys {
		want := string(o.vals[k].num)
		p, _ := strconv.ParseFloat(want, 64)
		if p == 0 {
			dst[k] = 0
			continue
		}
		guess := uint64(math.Round(p * float64(total) / 100))
		cands := []uint64{1, guess, guess - 1, guess + 1}
		if p != floor {
			cands = cands[1:]
		}
		found := false
		for _, c := range cands {
			if c > 0 && fmtF(distPct(c, total, floor), 6) == want {
				dst[k], found = c, true
				break
			}
		}
		if !found {
			t.Fatalf("no count gives %s over %d", want, total)
		}
	}
}

// diffText describes the first lines where got differs from want.
func diffText(want, got string) string {
	if want == got {
		return ""
	}
	wl := strings.Split(want, "\n")
	gl := strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for n := 0; n < max(len(wl), len(gl)) && shown < 8; n++ {
		var w, g string
		if n < len(wl) {
			w = wl[n]
		}
		if n < len(gl) {
			g = gl[n]
		}
		if w != g || n >= len(wl) || n >= len(gl) {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", n+1, w, g)
			shown++
		}
	}
	if len(wl) != len(gl) {
		fmt.Fprintf(&b, "want %d lines, got %d\n", len(wl), len(gl))
	}
	return b.String()
}
