package runner

import (
	"fmt"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// ignore_error gives, per class of error (read, write, verify), the errors
// a job survives. As observed with fio 3.33:
//
//   - A class with a list behaves as if continue_on_error covered it, with
//     the list in place of fio's default non-fatal errors (EIO, EILSEQ):
//     a listed error is counted ("errors    : total=N, first_error=...")
//     and the job goes on; any other error of the class is counted too
//     and ends the job. Trims and syncs take the write list.
//   - A survived error becomes the job's error (err=28 in the report) but
//     not a failure: the exit status stays 0. Its function is "xfer" for
//     the sync engines, none for the others ("err=28 ()"); with
//     error_dump=1 each survived error is printed and the function is
//     "io_u error".
//   - Giving ignore_error at all turns on the report's error line.

// Error classes, ignore_error's lists.
const (
	ignoreRead = iota
	ignoreWrite
	ignoreVerify
)

// ignoreList is the ignore_error list covering op, and whether there is
// one.
func ignoreList(j *jobspec.Job, op engine.Op) ([]int, bool) {
	class := ignoreWrite
	if op == engine.OpRead {
		class = ignoreRead
	}
	l := j.Misc.IgnoreError[class]
	return l, len(l) > 0
}

// ignoresVerify reports whether ignore_error's verify list holds the
// error of a bad block (EILSEQ).
func ignoresVerify(j *jobspec.Job) bool {
	return slices.Contains(j.Misc.IgnoreError[ignoreVerify], int(unix.EILSEQ))
}

// nonFatal reports whether a job survives e: it is on the class's
// ignore_error list when there is one, else one of fio's default
// non-fatal errors.
func nonFatal(e unix.Errno, list []int, listed bool) bool {
	if listed {
		return slices.Contains(list, int(e))
	}
	return e == unix.EIO || e == unix.EILSEQ
}

// survive notes an error ignore_error let the job survive. The first one
// becomes the job's reported error.
func (s *ioErrors) survive(e unix.Errno, fn string, dump bool) {
	if s.survived != 0 {
		return
	}
	s.survived, s.survivedFn = e, "xfer"
	if dump {
		s.survivedFn = fn
	}
}

// survivedText is the report's text for a survived error: fio's
// "file:..., func=F, error=TEXT", empty where the engine (an asynchronous
// one) names no function.
func (s *ioErrors) survivedText(async bool) string {
	if s.survived == 0 || (async && s.survivedFn == "xfer") {
		return ""
	}
	return fmt.Sprintf("file:runner, func=%s, error=%s", s.survivedFn, errno.Text(s.survived))
}

// survivedText is the report's error text of task t: text, its own,
// unless only a survived error is to report.
func survivedText(t *task, s *ioErrors, text string) string {
	if t.err != 0 || s.survived == 0 {
		return text
	}
	return s.survivedText(t.w != nil && t.w.reaper != nil)
}
