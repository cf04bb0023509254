package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gofio/gofio/results"
)

var update = flag.Bool("update", false, "rewrite the golden files of the report tests")

// fioRun is the report of the fixture: fio 3.33's json+ result and logs
// (testdata/capture.sh).
func fioRun(t *testing.T) *Run {
	t.Helper()
	doc, err := results.ReadFile("testdata/fio-randrw.json")
	if err != nil {
		t.Fatal(err)
	}
	run := FromDocument(doc)
	logs, _ := filepath.Glob("testdata/randrw_*.log")
	s, err := ReadLogs(logs, JobNames(run.Result))
	if err != nil {
		t.Fatal(err)
	}
	run.Series = s
	return run
}

var svgElem = regexp.MustCompile(`(?s)<svg .*?</svg>\n`)

// TestGoldenSVG pins the charts of a fixed result (go test -update
// rewrites testdata/golden.svg.txt).
func TestGoldenSVG(t *testing.T) {
	var page bytes.Buffer
	if err := WriteHTML(&page, fioRun(t)); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(svgElem.FindAllString(page.String(), -1), "")
	const golden = "testdata/golden.svg.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("charts differ from %s at line %d:\n got %s\nwant %s", golden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("charts differ from %s: %d lines, want %d", golden, len(gl), len(wl))
	}
}

// TestEveryChart checks that the page has each chart for each direction
// of the job, and the job's.
func TestEveryChart(t *testing.T) {
	var page bytes.Buffer
	if err := WriteHTML(&page, fioRun(t)); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"read", "write"} {
		for _, c := range DirCharts {
			if !strings.Contains(page.String(), `data-chart="`+c+`" data-job="randrw" data-dir="`+dir+`"`) {
				t.Errorf("no %s chart for randrw %s", c, dir)
			}
		}
	}
	for _, c := range JobCharts {
		if !strings.Contains(page.String(), `data-chart="`+c+`" data-job="randrw"`) {
			t.Errorf("no %s chart for randrw", c)
		}
	}
	if strings.Contains(page.String(), "data-missing") {
		t.Errorf("the page says data are missing")
	}
	for _, bad := range []string{"<script", "<link", "https:", "url("} {
		if strings.Contains(page.String(), bad) {
			t.Errorf("the page has %q: it must stand alone", bad)
		}
	}
}

// TestLogSeries checks the series read from fio's logs: the job ran at
// rate_iops=400 per direction, logged in 500 ms windows and gathered
// into 1 s intervals.
func TestLogSeries(t *testing.T) {
	run := fioRun(t)
	s := run.Series[0]
	if s == nil {
		t.Fatal("no series for job 0")
	}
	for d, dir := range []string{"read", "write"} {
		pts := s.Dir[d]
		if len(pts) < 2 || len(pts) > 4 {
			t.Fatalf("%s: %d points, want 2 to 4 (a 3 s run in 1 s intervals)", dir, len(pts))
		}
		for _, p := range pts {
			if !p.HasRate || p.IOPS < 360 || p.IOPS > 440 || p.BW < 360*4096 || p.BW > 440*4096 {
				t.Errorf("%s at %g ms: IOPS %g, bw %g B/s, want 400±10%% and 400×4 KiB/s", dir, p.TimeMS, p.IOPS, p.BW)
			}
			if !p.HasLat || p.Lat[0] == 0 || p.Lat[0] > p.Lat[1] || p.Lat[1] > p.Lat[2] {
				t.Errorf("%s at %g ms: percentiles %v, want 0 < p50 ≤ p99 ≤ p99.9", dir, p.TimeMS, p.Lat)
			}
		}
	}
}

func TestReadLogsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, text, want string }{
		{"x.txt", "", "not a fio log name"},
		{"j_bw.1.log", "1, 2\n", "not a log line"},
		{"j_bw.1.log", "1, x, 0, 0\n", "not a number"},
		{"other_bw.1.log", "1000, 2, 0, 0\n", `no job named "other"`},
		{"j_clat_hist.1.log", "1000, 0, 4096, 1, 2, 3\n", "histogram buckets"},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadLogs([]string{p}, []string{"j", "k"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: error %v, want one with %q", tc.name, tc.text, err, tc.want)
		}
	}
}

// TestPlainJSONSaysWhy checks that a result without histogram bins
// (plain JSON) and without logs gets notes in place of the charts it
// cannot draw.
func TestPlainJSONSaysWhy(t *testing.T) {
	run := fioRun(t)
	run.Series = nil
	for i := range run.Result.Jobs {
		for d := range run.Result.Jobs[i].Stats.Dir {
			ds := &run.Result.Jobs[i].Stats.Dir[d]
			clear(ds.ClatHist[:])
			clear(ds.LatHist[:])
		}
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, run); err != nil {
		t.Fatal(err)
	}
	for _, c := range DirCharts {
		if n := strings.Count(page.String(), `data-missing="`+c+`"`); n != 2 {
			t.Errorf("%d notes for the missing %s charts, want 2 (read, write)", n, c)
		}
		if strings.Contains(page.String(), `data-chart="`+c+`"`) {
			t.Errorf("a %s chart without data", c)
		}
	}
}
