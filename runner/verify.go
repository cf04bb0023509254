package runner

// The worker's side of data verification (verify=TYPE): the I/O loop's
// calls into package verify, which holds fio's header format, the
// checks and their reports. The verify seed stream and the clock stay
// with the worker.

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/content"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/ioerr"
	"github.com/gofio/gofio/runner/verify"
	"github.com/gofio/gofio/stats"
)

// verifier is a worker's verify state.
type verifier struct {
	*verify.Verifier
	seeds rng.Stream // the verify stream: a seed per block written
	// onCompletion: a write is recorded to be read back when it
	// completes, not when it is issued, so that verify_backlog at an
	// iodepth above 1 never reads back a block still being written.
	onCompletion bool
	// want holds, by IOUnit.Index, the write number a verify read's
	// block must carry (experimental_verify); -1 for none.
	want []int32
	// replayed: experimental_verify's first loop is over; fio 3.33
	// checks nothing in later loops (observed).
	replayed bool
	// verified: the last loop had a verify phase.
	verified bool

	// The verify state file (verify_state_save, verify_state_load):
	// track follows the writes completed (nil when none is saved),
	// loaded is the state loaded (nil without), checked counts the
	// I/Os checked against it.
	statePath string
	stateNum  int
	track     *verify.StateTracker
	loaded    *verify.State
	checked   uint64

	// The trim-after-write check (trim_percentage): trimDraw is the
	// job's trim stream, which marks the blocks to trim; trimmed holds,
	// by IOUnit.Index, whether a verify read's block was trimmed.
	trimDraw rng.Stream
	trimmed  []bool

	// The seed check of a job that mixes reads and writes (mixed):
	// seedLog holds the seeds of the loop's writes in their order,
	// seedPos the rank of the next block read back, wantSeed by
	// IOUnit.Index the seed a read back block must hold (ok: checked).
	mixed    bool
	seedLog  []uint64
	seedPos  int
	wantSeed []struct {
		seed uint64
		ok   bool
	}
}

// newVerifier returns the verify state of job j, or nil when j does not
// verify.
func newVerifier(j *jobspec.Job, blocks uint64) (*verifier, error) {
	v, err := verify.New(j, blocks, ioerr.IgnoresVerify(j))
	if v == nil || err != nil {
		return nil, err
	}
	return &verifier{Verifier: v, onCompletion: v.Backlog > 0 && j.IODepth > 1 && !v.Only,
		mixed: j.RW.Reads() && j.RW.Writes()}, nil
}

// verifySetup gives the verify state what it takes from the run:
// verify_dump's directory (--aux-path) and the worker's fill and clock,
// and loads the verify state file (verify_state_load). Its error is
// fio's message: the job then does not run. num is the job's number in
// the run, from 0, which names the state file.
func (w *worker) verifySetup(auxPath string, num int) error {
	j := w.job
	path := verify.StateFileName(j.Name, num)
	if auxPath != "" {
		path = auxPath + "/" + path
	}
	var loaded *verify.State
	if j.Verify.StateLoad {
		// Read even without verify, where it changes nothing (fio 3.33,
		// observed: a missing file fails the job all the same).
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("fio: open state file: %s\nfio: state file: %s (for_write=0)", errno.Text(pathErrno(err)), path)
		}
		if loaded, err = verify.ParseState(b); err != nil {
			return err
		}
	}
	v := w.vfy
	if v == nil {
		return nil
	}
	if j.Verify.Dump {
		v.Dump = &verify.Dumper{Dir: auxPath, Fill: content.FillRandom,
			Now: func() uint64 { return uint64(max(clock.Now()-w.epoch, 0)) }}
	}
	v.stateNum, v.statePath = num, path
	if j.Verify.StateSave && j.RW.Writes() && j.Verify.Type != jobspec.VerifyNone {
		v.track = verify.NewStateTracker(j.IODepth, len(w.files))
	}
	if t := j.Verify.Trim; t.Percentage > 0 && j.RW.Writes() && j.Verify.Do && !v.Only {
		// fio 3.33 marks nothing without do_verify (observed).
		v.EnableTrims(int(min(t.Backlog, 1<<30)), t.Batch, t.Zero)
		v.trimDraw.Seed(w.gen.seeds[seedTrim], w.gen.use64)
	}
	if !(j.RW.Reads() && j.RW.Writes()) {
		// fio 3.33 reads the state of a job that mixes reads and
		// writes, and then checks all it wrote (observed with
		// rw=randrw).
		v.loaded = loaded
	}
	return nil
}

