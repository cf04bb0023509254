package jobspec

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// RW is the I/O pattern of a job (the rw option).
type RW uint8

// The patterns, in the order fio lists them.
const (
	RWRead RW = iota
	RWWrite
	RWTrim
	RWRandRead
	RWRandWrite
	RWRandTrim
	RWReadWrite
	RWRandRW
	RWTrimWrite
	RWRandTrimWrite
)

// String returns the word fio prints for the pattern: its first word in
// the rw row ("rw" for readwrite).
func (rw RW) String() string {
	for i, c := range row("rw").Choices {
		if rwValues[i] == rw {
			return c.Word
		}
	}
	return fmt.Sprintf("RW(%d)", uint8(rw))
}

// Random reports whether offsets are random.
func (rw RW) Random() bool {
	switch rw {
	case RWRandRead, RWRandWrite, RWRandTrim, RWRandRW, RWRandTrimWrite:
		return true
	}
	return false
}

// Reads reports whether the pattern reads.
func (rw RW) Reads() bool {
	switch rw {
	case RWRead, RWRandRead, RWReadWrite, RWRandRW:
		return true
	}
	return false
}

// Writes reports whether the pattern writes.
func (rw RW) Writes() bool {
	switch rw {
	case RWWrite, RWRandWrite, RWReadWrite, RWRandRW, RWTrimWrite, RWRandTrimWrite:
		return true
	}
	return false
}

// Trims reports whether the pattern trims.
func (rw RW) Trims() bool {
	switch rw {
	case RWTrim, RWRandTrim, RWTrimWrite, RWRandTrimWrite:
		return true
	}
	return false
}

// Job is one job with every option resolved to a typed value. Field names
// are fio's option names in CamelCase.
type Job struct {
	// Name is the displayed name (name=, or the section name); Section is
	// the section name, used for generated file names.
	Name        string
	Section     string
	Description string
	// JobNum is the clone index ($jobnum): 0 for the original, then
	// numjobs-1 down to 1 for the clones, in creation order.
	JobNum  int
	GroupID int
	// ThreadNumber is fio's thread_number: the job's place in the run,
	// counted from 1, a job's clones right after it. fio's random seeds
	// depend on it.
	ThreadNumber int

	// Options are the options explicitly set for the job, canonical name
	// and raw value, in fio's order (JSON "job options").
	Options []RawOption

	RW          RW
	RWSuffix    int64 // the :N of rw=randread:N (I/Os per random offset) or rw=read:N (skip bytes)
	RWMixRead   int   // percent of reads in mixed patterns
	BS          [3]uint64
	Size        uint64 // bytes; 0 = from the files' existing sizes
	SizePercent int    // size=N%: percent of the file/device size; 0 when unset
	FileSize    [2]uint64
	IOSize      uint64
	IOSizePct   int // io_size=N%: percent of the job's I/O region; 0 when unset
	Offset      uint64
	OffsetPct   int // offset=N%: percent of the file/device size; 0 when unset
	NumberIOs   uint64
	Loops       int

	Filename       []string // explicit files (filename=a:b)
	Directory      []string
	FilenameFormat string
	NRFiles        int

	IOEngine                string
	IODepth                 int
	IODepthLow              int
	IODepthBatchSubmit      int
	IODepthBatchCompleteMin int
	IODepthBatchCompleteMax int
	Direct                  bool
	NumJobs                 int
	Thread                  bool

	RandRepeat  bool
	RandSeed    uint64
	RandSeedSet bool // randseed was given (it turns randrepeat off once the job is added)
	NoRandomMap bool

	Runtime    uint64 // µs
	TimeBased  bool
	RampTime   uint64 // µs
	StartDelay uint64 // µs; with a range, drawn when the job is added
	// StartDelayHigh is the high end of a startdelay range (µs), or 0.
	StartDelayHigh uint64

	Fsync      int
	Fdatasync  int
	EndFsync   bool
	Invalidate bool
	Overwrite  bool
	Unlink     bool

	GroupReporting bool
	Stonewall      bool
	NewGroup       bool

	// What ends other jobs, and which errors end this one.
	ExitAll         bool
	ExitWhat        ExitWhat
	ExitAllOnError  bool
	ContinueOnError ContinueOnError
	ErrorDump       bool

	// Misc holds fill_device, ignore_error, clocksource, lockfile and
	// other options of their own corner (miscopts.go).
	Misc MiscOptions
	// Zone holds zonemode and the zone sizes (zoneopts.go).
	Zone ZoneOptions

	GtodReduce           bool
	DisableLat           bool
	DisableClat          bool
	DisableSlat          bool
	DisableBWMeasurement bool
	ClatPercentiles      bool
	LatPercentiles       bool
	SlatPercentiles      bool
	PercentileList       []float64
	PercentilePrecision  int
	Stats                bool
	BWAvgTime            int // ms
	IOPSAvgTime          int // ms
	KBBase               int
	UnitBase             int
	SignificantFigures   int
	UnifiedRWReporting   int

	// EngineOptions are the values of the options private to the job's
	// ioengine (engineval.go).
	EngineOptions IOEngineOptions

	// IOOptions: block size ranges, offsets, buffers, file handling.
	IOOptions
	// ThreadOptions: CPU affinity, priorities, ioscheduler,
	// exec_prerun/postrun, lockmem, create_only, file_append, write_hint
	// (schedopts.go).
	ThreadOptions
	// HostOptions: uid, gid, NUMA placement (hostopts.go).
	HostOptions

	// Verify holds the verify options (verify.go).
	Verify VerifyOptions
	// LogOptions: the bw, iops and latency logs (logopts.go).
	LogOptions
	// LogCompressionCPUs is log_compression_cpus: the CPUs the log
	// chunks are compressed on (nil: any).
	LogCompressionCPUs []int
	// ReplayOptions: write_iolog, read_iolog and replay (replayopts.go).
	ReplayOptions
	// Limits: rate_min, rate_iops_min, max_latency and the latency
	// target (limits.go).
	Limits
	// Steady: the steady-state options (steadyopts.go).
	Steady SteadyOptions
	// Flow: flow, flow_id and flow_sleep (flowopts.go).
	Flow FlowOptions

	// WaitFor is wait_for: the name of the jobs this one waits for.
	WaitFor string
	// Unsupported are the values set for the job that gofio refuses on
	// purpose (*RefusedError: fio 3.33 aborts, crashes or gives garbage
	// on them); running the job is an error naming the first.
	Unsupported []error
}

