package conformance

import (
	"fmt"
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
	// Four runs (make test's time), the last ending by runtime, two at a
	// time (go test's -parallel; the jobs mostly wait on their rates);
	// make stress repeats the test under load.
	for i := range 4 {
		// The slow jobs end by number_ios (20: at once; exitall then
		// ends the others when they wake from their rate wait, at their
		// runtime's end, as in fio) or by the runtime (1000 I/Os with a
		// 2 ms think time each).
		ios := "20"
		if i%4 == 3 {
			ios = "1000"
		}
		t.Run(fmt.Sprintf("run %d", i), func(t *testing.T) {
			t.Parallel()
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
		})
	}
}

// exitwhat.fio, shrunk as above (slow1 and slow2 end after 20 I/Os, at
// once), with and without group_reporting, under fio and gofio: the same
// jobs reported, none past its bound. fio 3.33 does not cut short the
// rate wait of the fast jobs (300 B/s: 13.6 s between 4 KiB I/Os) when
// exitall ends them: a job already waiting sleeps on to its runtime's
// end (2 s), while one that exitall reaches before its wait ends at once;
// which of the two a job gets follows the clock, in fio as in gofio (fio
// reported the three fast1 clones' group as 5994 ms in one run and 1999
// ms in another). So each job must stay within its runtime and 1.5 s on
// a loaded machine, a group within its members' count times that (with
// group_reporting a group's job_runtime is the sum of its members':
// slow2's group holds slow2, three fast2 and three runsnever). That
// exitall waits out a pause as fio does is TestPauseLink's (runner).
func TestExitWhatVsFio(t *testing.T) {
	// The jobs of each reporting group of exitwhat.fio.
	groupSize := map[string]int{"slow1": 1, "fast1": 3, "slow2": 7}
	requireFio(t)
	for _, grouped := range []bool{false, true} {
		t.Run(fmt.Sprintf("group_reporting=%v", grouped), func(t *testing.T) {
			t.Parallel()
			exitWhatVsFio(t, grouped, groupSize)
		})
	}
}

// exitWhatVsFio is TestExitWhatVsFio's run with or without
// group_reporting.
func exitWhatVsFio(t *testing.T, grouped bool, groupSize map[string]int) {
	edits := []string{"filename=/tmp/test", "filename=exitwhat.dat", "filesize=1G", "filesize=8m",
		"number_ios=1000", "number_ios=20"}
	if grouped {
		edits = append(edits, "exitall=1\n", "exitall=1\nruntime=2\n")
	} else {
		edits = append(edits, "group_reporting\n", "runtime=2\n")
	}
	text := shrink(t, example{file: "exitwhat.fio", edits: edits})
	setup := func(dir string) { os.WriteFile(filepath.Join(dir, "job.fio"), []byte(text), 0o644) }
	fr, gr, _, _ := run2(t, []string{"--output-format=json", "job.fio"}, setup)
	if fr.rc != 0 || gr.rc != 0 {
		t.Fatalf("group_reporting=%v: exit status fio %d, gofio %d\n%s", grouped, fr.rc, gr.rc, head(gr.stderr))
	}
	fj, gj := jsonOf(t, "fio", fr).Get("jobs").Kids, jsonOf(t, "gofio", gr).Get("jobs").Kids
	names := func(jobs []*Node) string {
		var s []string
		for _, j := range jobs {
			s = append(s, j.Get("jobname").Text)
		}
		return strings.Join(s, " ")
	}
	if f, g := names(fj), names(gj); f != g {
		t.Errorf("group_reporting=%v: jobs reported %q; fio reports %q", grouped, g, f)
		return
	}
	for i := range fj {
		fms, _ := strconv.Atoi(fj[i].Get("job_runtime").Text)
		gms, _ := strconv.Atoi(gj[i].Get("job_runtime").Text)
		name := gj[i].Get("jobname").Text
		members := 1
		if grouped {
			members = groupSize[name]
		}
		if hi := members * 3500; gms > hi || fms > hi {
			t.Errorf("group_reporting=%v: %s (job %d) ran %d ms, fio %d ms; want at most %d ms",
				grouped, name, i, gms, fms, hi)
		}
	}
}
