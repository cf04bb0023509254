package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gofio/gofio/results"
)

func TestTakeReportArgs(t *testing.T) {
	for _, tc := range []struct {
		args, rest []string
		want       reportOpts
		err        string
	}{
		{args: []string{"--html=r.html", "--name=a", "--interval-json=i.jsonl"}, rest: []string{"--name=a"}, want: reportOpts{html: "r.html", intervalJSON: "i.jsonl"}},
		{args: []string{"--report=r.json", "--html=r.html", "a_bw.1.log"}, rest: []string{"a_bw.1.log"}, want: reportOpts{html: "r.html", from: "r.json"}},
		// The value of the option before it: fio's getopt takes it so.
		{args: []string{"--output", "--html=x"}, rest: []string{"--output", "--html=x"}},
		{args: []string{"--bs", "--html=x"}, rest: []string{"--bs", "--html=x"}},
		// Abbreviations and the spellings without '=' stay fio's.
		{args: []string{"--htm=x", "--html", "x"}, rest: []string{"--htm=x", "--html", "x"}},
		{args: []string{"--", "--html=x"}, rest: []string{"--", "--html=x"}},
		{args: []string{"--html="}, err: "--html needs a file name"},
	} {
		rest, ro, err := takeReportArgs(tc.args)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(rest, tc.rest) || ro != tc.want {
			t.Errorf("%q: %q %+v %v; want %q %+v", tc.args, rest, ro, err, tc.rest, tc.want)
		}
	}
}

func TestReportOptionsHelp(t *testing.T) {
	_, out, _ := gofio(t, "--help")
	for _, o := range []string{"--html=file", "--interval-json=file", "--report=result.json"} {
		if !strings.Contains(out, "  "+o) {
			t.Errorf("--help does not show %s", o)
		}
	}
	for _, o := range []string{"html", "interval-json", "report"} {
		st, out, errs := gofio(t, "--cmdhelp="+o)
		if st != 0 || !strings.HasPrefix(out, strings.Repeat(" ", 20-len(o))+o+": ") || errs != "" {
			t.Errorf("--cmdhelp=%s: %d %q %q", o, st, out, errs)
		}
	}
	if _, out, _ := gofio(t, "--cmdhelp=all"); strings.Contains(out, "interval-json") {
		t.Errorf("--cmdhelp=all lists gofio's report options: its output must stay fio's")
	}
}

func TestReportModeErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--report=x.json"}, "--report needs --html=FILE"},
		{[]string{"--report=" + filepath.Join(dir, "none.json"), "--html=" + filepath.Join(dir, "r.html")}, "no such file"},
		{[]string{"--report=x.json", "--html=r.html", "--bs=4k"}, "--report takes only"},
		{[]string{"--report=x.json", "--html=r.html", "--interval-json=i"}, "--interval-json is written during a run"},
		{[]string{"--html=", "--name=a"}, "--html needs a file name"},
		{[]string{"--html=r.html", "--client=localhost", "job.fio"}, "local runs only"},
		{[]string{"--name=a", "--ioengine=null", "--size=4k", "--interval-json=" + filepath.Join(dir, "no", "such", "dir")}, "--interval-json"},
	} {
		st, _, errs := gofio(t, tc.args...)
		if st == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: status %d, stderr %q; want nonzero and %q", tc.args, st, errs, tc.want)
		}
	}
}

