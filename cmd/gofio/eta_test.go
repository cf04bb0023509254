package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner"
)

func TestRunChar(t *testing.T) {
	tests := []struct {
		rw      jobspec.RW
		mixRead int
		want    byte
	}{
		{jobspec.RWRead, 50, 'R'},      // sequential read
		{jobspec.RWRandRead, 50, 'r'},  // random read
		{jobspec.RWWrite, 50, 'W'},     // sequential write
		{jobspec.RWRandWrite, 50, 'w'}, // random write
		{jobspec.RWReadWrite, 50, 'M'}, // sequential mix
		{jobspec.RWRandRW, 50, 'm'},    // random mix
		{jobspec.RWRandRW, 100, 'r'},   // rwmixread=100 reads only
		{jobspec.RWReadWrite, 0, 'W'},  // rwmixwrite=100 writes only
		{jobspec.RWTrim, 50, 'D'},      // sequential trim
		{jobspec.RWRandTrim, 50, 'd'},  // random trim
		{jobspec.RWTrimWrite, 50, 'W'}, // trims with writes show as writes
	}
	for _, tt := range tests {
		j := &jobspec.Job{RW: tt.rw, RWMixRead: tt.mixRead}
		if got := runChar(j); got != tt.want {
			t.Errorf("runChar(rw=%s, rwmixread=%d) = %q; want %q", tt.rw, tt.mixRead, got, tt.want)
		}
	}
}

func TestRemaining(t *testing.T) {
	sec := time.Second
	tests := []struct {
		job  etaJob
		st   runner.JobStatus
		want uint64
	}{
		// A sized job a quarter done after 3 s: 9 s more by its bytes,
		// capped by its 4 s runtime (fio: 75.0%, eta 00m:01s).
		{etaJob{runtime: 4}, runner.JobStatus{State: runner.StateRunning, Ran: 3 * sec, Bytes: [3]uint64{25}, TotalBytes: 100}, 1},
		// Without a runtime the bytes decide: half done in 2 s, 2 s left.
		{etaJob{}, runner.JobStatus{State: runner.StateRunning, Ran: 2 * sec, Bytes: [3]uint64{30, 20}, TotalBytes: 100}, 2},
		// Nothing counted yet: the runtime (0 when unset).
		{etaJob{runtime: 10}, runner.JobStatus{State: runner.StateRunning, Ran: 2 * sec, TotalBytes: 100}, 8},
		// time_based: runtime minus elapsed, whatever the bytes say.
		{etaJob{runtime: 10, timeBased: true}, runner.JobStatus{State: runner.StateRunning, Ran: 4*sec - time.Millisecond, Bytes: [3]uint64{1}, TotalBytes: 1 << 40}, 6},
		// time_based past its runtime while it winds down: 0, not minutes.
		{etaJob{runtime: 10, timeBased: true}, runner.JobStatus{State: runner.StateRunning, Ran: 10*sec + 5*time.Millisecond}, 0},
		// Elapsed time counts in started seconds.
		{etaJob{runtime: 10, timeBased: true}, runner.JobStatus{State: runner.StateRunning, Ran: 4*sec + time.Millisecond}, 5},
		// Not started: runtime + startdelay + ramp_time.
		{etaJob{runtime: 5, before: 7}, runner.JobStatus{State: runner.StatePending}, 7},
		// Not started and no runtime: unknown, counted as 0.
		{etaJob{before: 2}, runner.JobStatus{State: runner.StateSetup}, 0},
		// Ramping: what is left of the ramp plus the runtime.
		{etaJob{runtime: 5, ramp: 2, before: 7}, runner.JobStatus{State: runner.StateRamp, Ran: sec}, 6},
		// Syncing, finishing or done: nothing left.
		{etaJob{runtime: 5}, runner.JobStatus{State: runner.StateFsyncing, Ran: sec}, 0},
		{etaJob{runtime: 5}, runner.JobStatus{State: runner.StateDone, Ran: sec}, 0},
	}
	for _, tt := range tests {
		if got := tt.job.remaining(&tt.st); got != tt.want {
			t.Errorf("%+v.remaining(%+v) = %d; want %d", tt.job, tt.st, got, tt.want)
		}
	}
}

// running is a snapshot of one running job that has moved bytes and ios
// (reads, writes) so far.
func running(ran time.Duration, bytes, ios [3]uint64, total uint64) runner.JobStatus {
	return runner.JobStatus{State: runner.StateRunning, Files: 1, Ran: ran, Bytes: bytes, IOs: ios, TotalBytes: total}
}

