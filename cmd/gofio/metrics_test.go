package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gofio/gofio/output"
)

// scrape reads the endpoint at addr into a map of sample to value.
func scrape(addr string) (map[string]float64, error) {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != metricsContentType {
		return nil, fmt.Errorf("Content-Type %q", ct)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(string(body), "# EOF\n") {
		return nil, fmt.Errorf("no # EOF at the end:\n%s", body)
	}
	m := map[string]float64{}
	for _, l := range strings.Split(string(body), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		i := strings.LastIndexByte(l, ' ')
		v, err := strconv.ParseFloat(l[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", l, err)
		}
		m[l[:i]] = v
	}
	return m, nil
}

// TestMetricsEndpoint scrapes --metrics while a 2 s job runs, then once
// the run is over (before the endpoint stops): the live counters are
// under way, the last scrape's equal the final JSON report's, and the
// endpoint is gone once the run has returned.
func TestMetricsEndpoint(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.dat")
	if err := os.WriteFile(file, make([]byte, 256<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	var (
		addr       string
		live       map[string]float64
		final      map[string]float64
		liveErr    error
		finalErr   error
		stopLive   = make(chan struct{})
		liveDone   = make(chan struct{})
		once       sync.Once
		liveSample = `gofio_io_total{job="m",jobid="0",dir="read"}`
	)
	metricsHook = func(a string, last bool) {
		addr = a
		if !last {
			go func() {
				defer close(liveDone)
				for {
					select {
					case <-stopLive:
						return
					default:
					}
					m, err := scrape(a)
					if err != nil {
						liveErr = err
						return
					}
					if m[liveSample] > 0 {
						live = m
						return
					}
				}
			}()
			return
		}
		once.Do(func() { close(stopLive) })
		<-liveDone
		final, finalErr = scrape(a)
	}
	defer func() { metricsHook = nil }()

	var out, errb bytes.Buffer
	code := run([]string{"--metrics=127.0.0.1:0", "--output-format=json", "--name=m", "--filename=" + file, "--rw=randrw",
		"--bs=4k", "--size=256k", "--time_based", "--runtime=2"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if liveErr != nil || finalErr != nil {
		t.Fatalf("scrape: live %v, final %v", liveErr, finalErr)
	}
	if live == nil {
		t.Fatal("no scrape during the run showed I/O")
	}
	var doc struct {
		Jobs []map[string]json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("JSON report: %v (%d jobs)", err, len(doc.Jobs))
	}
	for _, d := range []string{"read", "write"} {
		var st struct {
			IOBytes  float64 `json:"io_bytes"`
			TotalIOs float64 `json:"total_ios"`
			Clat     struct {
				N float64 `json:"N"`
			} `json:"clat_ns"`
		}
		if err := json.Unmarshal(doc.Jobs[0][d], &st); err != nil {
			t.Fatal(err)
		}
		l := fmt.Sprintf(`{job="m",jobid="0",dir="%s"}`, d)
		got := [3]float64{final["gofio_io_total"+l], final["gofio_io_bytes_total"+l], final["gofio_clat_seconds_count"+l]}
		want := [3]float64{st.TotalIOs, st.IOBytes, st.Clat.N}
		if got != want || want[0] == 0 {
			t.Errorf("%s: final scrape (ios, bytes, clat count) %v, report %v", d, got, want)
		}
		inf := final[fmt.Sprintf(`gofio_clat_seconds_bucket{job="m",jobid="0",dir="%s",le="+Inf"}`, d)]
		if inf != st.Clat.N {
			t.Errorf("%s: +Inf bucket %v, want %v", d, inf, st.Clat.N)
		}
		if lv := live["gofio_io_total"+l]; lv > want[0] {
			t.Errorf("%s: live scrape %v I/Os, more than the final %v", d, lv, want[0])
		}
	}
	if _, err := http.Get("http://" + addr + "/metrics"); err == nil {
		t.Error("the endpoint still answers after the run")
	}
}

// TestMetricsBuckets: fio's histogram bins fold into the decade buckets,
// cumulated, and the label values are escaped.
func TestMetricsBuckets(t *testing.T) {
	r := &output.Result{Jobs: []output.Job{{Name: `a"b\c`, ClatPercentiles: true}}}
	st := &r.Jobs[0].Stats.Dir[0]
	for _, ns := range []uint64{5e3, 50e3, 50e3, 500e3, 5e6, 50e6, 500e6, 5e9} {
		st.ClatHist.Add(ns)
		st.Clat.Add(ns)
		st.TotalIOs++
	}
	var b bytes.Buffer
	if err := writeMetrics(&b, r); err != nil {
		t.Fatal(err)
	}
	l := `job="a\"b\\c",jobid="0",dir="read"`
	for _, want := range []string{
		`gofio_io_total{` + l + `} 8`,
		`gofio_clat_seconds_bucket{` + l + `,le="1e-05"} 1`,
		`gofio_clat_seconds_bucket{` + l + `,le="0.0001"} 3`,
		`gofio_clat_seconds_bucket{` + l + `,le="0.001"} 4`,
		`gofio_clat_seconds_bucket{` + l + `,le="0.01"} 5`,
		`gofio_clat_seconds_bucket{` + l + `,le="0.1"} 6`,
		`gofio_clat_seconds_bucket{` + l + `,le="1"} 7`,
		`gofio_clat_seconds_bucket{` + l + `,le="+Inf"} 8`,
		`gofio_clat_seconds_count{` + l + `} 8`,
	} {
		if !strings.Contains(b.String(), want+"\n") {
			t.Errorf("missing %s in\n%s", want, b.String())
		}
	}
	// Before the jobs start: the families, no samples.
	b.Reset()
	writeMetrics(&b, nil)
	if strings.Contains(b.String(), "{") || !strings.HasSuffix(b.String(), "# EOF\n") {
		t.Errorf("before the start:\n%s", b.String())
	}
}
