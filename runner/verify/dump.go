package verify

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Dumper writes the files of verify_dump: on a bad chunk, the bytes read
// ("received") and those the job would have written there ("expected");
// on a bad header, the chunk read ("hdr_fail"). As fio 3.33 does
// (observed), each file is named after the base name of the job's file,
// the chunk's offset and the kind ("f.8192.received"), in the working
// directory or the --aux-path directory, and a line names it after the
// failure report ("       received data dumped as f.8192.received").
type Dumper struct {
	Dir string // --aux-path; "" for the working directory
	// Fill fills a block with the data of a seed, as the job's writes
	// are filled (not used with verify_pattern).
	Fill func(buf []byte, seed uint64)
	// Now is the time written in the expected block's header, in ns
	// since the job started.
	Now func() uint64
}

// write writes data to the dump file of kind for the chunk at off of the
// file path, and returns the line that names it ("" if it could not be
// written).
func (d *Dumper) write(kind string, data []byte, path string, off int64) string {
	name := filepath.Base(path) + "." + strconv.FormatInt(off, 10) + "." + kind
	if d.Dir != "" {
		name = d.Dir + "/" + name
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return fmt.Sprintf("fio: verify dump of %s failed: %v\n", name, err)
	}
	return fmt.Sprintf("       %s data dumped as %s\n", kind, name)
}

// dumpHeader is verify_dump's file of a chunk with a bad header, or ""
// without verify_dump.
func (v *Verifier) dumpHeader(c []byte, path string, off int64) string {
	if v.Dump == nil {
		return ""
	}
	return v.Dump.write("hdr_fail", c, path, off)
}

// dumpData is verify_dump's pair of files for the bad chunk c, at index
// from of block (read at offset), or "" without verify_dump. The
// expected chunk is the block as the job writes it, from the seed the
// chunk's header holds (or verify_pattern), stamped now.
func (v *Verifier) dumpData(c []byte, from int, block []byte, offset int64, path string) string {
	if v.Dump == nil {
		return ""
	}
	exp := make([]byte, len(block))
	seed := uint64(0)
	switch {
	case v.Pattern != nil:
		p := v.PatternAt(offset)
		for i := 0; i < len(exp); i += len(p) {
			copy(exp[i:], p)
		}
	case len(c) >= 16:
		seed = binary.LittleEndian.Uint64(c[8:])
		if v.Dump.Fill != nil {
			v.Dump.Fill(exp, seed)
		}
	}
	if v.Header {
		t := uint64(0)
		if v.Dump.Now != nil {
			t = v.Dump.Now()
		}
		v.stamp(exp, offset, seed, t)
	}
	at := offset + int64(from)
	return v.Dump.write("received", c, path, at) +
		v.Dump.write("expected", exp[from:from+len(c)], path, at)
}
