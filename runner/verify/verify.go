// Package verify is data verification (verify=TYPE) in fio 3.33's on-disk
// format, so that fio checks what gofio wrote and the other way round: the
// header and checksums each block carries, their check, fio's reports of a
// bad block, and the bookkeeping of the blocks to read back. The runner
// drives it from the I/O loop.
//
// Each block written (each verify_interval bytes of it) starts with fio's
// 40-byte header, all little-endian:
//
//	0   magic 0xacca            uint16
//	2   verify type             uint16 (fio's code: verifySum.code)
//	4   length of the chunk     uint32
//	8   random seed             uint64 (0 with verify_pattern)
//	16  file offset of chunk    uint64
//	24  write time: seconds     uint32
//	28  write time: nanoseconds uint32
//	32  thread number           uint16
//	34  write number            uint16
//	36  CRC-32C of bytes 0..35  uint32 (crc32cRaw)
//
// followed by the checksum of the rest of the chunk (hash.go).
// With verify_offset the header and checksum of each chunk are swapped
// with the bytes at that offset of the chunk before the write, and back
// before the check.
// verify=pattern writes no header: the block is verify_pattern repeated.
// verify_pattern without verify writes the header (type 17, no checksum)
// over the start of each chunk of the repeated pattern, and checks the
// header and then the pattern after it (observed in fio 3.33).
// verify=null writes nothing of its own and checks nothing.
//
// After the write phase of each loop the blocks are read back in the
// order they were written and checked (with verify_backlog, some of them
// while writing; after a replayed trace or random writes under
// norandommap, by offset: Settle); a read-only job checks every block it
// reads; verify_only skips the writes (counting them as issued) and only
// checks. verify_dump writes the bad blocks to files (dump.go), the
// verify state file is fio's (state.go), and trim_percentage trims some
// blocks written (trim.go). As in fio, a
// bad header ends the check of a block, which ends the job with EILSEQ
// unless continue_on_error covers verify errors (then the error is
// counted, and verify_fatal ends the job without failing it).
//
// The seed and the data after the header are fio's: each block's seed
// is drawn by the runner from the job's verify stream and fills the block
// as fio fills it. Reading back what it wrote, fio 3.33 checks a
// header's write number (WantNumberIO), not its time and thread, nor its
// seed but in a job that mixes reads and writes, where it compares it
// with those of its writes in order (CheckSeed); verify_only of rw=write
// or randwrite checks none of them. (fio's verify_only of a mixed rw=rw
// job does compare the seed with its own.)
package verify

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"

	"github.com/gofio/gofio/jobspec"
)

const (
	verifyMagic  = 0xacca
	verifyHdrLen = 40
)

// Verifier is a job's verify state.
type Verifier struct {
	typ      jobspec.VerifyType
	sum      verifySum // zero size for meta
	Header   bool      // blocks carry fio's header
	code     uint16
	interval int
	hdrOff   int     // verify_offset: the header is swapped with the data there
	Pattern  []byte  // verify_pattern, nil without
	patOffs  []int   // where verify_pattern's %o puts each block's offset
	Fatal    bool    // verify_fatal
	Only     bool    // verify_only: the writes are counted, not done
	Do       bool    // do_verify: a verify phase after the writes
	ReadJob  bool    // the job only reads: check every read
	Reading  bool    // in the verify phase
	Cont     bool    // continue_on_error covers verify errors
	Survived bool    // a bad block was seen and survived (Cont)
	Async    bool    // verify_async: checked inline, reported as fio's verifier threads do
	record   bool    // blocks written are recorded to be read back
	Dump     *Dumper // verify_dump; nil without
	// A block read back must hold the write number of its write,
	// WantNumberIO (-1: not checked; observed in fio 3.33: "verify: bad
	// header numberio 0, wanted 2" for a block another job wrote over,
	// "numberio 10, wanted 2" for one written again later under
	// norandommap with experimental_verify, which replays its writes).
	Experimental bool
	WantNumberIO int32
	// In a job that mixes reads and writes, fio 3.33 checks each
	// header's seed against the seed of the write of the same rank in
	// the loop (observed: "verify: bad header rand_seed S, wanted W"
	// where the blocks are read back in another order than written, by
	// offset after a trace or under norandommap). CheckSeed tells Check
	// to compare with WantSeed.
	CheckSeed bool
	WantSeed  uint64

	list []Block // blocks written this loop, in order
	pos  int     // next block to read back

	trims      *Trims // trim-after-write (trim.go); nil without
	trimmedOut int    // blocks of list trimmed and skipped
	// TrimmedRead tells Check that the block read was trimmed.
	TrimmedRead bool

	// verify_backlog: a batch of quota checks starts when Backlog
	// blocks are unchecked; a batch may wait for blocks to be written.
	Backlog int
	batch   int
	quota   int
	sorted  bool // the blocks not read back are kept by offset (insertSorted)

	numberio uint16
	thread   uint16
	stored   [128]byte // scratch: the checksum the header holds
	calc     [128]byte // scratch: the checksum computed
}

