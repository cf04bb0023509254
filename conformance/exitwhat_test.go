package conformance

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The shipped exitwhat.fio (issue 11), shrunk, with runtime=2 and each
// job reported on its own, run again and again: every run reports all
// eleven jobs (fio 3.33 reports each, those stopped before their first
// I/O with nothing done) and no job runs past its runtime. Tolerance: a
// job may overrun its 2 s by 1 s, and a run (two waves of jobs) take
// 2×2 s + 4 s, on a loaded machine; a job missed by exitall and left
// waiting on its rate (300 B/s: 13.6 s between 4 KiB I/Os) is far
// outside both.
func TestExitWhatRepeated(t *testing.T) {
	gofio := requireGofio(t)
	want := "slow1 fast1 fast1 fast1 slow2 fast2 fast2 fast2 runsnever runsnever runsnever"
	for i := range 8 {
		// The slow jobs end by number_ios (20: at once, stopping the
		// others as they start) or by the runtime (1000 I/Os with a
		// 2 ms think time each).
		ios := "20"
		if i%4 == 3 {
			ios = "1000"
		}
		ex := example{file: "exitwhat.fio", edits: []string{
			"filename=/tmp/test", "filename=exitwhat.dat", "filesize=1G", "filesize=8m",
			"group_reporting\n", "runtime=2\n", "number_ios=1000", "number_ios=" + ios}}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "job.fio"), []byte(shrink(t, ex)), 0o644)
		start := time.Now()
		r := runIn(gofio, dir, []string{"--output-format=json", "job.fio"})
		took := time.Since(start)
		if r.rc != 0 {
			t.Fatalf("run %d: exit status %d\n%s", i, r.rc, head(r.stderr))
		}
		var names []string
		for _, j := range jsonOf(t, "gofio", r).Get("jobs").Kids {
			name := j.Get("jobname").Text
			names = append(names, name)
			if ms, _ := strconv.Atoi(j.Get("job_runtime").Text); ms > 3000 {
				t.Errorf("run %d (number_ios=%s): %s ran %d ms; runtime=2", i, ios, name, ms)
			}
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("run %d (number_ios=%s): jobs reported %q; want %q", i, ios, got, want)
		}
		if took > 8*time.Second {
			t.Errorf("run %d (number_ios=%s): took %v; want at most 8 s", i, ios, took)
		}
	}
}
