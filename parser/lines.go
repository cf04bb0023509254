package parser

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// maxLine is the size of fio's line buffer: fgets stores at most
// maxLine-1 bytes of a line plus the terminating NUL.
const maxLine = 8192

// lineReader hands out lines the way fgets(buf, 8192, f) does.
type lineReader struct {
	br     *bufio.Reader
	lineNo int
	done   bool
	split  bool // the previous chunk was cut at maxLine-1 bytes
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, maxLine-1)}
}

// next returns the next chunk (with its '\n' if it has one) and its line
// number. The chunk is only valid until the next call. A read error ends
// the file, as it ends fio's fgets loop.
func (lr *lineReader) next() (chunk []byte, lineNo int, ok bool) {
	if lr.done {
		return nil, 0, false
	}
	chunk, err := lr.br.ReadSlice('\n')
	if len(chunk) == 0 {
		lr.done = true
		return nil, 0, false
	}
	if err != nil && err != bufio.ErrBufferFull {
		lr.done = true
	}
	if !lr.split {
		lr.lineNo++
	}
	lr.split = chunk[len(chunk)-1] != '\n'
	return chunk, lr.lineNo, true
}

// C character classes in the "C" locale, which fio runs in.
func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
func isCntrl(c byte) bool { return c < 0x20 || c == 0x7f }

// cString is b up to its first NUL byte.
func cString(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// stripEnd is fio's end-of-line clean-up: cut at the first ';', then at the
// first '#', then drop trailing white space and control characters, but
// never the first character. It returns the length of what is left and
// the offsets at which fio writes NUL bytes into its buffer (include
// directives read past the end of the cleaned line, see includeName).
func stripEnd(s []byte) (n int, nuls nulOffsets) {
	n = len(s)
	if i := bytes.IndexByte(s[:n], ';'); i >= 0 {
		n = i
		nuls.add(i)
	}
	if i := bytes.IndexByte(s[:n], '#'); i >= 0 {
		n = i
		nuls.add(i)
	}
	if n == 0 {
		nuls.add(1)
		return 0, nuls
	}
	i := n - 1
	for i > 0 && (isSpace(s[i]) || isCntrl(s[i])) {
		i--
	}
	nuls.add(i + 1)
	return i + 1, nuls
}

// nulOffsets are the (at most three) offsets stripEnd writes NULs at.
type nulOffsets struct {
	off [3]int
	n   int
}

func (o *nulOffsets) add(i int) { o.off[o.n] = i; o.n++ }

// stripEndString is stripEnd for strings.
func stripEndString(s string) string {
	if i := strings.IndexByte(s, ';'); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return ""
	}
	i := len(s) - 1
	for i > 0 && (isSpace(s[i]) || isCntrl(s[i])) {
		i--
	}
	return s[:i+1]
}

// blankOrComment reports whether fio skips the line: it has nothing but
// white space and control characters before its first ';' or '#'.
func blankOrComment(s []byte) bool {
	for _, c := range s {
		if c == ';' || c == '#' {
			return true
		}
		if !isSpace(c) && !isCntrl(c) {
			return false
		}
	}
	return true
}

// cleanLine is one line as fio sees it after clean-up.
type cleanLine struct {
	// text is the line without leading blanks, comments and trailing
	// blanks; it is only valid until the next line is read.
	text []byte
	// inc is the file name of an include directive: the C string that
	// starts 8 bytes after the start of text in fio's buffer.
	inc string
}

// clean applies fio's line clean-up to one fgets chunk. ok is false for
// blank and comment lines.
func clean(chunk []byte) (cl cleanLine, ok bool) {
	s := cString(chunk)
	p := 0
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	if blankOrComment(s[p:]) {
		return cl, false
	}
	n, nuls := stripEnd(s[p:])
	cl.text = s[p : p+n]
	if bytes.HasPrefix(cl.text, []byte("include")) {
		cl.inc = includeName(chunk, p, nuls)
	}
	return cl, true
}

// includeName reproduces what fio takes as the file name of an include
// directive: the C string at offset 8 of the cleaned line, read from the
// line buffer after the clean-up wrote its NUL bytes. For "include x" that
// is "x"; for "include  x" it is " x"; for "include" alone (or "include "
// followed by a comment) fio reads past the end of the cleaned line into
// what the line held before clean-up, e.g. "\n" for "include \n". Past the
// end of what fgets stored, fio reads stale bytes of earlier lines; this
// reads "" there.
func includeName(chunk []byte, start int, nuls nulOffsets) string {
	buf := make([]byte, len(chunk)+1)
	copy(buf, chunk)
	end := len(cString(chunk)) // fgets' own terminator is at len(chunk)
	for _, off := range nuls.off[:nuls.n] {
		if i := start + off; i < len(buf) && i <= end {
			buf[i] = 0
		}
	}
	i := start + len("include") + 1
	if i >= len(buf) {
		return ""
	}
	return string(cString(buf[i:]))
}