// Block is a block written, to be read back.
type Block struct {
	Off      int64  // file offset
	Len      uint32 // length in bytes
	File     int32  // index of the file in the job's file list
	NumberIO uint16 // the write number its header holds
	Trimmed  bool   // trimmed since (trim_verify_zero): reads back as zeroes
	Skip     bool   // trimmed since, not to be read back
}

// New returns the verify state of job j, which writes at most blocks
// blocks a loop, or nil when j does not verify. ignoreEILSEQ tells that
// ignore_error's verify list holds the error of a bad block (EILSEQ).
func New(j *jobspec.Job, blocks uint64, ignoreEILSEQ bool) (*Verifier, error) {
	o := &j.Verify
	if o.Type == jobspec.VerifyNone {
		if o.Only && j.RW.Writes() {
			// fio 3.33 counts the writes as issued and checks nothing.
			return &Verifier{Only: true}, nil
		}
		return nil, nil
	}
	if j.TimeBased && o.Only {
		return nil, fmt.Errorf("gofio: verify_only does not support time_based (fio 3.33 fails such a job)")
	}
	v := &Verifier{typ: o.Type, Fatal: o.Fatal, Only: o.Only, Do: o.Do,
		ReadJob: !j.RW.Writes() && !j.RW.Trims(), Pattern: o.Pattern, patOffs: o.PatternOffsets,
		interval: o.Interval, hdrOff: o.Offset, Async: o.Async > 0, thread: uint16(j.JobNum + 1),
		Experimental: o.Experimental, WantNumberIO: -1,
		Cont: j.ContinueOnError == jobspec.ContinueVerify || j.ContinueOnError == jobspec.ContinueAll || ignoreEILSEQ}
	switch o.Type {
	case jobspec.VerifyPattern:
		if len(o.Pattern) == 0 {
			return nil, fmt.Errorf("gofio: verify=pattern needs verify_pattern")
		}
	case jobspec.VerifyNull:
	case jobspec.VerifyPatternHdr:
		v.Header, v.code = true, verifyPatternCode
	case jobspec.VerifyMeta:
		v.Header, v.code = true, verifyMetaCode
	default:
		s, ok := sumFor(o.Type)
		if !ok {
			// sumFor knows every checksum type (TestEveryChecksumType).
			return nil, fmt.Errorf("gofio: internal error: verify=%s has no checksum", o.Type)
		}
		v.Header, v.sum, v.code = true, s, s.code
	}
	// jobspec refused settings that cannot work (VerifyOptions.problem).
	if o.Backlog > 0 && !j.TimeBased && !v.ReadJob && v.Do {
		v.Backlog, v.batch = int(min(o.Backlog, 1<<30)), o.BacklogBatch
		if v.batch <= 0 {
			v.batch = v.Backlog
		}
		// Random writes under norandommap may overwrite blocks not yet
		// read back: as in fio 3.33 (observed), the blocks wait by
		// offset, a write replacing those it overlaps.
		v.sorted = j.RW.Random() && j.NoRandomMap && !o.Experimental && o.Trim.Percentage == 0
	}
	// A read-only job checks what it reads; verify_only then changes
	// nothing. A time_based job has no verify phase (nor in fio), so it
	// records nothing.
	v.Only = v.Only && !v.ReadJob
	v.record = !j.TimeBased && !v.ReadJob
	if v.record {
		v.list = make([]Block, 0, min(blocks, 1<<20))
	}
	return v, nil
}

