package conformance

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestJobLimit compares fio's and gofio's answers to more jobs than fio's
// job table holds (4088, clones included): the jobs announced before the
// one that does not fit, "error: maximum number of jobs reached." and
// exit status 1. Every case fails before any job runs.
func TestJobLimit(t *testing.T) {
	sections := func(n int) string {
		var b strings.Builder
		b.WriteString("[global]\nioengine=null\nsize=4k\n")
		for i := range n {
			fmt.Fprintf(&b, "[j%d]\n", i)
		}
		return b.String()
	}
	cases := []struct {
		name string
		args []string
		job  string
	}{
		{"numjobs", []string{"--name=a", "--ioengine=null", "--size=4k", "--numjobs=4089"}, ""},
		{"numjobs json", []string{"--name=a", "--ioengine=null", "--size=4k", "--numjobs=100000", "--output-format=json"}, ""},
		{"numjobs=0", []string{"--name=a", "--ioengine=null", "--size=4k", "--numjobs=0"}, ""},
		{"numjobs=0 after a job", []string{"--ioengine=null", "--size=4k", "--name=b", "--name=a", "--numjobs=0"}, ""},
		{"sections", []string{"job.fio"}, sections(4089)},
		{"file after a command-line job", []string{"--name=b", "--ioengine=null", "--size=4k", "job.fio"}, "[a]\nioengine=null\nsize=4k\nnumjobs=4088\n"},
		{"thread", []string{"--thread", "--name=a", "--ioengine=null", "--size=4k", "--numjobs=4089", "--output-format=terse"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if c.job != "" {
				if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(c.job), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, got := both(t, dir, "", c.args...)
			if want.rc != 1 {
				t.Fatalf("fio exits %d; want 1 (the job table is full)", want.rc)
			}
			if d := diffResults(want, got, ""); d != "" {
				t.Errorf("gofio's %s", d)
			}
		})
	}
}

// TestJobLimitMemory checks that gofio refuses numjobs=100000 without
// making the jobs: its peak memory stays small (the tolerance is 200 MB;
// it needs about 10).
func TestJobLimitMemory(t *testing.T) {
	gofio := requireGofio(t)
	cmd := exec.Command(gofio, "--name=a", "--ioengine=null", "--size=4k", "--numjobs=100000")
	cmd.Dir = t.TempDir()
	out, _ := cmd.CombinedOutput()
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage")
	}
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "error: maximum number of jobs reached.") {
		t.Errorf("exit status %d, output:\n%s\nwant 1 and fio's message", cmd.ProcessState.ExitCode(), out)
	}
	if kb := ru.Maxrss; kb > 200<<10 {
		t.Errorf("peak memory %d KiB; want at most 200 MiB", kb)
	}
}
