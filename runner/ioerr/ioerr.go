// Package ioerr is which I/O errors a job survives: continue_on_error
// covers the errors of some directions, which survive when fio deems
// them non-fatal (EIO, EILSEQ); ignore_error gives, per class of error
// (read, write, verify), the errors a job survives. As observed with fio
// 3.33:
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
package ioerr

import (
	"slices"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

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

// IgnoresVerify reports whether ignore_error's verify list holds the
// error of a bad block (EILSEQ).
func IgnoresVerify(j *jobspec.Job) bool {
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

// Judge tells of an error e of an I/O op of job j whether the report
// counts it (continue_on_error or ignore_error covers op) and whether it
// ends the job.
func Judge(j *jobspec.Job, op engine.Op, e unix.Errno) (counted, fatal bool) {
	list, listed := ignoreList(j, op)
	counted = continues(j.ContinueOnError, op) || listed
	return counted, !counted || !nonFatal(e, list, listed)
}

// OpName is fio's name of op in its error messages.
func OpName(op engine.Op) string { return opNames[op] }

var opNames = [...]string{engine.OpRead: "read", engine.OpWrite: "write", engine.OpTrim: "trim", engine.OpFsync: "sync", engine.OpFdatasync: "datasync", engine.OpSyncFileRange: "sync_file_range"}

// continues reports whether continue_on_error mode c covers an I/O error
// of op.
func continues(c jobspec.ContinueOnError, op engine.Op) bool {
	switch c {
	case jobspec.ContinueRead:
		return op == engine.OpRead
	case jobspec.ContinueWrite:
		return op == engine.OpWrite
	case jobspec.ContinueIO:
		return op.IsData()
	case jobspec.ContinueAll:
		return true
	}
	return false
}