// ReplayWrites tells the verify state of a job with rw=read that the
// trace it replays writes: its writes are then recorded and read back
// after the replay, as in a writing job.
func (v *Verifier) ReplayWrites() {
	if !v.ReadJob {
		return
	}
	v.ReadJob, v.record = false, true
	if v.list == nil {
		v.list = make([]Block, 0, 1024)
	}
}

// Wrote records the block of n bytes written at off of file (an index in
// the job's file list) to be read back, when the job reads back.
func (v *Verifier) Wrote(off int64, n int, file int) {
	if !v.record {
		return
	}
	b := Block{Off: off, Len: uint32(n), File: int32(file), NumberIO: v.numberio}
	if v.sorted {
		v.insertSorted(b)
		return
	}
	v.list = append(v.list, b)
}

// insertSorted adds b to the blocks not read back, kept by file and
// offset, dropping those it overlaps (they never overlap one another,
// so their ends are in order too).
func (v *Verifier) insertSorted(b Block) {
	p := v.list[v.pos:]
	end := b.Off + int64(b.Len)
	i := sort.Search(len(p), func(k int) bool {
		return p[k].File > b.File || p[k].File == b.File && p[k].Off >= b.Off
	})
	lo, hi := i, i
	for lo > 0 && p[lo-1].File == b.File && p[lo-1].Off+int64(p[lo-1].Len) > b.Off {
		lo--
	}
	for hi < len(p) && p[hi].File == b.File && p[hi].Off < end {
		hi++
	}
	v.list = slices.Replace(v.list, v.pos+lo, v.pos+hi, b)
}

// Stamp writes the header and checksum of each chunk of buf, the block
// to be written at off; seed is the one that filled it (0 with
// verify_pattern) and t the write time, in ns since the job started.
func (v *Verifier) Stamp(buf []byte, off int64, seed, t uint64) {
	v.stamp(buf, off, seed, t)
	v.numberio++
}

// stamp is Stamp without counting the write.
func (v *Verifier) stamp(buf []byte, off int64, seed, t uint64) {
	iv := v.chunk(len(buf))
	for o := 0; o+v.minChunk() <= len(buf); o += iv {
		c := buf[o:min(o+iv, len(buf))]
		le := binary.LittleEndian
		le.PutUint16(c[0:], verifyMagic)
		le.PutUint16(c[2:], v.code)
		le.PutUint32(c[4:], uint32(len(c)))
		le.PutUint64(c[8:], seed)
		le.PutUint64(c[16:], uint64(off)+uint64(o))
		le.PutUint32(c[24:], uint32(t/1e9))
		le.PutUint32(c[28:], uint32(t%1e9))
		le.PutUint16(c[32:], v.thread)
		le.PutUint16(c[34:], v.numberio)
		le.PutUint32(c[36:], crc32cRaw(c[:36]))
		if v.sum.size > 0 {
			v.sum.sum(c[verifyHdrLen:], c[verifyHdrLen+v.sum.size:])
		}
		v.swapHeader(c)
	}
}

// minChunk is the smallest chunk that holds a header: a shorter end of
// a block (an unaligned block size) is neither stamped nor checked.
func (v *Verifier) minChunk() int { return verifyHdrLen + v.sum.size }

// chunk is the size checked as one unit in a block of n bytes.
func (v *Verifier) chunk(n int) int {
	if v.interval > 0 && v.interval < n {
		return v.interval
	}
	return n
}

