package jobspec

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusalMessages: every value gofio refuses on purpose says that it
// is refused, what fio 3.33 does wrong there and what to do instead;
// none says "not supported yet".
func TestRefusalMessages(t *testing.T) {
	tests := []struct {
		file, want string
	}{
		{"[a]\nbssplit=8k/50:16k/50\nbsrange=1k-4k\n",
			"gofio: bsrange=1k-4k is refused: fio 3.33 keeps drawing block sizes from the bssplit given before it, " +
				"within this range, and spins or does no I/O; give a bssplit whose sizes lie in the range, or bsrange alone"},
		{"[a]\nnrfiles=-1\n",
			"gofio: nrfiles=-1 is refused: fio 3.33 aborts on memory (realloc OOM) when it sets up that many files; " +
				"spread them over several jobs (numjobs, or jobs with their own filename lists); gofio takes 0 to 1048576"},
		{"[a]\nlog_alternate_epoch_clock_id=12\nlog_unix_epoch=1\nwrite_iops_log=x\n",
			"gofio: log_alternate_epoch_clock_id=12 is refused: Linux's clock ids are 0 to 11, and fio 3.33 logs " +
				"uninitialized times with any other; use 0 (CLOCK_REALTIME, the default) or another id from 0 to 11"},
		{"[a]\nbssplit=4k/50:0/50\n",
			"gofio: bssplit=4k/50:0/50 is refused: fio 3.33 reads a block size of 0 or less in bssplit as 0 or 2^64-N, " +
				"and then ignores the list, does no I/O or fails the job; give sizes of at least 1 (bs for one size)"},
		{"[a]\nrw=trim\nblock_error_percentiles=1\n",
			"gofio: job a: block_error_percentiles=1 with a job that trims is refused: fio 3.33 aborts on an assertion " +
				"(block_state_category) there, and gofio does not track trim-block lifetimes; leave block_error_percentiles out " +
				"(the trim counts and latencies are in the report)"},
	}
	for _, tt := range tests {
		s := &session{files: []string{tt.file}}
		p, err := s.run(t)
		if err == nil {
			err = p.Unsupported()
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: %v\nwant %s", tt.file, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "yet") {
			t.Errorf("%q: %v says \"yet\"", tt.file, err)
		}
	}
}

func TestRefusedErrorText(t *testing.T) {
	for _, tt := range []struct {
		e    RefusedError
		want string
	}{
		{RefusedError{"clocksource", "cpu", "why"}, "gofio: clocksource=cpu is refused: why"},
		{RefusedError{"x", "", "why"}, "gofio: x is refused: why"},
		{RefusedError{Option: "x", Value: "1"}, "gofio: x=1 is refused: internal error: no reason given"},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%#v: %q, want %q", tt.e, got, tt.want)
		}
	}
}

// TestProfileInJob: profile= in a job is stored, whatever its word, and
// has no other effect (fio 3.33 runs the job as if it were absent).
func TestProfileInJob(t *testing.T) {
	for _, v := range []string{"tiobench", "act", "nonesuch"} {
		s := &session{files: []string{"[a]\nprofile=" + v + "\nsize=1m\n"}}
		p, err := s.run(t)
		if err != nil {
			t.Fatalf("profile=%s: %v", v, err)
		}
		if err := p.Unsupported(); err != nil || p.Jobs[0].Misc.Profile != v {
			t.Errorf("profile=%s: %v, stored %q", v, err, p.Jobs[0].Misc.Profile)
		}
	}
}

