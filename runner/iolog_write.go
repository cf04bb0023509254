package runner

// Writing a trace (write_iolog), as fio 3.33 writes it: the file is
// opened for appending and gets the header "fio version 3 iolog", then
// one line per action, each stamped with the microseconds since the job
// started:
//
//	USEC FILE add          every file, when the job starts
//	USEC FILE open         when the job opens it
//	USEC FILE read OFFSET LENGTH    (write, trim) when the I/O is issued
//	USEC FILE sync OFFSET 0         (datasync, sync_file_range)
//	USEC FILE close        when the job closes it
//
// A sync's OFFSET is that of the I/O logged before it, as fio's (which
// keeps the offset its unit last had).

import (
	"bufio"
	"fmt"
	"os"
	"strconv"

	"github.com/gofio/gofio/runner/engine"
)

// traceWriter writes one job's trace.
type traceWriter struct {
	f       *os.File
	bw      *bufio.Writer
	line    []byte // scratch, reused for each line
	added   bool
	lastOff int64
}

// newTraceWriter opens path for appending and writes the header.
func newTraceWriter(path string) (*traceWriter, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("fio: write_iolog: %w", err)
	}
	t := &traceWriter{f: f, bw: bufio.NewWriterSize(f, 64<<10), line: make([]byte, 0, 4096+64)}
	t.bw.WriteString("fio version 3 iolog\n")
	return t, nil
}

// traceOpNames are the actions fio logs for each operation.
var traceOpNames = [...]string{
	engine.OpRead: "read", engine.OpWrite: "write", engine.OpTrim: "trim", engine.OpFsync: "sync",
	engine.OpFdatasync: "datasync", engine.OpSyncFileRange: "sync_file_range",
}

// fileAction logs a file action (add, open, close) at ns since the start.
func (t *traceWriter) fileAction(name, action string, ns int64) {
	b := t.stamp(ns, name)
	b = append(b, action...)
	b = append(b, '\n')
	t.bw.Write(b)
}

// io logs the I/O in u on the named file at ns since the start.
func (t *traceWriter) io(name string, u *engine.IOUnit, ns int64) {
	b := t.stamp(ns, name)
	b = append(b, traceOpNames[u.Op]...)
	b = append(b, ' ')
	off, n := u.Offset, len(u.Buf)
	if !u.Op.IsData() {
		off, n = t.lastOff, 0
	} else {
		t.lastOff = off
	}
	b = strconv.AppendInt(b, off, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, '\n')
	t.bw.Write(b)
}

// stamp starts a line: the time in µs and the file name.
func (t *traceWriter) stamp(ns int64, name string) []byte {
	b := strconv.AppendInt(t.line[:0], max(ns, 0)/1000, 10)
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, ' ')
	t.line = b[:0]
	return b
}

// close flushes and closes the trace.
func (t *traceWriter) close() error {
	err := t.bw.Flush()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}