// Chunks calls f with the length of each checksummed chunk among the
// first avail bytes of a block of n bytes, in order (none for meta,
// pattern and null, whose chunks carry no checksum): what fio's verify
// debug lines count.
func (v *Verifier) Chunks(n, avail int, f func(length int)) {
	if v.sum.size == 0 {
		return
	}
	iv := v.chunk(n)
	for off := 0; off+v.minChunk() <= avail; off += iv {
		f(min(iv, avail-off))
	}
}

// swapHeader swaps the header of chunk c with the data at verify_offset
// (written swapped, swapped back before the check).
func (v *Verifier) swapHeader(c []byte) {
	n := verifyHdrLen + v.sum.size
	if v.hdrOff == 0 || v.hdrOff+n > len(c) {
		return
	}
	a, b := c[:n], c[v.hdrOff:v.hdrOff+n]
	for i := range a {
		a[i], b[i] = b[i], a[i]
	}
}

// BacklogDue reports whether the next I/O is a check of verify_backlog:
// a batch starts when Backlog blocks are unchecked, and its checks take
// turns with writes while it has none to do (observed in fio 3.33).
func (v *Verifier) BacklogDue() bool {
	pending := len(v.list) - v.pos
	if v.quota == 0 && pending >= v.Backlog {
		v.quota = v.batch
	}
	if v.quota > 0 && pending > 0 {
		v.quota--
		return true
	}
	return false
}

// Next returns the next block to read back; false when all have been.
func (v *Verifier) Next() (Block, bool) {
	for v.pos < len(v.list) && v.list[v.pos].Skip {
		v.pos++
	}
	if v.pos >= len(v.list) {
		return Block{}, false
	}
	b := v.list[v.pos]
	v.pos++
	return b, true
}

// Unchecked is the number of blocks written this loop and not yet read
// back.
func (v *Verifier) Unchecked() int {
	n := len(v.list) - v.pos
	if v.trimmedOut > 0 {
		for _, b := range v.list[v.pos:] {
			if b.Skip {
				n--
			}
		}
	}
	return n
}

// Settle orders the blocks to read back as fio 3.33 does when writes may
// overlap (a replayed trace, random writes under norandommap; observed):
// by file and offset, each block overwritten in part or in full by a
// later write dropped. It is used before the verify phase.
func (v *Verifier) Settle() {
	if v.pos != 0 || len(v.list) < 2 {
		return
	}
	type span struct{ from, to int64 } // [from, to)
	later := map[int32][]span{}        // by file: the union of later writes, sorted
	keep := make([]bool, len(v.list))
	for i := len(v.list) - 1; i >= 0; i-- {
		b := v.list[i]
		if b.Skip {
			continue
		}
		s := span{b.Off, b.Off + int64(b.Len)}
		ss := later[b.File]
		k := sort.Search(len(ss), func(k int) bool { return ss[k].to > s.from })
		keep[i] = k == len(ss) || ss[k].from >= s.to
		// Merge s into the union.
		e := k
		for e < len(ss) && ss[e].from <= s.to {
			s.from, s.to = min(s.from, ss[e].from), max(s.to, ss[e].to)
			e++
		}
		if k > 0 && ss[k-1].to == s.from {
			k--
			s.from = ss[k].from
		}
		ss = append(ss[:k], append([]span{s}, ss[e:]...)...)
		later[b.File] = ss
	}
	out := v.list[:0]
	for i, b := range v.list {
		if keep[i] {
			out = append(out, b)
		}
	}
	slices.SortStableFunc(out, func(a, b Block) int {
		if a.File != b.File {
			return int(a.File - b.File)
		}
		return cmp.Compare(a.Off, b.Off)
	})
	v.list = out
}

// UncheckedBytes is the number of bytes written this loop and not yet
// read back.
func (v *Verifier) UncheckedBytes() uint64 {
	n := uint64(0)
	for _, b := range v.list[v.pos:] {
		if !b.Skip {
			n += uint64(b.Len)
		}
	}
	return n
}

