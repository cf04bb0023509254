package runner

// The I/O generator: for each unit, the worker picks a direction, a file,
// a block size and an offset, following fio 3.33's options and its
// observed behaviour:
//
//   - Directions: rwmixread for mixed patterns; trimwrite and
//     randtrimwrite trim a block, then write the same block (the write does
//     not count toward size, so the job moves twice its size).
//   - Block sizes: bs, bsrange (a random multiple of the smallest size,
//     any size with bs_unaligned), bssplit (by percentage; entries without
//     one share what is left); with bs_is_seq_rand the read size serves
//     sequential I/O and the write size random I/O. A size that does not
//     fit what is left is drawn again, then the smallest size is used.
//   - Sequential offsets advance per file and direction, skipping the
//     rw=read:N bytes (a negative N reads backwards) and wrapping at the
//     end of the file's region; the bytes issued to a file end it.
//   - Random offsets are aligned to blockalign (the block size by
//     default). Without norandommap every block is used once per loop (a
//     bitmap); random_generator=lfsr walks every block once in a scrambled
//     order without a map; tausworthe64 draws from a 64-bit generator.
//     rw=randread:N issues N I/Os per random offset, following it
//     sequentially or, with rw_sequencer=identical, at the same offset;
//     percentage_random makes the rest of the I/Os sequential.
//     random_distribution other than random (zipf, pareto, normal, zoned,
//     zoned_abs; dist.go) draws the blocks without the map, as fio does;
//     its sequences differ from fio's, its shape does not.
//   - rate, rate_iops and thinktime pace the I/Os (rate.go).
//   - Files are opened on first use and closed when done, keeping at most
//     openfiles open; file_service_type picks the next: roundrobin[:N]
//     (N I/Os each), sequential (one file until done) or random.
//   - fsync=N and fdatasync=N sync the file after every N writes, and
//     sync_file_range=FLAGS:N does its call, as a unit of its own.
//
// Everything here runs per I/O: no allocation.

