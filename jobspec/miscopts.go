package jobspec

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// MiscOptions are the job options that each touch one corner of a run:
// filling a device, ignored errors, the clock source, file locking and
// the rest. The zero value is fio's default for each.
type MiscOptions struct {
	// FillDevice is fill_device (fill_fs): write until ENOSPC or EDQUOT,
	// which then ends the job cleanly; without size= the files are
	// "really large".
	FillDevice bool
	// IgnoreError is ignore_error: the errors survived per class (read,
	// write, verify), errno numbers; IgnoreErrorSet is whether the
	// option was given at all (it turns on the report's error line).
	IgnoreError    [3][]int
	IgnoreErrorSet bool
	// Clock is clocksource.
	Clock ClockSource
	// Profile is profile= in a job: fio 3.33 stores the name (any
	// word, shown in the JSON "job options") and otherwise runs the job
	// as if it were absent; only --profile runs a profile.
	Profile string
	// NoUniqueFilename is unique_filename=0. The option only changes
	// the names of files a client's jobs create on a server; gofio's
	// client/server mode names them as with the default.
	NoUniqueFilename bool
	// NoCreateFsync is create_fsync=0: files laid out are not fsynced
	// after they are written.
	NoCreateFsync bool
	// FilePrefix, set by a server for its client's jobs, is prefixed to
	// the names of files in directory= ("127.0.0.1."): unique_filename.
	FilePrefix string
	// LockFile is lockfile.
	LockFile LockMode
	// BlockErrorPercentiles is block_error_percentiles.
	BlockErrorPercentiles bool
	// SubmitOffload is io_submit_mode=offload: the job's I/Os are
	// submitted and reaped by a thread of their own.
	SubmitOffload bool
	// Opendir is opendir: a directory whose files, recursively, the
	// job adds to its own.
	Opendir string
	// SerializeOverlap is serialize_overlap.
	SerializeOverlap bool
	// HugepageSize is hugepage-size (its row's default, 2 MiB, unless
	// set); an explicit 0 means 2 MiB too (HugePage).
	HugepageSize uint64
	// GtodCPU is gtod_cpu plus one; 0 when unset. The run then keeps a
	// thread pinned to that CPU reading the clock, as fio 3.33 does (it
	// leaves the jobs' CPU masks alone).
	GtodCPU int
	// WriteBarrier is write_barrier. fio marks every Nth write a
	// barrier write, a flag its sync, libaio, io_uring, posixaio and mmap
	// engines ignore (plain pwrite, as strace shows); so do gofio's.
	WriteBarrier int
	// Atomic is atomic: O_DIRECT plus fio's O_ATOMIC open flag.
	Atomic bool
}

// ClockSource is clocksource: the timer fio bases its timing on.
type ClockSource uint8

// The clocksource choices.
const (
	ClockDefault      ClockSource = iota // not set: clock_gettime
	ClockGettimeofday                    // gettimeofday(2)
	ClockGettime                         // clock_gettime(2)
	ClockCPU                             // the CPU's time stamp counter
)

// LockMode is lockfile: how jobs sharing a file serialize their I/O.
type LockMode uint8

// The lockfile choices.
const (
	LockNone      LockMode = iota // no locking
	LockExclusive                 // one I/O at a time, of any job
	LockReadWrite                 // many reads or one write at a time
)

// DefaultHugepageSize is hugepage-size's default, 2 MiB.
const DefaultHugepageSize = 2 << 20

// HugePage is the job's hugepage-size.
func (m *MiscOptions) HugePage() uint64 {
	if m.HugepageSize == 0 {
		return DefaultHugepageSize
	}
	return m.HugepageSize
}

// setIgnoreError reads ignore_error. A later ignore_error replaces the
// lists of an earlier one.
func setIgnoreError(j *Job, value string) error {
	lists, err := parseIgnoreError(value)
	if err != nil {
		return err
	}
	j.Misc.IgnoreError, j.Misc.IgnoreErrorSet = lists, true
	return nil
}

// parseIgnoreError reads ignore_error's lists: up to three comma-separated
// lists (read, write, verify) of ':'-separated errno names or numbers. The
// error names the first entry that is neither, in fio's words.
func parseIgnoreError(value string) ([3][]int, error) {
	var lists [3][]int
	for i, list := range strings.Split(value, ",") {
		if i >= 3 {
			break
		}
		for _, e := range strings.Split(list, ":") {
			if e == "" {
				continue
			}
			if n, err := strconv.Atoi(e); err == nil {
				if n < 0 {
					n = -n
				}
				lists[i] = append(lists[i], n)
				continue
			}
			en, ok := ignoreErrnoByName(e)
			if !ok {
				return lists, fmt.Errorf("Unknown error %s, please use number value", e)
			}
			lists[i] = append(lists[i], int(en))
		}
	}
	return lists, nil
}

