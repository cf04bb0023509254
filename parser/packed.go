package parser

import (
	"math"
	"strings"
)

// This file keeps the options of a job-file section compactly while the
// section is read: a section may hold millions of lines, and an Option is
// about a hundred bytes. Most lines need no substitution; their options
// are cut out of the line text when asked for, and the text is kept in a
// few large strings. Lines with a '$' (variables, keywords, bc) are kept
// as computed Options.

// blockSize is the size of the strings the line texts are kept in.
const blockSize = 64 << 10

// packedOptions are the options of one section.
type packedOptions struct {
	entries []packedEntry
	blocks  []string // line texts; the last one is being filled in buf
	files   []string // file names, by packedEntry.file
	special []Option // options that needed substitution
}

// packedEntry is one option: the text blocks[block][off:off+n], read from
// files[file] at line; or, when file is specialFile, special[block].
type packedEntry struct {
	block, file uint32
	line        int32
	off, n      uint16
}

const specialFile = math.MaxUint32

// packer fills the packedOptions of the section being read. Its buffer is
// reused from section to section.
type packer struct {
	buf []byte
}

// add appends the option of a cleaned line without any '$' (its text is
// its option).
func (pk *packer) add(po *packedOptions, text []byte, pos Pos) {
	if len(text) > math.MaxUint16 || pos.Line > math.MaxInt32 || len(po.blocks) >= math.MaxUint32-1 {
		pk.addOption(po, splitOption(string(text), pos))
		return
	}
	if len(pk.buf)+len(text) > blockSize {
		pk.seal(po)
	}
	if cap(pk.buf) == 0 {
		pk.buf = make([]byte, 0, blockSize)
	}
	file := len(po.files) - 1
	if file < 0 || po.files[file] != pos.File {
		if len(po.files) >= math.MaxUint32-1 {
			pk.addOption(po, splitOption(string(text), pos))
			return
		}
		po.files = append(po.files, pos.File)
		file++
	}
	po.entries = append(po.entries, packedEntry{
		block: uint32(len(po.blocks)), file: uint32(file), line: int32(pos.Line),
		off: uint16(len(pk.buf)), n: uint16(len(text)),
	})
	pk.buf = append(pk.buf, text...)
}

// addOption appends an option that is kept whole.
func (pk *packer) addOption(po *packedOptions, o Option) {
	po.entries = append(po.entries, packedEntry{block: uint32(len(po.special)), file: specialFile})
	po.special = append(po.special, o)
}

// seal ends the block being filled; the section's entries can then be
// read.
func (pk *packer) seal(po *packedOptions) {
	if len(pk.buf) > 0 {
		po.blocks = append(po.blocks, string(pk.buf))
		pk.buf = pk.buf[:0]
	}
}

// option returns option i of a sealed packedOptions.
func (po *packedOptions) option(i int) Option {
	e := po.entries[i]
	if e.file == specialFile {
		return po.special[e.block]
	}
	text := po.blocks[e.block][e.off : int(e.off)+int(e.n)]
	return splitOption(text, Pos{File: po.files[e.file], Line: int(e.line)})
}

// splitOption is the Option of a cleaned line that needs no substitution:
// the line split at its first '='.
func splitOption(line string, pos Pos) Option {
	o := Option{Pos: pos, Raw: line}
	key, value, has := strings.Cut(line, "=")
	if !has {
		o.Name = line
		return o
	}
	o.Name, o.Value, o.HasValue = stripEndString(key), value, true
	return o
}

// NumOptions is the number of options of the section: len(Options), or,
// for a section from JobFile.Sections, the number it keeps compactly.
func (s *Section) NumOptions() int {
	if s.packed != nil {
		return len(s.packed.entries)
	}
	return len(s.Options)
}

// Option returns option i of the section, 0 <= i < NumOptions(). It works
// for every section, whether its options are in Options or kept
// compactly.
func (s *Section) Option(i int) Option {
	if s.packed != nil {
		return s.packed.option(i)
	}
	return s.Options[i]
}

// unpack fills Options from the compact form.
func (s *Section) unpack() {
	if s.packed == nil {
		return
	}
	n := s.NumOptions()
	if n > 0 {
		s.Options = make([]Option, n)
		for i := range n {
			s.Options[i] = s.packed.option(i)
		}
	}
	s.packed = nil
}
