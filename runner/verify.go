package runner

// Data verification (verify=TYPE), in fio 3.33's on-disk format, so that
// fio checks what gofio wrote and the other way round.
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
// followed by the checksum of the rest of the chunk (verify_hash.go).
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
// while writing); a read-only job checks every block it reads; verify_only
// skips the writes (counting them as issued) and only checks. As in fio, a
// bad header ends the check of a block, which ends the job with EILSEQ
// unless continue_on_error covers verify errors (then the error is
// counted, and verify_fatal ends the job without failing it).
//
// The seed and the data after the header are fio's: each block's seed
// is drawn from the job's verify stream (fiorand.go) and fills the block
// as fio fills it. fio 3.33 does not check the seed, time, thread and
// write number of a header after writing, nor with verify_only of
// rw=write or randwrite. (fio's verify_only of a mixed rw=rw job does
// compare the seed with its own.)

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/stats"
)

const (
	verifyMagic  = 0xacca
	verifyHdrLen = 40
)

// verifier is a worker's verify state.
type verifier struct {
	typ      jobspec.VerifyType
	sum      verifySum // zero size for meta
	header   bool      // blocks carry fio's header
	code     uint16
	interval int
	hdrOff   int // verify_offset: the header is swapped with the data there
	pattern  []byte
	patOffs  []int // where verify_pattern's %o puts each block's offset
	fatal    bool
	only     bool
	do       bool
	readJob  bool // the job only reads: check every read
	reading  bool // in the verify phase
	cont     bool // continue_on_error covers verify errors
	survived bool // a bad block was seen and survived (cont)
	async    bool // verify_async: checked inline, reported as fio's verifier threads do
	record   bool // blocks written are recorded to be read back

	list []vblock // blocks written this loop, in order
	pos  int      // next block to read back

	// verify_backlog: a batch of quota checks starts when backlog
	// blocks are unchecked; a batch may wait for blocks to be written.
	backlog int
	batch   int
	quota   int

	numberio uint16
	thread   uint16
	seeds    rng.Stream // the verify stream: a seed per block written
	stored   [128]byte  // scratch: the checksum the header holds
	calc     [128]byte  // scratch: the checksum computed
}

// vblock is a block written, to be read back.
type vblock struct {
	off  int64
	len  uint32
	file int32
}

// newVerifier returns the verify state of job j, or nil when j does not
// verify.
func newVerifier(j *jobspec.Job, blocks uint64) (*verifier, error) {
	o := &j.Verify
	if o.Type == jobspec.VerifyNone {
		if o.Only && j.RW.Writes() {
			// fio 3.33 counts the writes as issued and checks nothing.
			return &verifier{only: true}, nil
		}
		return nil, nil
	}
	if j.TimeBased && o.Only {
		return nil, fmt.Errorf("gofio: verify_only does not support time_based (fio 3.33 fails such a job)")
	}
	v := &verifier{typ: o.Type, fatal: o.Fatal, only: o.Only, do: o.Do,
		readJob: !j.RW.Writes() && !j.RW.Trims(), pattern: o.Pattern, patOffs: o.PatternOffsets,
		interval: o.Interval, hdrOff: o.Offset, async: o.Async > 0, thread: uint16(j.JobNum + 1),
		cont: j.ContinueOnError == jobspec.ContinueVerify || j.ContinueOnError == jobspec.ContinueAll || ignoresVerify(j)}
	switch o.Type {
	case jobspec.VerifyPattern:
		if len(o.Pattern) == 0 {
			return nil, fmt.Errorf("gofio: verify=pattern needs verify_pattern")
		}
	case jobspec.VerifyNull:
	case jobspec.VerifyPatternHdr:
		v.header, v.code = true, verifyPatternCode
	case jobspec.VerifyMeta:
		v.header, v.code = true, verifyMetaCode
	default:
		s, ok := sumFor(o.Type)
		if !ok {
			return nil, fmt.Errorf("gofio: verify=%s is not supported yet", o.Type)
		}
		v.header, v.sum, v.code = true, s, s.code
	}
	// jobspec refused settings that cannot work (VerifyOptions.problem).
	if o.Backlog > 0 && !j.TimeBased && !v.readJob && v.do {
		v.backlog, v.batch = int(min(o.Backlog, 1<<30)), o.BacklogBatch
		if v.batch <= 0 {
			v.batch = v.backlog
		}
	}
	// A read-only job checks what it reads; verify_only then changes
	// nothing. A time_based job has no verify phase (nor in fio), so it
	// records nothing.
	v.only = v.only && !v.readJob
	v.record = !j.TimeBased && !v.readJob
	if v.record {
		v.list = make([]vblock, 0, min(blocks, 1<<20))
	}
	return v, nil
}

