package trace

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
)

// Writer writes one job's trace.
type Writer struct {
	f       *os.File
	bw      *bufio.Writer
	line    []byte // scratch, reused for each line
	lastOff int64
}

// NewWriter opens path for appending and writes the header.
func NewWriter(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("fio: write_iolog: %w", err)
	}
	t := &Writer{f: f, bw: bufio.NewWriterSize(f, 64<<10), line: make([]byte, 0, 4096+64)}
	t.bw.WriteString("fio version 3 iolog\n")
	return t, nil
}

// FileAction logs a file action (add, open, close) at ns since the start.
func (t *Writer) FileAction(name, action string, ns int64) {
	b := t.stamp(ns, name)
	b = append(b, action...)
	b = append(b, '\n')
	t.bw.Write(b)
}

// IO logs a data I/O (action read, write or trim) of n bytes at offset
// off on the named file at ns since the start.
func (t *Writer) IO(name, action string, off int64, n int, ns int64) {
	t.lastOff = off
	t.op(name, action, off, n, ns)
}

// Sync logs a sync of the named file (action sync, datasync or
// sync_file_range) at ns since the start; its offset is that of the
// last I/O logged.
func (t *Writer) Sync(name, action string, ns int64) {
	t.op(name, action, t.lastOff, 0, ns)
}

// op logs an I/O action.
func (t *Writer) op(name, action string, off int64, n int, ns int64) {
	b := t.stamp(ns, name)
	b = append(b, action...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, off, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, '\n')
	t.bw.Write(b)
}

// stamp starts a line: the time in µs and the file name.
func (t *Writer) stamp(ns int64, name string) []byte {
	b := strconv.AppendInt(t.line[:0], max(ns, 0)/1000, 10)
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, ' ')
	t.line = b[:0]
	return b
}

// Close flushes and closes the trace.
func (t *Writer) Close() error {
	err := t.bw.Flush()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}
