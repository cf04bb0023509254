package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gofio/gofio/results"
	"github.com/gofio/gofio/stats"
)

// replayHalves writes a 4 MiB file and a random-read trace of it (gofio's
// write_iolog), and splits the trace into two halves that each open the
// file and replay half of the reads. It returns the halves' paths.
func replayHalves(t *testing.T, dir string) [2]string {
	t.Helper()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "whole.iolog")
	if st, _, errs := gofio(t, "--name=whole", "--filename="+data, "--size=4m", "--bs=4k", "--rw=randread",
		"--ioengine=psync", "--write_iolog="+trace, "--output-format=json", "--output="+filepath.Join(dir, "whole.json")); st != 0 {
		t.Fatalf("writing the trace: status %d: %s", st, errs)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var head, ios, tail []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 3 && (f[2] == "read" || f[2] == "write"):
			ios = append(ios, l)
		case len(f) >= 3 && f[2] == "close":
			tail = append(tail, l)
		default:
			head = append(head, l)
		}
	}
	if len(ios) != 1024 {
		t.Fatalf("the trace has %d I/Os, want 1024", len(ios))
	}
	var out [2]string
	for k, part := range [][]string{ios[:512], ios[512:]} {
		out[k] = filepath.Join(dir, fmt.Sprintf("half%d.iolog", k+1))
		lines := append(append(append([]string{}, head...), part...), tail...)
		if err := os.WriteFile(out[k], []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// clatLog reads the completion latencies of a per-I/O latency log.
func clatLog(t *testing.T, path string) []uint64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []uint64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), ",")
		v, err := strconv.ParseUint(strings.TrimSpace(fs[1]), 10, 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", path, sc.Text(), err)
		}
		out = append(out, v)
	}
	return out
}

// TestMergeReplayedHalves replays the two halves of one trace with real
// fio and with gofio, each with --output-format=json+ and a per-I/O
// completion latency log, and merges the halves' JSON+ with --merge. The
// merged document must hold the statistics of all the trace's I/Os: its
// histogram, percentiles, N, min and max exactly those of the latencies
// the two runs logged I/O by I/O, its mean and standard deviation those
// of the same latencies to the printed precision. Each half's own bins
// are first checked against its log, so the logs are the runs' data.
func TestMergeReplayedHalves(t *testing.T) {
	fio := fioBinary(t)
	dir := t.TempDir()
	halves := replayHalves(t, dir)
	for _, prog := range []string{"fio", "gofio"} {
		t.Run(prog, func(t *testing.T) {
			var docs []string
			var all []uint64
			for k, h := range halves {
				prefix := filepath.Join(dir, fmt.Sprintf("%s-half%d", prog, k+1))
				args := []string{"--name=replay", "--ioengine=psync", "--read_iolog=" + h, "--replay_no_stall=1",
					"--write_lat_log=" + prefix, "--output-format=json+", "--output=" + prefix + ".json"}
				if prog == "fio" {
					if out, err := exec.Command(fio, args...).CombinedOutput(); err != nil {
						t.Fatalf("fio %q: %v\n%s", args, err, out)
					}
				} else if st, _, errs := gofio(t, args...); st != 0 {
					t.Fatalf("gofio %q: status %d: %s", args, st, errs)
				}
				lats := clatLog(t, prefix+"_clat.1.log")
				half, err := results.ReadFile(prefix + ".json")
				if err != nil {
					t.Fatal(err)
				}
				var h stats.Hist
				for _, v := range lats {
					h.Add(v)
				}
				if got := half.Jobs[0].Report.Stats.Dir[stats.Read].ClatHist; got != h || len(lats) != 512 {
					t.Fatalf("%s: the JSON+ bins are not the histogram of its %d logged latencies", prefix, len(lats))
				}
				all = append(all, lats...)
				docs = append(docs, prefix+".json")
			}
			merged := filepath.Join(dir, prog+"-merged.json")
			if st, _, errs := gofio(t, "--merge="+strings.Join(docs, ","), "--output="+merged); st != 0 {
				t.Fatalf("--merge: status %d: %s", st, errs)
			}
			d, err := results.ReadFile(merged)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Jobs) != 1 {
				t.Fatalf("merged document has %d jobs, want 1", len(d.Jobs))
			}
			var h stats.Hist
			var a stats.Accum
			for _, v := range all {
				h.Add(v)
				a.Add(v)
			}
			got := d.Jobs[0].Report.Stats.Dir[stats.Read]
			if got.ClatHist != h {
				t.Errorf("merged bins are not the histogram of all %d logged latencies", len(all))
			}
			if got.Clat.N != a.N || got.Clat.Min != a.Min || got.Clat.Max != a.Max || got.TotalIOs != 1024 {
				t.Errorf("merged N/min/max/total_ios %d/%d/%d/%d, want %d/%d/%d/1024", got.Clat.N, got.Clat.Min, got.Clat.Max, got.TotalIOs, a.N, a.Min, a.Max)
			}
			tol := func(x, y float64) bool { return math.Abs(x-y) <= 1e-6*math.Max(1, math.Abs(y)) }
			if !tol(got.Clat.Mean, a.Mean) || !tol(got.Clat.Stddev(), a.Stddev()) {
				t.Errorf("merged mean/stddev %f/%f, want %f/%f", got.Clat.Mean, got.Clat.Stddev(), a.Mean, a.Stddev())
			}
			want := stats.Percentiles(&h, a.N, stats.DefaultPercentiles)
			for k, p := range stats.DefaultPercentiles {
				if v, ok := d.Jobs[0].Clat[stats.Read][p]; !ok || v != want[k] {
					t.Errorf("merged p%g = %d (printed %v), want %d", p, v, ok, want[k])
				}
			}
		})
	}
}

