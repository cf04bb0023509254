package jobspec

// This file adds jobs as fio does once their options are read: the
// checks made outside dry runs, reporting groups and numjobs clones.

import (
	"fmt"
	"strings"

	"github.com/gofio/gofio/parser"
)

// includeFailure is the line fio prints for a job whose include file
// could not be opened.
func includeFailure(sec parser.Section) string {
	if sec.IncludeErr == nil {
		return ""
	}
	msg := sec.IncludeErr.Error()
	if e := parser.Errno(sec.IncludeErr); e != 0 {
		msg = errnoText(e)
	}
	return "fio: file:init.c:1956, func=job file open, error=" + msg
}

// MaxJobs is the size of fio 3.33's job table: a run holds at most this
// many jobs, clones included (observed: 4088 jobs run, and one more, by
// numjobs or as one more section, is refused).
const MaxJobs = 4088

// JobLimitMessage is the line fio prints when its job table is full.
const JobLimitMessage = "error: maximum number of jobs reached."

// tooManyJobs prints what fio prints when its job table is full, and
// returns it as an *Error (exit status 1).
func (b *Builder) tooManyJobs() error {
	b.errln(JobLimitMessage)
	return b.fail("error: failed to setup shm segment")
}

// addJob adds a job: outside dry runs with fio's checks, then numbers its
// reporting group and creates its numjobs clones (numjobs=0: clones until
// the job table is full, as fio does).
func (b *Builder) addJob(j *Job, includeErr string) error {
	if !b.cfg.DryRun && len(b.plan.Jobs) >= MaxJobs {
		return b.tooManyJobs()
	}
	if includeErr != "" {
		fmt.Fprintln(b.info(), includeErr)
		if !b.cfg.DryRun {
			return &Error{Msg: includeErr}
		}
	}
	if !b.cfg.DryRun {
		if err := b.check(j); err != nil {
			return err
		}
	}
	if b.cfg.DryRun {
		// fio discards jobs added under --parse-only or --showcmd; jobs
		// added before those options appear on the command line run.
		return nil
	}
	if len(b.plan.Jobs) > 0 && (j.Stonewall || j.NewGroup) {
		b.group++
	}
	j.GroupID = b.group
	b.plan.Jobs = append(b.plan.Jobs, j)
	j.ThreadNumber = len(b.plan.Jobs)
	j.drawStartDelay() // before the clones copy it, as in fio
	b.origins = append(b.origins, j)
	n := j.NumJobs
	if n == 0 {
		n = MaxJobs + 1
	}
	if len(b.plan.Jobs)-1+n > MaxJobs {
		// fio announces the job but not its "..." line, the clones
		// having failed; the plan is not run.
		j.NumJobs = 1
		return b.tooManyJobs()
	}
	for k := n - 1; k >= 1; k-- {
		c := j.clone()
		c.JobNum = k
		c.Stonewall, c.NewGroup = false, false
		if msg := c.Verify.timeBasedNotice(c); msg != "" {
			fmt.Fprintln(b.info(), msg) // fio says it for each clone
		}
		b.plan.Jobs = append(b.plan.Jobs, c)
		c.ThreadNumber = len(b.plan.Jobs)
	}
	return nil
}

