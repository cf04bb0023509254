package main

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// statusNumRE matches the numbers of a status line with their units.
var statusNumRE = regexp.MustCompile(`\d+(\.\d+)?([KMGTPE]i?B/s|[kMGTPE]B/s|[kMGTPE])?`)

// statusLines returns the status lines in what a terminal showed, in
// order, without padding.
func statusLines(term string) []string {
	var out []string
	for _, l := range strings.FieldsFunc(term, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if strings.HasPrefix(l, "Jobs: ") {
			out = append(out, strings.TrimRight(l, " "))
		}
	}
	return out
}

// statusSkeleton masks a status line's numbers, the percentage's "-.-"
// included: "Jobs: # (f=#): [r(#)][#%][r=#][r=# IOPS][eta #m:#s]".
func statusSkeleton(l string) string {
	return statusNumRE.ReplaceAllString(strings.ReplaceAll(l, "[-.-%]", "[0%]"), "#")
}

// TestStatusLineTerminal runs fio and gofio on a terminal with the same
// job and compares their status lines' skeletons; with --eta=never, or
// JSON on stdout, gofio draws none.
func TestStatusLineTerminal(t *testing.T) {
	t.Parallel() // 3.5 s of waiting: overlap it with the other tests
	bin, fio := gofioBinary(t), fioBinary(t)
	dir := t.TempDir()
	// 3.5 s: the bracket part appears once 2 s have passed.
	job := []string{"--name=r", "--ioengine=null", "--rw=randread", "--size=100g", "--runtime=3500ms"}
	short := []string{"--name=r", "--ioengine=null", "--rw=randread", "--size=100g", "--runtime=1500ms"}
	runs := []struct {
		name string
		bin  string
		args []string
	}{
		{"fio", fio, job},
		{"gofio", bin, job},
		{"gofio --eta=never", bin, append([]string{"--eta=never"}, short...)},
		{"gofio --output-format=json", bin, append([]string{"--output-format=json"}, short...)},
	}
	res := make([]result, len(runs))
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = runOnTerminal(t, dir, r.bin, r.args...)
		}()
	}
	wg.Wait()
	for i, r := range runs {
		if res[i].status != 0 {
			t.Fatalf("%s: exit status %d\n%s%s", r.name, res[i].status, res[i].stdout, res[i].stderr)
		}
	}

	want, got := statusLines(res[0].stdout), statusLines(res[1].stdout)
	skeletons := func(lines []string) map[string]bool {
		m := map[string]bool{}
		for _, l := range lines {
			m[statusSkeleton(l)] = true
		}
		return m
	}
	ws, gs := skeletons(want), skeletons(got)
	const full = "Jobs: # (f=#): [r(#)][#%][r=#][r=# IOPS][eta #m:#s]"
	if !ws[full] || len(want) == 0 || want[0] != "Jobs: 1 (f=1)" {
		t.Fatalf("fio's status lines are not as expected (want a first %q and a line like %q): %q", "Jobs: 1 (f=1)", full, want)
	}
	for s := range gs {
		if !ws[s] {
			t.Errorf("gofio status line %q has no counterpart in fio's %q", s, want)
		}
	}
	if len(got) == 0 || got[0] != "Jobs: 1 (f=1)" || !gs[full] {
		t.Errorf("gofio status lines %q; want a first %q and a line like %q", got, "Jobs: 1 (f=1)", full)
	}
	// Redrawn in place: a carriage return, no newline, between lines.
	if !strings.Contains(res[1].stdout, "\rJobs: ") {
		t.Errorf("gofio's status lines are not redrawn in place:\n%q", res[1].stdout)
	}
	for _, i := range []int{2, 3} {
		if strings.Contains(res[i].stdout, "Jobs: ") {
			t.Errorf("%s drew a status line:\n%q", runs[i].name, res[i].stdout)
		}
	}
}

// TestStatusInterval runs gofio in process with --status-interval and
// --eta=always (stdout is not a terminal): status lines, then a complete
// report at each interval and the final one, as fio prints them.
func TestStatusInterval(t *testing.T) {
	status, out, errs := gofio(t, "--eta=always", "--status-interval=500ms", "--output-format=normal,json",
		"--name=i", "--ioengine=null", "--size=1g", "--time_based", "--runtime=1200ms")
	if status != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	// Two live reports (0.5 s, 1 s) and the final one, each in both
	// formats; the status line goes to stdout too.
	if n := strings.Count(out, "\nRun status group 0 (all jobs):\n"); n != 3 {
		t.Errorf("%d normal reports; want 3:\n%s", n, out)
	}
	if n := strings.Count(out, "\n  \"fio version\" : \"fio-3.33\",\n"); n != 3 {
		t.Errorf("%d JSON documents; want 3", n)
	}
	if !strings.Contains(out, "Jobs: 1 (f=1)\r") {
		t.Errorf("no status line in:\n%q", out)
	}
	// The live reports show the time run so far, the final one all of it.
	var ms []int
	for _, m := range runtimeRE.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		ms = append(ms, n)
	}
	if len(ms) != 3 || ms[0] < 300 || ms[0] >= ms[1] || ms[1] >= ms[2] || ms[2] < 1200 {
		t.Errorf("read runtimes %v; want 3 growing ones, the last 1200 ms or more", ms)
	}
}

// runtimeRE picks the run time of a normal report's read line.
var runtimeRE = regexp.MustCompile(`(?m)^  read: IOPS=.*/(\d+)msec\)$`)
