package jobspec

import (
	"fmt"
	"runtime"
)

// VerifyTrim holds the options of fio's trim-after-write check: with
// verify, trim Percentage percent of the blocks written, Batch
// (trim_backlog_batch) of them each time Backlog (trim_backlog) blocks
// were written, and check that the trimmed blocks read back as zeroes
// (Zero, trim_verify_zero).
//
// fio 3.33 (observed) trims nothing without trim_backlog (it only warns
// "fio: N trim entries leaked?" at the end), and aborts on an assertion
// when trim_backlog is set in a job whose rw does not trim. gofio runs
// the first like fio and refuses the second; rw=trimwrite and
// randtrimwrite run as in fio (runner/verify/trim.go).
type VerifyTrim struct {
	Percentage int    // trim_percentage
	Backlog    uint64 // trim_backlog
	Batch      int    // trim_backlog_batch
	Zero       bool   // trim_verify_zero
}

// problem is the error of trim settings gofio refuses to run with, or "".
// It is asked only when the job verifies.
func (t *VerifyTrim) problem(j *Job) string {
	if t.Percentage == 0 || t.Backlog == 0 || !j.Verify.Do || !j.RW.Writes() {
		return ""
	}
	if !j.RW.Trims() {
		return fmt.Sprintf("gofio: job %s: trim_percentage with trim_backlog needs a job that trims (rw=trimwrite or randtrimwrite); fio 3.33 aborts on an assertion", j.Name)
	}
	return ""
}

// setVerifyAsyncCPUs stores verify_async_cpus (cpus_allowed's syntax;
// the reader has checked the CPUs exist here). gofio verifies in the
// job's own thread, so the set is only recorded.
func setVerifyAsyncCPUs(j *Job, value string) error {
	cpus, _ := cpuList(value, runtime.NumCPU())
	j.Verify.AsyncCPUs = cpus
	return nil
}