// TestIntervalJSON runs two clones for 5 s with --status-interval=1: each
// writes 5 lines, one per second (a tick late by up to half an interval
// is tolerated: the last interval of a job is its final report's), and
// the intervals' io_bytes add up to the final report's.
func TestIntervalJSON(t *testing.T) {
	dir := t.TempDir()
	lines, final := filepath.Join(dir, "iv.jsonl"), filepath.Join(dir, "final.json")
	st, _, errs := gofio(t, "--name=a", "--ioengine=null", "--size=1g", "--bs=4k", "--rw=randrw", "--time_based", "--runtime=5s",
		"--rate_iops=500", "--numjobs=2", "--status-interval=1", "--interval-json="+lines, "--output-format=json+", "--output="+final)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	doc, err := results.ReadFile(final)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(lines)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type dirJSON struct {
		IOBytes uint64 `json:"io_bytes"`
		Clat    struct {
			Percentile map[string]uint64 `json:"percentile"`
		} `json:"clat_ns"`
	}
	count := map[int]int{}
	sum := map[int][2]uint64{}
	last := map[int]uint64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Name   string  `json:"jobname"`
			Index  int     `json:"job_index"`
			TimeMS uint64  `json:"time_ms"`
			Read   dirJSON `json:"read"`
			Write  dirJSON `json:"write"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Name != "a" {
			t.Fatalf("line %q: %v (want one JSON object of job a per line)", sc.Text(), err)
		}
		if l.TimeMS <= last[l.Index] {
			t.Errorf("job %d: time_ms %d after %d", l.Index, l.TimeMS, last[l.Index])
		}
		if l.Read.IOBytes > 0 && l.Read.Clat.Percentile["50.000000"] == 0 {
			t.Errorf("job %d at %d ms: no clat percentiles", l.Index, l.TimeMS)
		}
		last[l.Index] = l.TimeMS
		count[l.Index]++
		s := sum[l.Index]
		s[0] += l.Read.IOBytes
		s[1] += l.Write.IOBytes
		sum[l.Index] = s
	}
	if len(doc.Jobs) != 2 || len(count) != 2 {
		t.Fatalf("%d jobs in the report, %d in the interval file; want 2", len(doc.Jobs), len(count))
	}
	for i, j := range doc.Jobs {
		if count[i] != 5 {
			t.Errorf("job %d: %d lines, want 5", i, count[i])
		}
		want := [2]uint64{j.Report.Stats.Dir[0].IOBytes, j.Report.Stats.Dir[1].IOBytes}
		if sum[i] != want {
			t.Errorf("job %d: intervals' io_bytes read+write %v, final report %v", i, sum[i], want)
		}
		if last[i] != j.Report.Stats.RuntimeMS {
			t.Errorf("job %d: last time_ms %d, job_runtime %d", i, last[i], j.Report.Stats.RuntimeMS)
		}
	}
}

// TestIntervalJSONRampGroup checks that the I/O of ramp_time, which the
// final report leaves out, is in no interval either, and that a group of
// jobs under group_reporting writes one line per interval (its time is
// its members' mean run time, not their sum).
func TestIntervalJSONRampGroup(t *testing.T) {
	for _, tc := range []struct {
		opts  []string
		lines int // 0: not checked
	}{
		{[]string{"--ramp_time=1s"}, 0},
		{[]string{"--numjobs=3", "--group_reporting"}, 2},
	} {
		t.Run(strings.Join(tc.opts, " "), func(t *testing.T) { intervalSum(t, tc.opts, tc.lines) })
	}
}

func intervalSum(t *testing.T, opts []string, wantLines int) {
	dir := t.TempDir()
	lines, final := filepath.Join(dir, "iv.jsonl"), filepath.Join(dir, "final.json")
	st, _, errs := gofio(t, append([]string{"--name=a", "--ioengine=null", "--size=1g", "--bs=4k", "--rw=read", "--time_based", "--runtime=2s",
		"--rate_iops=500", "--interval-json=" + lines, "--output-format=json", "--output=" + final}, opts...)...)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	doc, err := results.ReadFile(final)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(lines)
	if err != nil {
		t.Fatal(err)
	}
	var sum uint64
	ls := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if wantLines > 0 && len(ls) != wantLines {
		t.Errorf("%d lines, want %d", len(ls), wantLines)
	}
	for _, l := range ls {
		var v struct {
			Read struct {
				IOBytes uint64 `json:"io_bytes"`
			} `json:"read"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		sum += v.Read.IOBytes
	}
	if want := doc.Jobs[0].Report.Stats.Dir[0].IOBytes; sum != want {
		t.Errorf("intervals' io_bytes %d, final report %d", sum, want)
	}
}
