package stats

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestExactFromLatencyLogs feeds the per-I/O latencies of one real fio
// 3.33 run (testdata/capture.sh: write_lat_log with log_avg_msec=0) into
// Hist and Accum, in completion order, and checks them against the JSON+
// report of the same run: every percentile and every bins entry must be
// equal, min, max and N equal, mean and stddev equal to all six printed
// decimals. Group g checks the group_reporting merge (Pool and Merge of
// its three clones, in job order).
func TestExactFromLatencyLogs(t *testing.T) {
	doc := loadJSON(t, filepath.Join("testdata", "lat.json"))
	list := EffectiveList(parseList(t, "0.1:1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99:100"))
	records := []struct {
		name string
		logs []int // job numbers of the logs (lat_KIND.N.log)
	}{
		{"r", []int{1}},       // 1000 reads: p0.1 is the 2nd sample, p99.9 the 1000th
		{"w", []int{2}},       // 2000 writes: p99.95 is the 2000th sample
		{"g", []int{3, 4, 5}}, // three clones merged by group_reporting
	}
	jobs := doc["jobs"].([]any)
	if len(jobs) != len(records) {
		t.Fatalf("lat.json has %d jobs; want %d", len(jobs), len(records))
	}
	for k, rec := range records {
		job := jobs[k].(map[string]any)
		if job["jobname"] != rec.name {
			t.Fatalf("jobs[%d] is %v; want %s", k, job["jobname"], rec.name)
		}
		for _, kind := range []string{"slat", "clat", "lat"} {
			var acc [NDirs]Accum
			var hist [NDirs]Hist
			for _, n := range rec.logs {
				var a [NDirs]Accum
				for _, s := range readLatLog(t, fmt.Sprintf("lat_%s.%d.log", kind, n)) {
					a[s.dir].Add(s.ns)
					hist[s.dir].Add(s.ns)
				}
				for d := range acc {
					acc[d].Pool(&a[d])
				}
			}
			for d, dn := range []string{"read", "write"} {
				where := fmt.Sprintf("%s/%s/%s_ns", rec.name, dn, kind)
				got := job[dn].(map[string]any)[kind+"_ns"].(map[string]any)
				checkLatency(t, where, got, &acc[d], &hist[d], list)
			}
		}
	}
}

// checkLatency compares one JSON+ latency object with what gofio computes
// from the same samples.
func checkLatency(t *testing.T, where string, got map[string]any, a *Accum, h *Hist, list []float64) {
	t.Helper()
	num := func(k string) string { return string(got[k].(json.Number)) }
	for _, c := range []struct{ key, want string }{
		{"N", strconv.FormatUint(a.N, 10)},
		{"min", strconv.FormatUint(a.Min*boolU(a.N > 0), 10)},
		{"max", strconv.FormatUint(a.Max, 10)},
		{"mean", strconv.FormatFloat(a.Mean, 'f', 6, 64)},
		{"stddev", strconv.FormatFloat(a.Stddev(), 'f', 6, 64)},
	} {
		if g := num(c.key); g != c.want {
			t.Errorf("%s %s: fio %s, gofio %s", where, c.key, g, c.want)
		}
	}
	pct, ok := got["percentile"].(map[string]any)
	if a.N == 0 {
		if ok {
			t.Errorf("%s: fio has percentiles without samples", where)
		}
		return
	}
	if !ok {
		t.Fatalf("%s: fio printed no percentiles", where)
	}
	vals := Percentiles(h, a.N, list)
	if len(pct) != len(list) {
		t.Errorf("%s: fio has %d percentiles; want %d", where, len(pct), len(list))
	}
	for k, p := range list {
		key := strconv.FormatFloat(p, 'f', 6, 64)
		want := strconv.FormatUint(vals[k], 10)
		if g, ok := pct[key].(json.Number); !ok || string(g) != want {
			t.Errorf("%s percentile %s: fio %v, gofio %s", where, key, pct[key], want)
		}
	}
	bins := got["bins"].(map[string]any)
	ours := map[string]string{}
	for i, c := range h {
		if c != 0 {
			ours[strconv.FormatUint(HistValue(i), 10)] = strconv.FormatUint(c, 10)
		}
	}
	if len(bins) != len(ours) {
		t.Errorf("%s: fio has %d bins, gofio %d", where, len(bins), len(ours))
	}
	for k, v := range bins {
		if ours[k] != string(v.(json.Number)) {
			t.Errorf("%s bin %s: fio %v, gofio %q", where, k, v, ours[k])
		}
	}
}

func boolU(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// latSample is one line of a fio latency log.
type latSample struct {
	ns  uint64
	dir Dir
}

// readLatLog reads testdata/name: "time ms, value ns, direction, block
// size, priority" per line.
func readLatLog(t *testing.T, name string) []latSample {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []latSample
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		f := strings.Split(sc.Text(), ", ")
		if len(f) < 3 {
			t.Fatalf("%s:%d: %q has fewer than 3 fields", name, line, sc.Text())
		}
		ns, err1 := strconv.ParseUint(f[1], 10, 64)
		d, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || d < 0 || d >= NDirs {
			t.Fatalf("%s:%d: bad line %q", name, line, sc.Text())
		}
		out = append(out, latSample{ns, Dir(d)})
	}
	return out
}

func loadJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc
}

func parseList(t *testing.T, s string) []float64 {
	t.Helper()
	var out []float64
	for _, f := range strings.Split(s, ":") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}