// TestFirstPieceStored: the size options fio stores without a handler
// keep the first piece, if it reads (fio 3.33: number_ios=5,10 does 5
// I/Os, number_ios=x,5 and ,5 set no limit), a percentage as 2^64-1-N
// (number_ios=50% sets no limit), and offset_align, an int to fio's
// parser, its low 32 bits. A flag stores its first piece too: hipri=abc,1
// and norandommap=abc,1 leave the flag off. None of these is refused.
func TestFirstPieceStored(t *testing.T) {
	tests := []struct {
		opt  string
		get  func(*Job) any
		want any
	}{
		{"number_ios=5,10", func(j *Job) any { return j.NumberIOs }, uint64(5)},
		{"number_ios=10,5", func(j *Job) any { return j.NumberIOs }, uint64(10)},
		{"number_ios=x,5", func(j *Job) any { return j.NumberIOs }, uint64(0)},
		{"number_ios=,5", func(j *Job) any { return j.NumberIOs }, uint64(0)},
		{"number_ios=0x10,3", func(j *Job) any { return j.NumberIOs }, uint64(16)},
		{"number_ios=50%", func(j *Job) any { return j.NumberIOs }, ^uint64(0) - 50},
		{"verify_backlog=50%,4", func(j *Job) any { return j.Verify.Backlog }, ^uint64(0) - 50},
		{"lockmem=1m,2m", func(j *Job) any { return j.LockMem }, uint64(1 << 20)},
		{"zonesize=4k,8k", func(j *Job) any { return j.Zone.Size }, uint64(4096)},
		{"zonerange=10%", func(j *Job) any { return j.Zone.Range }, ^uint64(0) - 10},
		{"offset_align=8k,4k", func(j *Job) any { return j.OffsetAlign }, uint64(8192)},
		{"offset_align=8g", func(j *Job) any { return j.OffsetAlign }, uint64(0)},
		{"offset_align=50%", func(j *Job) any { return j.OffsetAlign }, uint64(1<<32 - 51)},
		{"runtime=abc,1", func(j *Job) any { return j.Runtime }, uint64(0)},
		{"thinktime=,1", func(j *Job) any { return j.ThinkTime }, uint64(0)},
		{"gtod_cpu=abc,1", func(j *Job) any { return j.Misc.GtodCPU }, 0},
		{"rate=50%", func(j *Job) any { return j.Rate }, [3]uint64{^uint64(0) - 50, ^uint64(0) - 50, ^uint64(0) - 50}},
		{"rate=-1,1m", func(j *Job) any { return j.Rate }, [3]uint64{^uint64(0), 1 << 20, 1 << 20}},
		{"rate_iops=50%", func(j *Job) any { return j.RateIOPS }, [3]uint64{1<<32 - 51, 1<<32 - 51, 1<<32 - 51}},
		{"percentage_random=50%,20", func(j *Job) any { return j.PercentageRandom }, [3]int{100, 20, 20}},
		{"rwmixread=50%", func(j *Job) any { return j.RWMixRead }, 100},
		{"rwmixwrite=50%", func(j *Job) any { return j.RWMixRead }, 100},
		{"rwmixwrite=-5", func(j *Job) any { return j.RWMixRead }, 95}, // fio reads "-5" as the pieces "" and 5
		{"rwmixwrite=30", func(j *Job) any { return j.RWMixRead }, 70},
		{"norandommap=abc,1", func(j *Job) any { return j.NoRandomMap }, false},
		{"norandommap=1,0", func(j *Job) any { return j.NoRandomMap }, true},
	}
	for _, tt := range tests {
		cmdline := []string{"name=a", "size=1m", tt.opt}
		if strings.HasPrefix(tt.opt, "zone") {
			cmdline = []string{"name=a", "size=1m", "zonemode=strided", "zonesize=4k", tt.opt}
		}
		s := &session{cmdline: cmdline}
		p, err := s.run(t)
		if err != nil {
			t.Fatalf("%s: %v", tt.opt, err)
		}
		if err := p.Unsupported(); err != nil {
			t.Errorf("%s: %v", tt.opt, err)
		}
		if got := tt.get(p.Jobs[0]); got != tt.want {
			t.Errorf("%s: stored %v, want %v", tt.opt, got, tt.want)
		}
	}
	s := &session{cmdline: []string{"name=a", "size=1m", "ioengine=pvsync2", "hipri=abc,1"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Unsupported(); err != nil || p.Jobs[0].EngineOptions.HiPri {
		t.Errorf("hipri=abc,1: %v, hipri %v; want taken and off", err, p.Jobs[0].EngineOptions.HiPri)
	}
}

// TestSettersTakeWhatReaderTakes: a value the reader takes (with fio's
// checks) is stored by the row's setter, or refused on purpose (a
// *RefusedError); a setter never fails on it otherwise, which would be
// an internal error (an engine option's, fio's "failed parsing").
func TestSettersTakeWhatReaderTakes(t *testing.T) {
	values := []string{"", "0", "1", "2", "-1", "4k", "1m", "50%", "1z", "0x10", "1-2", "4k-8k", "1:2", "1/2",
		"abc", "abc,1", "1,abc", ",1", "1,", "1,2", "1,2,3", "1,2,3,4", ":", "4k/50:8k/50", "a:b", "1s", "10ms"}
	check := func(o *Option) {
		if o.Kind == KindDeprecated || o.Kind == KindSoftDeprecated || o.Set == nil {
			return
		}
		for _, v := range values {
			j := defaults()
			r := reader{job: j}
			if !r.read(o, v, true) {
				continue
			}
			err := o.Set(j, v)
			var re *RefusedError
			if err != nil && !errors.As(err, &re) {
				t.Errorf("%s=%s: the reader takes it, the setter fails: %v", o.Name, v, err)
			}
		}
	}
	for i := range options {
		check(&options[i])
	}
	for _, e := range fioEngines {
		for i := range e.Options {
			check(&e.Options[i])
		}
	}
}

// TestClockSourceCPURefused: clocksource=cpu is refused, saying why and
// what to use, where the kernel's clock is not the CPU's counter (the
// hardware gofio's clock would need), and taken where it is.
func TestClockSourceCPURefused(t *testing.T) {
	defer func(p string) { clockSourcePath = p }(clockSourcePath)
	for _, tt := range []struct{ src, want string }{
		{"kvm-clock\n", `gofio: clocksource=cpu is refused: the kernel clock source is "kvm-clock", not tsc, ` +
			"so gofio's clock (the kernel's) does not read the CPU's counter; use clocksource=clock_gettime"},
		{"tsc\n", ""},
	} {
		clockSourcePath = filepath.Join(t.TempDir(), "current_clocksource")
		if err := os.WriteFile(clockSourcePath, []byte(tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		s := &session{files: []string{"[a]\nclocksource=cpu\n"}}
		p, err := s.run(t)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := p.Unsupported(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("kernel clock %q: %q, want %q", strings.TrimSpace(tt.src), got, tt.want)
		}
	}
}
