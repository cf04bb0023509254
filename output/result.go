// Package output prints gofio's reports in fio 3.33's layouts: normal,
// JSON, JSON+ and terse. Every format is a pure function of a Result: no
// format reads the clock, the environment or any global state.
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
	// (JSON "job options").
	Options []Option

	Stats stats.Job

	// Reporting settings (from the first member).
	KBBase              int // 1024 or 1000
	UnitBase            int // 8 for bits, 1 (or 0) for bytes
	SigFigs             int // significant_figures, default 4
	Unified             int // unified_rw_reporting: 0 none, 1 mixed, 2 both
	Percentiles         []float64
	PercentilePrecision int // decimals of the percentile labels, normal output
	ClatPercentiles     bool
	LatPercentiles      bool
	SlatPercentiles     bool

	// Latency-target line; Depth 0 means the job never reached its I/O
	// loop and the line (and JSON latency_* keys) are left out.
	LatencyTarget     uint64 // ns
	LatencyWindow     uint64 // µs
	LatencyPercentile float64
	Depth             int
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
	Name      string
	GroupID   int
	RW        string
	BSMin     [3]uint64 // per direction
	BSMax     [3]uint64
	BSIsSeqRand bool
	IOEngine  string
	IODepth   int
	// Clones is numjobs: a "..." line follows when it is above 1.
	Clones int
}