// stampVerify prepares the write u: fills it with verify_pattern, writes the
// header and checksum of each chunk, and records the block to read back.
func (w *worker) stampVerify(u *engine.IOUnit) {
	v := w.vfy
	if v.record {
		v.list = append(v.list, vblock{off: u.Offset, len: uint32(len(u.Buf)), file: int32(u.File)})
		w.gen.trim.written() // trimleak.go
	}
	if v.only {
		return
	}
	if v.pattern != nil {
		fillPattern(u.Buf, v.patternAt(u.Offset))
	}
	if !v.header {
		return
	}
	seed := uint64(0)
	if v.pattern == nil {
		// As in fio 3.33: the block's data comes from a seed drawn from
		// the verify stream, which the header keeps.
		seed = v.seeds.NextSeed()
		fioFillRandom(u.Buf, seed)
	}
	t := uint64(max(clock.Now()-w.epoch, 0))
	iv := v.chunk(len(u.Buf))
	for off := 0; off+v.minChunk() <= len(u.Buf); off += iv {
		c := u.Buf[off:min(off+iv, len(u.Buf))]
		le := binary.LittleEndian
		le.PutUint16(c[0:], verifyMagic)
		le.PutUint16(c[2:], v.code)
		le.PutUint32(c[4:], uint32(len(c)))
		le.PutUint64(c[8:], seed)
		le.PutUint64(c[16:], uint64(u.Offset)+uint64(off))
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
	v.numberio++
}

// minChunk is the smallest chunk that holds a header: a shorter end of
// a block (an unaligned block size) is neither stamped nor checked.
func (v *verifier) minChunk() int { return verifyHdrLen + v.sum.size }

// chunk is the size checked as one unit in a block of n bytes.
func (v *verifier) chunk(n int) int {
	if v.interval > 0 && v.interval < n {
		return v.interval
	}
	return n
}

// swapHeader swaps the header of chunk c with the data at verify_offset
// (written swapped, swapped back before the check).
func (v *verifier) swapHeader(c []byte) {
	n := verifyHdrLen + v.sum.size
	if v.hdrOff == 0 || v.hdrOff+n > len(c) {
		return
	}
	a, b := c[:n], c[v.hdrOff:v.hdrOff+n]
	for i := range a {
		a[i], b[i] = b[i], a[i]
	}
}

// backlogDue reports whether the next I/O is a check of verify_backlog:
// a batch starts when backlog blocks are unchecked, and its checks take
// turns with writes while it has none to do (observed in fio 3.33).
func (v *verifier) backlogDue() bool {
	pending := len(v.list) - v.pos
	if v.quota == 0 && pending >= v.backlog {
		v.quota = v.batch
	}
	if v.quota > 0 && pending > 0 {
		v.quota--
		return true
	}
	return false
}

// nextVerified is next for a job that verifies: a block to read back
// (verify phase, verify_backlog), or the workload's next I/O, a write
// then carrying its verify header.
func (w *worker) nextVerified(u *engine.IOUnit, now int64) bool {
	v := w.vfy
	if v.reading || (v.backlog > 0 && v.backlogDue()) {
		return w.nextVerify(u)
	}
	if !w.nextIO(u, now) {
		return false
	}
	if u.Op == engine.OpWrite {
		w.stampVerify(u)
	}
	return true
}

// nextVerify fills u with the next block to read back; false when all
// have been.
func (w *worker) nextVerify(u *engine.IOUnit) bool {
	v := w.vfy
	if v.pos >= len(v.list) {
		return false
	}
	b := v.list[v.pos]
	v.pos++
	fi := int(b.file)
	if !w.openFile(fi, stats.Read) {
		return false
	}
	u.Op, u.File, u.FD, u.Offset = engine.OpRead, fi, w.files[fi].fd, b.off
	u.Buf = u.Buf[:b.len]
	return true
}

// verifyRead checks the read u when it is one the job verifies, and
// reports and handles a bad block.
func (w *worker) verifyRead(u *engine.IOUnit) {
	v := w.vfy
	if (!v.reading && !v.readJob) || w.info.NoFiles {
		return // not a checked read, or an engine without data (null)
	}
	msg, bad := v.check(u, w.files[u.File].path)
	if msg != "" && w.ioerr.out != nil {
		fmt.Fprint(w.ioerr.out, msg)
	}
	if !bad {
		return
	}
	if v.cont {
		// Counted as a survived error (err=84 in the report, exit
		// status 0); verify_fatal still ends the job, as in fio.
		v.survived = true
		w.ioerr.total++
		if w.ioerr.first == 0 {
			w.ioerr.first = unix.EILSEQ
		}
		if v.fatal {
			w.stopping = true
		}
		return
	}
	fn := "io_u_sync_complete"
	switch {
	case v.async:
		fn = "async_verify"
	case w.reaper != nil:
		fn = "io_u_queued_complete"
	}
	w.fail(unix.EILSEQ, fn)
}

// check verifies the block read into u, chunk by chunk, and returns
// fio's report of its bad chunks and whether the block counts as bad. As
// in fio 3.33, a bad header (magic, length, offset, header checksum) ends
// the check of the block, and the block is bad; a data checksum that
// does not match is reported and the next chunk checked, and the block is
// bad when its last chunk is (so with verify_interval a bad chunk before
// the last is reported without failing the job, as fio does). A block is
// checked with the job's verify type, whatever the header names; the
// header's type is only reported when the check fails. Only a bad block
// allocates.
func (v *verifier) check(u *engine.IOUnit, path string) (msg string, bad bool) {
	buf := u.Buf[:u.Result]
	if v.pattern != nil && !v.header {
		return v.checkPattern(u, buf, path)
	}
	if !v.header {
		return "", false // verify=null
	}
	iv := v.chunk(len(u.Buf))
	for off := 0; off < len(buf) && off+v.minChunk() <= len(u.Buf); off += iv {
		c := buf[off:min(off+iv, len(buf))]
		v.swapHeader(c)
		at := fmt.Sprintf
		where := func(n uint32) string {
			return at("at file %s offset %d, length %d (requested block: offset=%d, length=%d",
				path, u.Offset+int64(off), n, u.Offset, len(u.Buf))
		}
		if len(c) < verifyHdrLen+v.sum.size {
			return msg + at("verify: bad header length %d, wanted %d %s)\n", len(c), iv, where(uint32(len(c)))), true
		}
		le := binary.LittleEndian
		if m := le.Uint16(c); m != verifyMagic {
			return msg + at("verify: bad magic header %x, wanted %x %s)\n", m, verifyMagic, where(uint32(len(c)))), true
		}
		if n := le.Uint32(c[4:]); n != uint32(len(c)) {
			return msg + at("verify: bad header length %d, wanted %d %s)\n", n, len(c), where(uint32(len(c)))), true
		}
		if o, want := le.Uint64(c[16:]), uint64(u.Offset)+uint64(off); o != want {
			return msg + at("verify: bad header offset %d, wanted %d %s)\n", o, want, where(uint32(len(c)))), true
		}
		if s, calc := le.Uint32(c[36:]), crc32cRaw(c[:36]); s != calc {
			return msg + at("verify: bad header crc %x, calculated %x %s)\n", s, calc, where(uint32(len(c)))), true
		}
		bad = false
		if v.typ == jobspec.VerifyPatternHdr {
			// As a data checksum: reported, and the block is bad when
			// its last chunk is.
			m, b := v.checkPatternAt(c[verifyHdrLen:], off+verifyHdrLen, u, path, u.Offset+int64(off), le.Uint32(c[4:]))
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
			msg += v.typeMismatch(c)
		}
	}
	return msg, bad
}

// typeMismatch is fio's note, after a failed check, that the header
// names another verify type than the job's.
func (v *verifier) typeMismatch(c []byte) string {
	if len(c) < 4 {
		return ""
	}
	code := v.code
	if !v.header {
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
func (v *verifier) flags() int {
	f := 8
	if v.async {
		f = 4
	}
	if v.reading {
		f |= 0x80
	}
	return f
}

// patternAt is verify_pattern for the block at off: its %o formats
// replaced by off, 8 bytes little-endian.
func (v *verifier) patternAt(off int64) []byte {
	if len(v.patOffs) == 0 {
		return v.pattern
	}
	p := slices.Clone(v.pattern)
	for _, i := range v.patOffs {
		binary.LittleEndian.PutUint64(p[i:], uint64(off))
	}
	return p
}

// checkPattern verifies a block of verify=pattern.
func (v *verifier) checkPattern(u *engine.IOUnit, buf []byte, path string) (string, bool) {
	// fio 3.33 reports the block as if it had a header: the length it
	// prints is the pattern's bytes 4-7.
	n := uint32(len(buf))
	if len(buf) >= 8 {
		n = binary.LittleEndian.Uint32(buf[4:])
	}
	return v.checkPatternAt(buf, 0, u, path, u.Offset, n)
}

// checkPatternAt checks data, the bytes at index from of the block read
// into u, against the block's verify_pattern repeated from the block's
// start; at and n are the offset and length fio's report names. The
// offset of a bad byte is reported from the start of data.
func (v *verifier) checkPatternAt(data []byte, from int, u *engine.IOUnit, path string, at int64, n uint32) (string, bool) {
	p := v.patternAt(u.Offset)
	for i := range data {
		want := p[(from+i)%len(p)]
		if data[i] != want {
			// The type fio prints on a mismatch is that of the header,
			// or without one the pattern's bytes 2-3.
			hdr := u.Buf[at-u.Offset:]
			return fmt.Sprintf("fio: got pattern '%02x', wanted '%02x'. Bad bits %d\nfio: bad pattern block offset %d\npattern: verify failed at file %s offset %d, length %d (requested block: offset=%d, length=%d, flags=%x)\n",
				data[i], want, popcount8(data[i]^want), i, path, at, n, u.Offset, len(u.Buf), v.flags()) + v.typeMismatch(hdr), true
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

// skipWrites is the write phase of verify_only: it walks the job's I/Os,
// counting the writes as issued (as fio does) and recording the blocks,
// without doing them.
func (w *worker) skipWrites() {
	u := w.units[0]
	for w.next(u, w.stamp()) {
		if u.Op == engine.OpWrite {
			w.countIssued(u)
		}
	}
}

// verifyLoop ends a loop of a verifying job: it reads back and checks
// what the loop wrote, then ends the loop as endLoop does. The write
// phase's time counts toward the directions of the job's workload, the
// verify phase's toward reads.
func (w *worker) verifyLoop(stop <-chan struct{}) {
	v := w.vfy
	j := w.job
	us := uint64(clock.Now()-w.loopStart) / 1000
	for d := range w.st.Dir {
		if w.st.Dir[d].IOBytes > 0 && (d != int(stats.Read) || j.RW.Reads() || v.backlog > 0) {
			w.st.Dir[d].RuntimeUS += us
		}
	}
	if v.do && v.pos < len(v.list) && !w.stopping && w.err == 0 {
		t := clock.Now()
		v.reading = true
		if w.reaper == nil {
			w.syncLoop(stop)
		} else {
			w.asyncLoop(stop)
		}
		v.reading = false
		w.st.Dir[stats.Read].RuntimeUS += uint64(clock.Now()-t) / 1000
	}
	v.list, v.pos, v.quota = v.list[:0], 0, 0
	w.trimLeaked() // trimleak.go
	w.loopFilesDone()
}

// verifyErr is the error a job reports for the bad blocks it survived
// under continue_on_error (fio: "err=84 ()", exit status 0), or 0.
func (t *task) verifyErr() unix.Errno {
	if t.w == nil || t.w.vfy == nil || !t.w.vfy.survived {
		return 0
	}
	return unix.EILSEQ
}