import (
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// ioGen is the generator state the worker keeps besides its offset fields.
type ioGen struct {
	bsRng   taus88 // block sizes
	pctRng  taus88 // percentage_random
	fileRng taus88 // file_service_type=random
	rng64   taus258
	use64   bool // random_generator=tausworthe64

	split [3][]bsPick // bssplit per size index, cumulative shares
	cycle []fullCycle // random_generator=lfsr, per file
	grain uint64      // random map block size

	fileBytes []uint64 // bytes issued to each file this loop
	opened    []bool   // file open now
	openNow   int      // files open
	doneOpen  int      // files open and done this loop
	openMax   int      // openfiles
	curFile   int
	fileLeft  int // I/Os left on curFile before the next switch

	seqLeft int    // follow-up I/Os left of the last random offset
	lastOff uint64 // region-relative offset of the last random I/O
	lastLen uint64

	// trimwrite: the write due after a trim.
	twPending bool
	twFile    int
	twOff     int64
	twLen     int

	loops int // loops started

	// Syncs: writes issued, and whether the last unit was a sync.
	writes   uint64
	lastSync bool
	lastFile int // file of the last write
	// wrOff and wrLen: the last write's offset and length, which
	// fio's error lines give for a sync ("sync offset=N").
	wrOff int64
	wrLen int

	dists    [][3]distDraw // random_distribution per file and direction; nil: uniform
	fileDist distDraw      // file_service_type zipf, pareto, normal
	pace     pacer         // rate and thinktime (rate.go)
	zone     *stridedZones // zonemode=strided (zone.go); nil otherwise
}

// bsPick is one bssplit entry with its cumulative share (out of 10000).
type bsPick struct {
	size uint64
	upTo uint32
}

// initGen prepares the generator for job j over w's files.
func (w *worker) initGen() error {
	j := w.job
	g := &w.gen
	seed := j.RandSeed
	if !j.RandRepeat {
		// randrepeat=0: a different pattern every run.
		seed = uint64(time.Now().UnixNano())
		w.rng.seed(seed)
		w.mixRng.seed(seed + 1)
	}
	g.bsRng.seed(seed ^ 0x1b5)
	g.pctRng.seed(seed ^ 0x2c7)
	g.fileRng.seed(seed ^ 0x3d9)
	g.use64 = j.RandomGenerator == jobspec.GenTausworthe64
	g.rng64.seed(seed)
	for d := range g.split {
		g.split[d] = splitPicks(j.BSSplit[d])
	}
	n := len(w.files)
	g.fileBytes = make([]uint64, n)
	g.opened = make([]bool, n)
	g.openMax = j.OpenFiles
	if g.openMax <= 0 || g.openMax > n {
		g.openMax = n
	}
	g.grain = minBS(j)
	if j.RandomGenerator == jobspec.GenLFSR && j.RW.Random() {
		g.cycle = make([]fullCycle, n)
		for i, f := range w.files {
			g.cycle[i] = newFullCycle(f.size/g.grain, seed+uint64(i))
		}
		// The generator visits each block once: no map needed.
		clear(w.maps)
	}
	if k, ok := fileDists[j.FileService]; ok && n > 1 {
		dist := jobspec.Distribution{Kind: k, Param: j.FileServiceParam}
		if dist.Param == 0 {
			dist.Param = map[jobspec.DistKind]float64{jobspec.DistZipf: 1.1, jobspec.DistPareto: 0.2}[k]
		}
		g.fileDist = newDistDraw(dist, uint64(n), 1, seed)
	}
	g.fileLeft = j.FileServiceNR
	g.pace.init(j, seed)
	g.zone = newStridedZones(j, n)
	if j.RW.Random() && nonUniform(j) {
		// As in fio, a non-uniform distribution turns the random map off.
		g.dists = make([][3]distDraw, n)
		for i, f := range w.files {
			for d := range 3 {
				g.dists[i][d] = newDistDraw(j.RandomDist[d], f.size/g.grain, g.grain, seed+uint64(i))
			}
		}
		clear(w.maps)
	}
	return nil
}

// nonUniform reports whether random_distribution is set to other than
// random for some direction.
func nonUniform(j *jobspec.Job) bool {
	for _, d := range j.RandomDist {
		if d.Kind != jobspec.DistRandom {
			return true
		}
	}
	return false
}

// fileDists are the file_service_type choices that pick files with a
// random_distribution's generator (dist.go).
var fileDists = map[jobspec.FileService]jobspec.DistKind{
	jobspec.ServiceZipf:   jobspec.DistZipf,
	jobspec.ServicePareto: jobspec.DistPareto,
	jobspec.ServiceNormal: jobspec.DistNormal,
}

// splitPicks turns bssplit entries into cumulative shares: entries with a
// percentage take it, the others share the rest equally.
func splitPicks(es []jobspec.BSSplit) []bsPick {
	if len(es) == 0 {
		return nil
	}
	given, unset := 0, 0
	for _, e := range es {
		if e.Percent > 0 {
			given += e.Percent
		} else {
			unset++
		}
	}
	rest := 0
	if unset > 0 && given < 100 {
		rest = (100 - given) * 100 / unset
	}
	out := make([]bsPick, 0, len(es))
	var acc uint32
	for _, e := range es {
		share := e.Percent * 100
		if e.Percent == 0 {
			share = rest
		}
		if share == 0 {
			continue
		}
		acc += uint32(share)
		out = append(out, bsPick{size: e.Size, upTo: acc})
	}
	return out
}

// genStartLoop rewinds the generator for a loop.
func (w *worker) genStartLoop() {
	g := &w.gen
	if g.loops > 0 && w.job.UnlinkEachLoop && !w.info.NoFiles {
		// unlink_each_loop removes the files between loops; the next
		// loop's writes create them again, and the last loop's stay (as
		// in fio 3.33).
		w.unlinkFiles()
	}
	g.loops++
	clear(g.fileBytes)
	g.doneOpen = 0
	for i := range g.cycle {
		g.cycle[i].reset()
	}
	g.seqLeft, g.twPending = 0, false
	g.curFile, g.fileLeft = 0, w.job.FileServiceNR
	if g.zone != nil {
		g.zone.reset()
	}
}

// next fills u with the job's next I/O. It returns false when the loop
// has nothing left to issue.
func (w *worker) next(u *IOUnit, now int64) bool {
	if w.stopping || w.err != 0 {
		return false
	}
	if w.deadline != 0 && now >= w.deadline {
		w.stopping = true
		return false
	}
	if w.flow != nil && !w.flowWait(now) {
		return false
	}
	u.ErrFn = ""
	if w.trace != nil {
		return w.traceNext(u, now) // iolog_trace.go
	}
	if w.vfy != nil {
		return w.nextVerified(u, now) // verify.go
	}
	return w.nextIO(u, now)
}

// nextIO is next past its stop checks: the workload's next I/O.
func (w *worker) nextIO(u *IOUnit, now int64) bool {
	j := w.job
	g := &w.gen
	if g.twPending {
		// The write half of a trimwrite pair: same block, free of size.
		g.twPending = false
		f := w.files[g.twFile]
		w.fillUnit(u, OpWrite, g.twFile, f.fd, g.twOff, uint64(g.twLen))
		g.writes++
		g.lastFile, g.wrOff, g.wrLen = g.twFile, g.twOff, g.twLen
		return true
	}
	if j.NumberIOs > 0 && w.ios >= j.NumberIOs {
		return false
	}
	room := ^uint64(0)
	if !j.TimeBased {
		if w.loopIssued >= w.regionBytes || w.totalIssued >= w.totalLimit {
			return false
		}
		room = min(w.regionBytes-w.loopIssued, w.totalLimit-w.totalIssued)
	}
	if w.syncDue() {
		return w.fillSync(u)
	}
	d := w.direction()
	if g.pace.rated && j.RW.Reads() && j.RW.Writes() {
		d = g.pace.dueFirst(d, nanotime())
	}
	if g.pace.rated && !w.waitDue(d) {
		return false
	}
	for tries := 0; tries <= len(w.files); tries++ {
		fi := w.pickFile()
		if fi < 0 {
			return false
		}
		f := w.files[fi]
		if !w.openFile(fi, d) {
			return false
		}
		off, bs, ok := w.offset(fi, f, d, room)
		if !ok {
			w.fileDone(fi)
			continue
		}
		op := Op(d)
		w.fillUnit(u, op, fi, f.fd, int64(off), bs)
		w.loopIssued += bs
		w.totalIssued += bs
		g.fileBytes[fi] += bs
		w.ios++
		g.lastSync = false
		if g.pace.rated || g.pace.think != 0 {
			t := nanotime()
			g.pace.issued(d, bs, t)
			w.thinkAfter(1, true, t)
		}
		if g.fileLeft > 0 {
			g.fileLeft--
		}
		switch op {
		case OpWrite:
			g.writes++
			g.lastFile, g.wrOff, g.wrLen = fi, int64(off), int(bs)
		case OpTrim:
			if j.RW.Writes() {
				g.twPending, g.twFile, g.twOff, g.twLen = true, fi, int64(off), int(bs)
			}
		}
		if (!j.TimeBased || w.seqPasses()) && g.fileBytes[fi] >= f.size && !g.twPending {
			w.fileDone(fi)
		}
		return true
	}
	return false
}

// fillUnit sets u up for one I/O and prepares its buffer.
func (w *worker) fillUnit(u *IOUnit, op Op, fi, fd int, off int64, bs uint64) {
	u.Op, u.File, u.FD, u.Offset = op, fi, fd, off
	u.Buf = u.Buf[:bs]
	if op == OpWrite {
		w.prepareWrite(u.Buf)
	}
}

// direction picks the direction of the next I/O.
func (w *worker) direction() stats.Dir {
	j := w.job
	switch {
	case j.RW.Reads() && j.RW.Writes():
		if int(w.mixRng.below(100)) < j.RWMixRead {
			return stats.Read
		}
		return stats.Write
	case j.RW.Trims():
		return stats.Trim
	case j.RW.Writes():
		return stats.Write
	}
	return stats.Read
}

// pickFile returns the file of the next I/O per file_service_type, or -1
// when every file is done.
func (w *worker) pickFile() int {
	g := &w.gen
	n := len(w.files)
	if n == 1 {
		if w.exhaust[0] {
			return -1
		}
		return 0
	}
	j := w.job
	cur := g.curFile
	if g.fileLeft > 0 && w.usable(cur) {
		return cur
	}
	if j.FileService == jobspec.ServiceSequential && w.usable(cur) {
		return cur
	}
	if j.FileService == jobspec.ServiceRandom || g.fileDist.n > 0 {
		for tries := 0; tries < 4*n; tries++ {
			i := int(g.fileRng.below(uint64(n)))
			if g.fileDist.n > 0 {
				i = int(g.fileDist.draw(&g.fileRng))
			}
			if w.usable(i) {
				g.curFile, g.fileLeft = i, j.FileServiceNR
				return i
			}
		}
	}
	start := cur + 1
	if j.FileService == jobspec.ServiceSequential {
		start = cur
	}
	for k := 0; k < n; k++ {
		i := (start + k) % n
		if w.usable(i) {
			g.curFile, g.fileLeft = i, j.FileServiceNR
			return i
		}
	}
	return -1
}

// usable reports whether file i can take the next I/O: not done, and
// open or openable within openfiles (a done file may give its slot).
func (w *worker) usable(i int) bool {
	g := &w.gen
	return !w.exhaust[i] && (g.opened[i] || g.openNow < g.openMax || g.doneOpen > 0)
}

// openFile opens file fi on first use, timing the open for engines that
// measure it; at the openfiles limit a done file is closed first. It
// returns false when the job must stop.
func (w *worker) openFile(fi int, d stats.Dir) bool {
	g := &w.gen
	if g.opened[fi] {
		return true
	}
	if g.openNow >= g.openMax {
		for i := range w.files {
			if g.opened[i] && w.exhaust[i] {
				w.closeFile(i)
				break
			}
		}
	}
	f := w.files[fi]
	start := nanotime()
	if !w.info.NoFiles {
		if err := f.open(w.job, w.writes, w.opener, fi); err != nil {
			w.setupFailed(err)
			return false
		}
	}
	done := nanotime()
	g.openNow++
	g.opened[fi] = true
	w.traceFile(fi, "open")
	if w.info.NoStats && w.clat && w.accounting() {
		// The open's time is a completion latency of d, but (as in fio)
		// not part of the latency distribution, which counts I/Os.
		ns := uint64(max(0, done-start))
		s := &w.st.Dir[d]
		s.Clat.Add(ns)
		if w.clatHist {
			s.ClatHist.Add(ns)
		}
	}
	return true
}

// fileDone marks file fi used up for this loop. It stays open (for
// end_fsync) until its slot is needed or the loop ends, as in fio.
func (w *worker) fileDone(fi int) {
	if w.exhaust[fi] {
		return
	}
	w.exhaust[fi] = true
	if w.gen.opened[fi] {
		w.gen.doneOpen++
	}
}

// closeFile closes file fi if it is open (fsync_on_close first).
func (w *worker) closeFile(fi int) {
	g := &w.gen
	if !g.opened[fi] {
		return
	}
	f := w.files[fi]
	if w.job.FsyncOnClose && w.writes && f.fd >= 0 {
		unix.Fsync(f.fd)
	}
	if !w.info.NoFiles {
		f.closeWith(w.opener, fi)
	}
	g.opened[fi] = false
	g.openNow--
	w.traceFile(fi, "close")
	if w.exhaust[fi] {
		g.doneOpen--
	}
}

// closeAll closes every open file.
func (w *worker) closeAll() {
	for i := range w.files {
		w.closeFile(i)
	}
}

// loopFilesDone ends a loop's use of the files: it closes them.
func (w *worker) loopFilesDone() {
	w.closeAll()
}

// unlinkFiles removes the job's regular files (unlink, unlink_each_loop).
func (w *worker) unlinkFiles() {
	for _, f := range w.files {
		if !f.blockDev && f.path != "" {
			unix.Unlink(f.path)
		}
	}
}

// blockSize draws the block size of the next I/O of direction d that
// fits in room bytes; 0 when none fits.
func (w *worker) blockSize(d stats.Dir, random bool, room uint64) uint64 {
	j := w.job
	idx := int(d)
	if j.BSIsSeqRand {
		idx = 0
		if random {
			idx = 1
		}
	}
	lo, hi := j.BS[idx], max(j.BS[idx], j.BSMax[idx])
	if lo > room {
		return 0
	}
	picks := w.gen.split[idx]
	if len(picks) == 0 && lo == hi {
		return lo
	}
	for tries := 0; tries < 10; tries++ {
		var bs uint64
		if len(picks) > 0 {
			bs = pickSplit(picks, uint32(w.gen.bsRng.below(uint64(picks[len(picks)-1].upTo))))
		} else {
			bs = lo + w.gen.bsRng.below(hi-lo+1)
			if !j.BSUnaligned {
				bs -= bs % lo
			}
		}
		if bs <= room {
			return bs
		}
	}
	return lo
}

func pickSplit(picks []bsPick, r uint32) uint64 {
	for _, p := range picks {
		if r < p.upTo {
			return p.size
		}
	}
	return picks[len(picks)-1].size
}

// offset returns the next offset in file fi for direction d and the
// block size, within room bytes; ok is false when the file has nothing
// left this loop.
func (w *worker) offset(fi int, f *jobFile, d stats.Dir, room uint64) (off, bs uint64, ok bool) {
	j := w.job
	g := &w.gen
	if !j.TimeBased {
		left := f.size - min(f.size, g.fileBytes[fi])
		room = min(room, left)
	}
	random := j.RW.Random()
	if random && g.seqLeft > 0 {
		// Follow-up of the last random offset (rw=randread:N).
		g.seqLeft--
		bs = w.blockSize(d, false, room)
		next := g.lastOff
		if j.RWSequencer == jobspec.SeqSequential {
			next += g.lastLen
		}
		if bs > 0 && next+bs <= f.size {
			g.lastOff, g.lastLen = next, bs
			return f.offset + next, bs, true
		}
		g.seqLeft = 0
	}
	if random && j.PercentageRandom[d] < 100 && int(g.pctRng.below(100)) >= j.PercentageRandom[d] {
		random = false
	}
	if !random && j.TimeBased && g.zone == nil {
		room = w.seqWrap(fi, f, d, room)
	}
	bs = w.blockSize(d, random, room)
	if bs == 0 || bs > f.size {
		return 0, 0, false
	}
	if g.zone != nil {
		return w.stridedOffset(fi, f, d, bs, random) // zone.go
	}
	if !random {
		return w.seqOffset(fi, f, d, bs)
	}
	rel, bs, ok := w.randOffset(fi, f, d, bs)
	if !ok {
		return 0, 0, false
	}
	if j.RWSuffix > 1 {
		g.seqLeft = int(j.RWSuffix) - 1
	}
	g.lastOff, g.lastLen = rel, bs
	w.seqPos[fi][seqSlot(d)] = rel + bs
	return f.offset + rel, bs, true
}

// seqPasses reports whether a time_based job ends a pass over its files
// the way a loop ends, closing and reopening them (which drops their
// cached pages again): fio does so for sequential I/O over several
// files, each file done once its region's bytes are issued.
func (w *worker) seqPasses() bool {
	return !w.job.RW.Random() && len(w.files) > 1 && w.gen.zone == nil
}

// seqWrap prepares the next sequential I/O of a time_based job in file
// fi and returns the room it has. As in fio: an I/O that ended at the
// region's end wraps the position to its start and drops the region's
// cached pages (invalidate=1, without direct=1), the file staying open;
// the room is what is left before the end, so a block that does not
// fit there ends the file's pass (the loop ends and the file is
// reopened, its pages dropped by the open).
func (w *worker) seqWrap(fi int, f *jobFile, d stats.Dir, room uint64) uint64 {
	pos := &w.seqPos[fi][seqSlot(d)]
	if *pos >= f.size {
		*pos = 0
		w.wrapped(fi)
	}
	return min(room, f.size-*pos)
}

// wrapped drops file fi's cached pages when a time_based job's I/O has
// wrapped around it, as fio does (invalidate=1, unless direct=1).
func (w *worker) wrapped(fi int) {
	if w.job.Invalidate && !w.job.Direct && !w.info.NoFiles {
		w.files[fi].dropCache()
	}
}

// seqSlot is the sequential position a direction uses: trims share the
// writes' (trimwrite writes what it trimmed).
func seqSlot(d stats.Dir) int { return min(int(d), 1) }

// seqOffset returns the next sequential offset of file fi.
func (w *worker) seqOffset(fi int, f *jobFile, d stats.Dir, bs uint64) (uint64, uint64, bool) {
	pos := &w.seqPos[fi][seqSlot(d)]
	skip := w.skip()
	// With rw=read:N (N > 0) fio 3.33 ends the file's pass where a block
	// no longer fits before its end, and after a block that ends there,
	// rather than wrapping: size=128m, bs=1m, rw=read:512k reads 85 MiB
	// (fio's t0007). It wraps still in a time_based job or when io_size
	// asks for more than the loop's region.
	stopAtEnd := w.seqStopsAtEnd()
	if *pos+bs > f.size {
		if stopAtEnd {
			return 0, 0, false
		}
		*pos = 0 // wrap: the bytes issued end the file, not its end
	}
	off := *pos
	next := int64(off+bs) + skip
	switch {
	case stopAtEnd && off+bs == f.size:
		next = int64(f.size) // the pass ends with this block
	case next < 0:
		next += int64(f.size) - int64(bs)
		if next < 0 {
			next = 0
		}
	case uint64(next) == f.size && skip == 0:
		// At the end: the next I/O wraps (seqWrap in a time_based job).
	case uint64(next) >= f.size:
		next = 0
	}
	*pos = uint64(next)
	return f.offset + off, bs, true
}

// seqStopsAtEnd reports whether a sequential pass with a forward skip
// (rw=read:N) ends at the file's end instead of wrapping, and the loop
// with it (see seqOffset).
func (w *worker) seqStopsAtEnd() bool {
	return w.skip() > 0 && !w.job.TimeBased && w.totalLimit <= w.regionBytes*uint64(max(w.job.Loops, 1))
}

// skip is the rw=read:N byte skip of sequential patterns.
func (w *worker) skip() int64 {
	if w.job.RW.Random() {
		return 0
	}
	return w.job.RWSuffix
}

// randOffset draws a region-relative random offset in file fi.
func (w *worker) randOffset(fi int, f *jobFile, d stats.Dir, bs uint64) (uint64, uint64, bool) {
	j := w.job
	g := &w.gen
	if g.cycle != nil {
		c := &g.cycle[fi]
		blk, ok := c.next()
		if !ok {
			if !j.TimeBased {
				return 0, 0, false
			}
			c.reset()
			w.wrapped(fi)
			if blk, ok = c.next(); !ok {
				return 0, 0, false
			}
		}
		return fitEnd(blk*g.grain, bs, f.size)
	}
	if m := w.maps[fi]; m != nil {
		if m.full() {
			if !j.TimeBased {
				return 0, 0, false
			}
			// time_based: like fio, start the map over within the same
			// loop (no drain, one runtime span), dropping the cached
			// pages again.
			m.reset()
			w.wrapped(fi)
		}
		blk := m.take(w.randBelow(m.blocks))
		// A larger I/O covers the free blocks after blk; it is cut where
		// a used one starts, so every block is done once.
		k := uint64(1)
		for k*g.grain < bs && blk+k < m.blocks && m.mark(blk+k) {
			k++
		}
		return fitEnd(blk*g.grain, min(bs, k*g.grain), f.size)
	}
	align := j.BlockAlign[d]
	if align == 0 {
		align = j.BS[d]
	}
	if align == 0 || bs > f.size {
		return 0, 0, false
	}
	slots := (f.size-bs)/align + 1
	if g.dists != nil {
		// The distribution picks a block of the random map's grain.
		off := g.dists[fi][d].draw(&w.rng) * g.grain
		return min(off/align, slots-1) * align, bs, true
	}
	return w.randBelow(slots) * align, bs, true
}

// fitEnd shrinks an I/O at off that runs past size to end there.
func fitEnd(off, bs, size uint64) (uint64, uint64, bool) {
	if off >= size {
		return 0, 0, false
	}
	return off, min(bs, size-off), true
}

// randBelow draws a random offset index in [0, n) with the job's
// generator.
func (w *worker) randBelow(n uint64) uint64 {
	if w.gen.use64 {
		return w.gen.rng64.below(n)
	}
	return w.rng.below(n)
}

// syncDue reports whether a sync unit is due: fsync, fdatasync or
// sync_file_range every N writes. Like fio, the check is made before
// every I/O, so a mixed job syncs again after a read while the write
// count stays on a multiple of N.
func (w *worker) syncDue() bool {
	j := w.job
	g := &w.gen
	if g.writes == 0 || g.lastSync {
		return false
	}
	switch {
	case j.Fsync > 0 && g.writes%uint64(j.Fsync) == 0,
		j.Fdatasync > 0 && g.writes%uint64(j.Fdatasync) == 0,
		j.SyncFileRange > 0 && g.writes%uint64(j.SyncFileRange) == 0:
		return w.gen.opened[g.lastFile]
	}
	return false
}

// fillSync sets u up as the sync that is due.
func (w *worker) fillSync(u *IOUnit) bool {
	j := w.job
	g := &w.gen
	g.lastSync = true
	f := w.files[g.lastFile]
	op := OpFsync
	switch {
	case j.Fsync > 0 && g.writes%uint64(j.Fsync) == 0:
	case j.Fdatasync > 0 && g.writes%uint64(j.Fdatasync) == 0:
		op = OpFdatasync
	default:
		op = OpSyncFileRange
	}
	// The offset is the last write's, as in fio's error line for a
	// failed sync; the engines sync the whole file whatever it is.
	u.Op, u.File, u.FD, u.Offset = op, g.lastFile, f.fd, g.wrOff
	u.Buf = u.Buf[:0]
	return true
}

// syncFileRange performs a sync_file_range unit; the engines never see
// one.
func (w *worker) syncFileRange(u *IOUnit) {
	u.Result, u.Err = 0, 0
	if u.FD >= 0 { // engines without files (null) sync nothing
		u.Err = errno(unix.SyncFileRange(u.FD, 0, 0, w.job.SyncFileRangeFlags))
	}
}

// queue hands u to the engine; sync_file_range units the worker does
// itself.
func (w *worker) queue(u *IOUnit) Status {
	if u.Op == OpSyncFileRange {
		w.syncFileRange(u)
		return Completed
	}
	return w.eng.Queue(u)
}

// preRead reads every file's region once before the job starts
// (pre_read), so the job finds it in the page cache.
func (w *worker) preRead() error {
	buf := make([]byte, 1<<20)
	for _, f := range w.files {
		fd, err := unix.Open(f.path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return &setupError{errno: errno(err), fn: "open", msg: f.path + ": open failed"}
		}
		for off := f.offset; off < f.offset+f.size; {
			n, err := unix.Pread(fd, buf[:min(uint64(len(buf)), f.offset+f.size-off)], int64(off))
			if err != nil || n <= 0 {
				break
			}
			off += uint64(n)
		}
		unix.Close(fd)
	}
	return nil
}

// prepareWrite fills a write buffer per the buffer options (buffers.go).
func (w *worker) prepareWrite(b []byte) {
	if w.bufs.perWrite {
		w.bufs.fill(b)
	}
}

// think pauses after a completion for the engine's think time (cpuio);
// it reports whether it paused.
func (w *worker) think() bool {
	if w.thinker == nil {
		return false
	}
	ns := w.thinker.ThinkTime()
	if ns > 0 {
		sleepNS(ns)
	}
	return ns > 0
}
