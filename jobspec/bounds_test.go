package jobspec

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestIntSettersKeepRowBounds sets every integer option (general, profile
// and engine) that gofio honours to values at and just past the bounds of its
// row, and to a large value where the row has no maximum: a value the row
// admits must be stored, one it refuses must leave the job as it was. The
// setters take their bounds from the row, so --cmdhelp's range, fio's
// checks and what is stored cannot disagree (iodepth=100000 was once kept
// at 1 by a setter capped at 65536).
func TestIntSettersKeepRowBounds(t *testing.T) {
	// Options whose setters check more than the row or store something
	// else than the number typed (clock ids past Linux's are refused,
	// cpumask is a mask of the CPUs there are, hugepage-size=0 is the
	// default size).
	mapped := map[string]bool{"log_alternate_epoch_clock_id": true, "cpumask": true, "hugepage-size": true}
	check := func(o *Option) {
		if o.Kind != KindInt || o.Set == nil {
			return
		}
		admits := func(v int64) {
			j := defaults()
			err := o.Set(j, strconv.FormatInt(v, 10))
			if mapped[o.Name] {
				return
			}
			if err != nil {
				t.Errorf("%s=%d is in the row's range %q but the setter refuses it: %v", o.Name, v, o.Range, err)
				return
			}
			if reflect.DeepEqual(j, defaults()) && !isDefaultText(o, v) {
				t.Errorf("%s=%d is in the row's range %q but the setter stored nothing", o.Name, v, o.Range)
			}
		}
		refuses := func(v int64) {
			j := defaults()
			o.Set(j, strconv.FormatInt(v, 10))
			if !reflect.DeepEqual(j, defaults()) {
				t.Errorf("%s=%d is out of the row's range %q but the setter stored it", o.Name, v, o.Range)
			}
		}
		if o.lim.min != 0 {
			admits(o.lim.min)
			refuses(o.lim.min - 1)
		} else {
			admits(0) // a minimum of 0 is none to fio
		}
		if o.lim.max != 0 {
			admits(o.lim.max)
			refuses(o.lim.max + 1)
		} else if !mapped[o.Name] {
			admits(100000)
		}
	}
	for i := range options {
		check(&options[i])
	}
	for i := range profileOptions {
		check(&profileOptions[i])
	}
	for _, e := range fioEngines {
		for i := range e.Options {
			o := &e.Options[i]
			j := defaults()
			o.Set(j, "1")
			if len(j.EngineOptions.Other) > 0 {
				continue // an engine gofio cannot run: kept as written
			}
			check(o)
		}
	}
}

// isDefaultText reports whether v is the option's default (for every
// direction).
func isDefaultText(o *Option, v int64) bool {
	d := strings.Split(o.Default, ",")[0]
	if d == "" {
		d = "0"
	}
	return d == strconv.FormatInt(v, 10)
}

// TestIntSettersStoreFioWidths stores what fio 3.33 stores for integers
// the row does not refuse: the value truncated to 32 bits, unsigned where
// the row's minimum is not negative.
func TestIntSettersStoreFioWidths(t *testing.T) {
	tests := []struct {
		opt, value string
		get        func(*Job) int
		want       int
	}{
		{"iodepth", "100000", func(j *Job) int { return j.IODepth }, 100000},
		{"iodepth", "99999999999", func(j *Job) int { return j.IODepth }, 1215752191},
		{"iodepth", "-1", func(j *Job) int { return j.IODepth }, 1}, // refused piece, "1" reads: unchanged
		{"iodepth_batch", "70000", func(j *Job) int { return j.IODepthBatchSubmit }, 70000},
		{"iodepth_low", "70000", func(j *Job) int { return j.IODepthLow }, 70000},
		{"numjobs", "-1", func(j *Job) int { return j.NumJobs }, 4294967295},
		{"loops", "-1", func(j *Job) int { return j.Loops }, 4294967295},
		{"loops", "0", func(j *Job) int { return j.Loops }, 0},
		{"nrfiles", "0", func(j *Job) int { return j.NRFiles }, 0},
		{"nice", "-5", func(j *Job) int { return j.Nice }, -5},
		{"flow", "-5", func(j *Job) int { return int(int32(j.Flow.Weight)) }, -5},
	}
	for _, tt := range tests {
		o, _ := Lookup(tt.opt)
		j := defaults()
		if err := o.Set(j, tt.value); err != nil {
			t.Errorf("%s=%s: %v", tt.opt, tt.value, err)
			continue
		}
		if got := tt.get(j); got != tt.want {
			t.Errorf("%s=%s stored %d; want %d", tt.opt, tt.value, got, tt.want)
		}
	}
}

// TestOutOfRangeCountsInJobs builds jobs with the counts fio 3.33 takes
// without a range check and then chokes on: numjobs=-1 fills fio's job
// table ("error: maximum number of jobs reached.", exit 1), loops=0 runs
// once. (nrfiles=-1, on which fio aborts, is past its row's Honoured
// limit: TestHonouredLimits.)
func TestOutOfRangeCountsInJobs(t *testing.T) {
	tests := []struct {
		opts    []string
		stderr  string // "" for a job that builds
		iodepth int
		loops   int
	}{
		{[]string{"numjobs=-1"}, "error: maximum number of jobs reached.\nerror: failed to setup shm segment\n", 0, 0},
		{[]string{"numjobs=4097"}, "error: maximum number of jobs reached.\n", 0, 0},
		{[]string{"iodepth=100000"}, "", 100000, 1},
		{[]string{"loops=0"}, "", 1, 1},
		{[]string{"loops=3"}, "", 1, 3},
	}
	for _, tt := range tests {
		s := &session{cmdline: append([]string{"name=a", "ioengine=null", "size=1m"}, tt.opts...)}
		p, err := s.run(t)
		if tt.stderr != "" {
			if err == nil || !strings.HasPrefix(s.stderr.String(), tt.stderr) {
				t.Errorf("%v: err %v, stderr %q; want an error, stderr %q", tt.opts, err, s.stderr.String(), tt.stderr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v %s", tt.opts, err, s.stderr.String())
			continue
		}
		if j := p.Jobs[0]; j.IODepth != tt.iodepth || j.Loops != tt.loops {
			t.Errorf("%v: iodepth %d, loops %d; want %d, %d", tt.opts, j.IODepth, j.Loops, tt.iodepth, tt.loops)
		}
	}
}

// TestSizeBelowBlockSize keeps fio 3.33's check, made when a job is
// added (not under --parse-only): size under the smallest block size of
// any direction fails the run with exit 1.
func TestSizeBelowBlockSize(t *testing.T) {
	tests := []struct {
		opts []string
		want string // "" when the job builds
	}{
		{[]string{"size=1k"}, "fio: size too small, must not be less than minimum block size: 1024 < 4096\n"},
		{[]string{"size=4095"}, "fio: size too small, must not be less than minimum block size: 4095 < 4096\n"},
		{[]string{"size=1"}, "fio: size too small, must not be less than minimum block size: 1 < 4096\n"},
		{[]string{"size=-1"}, "fio: size too small, must not be less than minimum block size: 1 < 4096\n"},
		{[]string{"size=1e99"}, "fio: size too small, must not be less than minimum block size: 1 < 4096\n"},
		{[]string{"size=4k", "bs=8k"}, "fio: size too small, must not be less than minimum block size: 4096 < 8192\n"},
		{[]string{"size=1k", "bsrange=2k-8k"}, "fio: size too small, must not be less than minimum block size: 1024 < 2048\n"},
		{[]string{"size=4k", "bssplit=8k/50:16k/50"}, "fio: size too small, must not be less than minimum block size: 4096 < 8192\n"},
		{[]string{"size=1k", "bs=512"}, ""},
		{[]string{"size=6k", "bs=8k,4k"}, ""}, // the write size counts in a read job
		{[]string{"size=4096"}, ""},
	}
	for _, tt := range tests {
		s := &session{cmdline: append([]string{"name=a", "ioengine=null"}, tt.opts...)}
		_, err := s.run(t)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%v: %v %s", tt.opts, err, s.stderr.String())
			}
			continue
		}
		if err == nil || !strings.HasSuffix(s.stderr.String(), tt.want) {
			t.Errorf("%v: err %v, stderr %q; want stderr ending %q", tt.opts, err, s.stderr.String(), tt.want)
		}
	}
	s := &session{cfg: Config{DryRun: true}, cmdline: []string{"name=a", "size=1k"}}
	s.run(t) // no jobs are kept under --parse-only
	if strings.Contains(s.stderr.String(), "size too small") {
		t.Errorf("size=1k under --parse-only: %s", s.stderr.String())
	}
}

// TestAcceptedNoOps keeps options fio 3.33 accepts and ignores (the
// deprecated verifysort, verifysort_nr and flow_watermark, with fio's
// notice on stdout) and create_fsync, which gofio honours, out of the
// options gofio refuses.
func TestAcceptedNoOps(t *testing.T) {
	tests := []struct {
		line, stdout string
		check        func(*Job) bool
	}{
		{"verifysort=1", "Option verifysort is deprecated\n", nil},
		{"verifysort_nr=5", "Option verifysort_nr is deprecated\n", nil},
		{"flow_watermark=3", "Option flow_watermark is deprecated\n", nil},
		{"create_fsync=0", "", func(j *Job) bool { return j.Misc.NoCreateFsync }},
		{"create_fsync=1", "", func(j *Job) bool { return !j.Misc.NoCreateFsync }},
	}
	for _, tt := range tests {
		s := &session{files: []string{"[a]\nioengine=null\nsize=1m\n" + tt.line + "\n"}}
		p, err := s.run(t)
		if err != nil {
			t.Errorf("%s: %v", tt.line, err)
			continue
		}
		if err := p.Unsupported(); err != nil {
			t.Errorf("%s: %v", tt.line, err)
		}
		if s.stdout.String() != tt.stdout {
			t.Errorf("%s: stdout %q; want %q", tt.line, s.stdout.String(), tt.stdout)
		}
		if tt.check != nil && !tt.check(p.Jobs[0]) {
			t.Errorf("%s: not stored", tt.line)
		}
	}
}

// TestVerifyPatternOffset: verify_pattern's %o (fio's manual: each
// block's offset is written and verified back) is 8 bytes of the pattern
// whose place the job keeps; verify=pattern runs with it.
func TestVerifyPatternOffset(t *testing.T) {
	tests := []struct {
		opts    []string
		typ     VerifyType
		pattern string
		offs    []int
	}{
		{[]string{"verify=pattern", "verify_pattern=%o"}, VerifyPattern, strings.Repeat("\x00", 8), []int{0}},
		{[]string{"verify_pattern=0xff%o\"ab\"", "verify=pattern"}, VerifyPattern, "\xff" + strings.Repeat("\x00", 8) + "ab", []int{1}},
		{[]string{"verify=crc32c", "verify_pattern=0x12%o%o"}, VerifyCRC32C, "\x12" + strings.Repeat("\x00", 16), []int{1, 9}},
		{[]string{"verify_pattern=%o", "verify_pattern=0x12"}, VerifyPatternHdr, "\x12", nil},
	}
	for _, tt := range tests {
		s := &session{cmdline: append([]string{"name=a", "ioengine=null", "size=1m", "rw=write"}, tt.opts...)}
		p, err := s.run(t)
		if err != nil {
			t.Errorf("%v: %v %s", tt.opts, err, s.stderr.String())
			continue
		}
		if err := p.Unsupported(); err != nil {
			t.Errorf("%v: %v", tt.opts, err)
		}
		v := p.Jobs[0].Verify
		if v.Type != tt.typ || string(v.Pattern) != tt.pattern || !reflect.DeepEqual(v.PatternOffsets, tt.offs) {
			t.Errorf("%v: verify=%v pattern %q offsets %v; want %v %q %v", tt.opts, v.Type, v.Pattern, v.PatternOffsets, tt.typ, tt.pattern, tt.offs)
		}
	}
}

// TestPercentAndZoneSettings reads offset, io_size, size, offset_increment
// and zoneskip given as N% or in zones; zones become bytes when the job is
// added, N times zonesize (0 without zonemode=strided). The last piece
// wins, as fio runs its handler on each.
func TestPercentAndZoneSettings(t *testing.T) {
	type got struct {
		Size, Offset, IOSize, OffsetInc uint64
		Skip                            int64
		OffsetPct, IOSizePct, SizePct   int
	}
	tests := []struct {
		opts []string
		want got
	}{
		{[]string{"offset=50%"}, got{OffsetPct: 50}},
		{[]string{"offset=50%", "offset=4k"}, got{Offset: 4096}},
		{[]string{"offset=4k,30%"}, got{OffsetPct: 30}},
		{[]string{"io_size=50%"}, got{IOSizePct: 50}},
		{[]string{"zonemode=strided", "zonesize=16k", "size=2z"}, got{Size: 32768}},
		{[]string{"zonemode=strided", "zonesize=16k", "offset=1z", "io_size=3z"}, got{Offset: 16384, IOSize: 49152}},
		{[]string{"zonemode=strided", "zonesize=16k", "offset_increment=2z"}, got{OffsetInc: 32768}},
		{[]string{"zonemode=strided", "zonesize=16k", "zoneskip=1z"}, got{Skip: 16384}},
		{[]string{"size=2z", "zonemode=strided", "zonesize=16k"}, got{Size: 32768}}, // zonesize after size
		{[]string{"zonemode=strided", "zonesize=16k", "size=2z", "size=8k"}, got{Size: 8192}},
		{[]string{"zonemode=strided", "zonesize=16k", "size=8k", "size=50%"}, got{SizePct: 50}},
		{[]string{"size=2z"}, got{}}, // no zones: the whole file
		{[]string{"offset=1z"}, got{}},
	}
	for _, tt := range tests {
		s := &session{cmdline: append([]string{"name=a", "ioengine=null", "filename=/dev/null"}, tt.opts...)}
		p, err := s.run(t)
		if err != nil {
			t.Errorf("%v: %v %s", tt.opts, err, s.stderr.String())
			continue
		}
		j := p.Jobs[0]
		if err := p.Unsupported(); err != nil {
			t.Errorf("%v: %v", tt.opts, err)
		}
		g := got{j.Size, j.Offset, j.IOSize, j.OffsetIncrement, j.Zone.Skip, j.OffsetPct, j.IOSizePct, j.SizePercent}
		if g != tt.want {
			t.Errorf("%v: got %+v; want %+v", tt.opts, g, tt.want)
		}
	}
}