// ExitWhat is exit_what: which jobs exitall ends.
type ExitWhat uint8

// The exit_what choices.
const (
	ExitGroup      ExitWhat = iota // the jobs of the finishing job's group
	ExitStonewall                  // every running job; later stonewalls still start
	ExitEverything                 // every job, running or not yet started
)

// ContinueOnError is continue_on_error: which errors a job survives.
type ContinueOnError uint8

// The continue_on_error choices, in fio's order.
const (
	ContinueNone ContinueOnError = iota
	ContinueRead
	ContinueWrite
	ContinueIO
	ContinueVerify
	ContinueAll
)

// RawOption is an option as the user wrote it.
type RawOption struct {
	Name, Value string
}

// defaults returns a Job holding fio's defaults. fio fills a job's
// defaults from its options table; so does gofio: every row's Default is
// applied through the row's setter, kb_base and unit_base first (fio's
// order within a section), so the defaults --cmdhelp shows are the ones
// jobs get. TestDefaultsFromRows keeps the two equal.
func defaults() *Job {
	// Not options: the engine's private options start at their own
	// defaults (engineval.go), and
	// KBBase is needed to read the defaults themselves (kb_base's own
	// default, applied first, sets it again).
	j := &Job{KBBase: 1024, EngineOptions: defaultIOEngineOptions()}
	for _, pass := range []int{1, 0, -1} {
		for i := range options {
			o := &options[i]
			if priority(o.Name) != pass || !hasRowDefault(o) {
				continue
			}
			if err := o.Set(j, o.Default); err != nil {
				panic(fmt.Sprintf("jobspec: default %s=%s: %v", o.Name, o.Default, err))
			}
		}
	}
	// A default is not an option given: these record that the user
	// typed randseed (which turns randrepeat off), bwavgtime and
	// iopsavgtime (which set the log averaging) and verify.
	j.RandSeedSet, j.BWAvgTimeSet, j.IOPSAvgTimeSet, j.Verify.typeSet = false, false, false, false
	return j
}

// hasRowDefault reports whether o's default is applied to new jobs: the
// row has a default and a setter.
func hasRowDefault(o *Option) bool {
	return o.Set != nil && (o.Default != "" || o.EmptyDefault) && o.Engine == "" && o.Profile == "" &&
		o.Kind != KindDeprecated && o.Kind != KindSoftDeprecated
}

// clone returns a deep copy of j.
func (j *Job) clone() *Job {
	c := *j
	c.Options = append([]RawOption(nil), j.Options...)
	c.Filename = append([]string(nil), j.Filename...)
	c.Directory = append([]string(nil), j.Directory...)
	c.PercentileList = append([]float64(nil), j.PercentileList...)
	c.Unsupported = append([]error(nil), j.Unsupported...)
	c.IOOptions = j.IOOptions.clone()
	c.ThreadOptions = j.ThreadOptions.clone()
	c.EngineOptions = j.EngineOptions.clone()
	return &c
}

// InDirectory is the path of the job's file name: in the job's directory
// (the JobNum-th of a directory= list, fio's round robin) with
// filename_prefix, unless name is absolute. fio 3.33 joins them without
// cleaning: directory=./ names ".//w.0.0" in its messages and logs.
func (j *Job) InDirectory(name string) string {
	if len(j.Directory) == 0 || filepath.IsAbs(name) {
		return name
	}
	return j.Directory[j.JobNum%len(j.Directory)] + "/" + j.Misc.FilePrefix + name
}

// FormatFilename builds the name of the job's generated file filenum from
// filename_format ($jobname, $jobnum, $filenum, in either case).
func (j *Job) FormatFilename(filenum int) string {
	r := strings.NewReplacer(
		"$jobname", j.Section, "$JOBNAME", j.Section,
		"$jobnum", strconv.Itoa(j.JobNum), "$JOBNUM", strconv.Itoa(j.JobNum),
		"$filenum", strconv.Itoa(filenum), "$FILENUM", strconv.Itoa(filenum),
	)
	return r.Replace(j.FilenameFormat)
}