// TestCompareGateReal compares real results of fio (baseline) and gofio
// (new) with gates set just inside and just outside the change measured
// from the documents themselves: --compare exits 2 exactly when one is
// crossed.
func TestCompareGateReal(t *testing.T) {
	fio := fioBinary(t)
	dir := t.TempDir()
	base, cur := filepath.Join(dir, "fio.json"), filepath.Join(dir, "gofio.json")
	args := []string{"--name=n", "--ioengine=null", "--size=8m", "--bs=4k", "--rw=randread"}
	if out, err := exec.Command(fio, append(args, "--output-format=json", "--output="+base)...).CombinedOutput(); err != nil {
		t.Fatalf("fio: %v\n%s", err, out)
	}
	if st, _, errs := gofio(t, append(args, "--output-format=json+", "--output="+cur)...); st != 0 {
		t.Fatalf("gofio: status %d: %s", st, errs)
	}
	mean := func(path string) float64 {
		var doc struct {
			Jobs []struct {
				Read struct {
					Clat struct {
						Mean float64 `json:"mean"`
					} `json:"clat_ns"`
				} `json:"read"`
			} `json:"jobs"`
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Jobs[0].Read.Clat.Mean
	}
	c := (mean(cur) - mean(base)) / mean(base) * 100
	if c == 0 {
		t.Skip("the two runs' mean completion latencies are equal to the printed digits")
	}
	sign := "+"
	if c < 0 {
		sign = "-"
	}
	size := math.Abs(c)
	tests := []struct {
		gate   string
		status int
	}{
		{fmt.Sprintf("mean=%s%.6f%%", sign, size*0.99), 2},
		{fmt.Sprintf("mean=%s%.6f%%", sign, size*1.01), 0},
		{fmt.Sprintf("mean=%.6f%%", size*0.99), 2},
		{fmt.Sprintf("mean=%.6f%%", size*1.01), 0},
		// Falls of more than 100% cannot happen; a fixed bound on a
		// rise could be crossed by one slow I/O of a tiny run.
		{"iops=-100%,bw=-100%", 0},
	}
	for _, tt := range tests {
		st, out, errs := gofio(t, "--compare="+base, "--gate="+tt.gate, cur)
		if st != tt.status {
			t.Errorf("--gate=%s with a change of %+f%%: status %d, want %d\n%s%s", tt.gate, c, st, tt.status, out, errs)
		}
		st, out, _ = gofio(t, "--compare="+base, "--gate="+tt.gate, "--output-format=json", cur)
		var v struct{ Crossed bool }
		if err := json.Unmarshal([]byte(out), &v); err != nil || st != tt.status || v.Crossed != (tt.status == 2) {
			t.Errorf("--gate=%s --output-format=json: status %d, crossed %v, err %v", tt.gate, st, v.Crossed, err)
		}
	}
}

// TestResultsOptionsKeepFioMeaning checks that fio's command lines mean
// what they mean to fio: only a command line fio refuses at --compare=,
// --merge= or --gate= becomes one of gofio's result tools.
func TestResultsOptionsKeepFioMeaning(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	tests := []struct {
		args    []string
		status  int
		stdout  string // a substring
		stderr  string // a substring
		created string // a file the command must create
	}{
		// fio's own answers: abbreviations stay fio's.
		{args: []string{"--comp=1", "--name=a"}, status: 1, stderr: "unrecognized option '--comp=1'"},
		{args: []string{"--merge"}, status: 1, stderr: "option '--merge' is ambiguous"},
		{args: []string{"--compare", "x.json"}, status: 1, stderr: "unrecognized option '--compare'"},
		// fio acts on --version before it reaches --compare.
		{args: []string{"--version", "--compare=a.json", "b.json"}, status: 0, stdout: "fio-3.33"},
		// --output takes the next argument as its file name.
		{args: []string{"--output", "--compare=x", "--name=a", "--ioengine=null", "--size=4k"}, status: 0, created: "--compare=x"},
		// gofio's tools.
		{args: []string{"--compare=nosuch.json", "new.json"}, status: 1, stderr: "nosuch.json"},
		{args: []string{"--gate=iops=-5%", "--compare=a.json"}, status: 1, stderr: "--compare needs exactly one new result file"},
		{args: []string{"--compare=a.json", "--gate=speed=1%", "b.json"}, status: 1, stderr: "unknown metric"},
		{args: []string{"--merge=a.json", "--compare=b.json"}, status: 1, stderr: "cannot be used together"},
		{args: []string{"--merge=a.json", "--size=1m"}, status: 1, stderr: "take only"},
		{args: []string{"--help"}, status: 0, stdout: "--compare=base[:base2...] new"},
	}
	for _, tt := range tests {
		st, out, errs := gofio(t, tt.args...)
		if st != tt.status || !strings.Contains(out, tt.stdout) || !strings.Contains(errs, tt.stderr) {
			t.Errorf("gofio %q: status %d, stdout %.200q, stderr %.300q; want %d, %q, %q", tt.args, st, out, errs, tt.status, tt.stdout, tt.stderr)
		}
		if tt.created != "" {
			if _, err := os.Stat(tt.created); err != nil {
				t.Errorf("gofio %q did not write %s: %v", tt.args, tt.created, err)
			}
		}
	}
}