// check makes the checks fio makes when it adds a job, and settles derived
// settings.
func (b *Builder) check(j *Job) error {
	j.resolveZones()
	if j.Loops == 0 {
		j.Loops = 1 // fio runs a job with loops=0 once
	}
	if _, known := ResolveEngine(j.IOEngine); !known && !strings.HasPrefix(j.IOEngine, "external:") {
		return b.engineNotLoadable(j.IOEngine, true)
	}
	if mb := min(j.BS[0], j.BS[1], j.BS[2]); j.Size != 0 && j.Size < mb {
		// fio compares size with the smallest block size of any
		// direction, whatever the job does.
		return b.fail(fmt.Sprintf("fio: size too small, must not be less than minimum block size: %d < %d", j.Size, mb))
	}
	if b.cfg.ReadOnly && (j.RW.Writes() || j.RW.Trims()) {
		return b.fail("fio: trim and write operations are not allowed with the --readonly parameter.")
	}
	if j.Rate != [3]uint64{} && j.RateIOPS != [3]uint64{} {
		return b.fail("fio: rate and rate_iops are mutually exclusive")
	}
	if msg := j.rateMinProblems(); msg != "" {
		return b.fail(msg)
	}
	if msg := j.dedupeProblem(); msg != "" {
		return b.fail(msg)
	}
	j.Verify.fitInterval(j)
	if msg := j.Verify.problem(j); msg != "" {
		return b.fail(msg)
	}
	if msg := j.zoneProblem(); msg != "" {
		return b.fail(msg)
	}
	if msg := j.blockErrorProblem(); msg != "" {
		return b.fail(msg)
	}
	if msg := j.altClockProblem(); msg != "" {
		return b.fail(msg)
	}
	if j.WaitFor != "" {
		if err := b.checkWaitFor(j); err != nil {
			return err
		}
	}
	if j.IODepthBatchCompleteMax == 0 {
		j.IODepthBatchCompleteMax = j.IODepthBatchCompleteMin
	}
	if j.IODepthLow == 0 || j.IODepthLow > j.IODepth {
		j.IODepthLow = j.IODepth
	}
	if j.IODepthBatchSubmit == 0 || j.IODepthBatchSubmit > j.IODepth {
		j.IODepthBatchSubmit = j.IODepth
	}
	if j.RW.Random() && !j.NoRandomMap && j.blockAlignOffMap() {
		// As fio 3.33 does, and says on stderr once per job given.
		j.NoRandomMap = true
		b.errln("fio: Any use of blockalign= turns off randommap")
	}
	if j.TimeBased && j.Runtime == 0 {
		j.TimeBased = false
		msg := "fio: time_based requires a runtime/timeout setting"
		b.errln(msg)
		if b.cfg.WarningsFatal {
			return &Error{Msg: msg}
		}
	}
	if j.NumJobs > 1 && len(j.Filename) > 0 && j.Verify.Type != VerifyNone && j.Verify.Do && j.RW.Writes() {
		// As fio 3.33 warns (observed: numjobs clones sharing a named
		// file, once per job).
		fmt.Fprintln(b.info(), "fio: multiple writers may overwrite blocks that belong to other jobs. This can cause verification failures.")
	}
	if msg := j.Verify.timeBasedNotice(j); msg != "" {
		fmt.Fprintln(b.info(), msg)
	}
	return nil
}

// blockAlignOffMap reports whether a direction's blockalign, set, is not
// its smallest block size: fio 3.33 then turns the random map off for the
// whole job, whichever directions it uses (rw=randread with
// blockalign=4k,8k and bs=4k).
func (j *Job) blockAlignOffMap() bool {
	for d, ba := range j.BlockAlign {
		if ba != 0 && ba != j.BS[d] {
			return true
		}
	}
	return false
}

// checkWaitFor checks wait_for against the jobs added before this one.
func (b *Builder) checkWaitFor(j *Job) error {
	if j.WaitFor == j.Name {
		return b.fail(fmt.Sprintf("%s: a job cannot wait for itself (wait_for=%s).", j.Name, j.WaitFor))
	}
	n := 0
	for _, o := range b.origins {
		if o.Name == j.WaitFor {
			n++
		}
	}
	switch {
	case n == 0:
		return b.fail(fmt.Sprintf("%s: waitee job %s unknown.", j.Name, j.WaitFor))
	case n > 1:
		return b.fail(fmt.Sprintf("%s: multiple waitees %s found,\nplease avoid duplicates when using wait_for option.", j.Name, j.WaitFor))
	}
	return nil
}

// dedupeProblem is fio 3.33's refusal of dedupe_mode=working_set
// settings, or "".
func (j *Job) dedupeProblem() string {
	if j.DedupeMode != DedupeWorkingSet {
		return ""
	}
	if j.DedupePercentage+j.DedupeWorkingSetPct > 100 {
		return fmt.Sprintf("fio: impossible to reach expected dedupe percentage %d since %d percentage of size is reserved to dedupe working set (those are unique pages)", j.DedupePercentage, j.DedupeWorkingSetPct)
	}
	n := len(j.Filename)
	if n == 0 {
		n = j.NRFiles
	}
	if j.DedupePercentage > 0 && n > 1 {
		return fmt.Sprintf("fio: dedupe working set mode supported with single file per job, but %d files provided", n)
	}
	return ""
}
