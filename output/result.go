// Package output prints gofio's reports in fio 3.33's layouts: normal,
// JSON, JSON+ and terse. Every format is a pure function of a Result: no
// format reads the clock, the environment or any global state.
//
// Derived numbers (bandwidth, IOPS, per=/bw_agg, group aggregates, the
// unified_rw_reporting fold, distribution percentages) are computed from
// the raw stats.Job counters at print time, the same way for every
// format. When several formats are selected fio prints, in this fixed
// order: every terse line, then the JSON document, then the normal
// report.
package output

import (
	"time"

	"github.com/gofio/gofio/stats"
)

// Result is everything a final report prints.
type Result struct {
	// Time is the moment the report is built: the JSON timestamp keys and
	// the date on each job's title line.
	Time time.Time
	// GlobalOptions are the options given in [global] sections or before
	// the first --name, as typed (JSON "global options"); nil when none
	// were given, non-nil and empty when only valueless ones were.
	GlobalOptions []Option
	// Jobs are the reported records in job order: one per job, or one per
	// group of jobs merged under group_reporting.
	Jobs []Job
	// Groups lists the reporting groups by ID, 0 to the highest.
	Groups []Group
	// Disks are the block devices the jobs used, in first-seen order.
	Disks []Disk
	// ElapsedMS is the time from the start of the first job to the report.
	ElapsedMS uint64
	// Notices are the lines fio prints on its info stream while it builds
	// the report ("fio: kb_base differs for jobs in group, using 1024 as
	// the base"); no format prints them.
	Notices []string
}

// Option is one option as the user wrote it: canonical name, raw value.
type Option struct {
	Name, Value string
}

// Job is one reported record: a job, or a group merged under
// group_reporting.
type Job struct {
	Name        string
	Description string
	GroupID     int
	Pid         int
	// Error is the job's error number (0 if none) and ErrorText fio's
	// verbose text for it, shown on the title line.
	Error     int
	ErrorText string
	// Options are the options explicitly set for this job, in fio's order
	// (JSON "job options"); nil leaves the key out, as for a job with no
	// options of its own.
	Options []Option

	// Stats are the job's raw counters; Stats.Members is the jobs= count
	// of the title line (0 is shown as 1). Direction statistics are kept
	// per direction even under unified_rw_reporting: the reports fold
	// them.
	Stats stats.Job

	// Reporting settings (from the first member).
	KBBase   int // 1024 or 1000 (0 means 1024)
	UnitBase int // fio's unit_base value: 1 for bits, 8 (or 0) for bytes, -1 no unit (fio's "All clients")
	SigFigs  int // significant_figures (0 means the default, 4)
	Unified  int // unified_rw_reporting: 0 none, 1 mixed, 2 both
	// Percentiles is percentile_list as given (the reports apply
	// stats.EffectiveList); nil means fio's default list, whose labels
	// have 2 decimals.
	Percentiles []float64
	// PercentilePrecision is the largest number of decimals among the
	// percentile_list entries as typed ("99.999" gives 3); it sets the
	// labels of the normal report and is used only with Percentiles.
	PercentilePrecision int
	// The percentile switches: clat_percentiles (fio's default is on),
	// lat_percentiles, slat_percentiles, each already forced off by
	// gtod_reduce or the matching disable_* option.
	ClatPercentiles bool
	LatPercentiles  bool
	SlatPercentiles bool

	// Latency-target line; Depth 0 means the job never reached its I/O
	// loop and the line (and JSON latency_* keys) are left out.
	LatencyTarget     uint64 // ns
	LatencyWindow     uint64 // µs
	LatencyPercentile float64
	Depth             int

	// BlockLifetime is block_error_percentiles: the normal report's
	// "block lifetime percentiles" section, empty (fio 3.33 prints it so
	// for a job that does not trim).
	BlockLifetime bool

	// ErrorCheck is set when continue_on_error is not "none": the normal
	// report then prints an "errors" line, JSON total_err/first_error
	// and terse two trailing fields. TotalErrors counts the errors
	// ignored, FirstError is the first one's number and FirstErrorText
	// its strerror text ("No space left on device").
	ErrorCheck     bool
	TotalErrors    uint64
	FirstError     int
	FirstErrorText string

	// Steady is the steady-state detection outcome; nil when the job has
	// no steadystate option (no "steadystate" line or JSON object).
	Steady *SteadyState

	// Remote is the server a client-mode report came from (JSON
	// "hostname" and "port"); nil for a local job.
	Remote *Remote
}

// Remote names a server in client/server mode: the address as given on
// the client's command line, and the port.
type Remote struct {
	Hostname string
	Port     int
}

// SteadyState is the outcome of steady-state detection (the steadystate
// and steadystate_duration options) as fio reports it.
type SteadyState struct {
	// The option: metric (IOPS, else bandwidth), criterion kind (Slope,
	// else mean deviation), the limit, and whether the limit was given
	// as a percentage.
	IOPS  bool
	Slope bool
	Limit float32
	Pct   bool
	// DurationS is steadystate_duration in seconds.
	DurationS uint64
	Attained  bool
	// Criterion is the last computed criterion (slope or deviation), a
	// percentage when Pct is set; NaN when it could not be computed
	// (e.g. a slope over a single sample).
	Criterion    float32
	MaxDeviation float64
	SlopeValue   float64
	// BWMean (bytes/s) and IOPSMean are the means over the window;
	// BWData (bytes/s) and IOPSData are the window's samples, one per
	// second, oldest first.
	BWMean   uint64
	IOPSMean uint64
	IOPSData []uint64
	BWData   []uint64
}

// Group is one "Run status group".
type Group struct {
	ID       int
	KBBase   int
	UnitBase int
	SigFigs  int
	Unified  int
}

// Disk is one block device's statistics over the run.
type Disk struct {
	Name                  string
	ReadIOs, WriteIOs     uint64
	ReadMerges            uint64
	WriteMerges           uint64
	ReadTicks, WriteTicks uint64
	InQueue               uint64
	Util                  float64 // percent, capped at 100
	// Slaves holds the aggregate of a device's slave devices (dm, md);
	// nil for a device without slaves.
	Slaves *DiskAggregate
	// Remote is the server that reported the disk in client mode.
	Remote *Remote
}

// DiskAggregate is the average over a device's slaves.
type DiskAggregate struct {
	ReadIOs, WriteIOs     uint64
	ReadMerges            uint64
	WriteMerges           uint64
	ReadTicks, WriteTicks uint64
	InQueue               uint64
	Util                  float64 // highest slave util
}

// Header describes a job at parse time, for the line fio prints before it
// starts: "NAME: (g=G): rw=RW, bs=(R) ..., ioengine=ENGINE, iodepth=D".
type Header struct {
	Name        string
	GroupID     int
	RW          string
	BSMin       [3]uint64 // per direction
	BSMax       [3]uint64
	BSIsSeqRand bool
	IOEngine    string
	IODepth     int
	// Clones is numjobs: a "..." line follows when it is above 1.
	Clones int
	// KBBase and SigFigs spell the block sizes (kb_base, 0 meaning 1024;
	// significant_figures, 0 meaning 4).
	KBBase  int
	SigFigs int
}
