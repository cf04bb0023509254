package runner

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// stampVerify prepares the write u: fills it with verify_pattern, writes the
// header and checksum of each chunk, and records the block to read back.
func (w *worker) stampVerify(u *IOUnit) {
	v := w.vfy
	if v.record {
		v.list = append(v.list, vblock{off: u.Offset, len: uint32(len(u.Buf)), file: int32(u.File)})
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
		seed = v.seeds.nextSeed()
		fioFillRandom(u.Buf, seed)
	}
	t := uint64(max(nanotime()-w.epoch, 0))
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

// nextVerified is next for a job that verifies: a block to read back
// (verify phase, verify_backlog), or the workload's next I/O, a write
// then carrying its verify header.
func (w *worker) nextVerified(u *IOUnit, now int64) bool {
	v := w.vfy
	if v.reading || (v.backlog > 0 && v.backlogDue()) {
		return w.nextVerify(u)
	}
	if !w.nextIO(u, now) {
		return false
	}
	if u.Op == OpWrite {
		w.stampVerify(u)
	}
	return true
}

// nextVerify fills u with the next block to read back; false when all
// have been.
func (w *worker) nextVerify(u *IOUnit) bool {
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
	u.Op, u.File, u.FD, u.Offset = OpRead, fi, w.files[fi].fd, b.off
	u.Buf = u.Buf[:b.len]
	return true
}

// verifyRead checks the read u when it is one the job verifies, and
// reports and handles a bad block.
func (w *worker) verifyRead(u *IOUnit) {
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

// skipWrites is the write phase of verify_only: it walks the job's I/Os,
// counting the writes as issued (as fio does) and recording the blocks,
// without doing them.
func (w *worker) skipWrites() {
	u := w.units[0]
	for w.next(u, w.stamp()) {
		if u.Op == OpWrite {
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
	us := uint64(nanotime()-w.loopStart) / 1000
	for d := range w.st.Dir {
		if w.st.Dir[d].IOBytes > 0 && (d != int(stats.Read) || j.RW.Reads() || v.backlog > 0) {
			w.st.Dir[d].RuntimeUS += us
		}
	}
	if v.do && v.pos < len(v.list) && !w.stopping && w.err == 0 {
		t := nanotime()
		v.reading = true
		if w.reaper == nil {
			w.syncLoop(stop)
		} else {
			w.asyncLoop(stop)
		}
		v.reading = false
		w.st.Dir[stats.Read].RuntimeUS += uint64(nanotime()-t) / 1000
	}
	v.list, v.pos, v.quota = v.list[:0], 0, 0
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
