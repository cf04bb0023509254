package conformance

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// This file compares fio 3.33 and gofio on the options that end a job
// for being too slow (rate_min, rate_iops_min, max_latency) and on the
// latency target mode (latency_target, latency_window,
// latency_percentile, latency_run): the refusals, the messages, the
// error and exit status, when the job ends, and the report's latency
// line. The rates and latencies themselves depend on timing and are
// masked.

// TestLimitsRefused checks fio's refusal of a minimum rate above the cap.
func TestLimitsRefused(t *testing.T) {
	tests := [][]string{
		{"--rate=10k,0", "--rate_min=20k"},
		{"--rate=1m", "--rate_min=2m"},
		{"--rate_iops=10", "--rate_iops_min=20"},
		{"--latency_percentile=150"},
		{"--max_latency=abc"},
	}
	for _, args := range tests {
		full := append([]string{"--name=a", "--ioengine=null", "--size=4k"}, args...)
		want, got := both(t, t.TempDir(), "", full...)
		if d := diffResults(want, got, ""); d != "" {
			t.Errorf("fio %s: gofio's %s", strings.Join(full, " "), d)
		}
	}
}

var (
	limitMasks = []struct {
		re   *regexp.Regexp
		with string
	}{
		{regexp.MustCompile(`pid=[0-9]+, err=([0-9]+)/file:[^,]*,`), "pid=N, err=$1/file:F,"},
		{regexp.MustCompile(`not met, got [0-9]+`), "not met, got N"},
		{regexp.MustCompile(`latency of [0-9]+ nsec`), "latency of N nsec"},
		{regexp.MustCompile(`(\S+ (read|write|trim)) [0-9]+ ([0-9]+)$`), "$1 OFF $3"},
		{regexp.MustCompile(`\(file:[^,]*,`), "(file:F,"},
		{regexp.MustCompile(`: pid=[0-9]+: .*$`), ": pid=N: DATE"},
		{regexp.MustCompile(`B/[0-9]+msec\)`), "B/Nmsec)"},
	}
	runMsec   = regexp.MustCompile(`run=([0-9]+)-[0-9]+msec`)
	errLine   = regexp.MustCompile(`(?m)^.*err=.*$`)
	latLine   = regexp.MustCompile(`(?m)^ +latency +: target=.*$`)
	pidLines  = regexp.MustCompile(`(?m)^fio: pid=.*$`)
	limIssued = regexp.MustCompile(`(?m)^ +issued rwts: .*$`)
	ioAmount  = regexp.MustCompile(`\([0-9.]+[KMG]?i?B/[0-9]+msec\)`)
)

// maskLimits masks the timing-dependent numbers of a line.
func maskLimits(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		for _, m := range limitMasks {
			l = m.re.ReplaceAllString(l, m.with)
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestLimitsFailures runs short jobs that these options end (or let run)
// under fio and gofio side by side.
func TestLimitsFailures(t *testing.T) {
	requireFio(t)
	g := requireGofio(t)
	tests := []struct {
		name   string
		args   []string
		lo, hi int  // the run's msec
		sameIO bool // the same I/Os and bytes
	}{
		// The first check takes a baseline 2 s into the job; the next
		// one, a rate_cycle later, fails.
		{"rate_min", []string{"--ioengine=null", "--size=10m", "--time_based", "--runtime=3", "--thinktime=1000", "--rate_min=10m", "--rate_cycle=100"}, 2050, 2700, false},
		{"rate_iops_min", []string{"--ioengine=null", "--size=10m", "--time_based", "--runtime=3", "--thinktime=1000", "--rate_iops_min=5000", "--rate_cycle=100"}, 2050, 2700, false},
		// A minimum for a direction the job does not do is not checked.
		{"rate_min writes", []string{"--ioengine=null", "--size=10m", "--time_based", "--runtime=1", "--thinktime=1000", "--rate_min=,10m", "--rate_cycle=100"}, 950, 1300, false},
		{"max_latency", []string{"--ioengine=psync", "--size=256k", "--max_latency=1ns"}, 0, 100, true},
		// The I/Os in flight when the job stops are counted (8 of them).
		{"max_latency depth 8", []string{"--ioengine=libaio", "--iodepth=8", "--size=256k", "--max_latency=1ns"}, 0, 100, true},
		{"latency_target depth 1", []string{"--ioengine=psync", "--size=256k", "--latency_target=1ns"}, 0, 100, true},
		// Converged at iodepth (4): one more window, then the end.
		{"latency_target", []string{"--ioengine=null", "--size=1g", "--iodepth=4", "--time_based", "--runtime=2", "--latency_target=1h", "--latency_window=50ms", "--latency_percentile=99.5"}, 45, 300, false},
	}
	for _, tt := range tests {
		args := append([]string{"--name=a"}, tt.args...)
		fr, gr := runBoth(t, g, args)
		if fr.rc != gr.rc {
			t.Errorf("%s: exit status %d; fio's %d", tt.name, gr.rc, fr.rc)
		}
		if w, g := maskLimits(fr.stderr), maskLimits(gr.stderr); w != g {
			t.Errorf("%s: stderr:\n%s\nfio's:\n%s", tt.name, g, w)
		}
		res := []*regexp.Regexp{pidLines, errLine, latLine}
		if tt.sameIO {
			res = append(res, limIssued, ioAmount)
		}
		for _, re := range res {
			w := maskLimits(strings.Join(re.FindAllString(fr.stdout, -1), "\n"))
			g := maskLimits(strings.Join(re.FindAllString(gr.stdout, -1), "\n"))
			if w != g {
				t.Errorf("%s: stdout lines %q; fio's %q", tt.name, g, w)
			}
		}
		for who, r := range map[string]result{"fio": fr, "gofio": gr} {
			m := runMsec.FindStringSubmatch(r.stdout)
			if m == nil {
				t.Errorf("%s: %s printed no run time:\n%s", tt.name, who, r.stdout)
				continue
			}
			if ms, _ := strconv.Atoi(m[1]); ms < tt.lo || ms > tt.hi {
				t.Errorf("%s: %s ran %d msec; want %d…%d", tt.name, who, ms, tt.lo, tt.hi)
			}
		}
	}
}
