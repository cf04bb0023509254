package conformance

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// This file compares the per-priority latency reports of the cmdprio
// options (libaio, io_uring) of fio 3.33 and gofio: which priorities are
// listed, in which order, under which JSON keys, and which lines of the
// normal report carry them. The latencies themselves are timing and are
// masked; the I/Os each priority gets are drawn at random, so each job
// does 256 I/Os, and every configured priority gets some.

// prioLineRE matches the latency lines of a direction section: summary
// lines ("clat prio 1/0 (nsec): min=...") and percentile headers.
var (
	prioLineRE  = regexp.MustCompile(`^ +(slat|clat|lat)( prio [0-9]+/[0-9]+)?( \([0-9.]+% of IOs\))? (percentiles )?\([a-z]+\):`)
	prioShareRE = regexp.MustCompile(`\([0-9.]+% of IOs\)`)
	prioUnitRE  = regexp.MustCompile(`\((nsec|usec|msec)\)`)
)

// prioSkeleton lists the latency lines of a normal report, numbers and
// units masked but priority classes and levels kept.
func prioSkeleton(out string) []string {
	var sk []string
	for _, l := range strings.Split(out, "\n") {
		m := prioLineRE.FindString(l)
		if m == "" {
			continue
		}
		m = prioShareRE.ReplaceAllString(m, "(#% of IOs)")
		sk = append(sk, prioUnitRE.ReplaceAllString(m, "(U)"))
	}
	return sk
}

// prioJSON lists, per direction of the first job, the JSON key tree of
// its "prios" array and each entry's class/level.
func prioJSON(t *testing.T, out string) []string {
	t.Helper()
	root, err := ParseJSON([]byte(out))
	if err != nil {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	job := root.Get("jobs", "0")
	if job == nil {
		t.Fatalf("no jobs[0] in\n%s", out)
	}
	var list []string
	for _, d := range []string{"read", "write", "trim", "mixed"} {
		dir := job.Get(d)
		if dir == nil {
			continue
		}
		list = append(list, d+": "+strings.Join(dir.Keys, ","))
		p := dir.Get("prios")
		if p == nil {
			continue
		}
		for i, kid := range p.Kids {
			list = append(list, fmt.Sprintf("%s prio %d: class %s level %s", d, i, kid.Get("prioclass").Text, kid.Get("prio").Text))
			for _, k := range KeyTree(kid) {
				list = append(list, d+" prio "+k)
			}
		}
	}
	return list
}

func TestCmdPrioReports(t *testing.T) {
	requireFio(t)
	base := []string{"--name=cp", "--size=1M", "--filename=cp.dat"}
	for _, c := range []string{
		"--ioengine=libaio --rw=randread",
		"--ioengine=io_uring --rw=randread --lat_percentiles=1",
		"--ioengine=libaio --rw=randrw --clat_percentiles=0 --slat_percentiles=1 --cmdprio_class=2 --cmdprio=3",
		"--ioengine=libaio --rw=randrw --unified_rw_reporting=1 --prio=4",
		"--ioengine=libaio --rw=randrw --cmdprio_percentage=50,0 --lat_percentiles=1 --clat_percentiles=0",
		"--ioengine=libaio --rw=randread --cmdprio_percentage=100",
		"--ioengine=io_uring --rw=randrw --numjobs=2 --group_reporting",
		// Listed as configured, the job's own priority first.
		"--ioengine=libaio --rw=randrw --cmdprio_percentage=0 --cmdprio_bssplit=4k/30/3/1:4k/30/2/7,4k/50/2/7:4k/10 --prio=3",
	} {
		for _, format := range []string{"normal", "json", "json+"} {
			// Engine options follow --ioengine; a case's own
			// cmdprio_percentage overrides the default 50 after it.
			f := strings.Fields(c)
			a := append(append(append([]string{}, base...), f[0], "--cmdprio_percentage=50"), f[1:]...)
			a = append(a, "--output-format="+format)
			t.Run(c+" "+format, func(t *testing.T) {
				t.Parallel() // each case in a directory of its own
				want, got := both(t, t.TempDir(), "", a...)
				if want.rc != 0 || got.rc != 0 {
					t.Fatalf("exit status fio %d gofio %d\nfio: %s\ngofio: %s", want.rc, got.rc, want.stderr, got.stderr)
				}
				var w, g []string
				if format == "normal" {
					w, g = prioSkeleton(want.stdout), prioSkeleton(got.stdout)
				} else {
					w, g = prioJSON(t, want.stdout), prioJSON(t, got.stdout)
				}
				if d := diffLines(w, g); d != "" {
					t.Errorf("gofio %s differs from fio's (-fio +gofio):\n%s", strings.Join(a, " "), d)
				}
			})
		}
	}
}

// diffLines is a plain line-by-line comparison of two lists.
func diffLines(want, got []string) string {
	var b strings.Builder
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "%d:\n- %s\n+ %s\n", i, w, g)
		}
	}
	return b.String()
}