// EndLoop forgets the blocks of the loop that ends.
func (v *Verifier) EndLoop() {
	v.endTrims()
	v.list, v.pos, v.quota = v.list[:0], 0, 0
}

// Check verifies block, read at offset of the file path (its first nread
// bytes read), chunk by chunk, and returns fio's report of its bad chunks
// and whether the block counts as bad. As in fio 3.33, a bad header (magic, length, offset, header checksum) ends
// the check of the block, and the block is bad; a data checksum that
// does not match is reported and the next chunk checked, and the block is
// bad when its last chunk is (so with verify_interval a bad chunk before
// the last is reported without failing the job, as fio does). A block is
// checked with the job's verify type, whatever the header names; the
// header's type is only reported when the check fails. Only a bad block
// allocates.
func (v *Verifier) Check(block []byte, nread int, offset int64, path string) (msg string, bad bool) {
	buf := block[:nread]
	if v.TrimmedRead {
		return v.checkZero(buf, offset, path)
	}
	if v.Pattern != nil && !v.Header {
		return v.checkPattern(block, offset, buf, path)
	}
	if !v.Header {
		return "", false // verify=null
	}
	iv := v.chunk(len(block))
	for off := 0; off < len(buf) && off+v.minChunk() <= len(block); off += iv {
		c := buf[off:min(off+iv, len(buf))]
		v.swapHeader(c)
		at := fmt.Sprintf
		where := func(n uint32) string {
			return at("at file %s offset %d, length %d (requested block: offset=%d, length=%d",
				path, offset+int64(off), n, offset, len(block))
		}
		if len(c) < verifyHdrLen+v.sum.size {
			return msg + at("verify: bad header length %d, wanted %d %s)\n", len(c), iv, where(uint32(len(c)))) + v.dumpHeader(c, path, offset+int64(off)), true
		}
		le := binary.LittleEndian
		if m := le.Uint16(c); m != verifyMagic {
			return msg + at("verify: bad magic header %x, wanted %x %s)\n", m, verifyMagic, where(uint32(len(c)))) + v.dumpHeader(c, path, offset+int64(off)), true
		}
		if n := le.Uint32(c[4:]); n != uint32(len(c)) {
			return msg + at("verify: bad header length %d, wanted %d %s)\n", n, len(c), where(uint32(len(c)))) + v.dumpHeader(c, path, offset+int64(off)), true
		}
		if o, want := le.Uint64(c[16:]), uint64(offset)+uint64(off); o != want {
			return msg + at("verify: bad header offset %d, wanted %d %s)\n", o, want, where(uint32(len(c)))) + v.dumpHeader(c, path, offset+int64(off)), true
		}
		if s, calc := le.Uint32(c[36:]), crc32cRaw(c[:36]); s != calc {
			return msg + at("verify: bad header crc %x, calculated %x %s)\n", s, calc, where(uint32(len(c)))) + v.dumpHeader(c, path, offset+int64(off)), true
		}
		if s := le.Uint64(c[8:]); v.CheckSeed && s != v.WantSeed {
			return msg + at("verify: bad header rand_seed %d, wanted %d %s)\n", s, v.WantSeed, where(uint32(len(c)))) + v.dumpHeader(c, path, offset+int64(off)), true
		}
		if n := le.Uint16(c[34:]); v.WantNumberIO >= 0 && int32(n) != v.WantNumberIO {
			return msg + at("verify: bad header numberio %d, wanted %d %s)\n", n, v.WantNumberIO, where(uint32(len(c)))) + v.dumpHeader(c, path, offset+int64(off)), true
		}
		bad = false
		if v.typ == jobspec.VerifyPatternHdr {
			// As a data checksum: reported, and the block is bad when
			// its last chunk is.
			m, b := v.checkPatternAt(c[verifyHdrLen:], off+verifyHdrLen, block, offset, path, offset+int64(off), le.Uint32(c[4:]), c)
			msg, bad = msg+m, b
			continue
		}
		if v.sum.size == 0 {
			continue
		}
		n := v.sum.size
		stored, calc := v.stored[:n], v.calc[:n]
		copy(stored, c[verifyHdrLen:])
		copy(calc, stored) // sha512 keeps some of the stored bytes
		// Like fio, the data starts after the checksum of the type the
		// header names.
		start := verifyHdrLen + n
		if t := le.Uint16(c[2:]); t != v.code && int(t) < len(sumSizes) && sumSizes[t] > 0 {
			start = min(verifyHdrLen+sumSizes[t], len(c))
		}
		v.sum.sum(calc, c[start:])
		if string(stored) != string(calc) {
			bad = true
			msg += at("%s: verify failed %s, flags=%x)\n       Expected CRC: %s\n       Received CRC: %s\n",
				v.typ, where(le.Uint32(c[4:])), v.flags(), hex.EncodeToString(stored), hex.EncodeToString(calc))
			msg += v.dumpData(c, off, block, offset, path)
			msg += v.typeMismatch(c)
		}
	}
	return msg, bad
}