func TestStatusLineSequence(t *testing.T) {
	const mib = 1 << 20
	s := &statusLine{jobs: []etaJob{{char: 'r', runtime: 4}}, pow2: true}
	steps := []struct {
		since time.Duration
		st    runner.JobStatus
		due   bool
		want  string
	}{
		// Not yet 95 % of the interval: no line.
		{740 * time.Millisecond, running(740*time.Millisecond, [3]uint64{}, [3]uint64{}, 4096*mib), false, ""},
		// The first line: the ETA is unknown during the first 2 s.
		{990 * time.Millisecond, running(989*time.Millisecond, [3]uint64{}, [3]uint64{}, 4096*mib), true, "Jobs: 1 (f=1)\r"},
		// Nothing counted yet, so the next wake-up prints again.
		{1240 * time.Millisecond, running(1239*time.Millisecond, [3]uint64{100 * mib}, [3]uint64{25600}, 4096*mib), true, "Jobs: 1 (f=1)\r"},
		// Bytes counted: the next line comes an interval later.
		{1490 * time.Millisecond, running(1489*time.Millisecond, [3]uint64{200 * mib}, [3]uint64{51200}, 4096*mib), false, ""},
		// More than 2 s since the start: the full line, with rates over
		// the last second (1 GiB in 4 GiB after 3 s: the 4 s runtime
		// caps the estimate).
		{2240 * time.Millisecond, running(2239*time.Millisecond, [3]uint64{500 * mib}, [3]uint64{128000}, 4096*mib), true,
			"Jobs: 1 (f=1): [r(1)][75.0%][r=400MiB/s][r=102k IOPS][eta 00m:01s]\r"},
		{2990 * time.Millisecond, running(2989*time.Millisecond, [3]uint64{900 * mib}, [3]uint64{230400}, 4096*mib), false, ""},
		// A percentage once shown, an ETA of 0 is 100 %.
		{3240 * time.Millisecond, running(3239*time.Millisecond, [3]uint64{1101 * mib}, [3]uint64{281856}, 4096*mib), true,
			"Jobs: 1 (f=1): [r(1)][100.0%][r=601MiB/s][r=154k IOPS][eta 00m:00s]\r"},
		// Idle directions are left out, and a shorter line is padded to
		// the previous one's length.
		{4240 * time.Millisecond, running(4239*time.Millisecond, [3]uint64{1101 * mib}, [3]uint64{281856}, 4096*mib), true,
			"Jobs: 1 (f=1): [r(1)][100.0%][eta 00m:00s]" + strings.Repeat(" ", len("[r=601MiB/s][r=154k IOPS]")) + "\r"},
	}
	for i, step := range steps {
		st := []runner.JobStatus{step.st}
		if due := s.due(step.since, time.Second); due != step.due {
			t.Fatalf("step %d: due(%v) = %v; want %v", i, step.since, due, step.due)
		}
		if !step.due {
			continue
		}
		if got := s.next(st, step.since); got != step.want {
			t.Errorf("step %d: line at %v = %q; want %q", i, step.since, got, step.want)
		}
	}
}

