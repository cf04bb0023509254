// Package trace reads, writes and replays fio's I/O traces (write_iolog,
// read_iolog), as fio 3.33 does.
package trace

// Reading fio's I/O traces (read_iolog). The formats, from fio 3.33's
// manual and its observed behaviour:
//
//	fio version 2 iolog
//	FILE add|open|close
//	FILE read|write|trim|sync|datasync|wait OFFSET LENGTH
//
//	fio version 3 iolog
//	USEC FILE add|open|close
//	USEC FILE read|write|trim|sync|datasync OFFSET LENGTH
//
// Lines fio cannot read are reported and skipped, with fio's messages:
// "bad iolog2: LINE" (or iolog3) for a wrong number of fields, "fio: bad
// iolog file action: ACTION" for an unknown action (and for an I/O line
// whose numbers do not read, which fio takes as a file action), "iolog:
// ignoring wait command with version 3 for file FILE". A v2 wait is in
// milliseconds in fio 3.33 (the manual says microseconds), and a v3
// timestamp in microseconds since the job started. Further fields after
// LENGTH are ignored. A second header line (a log appended to) is a bad
// line too, as in fio.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Kind is what one trace line does.
type Kind uint8

// The trace actions.
const (
	Read Kind = iota
	Write
	Trim
	Sync
	Datasync
	Wait
	Add
	Open
	Close
)

// ioKinds are the names of the I/O actions, by kind.
var ioKinds = map[string]Kind{
	"read": Read, "write": Write, "trim": Trim,
	"sync": Sync, "datasync": Datasync, "wait": Wait,
}

// fileKinds are the names of the file actions.
var fileKinds = map[string]Kind{"add": Add, "open": Open, "close": Close}

// Action is one line of a trace.
type Action struct {
	TS   uint64 // v3: microseconds since the start; v2 wait: the delay in µs
	File int    // index in the trace's file list
	Kind Kind
	Off  uint64
	Len  uint64
}

// reader reads a trace one action at a time.
type reader struct {
	r       *bufio.Reader
	version int
	warn    io.Writer
	// redirect sends every action to file 0 (replay_redirect).
	redirect bool
	index    map[string]int
	names    []string
	// name and action of the last line, which a line lacking them
	// keeps (fio's sscanf leaves its buffers as they were).
	name, action string
}

// headers are the first lines fio accepts, by version.
var headers = map[string]int{"fio version 2 iolog": 2, "fio version 3 iolog": 3}

// errVersion1 is fio's failure for a trace without a known header. Load
// adds the line fio prints before it for a file (not stdin), which fio
// takes for a blktrace.
var errVersion1 = errors.New("fio: iolog version 1 is no longer supported")

// newReader reads the header of the trace in r. Messages about bad
// lines go to warn.
func newReader(r io.Reader, warn io.Writer, redirect string) (*reader, error) {
	t := &reader{r: bufio.NewReaderSize(r, 64<<10), warn: warn, index: map[string]int{}}
	if redirect != "" {
		t.redirect = true
		t.names = []string{redirect}
	}
	head, err := t.r.ReadString('\n')
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("read_iolog: %w", err)
	}
	v, ok := headers[strings.TrimRight(head, "\r\n")]
	if !ok {
		return nil, errVersion1
	}
	t.version = v
	return t, nil
}

// next returns the trace's next action; ok is false at its end.
func (t *reader) next() (a Action, ok bool, err error) {
	for {
		line, rerr := t.r.ReadBytes('\n')
		if len(line) == 0 {
			if rerr == io.EOF {
				return a, false, nil
			}
			if rerr != nil {
				return a, false, fmt.Errorf("read_iolog: %w", rerr)
			}
		}
		if a, ok = t.parse(line); ok {
			return a, true, nil
		}
		if rerr == io.EOF {
			return a, false, nil
		}
	}
}

// parse reads one line; ok is false for a line that is skipped.
func (t *reader) parse(line []byte) (a Action, ok bool) {
	f := scanFields(bytes.TrimRight(line, "\n"))
	if t.version == 3 {
		// fio reads "%lu %256s %256s %llu %u": the fields that read.
		if len(f) == 0 || !f[0].num {
			f = nil
		} else {
			a.TS = f[0].n
			f = f[1:]
		}
	}
	f = f[:readCount(f)]
	// Like fio's, the name and action of a line that lacks them are the
	// last line's.
	if len(f) >= 1 {
		t.name = f[0].s
	}
	if len(f) >= 2 {
		t.action = f[1].s
	}
	name, action := t.name, t.action
	if t.version == 3 && action == "wait" {
		fmt.Fprintf(t.warn, "iolog: ignoring wait command with version 3 for file %s\n", name)
		return a, false
	}
	if len(f) != 2 && len(f) != 4 {
		fmt.Fprintf(t.warn, "bad iolog%d: %s\n", t.version, line)
		return a, false
	}
	if len(f) == 4 {
		k, known := ioKinds[action]
		if !known {
			fmt.Fprintf(t.warn, "fio: bad iolog file action: %s\n", action)
			return a, false
		}
		a.Kind, a.Off, a.Len = k, f[2].n, f[3].n
		if k == Wait {
			a.TS, a.Off, a.Len = f[2].n*1000, 0, 0
		}
	} else {
		k, known := fileKinds[action]
		if !known {
			fmt.Fprintf(t.warn, "fio: bad iolog file action: %s\n", action)
			return a, false
		}
		a.Kind = k
	}
	a.File = t.fileIndex(name)
	return a, true
}

// fileIndex returns the index of the named file, adding it on first use.
func (t *reader) fileIndex(name string) int {
	if t.redirect {
		return 0
	}
	if i, ok := t.index[name]; ok {
		return i
	}
	i := len(t.names)
	t.index[name] = i
	t.names = append(t.names, name)
	return i
}

// field is one whitespace-separated field: its text and, when it
// starts with digits, their value (as C's %llu reads it).
type field struct {
	s   string
	n   uint64
	num bool
}

// scanFields splits a line into its whitespace-separated fields.
func scanFields(line []byte) []field {
	var out []field
	for _, w := range bytes.Fields(line) {
		f := field{s: string(w)}
		for _, c := range w {
			if c < '0' || c > '9' {
				break
			}
			f.n = f.n*10 + uint64(c-'0')
			f.num = true
		}
		out = append(out, f)
	}
	return out
}

// readCount is how many of the fields "%256s %256s %llu %u" reads: two
// names, then numbers while they read (at most two).
func readCount(f []field) int {
	n := min(len(f), 2)
	for n < len(f) && n < 4 && f[n].num {
		n++
	}
	return n
}