// typeMismatch is fio's note, after a failed check, that the header
// names another verify type than the job's.
func (v *Verifier) typeMismatch(c []byte) string {
	if len(c) < 4 {
		return ""
	}
	code := v.code
	if !v.Header {
		code = 18 // fio's code for verify=pattern
	}
	if t := binary.LittleEndian.Uint16(c[2:]); t != code {
		return fmt.Sprintf("fio: verify type mismatch (%d media, %d given)\n", t, code)
	}
	return ""
}

// flags is what fio prints as the unit's flags in a verify failure: 0x88
// for a read of the verify phase, 8 for a read of the workload; with
// verify_async, 0x84 and 4.
func (v *Verifier) flags() int {
	f := 8
	if v.Async {
		f = 4
	}
	if v.Reading {
		f |= 0x80
	}
	return f
}

// PatternAt is verify_pattern for the block at off: its %o formats
// replaced by off, 8 bytes little-endian.
func (v *Verifier) PatternAt(off int64) []byte {
	if len(v.patOffs) == 0 {
		return v.Pattern
	}
	p := slices.Clone(v.Pattern)
	for _, i := range v.patOffs {
		binary.LittleEndian.PutUint64(p[i:], uint64(off))
	}
	return p
}

// checkPattern verifies a block of verify=pattern read at offset (buf: the
// bytes read).
func (v *Verifier) checkPattern(block []byte, offset int64, buf []byte, path string) (string, bool) {
	// fio 3.33 reports the block as if it had a header: the length it
	// prints is the pattern's bytes 4-7.
	n := uint32(len(buf))
	if len(buf) >= 8 {
		n = binary.LittleEndian.Uint32(buf[4:])
	}
	return v.checkPatternAt(buf, 0, block, offset, path, offset, n, buf)
}

// checkPatternAt checks data, the bytes at index from of block (read at
// offset), against the block's verify_pattern repeated from the block's
// start; at and n are the offset and length fio's report names. The
// offset of a bad byte is reported from the start of data. chunk is what
// verify_dump writes as received.
func (v *Verifier) checkPatternAt(data []byte, from int, block []byte, offset int64, path string, at int64, n uint32, chunk []byte) (string, bool) {
	p := v.PatternAt(offset)
	for i := range data {
		want := p[(from+i)%len(p)]
		if data[i] != want {
			// The type fio prints on a mismatch is that of the header,
			// or without one the pattern's bytes 2-3.
			hdr := block[at-offset:]
			return fmt.Sprintf("fio: got pattern '%02x', wanted '%02x'. Bad bits %d\nfio: bad pattern block offset %d\npattern: verify failed at file %s offset %d, length %d (requested block: offset=%d, length=%d, flags=%x)\n",
				data[i], want, popcount8(data[i]^want), i, path, at, n, offset, len(block), v.flags()) +
				v.dumpData(chunk, int(at-offset), block, offset, path) + v.typeMismatch(hdr), true
		}
	}
	return "", false
}

func popcount8(b byte) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}