func TestStatusLineJobs(t *testing.T) {
	sec := time.Second
	tests := []struct {
		name string
		line statusLine
		st   []runner.JobStatus
		want string
	}{
		{
			// Three jobs: one random read, one sequential write, one
			// waiting behind a stonewall, whose estimate adds to the max
			// (5 s + 4 s); rates since the start of the run.
			name: "stonewall",
			line: statusLine{jobs: []etaJob{{char: 'r', runtime: 8}, {char: 'W', runtime: 8}, {char: 'R', runtime: 4, before: 4, stonewall: true}}, pow2: true},
			st: []runner.JobStatus{
				{State: runner.StateRunning, Files: 1, Ran: 3 * sec, Bytes: [3]uint64{3 << 20}, IOs: [3]uint64{768}, TotalBytes: 1 << 40},
				{State: runner.StateRunning, Files: 2, Ran: 3 * sec, Bytes: [3]uint64{0, 6 << 20}, IOs: [3]uint64{0, 1536}, TotalBytes: 1 << 40},
				{State: runner.StatePending},
			},
			want: "Jobs: 2 (f=3): [r(1),W(1),P(1)][25.0%][r=1027KiB/s,w=2054KiB/s][r=256,w=513 IOPS][eta 00m:09s]\r",
		},
		{
			// exitall: the smallest estimate wins; a finished job's
			// totals still count.
			name: "exitall",
			line: statusLine{jobs: []etaJob{{char: 'R', runtime: 4}, {char: 'R', runtime: 20}}, exitAll: true, pow2: true},
			st: []runner.JobStatus{
				{State: runner.StateRunning, Files: 1, Ran: 3 * sec, TotalBytes: 1 << 40},
				{State: runner.StateRunning, Files: 1, Ran: 3 * sec, TotalBytes: 1 << 40},
			},
			want: "Jobs: 2 (f=2): [R(2)][75.0%][eta 00m:01s]\r",
		},
		{
			// Only ramping jobs: no percentage, no files.
			name: "ramp",
			line: statusLine{jobs: []etaJob{{char: 'R', runtime: 4, ramp: 2}}, pow2: true},
			st:   []runner.JobStatus{{State: runner.StateRamp, Files: 1, Ran: sec, Bytes: [3]uint64{1 << 30}}},
			want: "Jobs: 1 (f=0): [/(1)][-.-%][eta 00m:05s]\r",
		},
		{
			// unified_rw_reporting shows every direction as r=, a failed
			// job's totals included; kb_base 1000 gives decimal prefixes
			// on values still in KiB.
			name: "unified",
			line: statusLine{jobs: []etaJob{{char: 'm', runtime: 10, timeBased: true}, {char: 'X'}}, unified: true},
			st: []runner.JobStatus{
				{State: runner.StateRunning, Files: 1, Ran: 3 * sec, Bytes: [3]uint64{3 << 30, 3 << 30}, IOs: [3]uint64{3, 3}},
				{State: runner.StateFailed, Ran: sec, Bytes: [3]uint64{0, 3 << 20}, IOs: [3]uint64{0, 3}},
			},
			want: "Jobs: 1 (f=1): [m(1),X(1)][30.0%][r=2105MB/s][r=3 IOPS][eta 00m:07s]\r",
		},
	}
	for _, tt := range tests {
		if got := tt.line.next(tt.st, 3*sec-10*time.Millisecond); got != tt.want {
			t.Errorf("%s: line = %q;\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestETANewline(t *testing.T) {
	s := &statusLine{jobs: []etaJob{{char: 'R', runtime: 9, timeBased: true}}, pow2: true, newline: 2 * time.Second}
	var lines []string
	for ms := 490; ms <= 5000; ms += 500 {
		since := time.Duration(ms) * time.Millisecond
		st := []runner.JobStatus{running(since, [3]uint64{uint64(ms) << 20}, [3]uint64{uint64(ms)}, 1<<40)}
		lines = append(lines, s.next(st, since))
	}
	got := strings.Join(lines, "")
	// The first line (0.49 s) sets the mark; the line after the first one
	// printed more than 2 s later (2.99 s) starts with a newline and is
	// not padded.
	want := "Jobs: 1 (f=1)\rJobs: 1 (f=1)\rJobs: 1 (f=1)\rJobs: 1 (f=1)\r" +
		"Jobs: 1 (f=1): [R(1)][33.3%][r=1000MiB/s][r=1000 IOPS][eta 00m:06s]\r" +
		"Jobs: 1 (f=1): [R(1)][33.3%][r=1000MiB/s][r=1000 IOPS][eta 00m:06s]\r" +
		"\nJobs: 1 (f=1): [R(1)][44.4%][r=1000MiB/s][r=1000 IOPS][eta 00m:05s]\r" +
		// The newline counted in the previous line's length: one space.
		"Jobs: 1 (f=1): [R(1)][44.4%][r=1000MiB/s][r=1000 IOPS][eta 00m:05s] \r" +
		"Jobs: 1 (f=1): [R(1)][55.6%][r=1000MiB/s][r=1000 IOPS][eta 00m:04s]\r" +
		"Jobs: 1 (f=1): [R(1)][55.6%][r=1000MiB/s][r=1000 IOPS][eta 00m:04s]\r"
	if got != want {
		t.Errorf("lines with --eta-newline=2 --eta-interval=500ms:\n%q\nwant\n%q", got, want)
	}
}

func TestETASettings(t *testing.T) {
	tests := []struct {
		name, value string
		wantMsg     string // fio's message, "" for accepted
		check       func(e etaSettings) bool
	}{
		// Any word but always and never means auto.
		{"eta", "always", "", func(e etaSettings) bool { return e.mode == "always" }},
		{"eta", "bogus", "", func(e etaSettings) bool { return e.mode == "" }},
		// Seconds by default; units accepted.
		{"eta-interval", "2", "", func(e etaSettings) bool { return e.interval == 2*time.Second }},
		{"eta-interval", "250ms", "", func(e etaSettings) bool { return e.interval == 250*time.Millisecond }},
		// fio's lower bounds and messages.
		{"eta-interval", "100ms", "fio: eta interval time too short (250msec min)", nil},
		{"eta-interval", "0.5", "fio: eta interval time too short (250msec min)", nil},
		{"eta-interval", "abc", "fio: failed parsing eta interval abc", nil},
		{"eta-newline", "abc", "fio: failed parsing eta time abc", nil},
		{"eta-newline", "500us", "fio: eta new line time too short", nil},
		{"eta-newline", "1ms", "", func(e etaSettings) bool { return e.newline == time.Millisecond }},
		{"status-interval", "abc", "fio: failed parsing time abc", nil},
		{"status-interval", "0", "fio: status interval too small", nil},
		// An unknown unit reads as microseconds.
		{"status-interval", "2x", "fio: status interval too small", nil},
		{"status-interval", "300ms", "", func(e etaSettings) bool { return e.every == 300*time.Millisecond }},
	}
	for _, tt := range tests {
		e := defaultETA()
		msg := e.apply(tt.name, tt.value)
		if msg != tt.wantMsg || (tt.check != nil && !tt.check(e)) {
			t.Errorf("apply(%s=%s) = %q, settings %+v; want %q", tt.name, tt.value, msg, e, tt.wantMsg)
		}
	}
}