// ignoreErrnoByName finds an errno ignore_error names: fio 3.33 knows
// the names of errors 1 (EPERM) to 34 (ERANGE) only; others must be
// given as numbers.
func ignoreErrnoByName(name string) (syscall.Errno, bool) {
	e, ok := errnoByName(name)
	if !ok || e < 1 || e > 34 {
		return 0, false
	}
	return e, true
}

// clockSources are clocksource's values, one per word of its row.
var clockSources = choiceValues("clocksource", ClockGettimeofday, ClockGettime, ClockCPU)

// setClockSource reads clocksource. gofio times everything with
// clock_gettime(CLOCK_MONOTONIC) through the vDSO; clocksource=cpu is
// honoured where the kernel's clock source is the CPU's time stamp
// counter (the vDSO then reads it, as fio's cpu clock does), and
// gettimeofday's microseconds are the monotonic clock's, truncated
// (runner/stamp.go).
func setClockSource(j *Job, i int, _ string, value string) error {
	if c := clockSources[i]; c == ClockCPU {
		if src := kernelClockSource(); src != "tsc" {
			return &RefusedError{Option: "clocksource", Value: value,
				Reason: fmt.Sprintf("the kernel clock source is %q, not tsc, so gofio's clock (the kernel's) does not read the CPU's counter; use clocksource=clock_gettime", src)}
		}
	}
	j.Misc.Clock = clockSources[i]
	return nil
}

// clockSourcePath is where the kernel names its current clock source.
var clockSourcePath = "/sys/devices/system/clocksource/clocksource0/current_clocksource"

// kernelClockSource is the kernel's current clock source ("tsc"), or
// "unknown".
func kernelClockSource() string {
	b, err := os.ReadFile(clockSourcePath)
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}

var storeSubmitMode = storeChoice(func(j *Job) *bool { return &j.Misc.SubmitOffload }, false, true)

var storeLockFile = storeChoice(func(j *Job) *LockMode { return &j.Misc.LockFile }, LockNone, LockExclusive, LockReadWrite)

func setOpendir(j *Job, value string) error {
	j.Misc.Opendir = value
	return nil
}

// setHugepageSize and setGtodCPU store the first piece, if it reads (the
// reader refused values fio refuses; hugepage-size=abc,1 leaves it as it
// was, as in fio).
func setHugepageSize(j *Job, value string) error {
	v, err := intPiece("hugepage-size", value, j.KBBase)
	if err != nil {
		return nil
	}
	j.Misc.HugepageSize = uint64(uint32(v))
	return nil
}

func setGtodCPU(j *Job, value string) error {
	v, err := intPiece("gtod_cpu", value, j.KBBase)
	if err != nil {
		return nil
	}
	// fio's field is unsigned: gtod_cpu=-1 is CPU 4294967295, which its
	// thread cannot be pinned to (observed: "gtod: setaffinity failed").
	j.Misc.GtodCPU = int(uint32(v)) + 1
	return nil
}

// setAtomic stores atomic, which implies direct=1.
func setAtomic(j *Job, v bool, _ string) error {
	j.Misc.Atomic = v
	if v {
		j.Direct = true
	}
	return nil
}

// OpendirFiles lists the regular files under dir, recursively, as
// opendir adds them to a job: each named dir/sub/name, in name order.
func OpendirFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("opendir %s: %w", dir, err)
	}
	return files, nil
}

// setBlockErrorPercentiles reads block_error_percentiles. fio 3.33
// prints an empty "block lifetime percentiles" section (every count 0)
// for a job that does not trim, and aborts on an assertion
// (block_state_category) once one trims: gofio refuses the latter when
// the job is added (blockErrorProblem).
func setBlockErrorPercentiles(j *Job, v bool, value string) error {
	j.Misc.BlockErrorPercentiles = v
	return nil
}

// blockErrorProblem is the error of a job gofio refuses to run for its
// block_error_percentiles, or "".
func (j *Job) blockErrorProblem() string {
	if !j.Misc.BlockErrorPercentiles || !j.RW.Trims() {
		return ""
	}
	return fmt.Sprintf("gofio: job %s: block_error_percentiles=1 with a job that trims is refused: fio 3.33 aborts on an assertion "+
		"(block_state_category) there, and gofio does not track trim-block lifetimes; leave block_error_percentiles out "+
		"(the trim counts and latencies are in the report)", j.Name)
}

// MemLen is the length of the job's buffer memory of n bytes: with huge
// pages (mem=shmhuge, mem=mmaphuge) fio rounds it up to a whole number
// of hugepage-size pages.
func (j *Job) MemLen(n int) int {
	if j.Mem != MemShmHuge && j.Mem != MemMmapHuge {
		return n
	}
	hp := int(j.Misc.HugePage())
	if hp <= 0 {
		return n
	}
	return (n + hp - 1) / hp * hp
}
