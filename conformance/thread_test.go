package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// This file compares fio 3.33 and gofio on the options that set up a
// job's thread (cpus_allowed, cpumask, cpus_allowed_policy, nice, prio,
// prioclass, ioscheduler, exec_prerun, exec_postrun, lockmem,
// create_only, write_hint): the
// messages for bad values, and runs whose output is deterministic (jobs
// that fail or do no I/O).

// threadPid masks what differs in a job's error line: the pid, and the
// source location fio names ("file:backend.c:1716", gofio's
// "file:runner").
var threadPid = regexp.MustCompile(`pid=[0-9]+, err=([0-9]+)/file:[^,]*,`)

func maskThreadRun(r result) result {
	r.stdout = threadPid.ReplaceAllString(r.stdout, "pid=N, err=$1/file:F,")
	r.stderr = threadPid.ReplaceAllString(r.stderr, "pid=N, err=$1/file:F,")
	return r
}

func TestThreadOptions(t *testing.T) {
	base := []string{"--name=a", "--ioengine=null", "--size=64k"}
	tests := [][]string{
		// Values fio refuses while reading them.
		{"--prio=8"},
		{"--prioclass=4"},
		{"--prioclass=-1"}, // no minimum: the kernel refuses it when the job runs
		{"--prio=-1"},
		{"--prio=3", "--prioclass=1", "--prioclass=-1"},
		{"--nice=20"},
		{"--cpus_allowed=4096"}, // beyond the kernel's CPU set
		{"--cpus_allowed=1024"},
		{"--cpus_allowed=2-1030"},
		{"--cpus_allowed=0-4096"},    // names the first CPU too large
		{"--cpus_allowed=4096-4095"}, // an empty range: accepted, fails when run
		{"--cpumask=0x80000000"},
		{"--cpus_allowed_policy=bogus"},
		{"--lockmem=abc"},
		{"--write_hint=bogus"},
		// Jobs that fail setting up their thread.
		{"--cpumask=0"},
		{"--cpus_allowed=1-0"},
		{"--cpus_allowed=1-0", "--cpus_allowed_policy=split"},
		{"--cpus_allowed=,0"},
		{"--ioengine=psync", "--ioscheduler=bogus", "--output-format=terse"}, // refused by the kernel (or not root, or no disk)
		// Jobs that do no I/O.
		{"--exec_prerun=exit 4", "--exec_postrun=echo post"},
		{"--exec_prerun=echo pre; true", "--create_only=1", "--exec_postrun=echo post; false"},
		{"--exec_prerun=exit 4", "--output-format=terse"},
		{"--create_only=1", "--output-format=json+", "--cpus_allowed=0", "--nice=1", "--prio=2"},
	}
	var dirs []string
	var lists [][]string
	for _, args := range tests {
		dirs = append(dirs, t.TempDir())
		lists = append(lists, append(append([]string(nil), base...), args...))
	}
	res := bothEach(t, dirs, lists)
	for k, args := range tests {
		full := lists[k]
		want, got := maskThreadRun(res[k][0]), maskThreadRun(res[k][1])
		if strings.Contains(strings.Join(args, " "), "--output-format=") {
			// Compare the run's messages and status; the report's
			// timestamps and versions are checked elsewhere. gofio
			// prints fio's informational lines on stderr when stdout
			// carries a report (docs/compat.md).
			// The two streams are compared as one set of lines.
			want.stderr = sortedLines(reportless(want.stdout) + want.stderr)
			got.stderr = sortedLines(reportless(got.stdout) + got.stderr)
			want.stdout, got.stdout = "", ""
		}
		if d := diffResults(want, got, ""); d != "" {
			t.Errorf("fio %s: gofio's %s", strings.Join(full, " "), d)
		}
	}
}

// reportless drops a JSON or terse report from stdout, keeping the lines
// around it.
func reportless(s string) string {
	var out []string
	inJSON := false
	for _, l := range strings.SplitAfter(s, "\n") {
		switch {
		case l == "{\n":
			inJSON = true
		case inJSON && l == "}\n":
			inJSON = false
		case inJSON, strings.HasPrefix(l, "3;"):
		default:
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// sortedLines returns the lines of s in sorted order.
func sortedLines(s string) string {
	l := strings.SplitAfter(s, "\n")
	sort.Strings(l)
	return strings.Join(l, "")
}

// TestBareCPUsAllowed: fio 3.33 crashes on a job file line
// "cpus_allowed" without a value (it accepts it under --parse-only);
// gofio refuses it as other options without a value.
func TestBareCPUsAllowed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte("[a]\nioengine=null\nsize=4k\ncpus_allowed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, got := both(t, dir, "", "--output-format=terse", "job.fio")
	if want.rc == 0 {
		t.Errorf("fio exits 0 now; compare gofio with it instead")
	}
	msg := "Option cpus_allowed requires an argument\nfio: failed parsing cpus_allowed\nfio: job a dropped\n"
	if got.rc != 1 || got.stderr != msg || got.stdout != "" {
		t.Errorf("gofio exits %d with %q %q; want 1 and %q", got.rc, got.stdout, got.stderr, msg)
	}
	want, got = both(t, dir, "", "--parse-only", "job.fio")
	if d := diffResults(want, got, ""); d != "" {
		t.Errorf("--parse-only: gofio's %s", d)
	}
}