// pathErrno is the errno of a file operation's error (EIO when none).
func pathErrno(err error) unix.Errno {
	var e unix.Errno
	if errors.As(err, &e) {
		return e
	}
	return unix.EIO
}

// verifyNotice is fio's warning, when job j starts, that its random
// writes may overwrite one another while it verifies them: norandommap
// with block sizes that are not one fixed size for reads, writes and
// trims (observed in fio 3.33, on stderr), or "".
func verifyNotice(j *jobspec.Job) string {
	if j.Verify.Type == jobspec.VerifyNone || !j.RW.Random() || !j.NoRandomMap {
		return ""
	}
	maxBS := j.MaxBS()
	for d := range j.BS {
		if j.BS[d] != maxBS[d] || j.BS[d] != j.BS[0] {
			return "fio: norandommap given for variable block sizes, verify limited"
		}
	}
	return ""
}

// stateAllows reports whether the block of u is one to check under a
// loaded verify state (verify_state_load); when it is not, the job ends
// there, as in fio 3.33.
func (w *worker) stateAllows(u *engine.IOUnit) bool {
	v := w.vfy
	if v.loaded == nil {
		return true
	}
	if !v.loaded.Allows(v.checked, u.File, u.Offset) {
		w.stopping = true
		return false
	}
	v.checked++
	return true
}

// endVerify writes the job's verify state file when it ends
// (verify_state_save, on by default, in a writing job that verifies).
func (w *worker) endVerify() {
	v := w.vfy
	if v == nil {
		return
	}
	if v.track == nil {
		return
	}
	s := v.track.State(w.job.Name, v.stateNum)
	if j := w.job; j.RW.Random() {
		// As in fio 3.33 (observed): the offset generator's state, which
		// a verify phase re-seeds under randrepeat, as before each loop
		// (random_generator=lfsr leaves it as seeded); a job without
		// random offsets writes zeroes.
		r := w.gen.offRng
		if v.verified && w.gen.repeat || j.RandomGenerator == jobspec.GenLFSR {
			r.Seed(w.gen.seeds[seedBlock], w.gen.use64)
		}
		s.RandUse64, s.RandWords = r.State()
	}
	// fio 3.33's lines (observed): "open state file" and the path when
	// the file cannot be created, "write state file" when it cannot be
	// written (on a full file system fio leaves it empty).
	f, err := os.OpenFile(v.statePath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		if w.ioerr.out != nil {
			fmt.Fprintf(w.ioerr.out, "fio: open state file: %s\nfio: state file: %s (for_write=1)\n", errno.Text(pathErrno(err)), v.statePath)
		}
		return
	}
	_, err = f.Write(s.Marshal())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil && w.ioerr.out != nil {
		fmt.Fprintf(w.ioerr.out, "fio: write state file: %s\nfio: failed to write state file\n", errno.Text(pathErrno(err)))
	}
}

