package runner

// The errors a job survived, as its report gives them (which errors it
// survives is runner/ioerr).

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
)

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
