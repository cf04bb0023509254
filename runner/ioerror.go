package runner

import (
	"fmt"
	"io"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/ioerr"
)

// ioErrors is what a worker knows about its I/O errors: where to report
// them and, under continue_on_error, how many it survived.
type ioErrors struct {
	out  io.Writer // stderr; nil reports nothing
	info io.Writer // runtime messages (stdout); nil reports nothing
	// seen is set once the job has completed (or failed) an I/O: fio's
	// zoned-device hint is for a failing first I/O only.
	seen  bool
	total uint64 // errors counted under continue_on_error
	first unix.Errno
	// survived is the first error ignore_error let the job survive, the
	// job's reported error, with its function (ignoreerror.go).
	survived   unix.Errno
	survivedFn string
}

// ioFailed handles a unit that failed, or that moved no data at all (a
// read at the end of a file that shrank under the job), which fio counts
// as an I/O error of its own ("full resid", EIO). The error ends the job
// unless continue_on_error covers the unit's direction and the error is
// one fio deems non-fatal (EIO, EILSEQ); either way an error of a covered
// direction is counted for the report. fio prints each fatal error, and
// with error_dump each survived one too.
func (w *worker) ioFailed(u *engine.IOUnit) {
	first := !w.ioerr.seen
	w.ioerr.seen = true
	e, fn := u.Err, "io_u error"
	if u.ErrFn != "" {
		fn = u.ErrFn // the engine refused the unit (td_io_queue)
	}
	if e == 0 {
		e, fn = unix.EIO, "full resid"
	}
	if w.filled(u, e) {
		return
	}
	covered, fatal := ioerr.Judge(w.job, u.Op, e)
	if covered {
		w.ioerr.total++
		if w.ioerr.first == 0 {
			w.ioerr.first = e
		}
	}
	if !fatal {
		// fio 3.33 reports the first error a job survived, by
		// ignore_error or by continue_on_error (EIO read under
		// continue_on_error=read: "err= 5 (..., func=xfer, ...)").
		w.ioerr.survive(e, fn, w.job.ErrorDump)
	}
	if fn == "io_u error" && (fatal || w.job.ErrorDump) && w.ioerr.out != nil {
		fmt.Fprintf(w.ioerr.out, "fio: io_u error on file %s: %s: %s offset=%d, buflen=%d\n",
			w.files[u.File].path, errno.Text(e), ioerr.OpName(u.Op), u.Offset, len(u.Buf))
	}
	if first && w.reaper == nil {
		w.firstFailed(u, e)
	}
	if fatal {
		w.fail(e, fn)
	}
}

// firstFailed prints fio 3.33's hints when the first I/O of a job on a
// synchronous engine fails (survived or not; libaio and io_uring print
// none): a direct I/O refused with EINVAL, an EIO from a block device.
func (w *worker) firstFailed(u *engine.IOUnit, e unix.Errno) {
	out := w.ioerr.infoOrErr()
	if out == nil {
		return
	}
	f := w.files[u.File]
	switch {
	case e == unix.EINVAL && w.job.Direct:
		fmt.Fprintln(out, "fio: first direct IO errored. File system may not support direct IO, or iomem_align= is bad, or invalid block size. Try setting direct=0.")
	case e == unix.EIO && f.blockDev:
		fmt.Fprintf(out, "fio: first I/O failed. If %s is a zoned block device, consider --zonemode=zbd\n", f.path)
	}
}

// infoOrErr is the stream for runtime messages: the info stream, stderr
// where there is none (JSON and terse output, docs/compat.md).
func (s *ioErrors) infoOrErr() io.Writer {
	if s.info != nil {
		return s.info
	}
	return s.out
}

// errorTextOrSuccess is strerror's text for e, "Success" for 0, as fio's reports
// spell the first error.
func errorTextOrSuccess(e unix.Errno) string {
	if e == 0 {
		return "Success"
	}
	return errno.Text(e)
}