// stampVerify prepares the write u: fills it with verify_pattern, writes the
// header and checksum of each chunk, and records the block to read back.
func (w *worker) stampVerify(u *engine.IOUnit) {
	v := w.vfy
	if !v.onCompletion {
		w.recordWrite(u)
	}
	if v.Only {
		if v.track != nil {
			v.track.Completed(u.File, u.Offset) // counted as done
		}
		return
	}
	if v.Pattern != nil {
		content.FillPattern(u.Buf, v.PatternAt(u.Offset))
		if w.dbg.On(debuglog.Verify) {
			w.dprintf(debuglog.Verify, "using already filled verify pattern b=%d len=%d", len(v.Pattern), len(u.Buf))
		}
	}
	if !v.Header {
		return
	}
	seed := uint64(0)
	if v.Pattern == nil {
		// As in fio 3.33: the block's data comes from a seed drawn from
		// the verify stream, which the header keeps.
		seed = v.seeds.NextSeed()
		content.FillRandom(u.Buf, seed)
		if w.dbg.On(debuglog.Verify) {
			w.dprintf(debuglog.Verify, "fill random bytes len=%d", len(u.Buf))
		}
		if v.mixed {
			v.seedLog = append(v.seedLog, seed)
		}
	}
	v.Stamp(u.Buf, u.Offset, seed, uint64(max(clock.Now()-w.epoch, 0)))
	if w.dbg.On(debuglog.Verify) {
		w.debugVerifyChunks(u, "fill %s io_u %p, len %d")
	}
}

// nextVerified is next for a job that verifies: a block to read back
// (verify phase, verify_backlog), or the workload's next I/O, a write
// then carrying its verify header.
func (w *worker) nextVerified(u *engine.IOUnit, now int64) bool {
	v := w.vfy
	if !v.Reading && v.TrimDue() {
		return w.nextTrim(u)
	}
	if v.Reading || (v.Backlog > 0 && !v.replayed && !w.issuedAll() && v.BacklogDue()) {
		return w.nextVerify(u)
	}
	if !w.nextIO(u, now) {
		return false
	}
	if v.ReadJob && !w.stateAllows(u) {
		return false
	}
	if u.Op == engine.OpWrite {
		w.stampVerify(u)
	}
	return true
}

// issuedAll reports whether the job has issued all the bytes it is to
// do. As observed in fio 3.33, verify_backlog then reads nothing more
// inside the loop: the blocks left are read back after it, when the
// files have been closed and opened again.
func (w *worker) issuedAll() bool {
	return !w.job.TimeBased && w.totalIssued >= w.totalLimit
}

// nextVerify fills u with the next block to read back; false when all
// have been.
func (w *worker) nextVerify(u *engine.IOUnit) bool {
	v := w.vfy
	b, ok := v.Next()
	if !ok {
		if v.Reading && w.dbg.On(debuglog.Verify) {
			w.dprintf(debuglog.Verify, "get_next_verify: empty")
		}
		return false
	}
	if w.dbg.On(debuglog.Verify) {
		w.dprintf(debuglog.Verify, "get_next_verify: ret io_u %p", u)
	}
	fi := int(b.File)
	if v.loaded != nil && !v.loaded.Allows(v.checked, fi, b.Off) {
		w.stopping = true
		return false
	}
	v.checked++
	if !w.openFile(fi, stats.Read) {
		return false
	}
	u.Op, u.File, u.FD, u.Offset = engine.OpRead, fi, w.files[fi].fd, b.Off
	u.Buf = u.Buf[:b.Len]
	if v.Trimming() {
		for len(v.trimmed) <= u.Index {
			v.trimmed = append(v.trimmed, false)
		}
		v.trimmed[u.Index] = b.Trimmed
	}
	if v.mixed && !v.onCompletion && !v.Experimental && v.Pattern == nil && v.Header {
		for len(v.wantSeed) <= u.Index {
			v.wantSeed = append(v.wantSeed, struct {
				seed uint64
				ok   bool
			}{})
		}
		ws := &v.wantSeed[u.Index]
		ws.ok = v.seedPos < len(v.seedLog)
		if ws.ok {
			ws.seed = v.seedLog[v.seedPos]
		}
		v.seedPos++
	}
	if v.Experimental {
		// As in fio 3.33 (observed): with experimental_verify each
		// block read back counts toward the job's size × loops,
		// verify_backlog's too.
		w.totalIssued += uint64(b.Len)
	} else {
		w.verifyIssued += uint64(b.Len) // counted by more()
	}
	if !v.onCompletion && !v.Only && !(v.Experimental && w.reaper != nil) {
		// The block must hold the write number of its write (fio 3.33,
		// observed: another job's write over it fails with "bad header
		// numberio"). Writes recorded on completion have lost it;
		// verify_only never had it; experimental_verify checks it with
		// a synchronous engine only (at iodepth 4 with libaio a block
		// written again under norandommap passes).
		for len(v.want) <= u.Index {
			v.want = append(v.want, -1)
		}
		v.want[u.Index] = int32(b.NumberIO)
	}
	return true
}

