package debuglog

import (
	"strings"
	"testing"
)

// TestPrintf checks fio's line format: the class in 8 columns, a space,
// the pid in 5 columns, a space, the message (observed: "parse    22693
// handle_option=name, ptr=x").
func TestPrintf(t *testing.T) {
	var b strings.Builder
	SetOutput(&b)
	t.Cleanup(func() { SetOutput(nil) })
	Printf(Parse, 22693, "handle_option=%s, ptr=%s", "name", "x")
	Printf(Helperthread, 7, "x\n")
	Printf(IO, 1234567, "y")
	want := "parse    22693 handle_option=name, ptr=x\nhelperthread 7     x\nio       1234567 y\n"
	if b.String() != want {
		t.Errorf("lines %q, want %q", b.String(), want)
	}
}

// TestSet checks --debug's value syntax as fio 3.33 reads it (observed):
// class names match as prefixes, "job..." is always a job number, the
// number is read as atoi reads it, and unknown items are reported and
// skipped.
func TestSet(t *testing.T) {
	tests := []struct {
		value      string
		mask       Mask
		job        int64
		info, errs string
	}{
		{"parse", 1 << Parse, -1, "fio: set debug option parse\n", ""},
		{"parsex,mem:x", 1<<Parse | 1<<Mem, -1, "fio: set debug option parsex\nfio: set debug option mem:x\n", ""},
		{"all,", 1<<numClasses - 1, -1, "fio: set all debug options\n", "fio: debug mask  not found\n"},
		{"job", 0, -1, "", "fio: missing job number\n"},
		{"jobs", 0, -1, "", "fio: missing job number\n"},
		{"job:1x,io", 1 << IO, 1, "fio: set debug jobno 1\nfio: set debug option io\n", ""},
		{"job:x", 0, 0, "fio: set debug jobno 0\n", ""},
		{"PARSE,?", 0, -1, "", "fio: debug mask PARSE not found\nfio: debug mask ? not found\n"},
	}
	for _, tt := range tests {
		Reset()
		var info, errs strings.Builder
		Set(tt.value, &info, &errs)
		if Enabled() != tt.mask || jobNo.Load() != tt.job || info.String() != tt.info || errs.String() != tt.errs {
			t.Errorf("Set(%q): mask %#x, job %d, %q, %q; want %#x, %d, %q, %q", tt.value, Enabled(), jobNo.Load(), info.String(), errs.String(), tt.mask, tt.job, tt.info, tt.errs)
		}
	}
	Reset()
}

// TestForJob checks job:N: a job's lines are printed for job N only,
// unless the job is a thread.
func TestForJob(t *testing.T) {
	defer Reset()
	Reset()
	Set("io,job:1", &strings.Builder{}, &strings.Builder{})
	if ForJob(0, false) != 0 || !ForJob(1, false).On(IO) || !On(IO) || !ForJob(0, true).On(IO) {
		t.Errorf("job:1: ForJob(0) = %#x, ForJob(1) = %#x, thread ForJob(0) = %#x", ForJob(0, false), ForJob(1, false), ForJob(0, true))
	}
	Reset()
	Set("io", &strings.Builder{}, &strings.Builder{})
	if !ForJob(5, false).On(IO) {
		t.Error("io: job 5 not logged")
	}
}

// TestNoAllocsWhenOff checks that a call site costs no allocation when
// its class is off.
func TestNoAllocsWhenOff(t *testing.T) {
	Reset()
	var m Mask
	n := testing.AllocsPerRun(100, func() {
		if m.On(IO) {
			Printf(IO, 1, "queue: off=0x%x", 4096)
		}
		if On(Parse) {
			Printf(Parse, 1, "x=%d", 1)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per call site", n)
	}
}
