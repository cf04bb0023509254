package main

import (
	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/runner"
)

// --exit-status=detailed: an exit status that says what failed. fio
// 3.33 exits 0 or 1 (plus 128 when interrupted), and so does gofio by
// default; the detailed codes are opt-in. 2 is --gate's code for a
// crossed gate (results.go): in both a performance target was missed.
const (
	exitTargetMissed = gateStatus // rate_min, rate_iops_min or max_latency missed
	exitUsage        = 3          // command line or job file refused: nothing ran
	exitIOError      = 4          // a job ended with an I/O error
	exitVerify       = 5          // a verify failure
	exitInterrupted  = 130        // SIGINT or SIGTERM stopped the jobs
)

// usageStatus is the status of a run refused before any job started.
func (g gofioOpts) usageStatus(code int) int {
	if g.detailed && code != 0 {
		return exitUsage
	}
	return code
}

// detailedStatus is the status of a finished run: the most serious of
// its failures (interruption, then verify failure, then I/O error, then
// a missed rate or latency target), 0 without any.
func detailedStatus(oc *runner.Outcome, interrupted bool) int {
	if interrupted {
		return exitInterrupted
	}
	code := 0
	for _, e := range oc.Errors {
		c := exitIOError
		switch {
		case e.Errno == unix.EILSEQ:
			c = exitVerify
		case e.Func == "check_min_rate" || e.Func == "max latency exceeded":
			c = exitTargetMissed
		}
		code = max(code, rank(c))
	}
	return unrank(code)
}

// severity orders the run's failure codes, least serious first.
var severity = []int{0, exitTargetMissed, exitIOError, exitVerify}

func rank(code int) int {
	for i, c := range severity {
		if c == code {
			return i
		}
	}
	return 0
}

func unrank(r int) int { return severity[r] }