// verifyWritten records the completed write u to be read back, when
// writes are recorded on completion.
func (w *worker) verifyWritten(u *engine.IOUnit) {
	if w.vfy.track != nil && u.Op == engine.OpWrite {
		w.vfy.track.Completed(u.File, u.Offset)
	}
	if w.vfy.onCompletion {
		w.recordWrite(u)
	}
}

// recordWrite records the write u to be read back, and marks it for a
// trim with probability trim_percentage.
func (w *worker) recordWrite(u *engine.IOUnit) {
	v := w.vfy
	v.Wrote(u.Offset, len(u.Buf), u.File)
	if v.Trimming() && v.trimDraw.Between(1, 100) <= uint64(w.job.Verify.Trim.Percentage) {
		v.MarkTrim()
	}
}

// nextTrim fills u with the trim of the oldest block marked for one.
func (w *worker) nextTrim(u *engine.IOUnit) bool {
	b := w.vfy.NextTrim()
	fi := int(b.File)
	if !w.openFile(fi, stats.Trim) {
		return false
	}
	u.Op, u.File, u.FD, u.Offset = engine.OpTrim, fi, w.files[fi].fd, b.Off
	u.Buf = u.Buf[:b.Len]
	return true
}

// verifyRead checks the read u when it is one the job verifies, and
// reports and handles a bad block.
func (w *worker) verifyRead(u *engine.IOUnit) {
	v := w.vfy
	if (!v.Reading && !v.ReadJob) || w.info.NoFiles {
		return // not a checked read, or an engine without data (null)
	}
	v.WantNumberIO = -1
	if u.Index < len(v.want) && !v.ReadJob {
		v.WantNumberIO, v.want[u.Index] = v.want[u.Index], -1
	}
	v.TrimmedRead = v.Reading && u.Index < len(v.trimmed) && v.trimmed[u.Index]
	v.CheckSeed = false
	if u.Index < len(v.wantSeed) && !v.ReadJob {
		ws := &v.wantSeed[u.Index]
		v.CheckSeed, v.WantSeed, ws.ok = ws.ok, ws.seed, false
	}
	if w.dbg.On(debuglog.Verify) {
		w.debugVerifyChunks(u, "%s verify io_u %p, len %d")
	}
	msg, bad := v.Check(u.Buf, u.Result, u.Offset, w.files[u.File].path)
	if msg != "" && w.ioerr.out != nil {
		fmt.Fprint(w.ioerr.out, msg)
	}
	if !bad {
		return
	}
	if v.Cont {
		// Counted as a survived error (err=84 in the report, exit
		// status 0); verify_fatal still ends the job, as in fio.
		v.Survived = true
		w.ioerr.total++
		if w.ioerr.first == 0 {
			w.ioerr.first = unix.EILSEQ
		}
		if v.Fatal {
			w.stopping = true
		}
		return
	}
	fn := "io_u_sync_complete"
	switch {
	case v.Async:
		fn = "async_verify"
	case w.reaper != nil:
		fn = "io_u_queued_complete"
	}
	w.fail(unix.EILSEQ, fn)
}

// skipWrites is the workload phase of verify_only: it walks the job's
// I/Os, counting each as issued and its bytes as moved, recording the
// written blocks, without doing any. As in fio 3.33 (observed): io_bytes
// and total_ios count the skipped reads and writes as if done, the
// writes' bandwidth and runtime are 0, so no write line prints, and
// write_iolog logs none of them. (fio also records a completion latency
// for each, measured from an unrelated older clock reading: gofio
// records none; docs/compat.md.)
func (w *worker) skipWrites() {
	if w.trace != nil {
		w.trace.skipped = true
		defer func() { w.trace.skipped = false }()
	}
	u := w.units[0]
	for w.next(u, w.stamp()) {
		if u.Op.IsData() {
			w.countIssued(u)
			w.st.Dir[u.Op].IOBytes += uint64(len(u.Buf))
		}
	}
}

// writesMapped reports whether the random map keeps the loop's writes
// from overlapping: random offsets through the map, which neither the
// LFSR nor a random_distribution uses. As observed in fio 3.33, the
// blocks to verify are then read back in the order written; otherwise
// (sequential writes, norandommap, lfsr, zipf and the like, strided
// zones that wrap) by file and offset, a later write of a block
// replacing the earlier (Settle): rw=write over two files reads the
// first file back, then the second.
func (w *worker) writesMapped() bool {
	j := w.job
	g := &w.gen
	return j.RW.Random() && !j.NoRandomMap && g.lfsr == nil && g.dists == nil
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
		if w.st.Dir[d].IOBytes > 0 && (d != int(stats.Read) || j.RW.Reads() || v.Backlog > 0) && (d != int(stats.Write) || !v.Only) {
			w.st.Dir[d].RuntimeUS += us
		}
	}
	v.verified = false
	if v.Do && v.Unchecked() > 0 && !w.stopping && w.err == 0 && !v.replayed {
		v.verified = true
		t := clock.Now()
		if v.Backlog == 0 && !j.Verify.Experimental && (w.trace != nil && w.trace.replay != nil || !w.writesMapped()) {
			v.Settle()
		}
		// As observed in fio 3.33, the files are closed when the
		// workload's I/O is done and opened again by the first read of
		// each (write_iolog: "close", then "open" before its reads).
		w.closeAll()
		if w.dbg.On(debuglog.Verify) {
			w.dprintf(debuglog.Verify, "starting loop")
		}
		if w.dbg.On(debuglog.Process) {
			w.debugRunstate("RUNNING", "VERIFYING")
		}
		v.Reading = true
		if w.reaper == nil {
			w.syncLoop(stop)
		} else {
			w.asyncLoop(stop)
		}
		v.Reading = false
		if w.dbg.On(debuglog.Process) {
			w.debugRunstate("VERIFYING", "RUNNING")
		}
		if w.dbg.On(debuglog.Verify) {
			w.dprintf(debuglog.Verify, "exiting loop")
		}
		w.st.Dir[stats.Read].RuntimeUS += uint64(clock.Now()-t) / 1000
	}
	v.EndLoop()
	// As in fio 3.33 (observed): with experimental_verify only the
	// first loop checks anything (verify phase, verify_backlog), and
	// what it reads back counts toward the job's size × loops
	// (nextVerify): randwrite with loops=3 writes, reads back, writes,
	// and stops.
	v.replayed = v.replayed || v.Experimental
	v.seedLog, v.seedPos = v.seedLog[:0], 0
	// With verify_backlog fio 3.33 warns of no leak (observed,
	// TestTrimEntriesLeaked).
	if m := v.TrimsLeaked(); m != "" && w.ioerr.out != nil && v.Backlog == 0 {
		fmt.Fprint(w.ioerr.out, m)
	}
	if v.Trimming() && w.gen.repeat {
		// Under randrepeat each loop marks the blocks the first did.
		v.trimDraw.Seed(w.gen.seeds[seedTrim], w.gen.use64)
	}
	w.loopFilesDone()
}

// verifyErr is the error a job reports for the bad blocks it survived
// under continue_on_error (fio: "err=84 ()", exit status 0), or 0.
func (t *task) verifyErr() unix.Errno {
	if t.w == nil || t.w.vfy == nil || !t.w.vfy.Survived {
		return 0
	}
	return unix.EILSEQ
}
