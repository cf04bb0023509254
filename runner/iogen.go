package runner

// The I/O generator: for each unit, the worker picks a file, a
// direction, an offset and a block size, in that order and with fio
// 3.33's random streams (fiorand.go), so that a seeded job issues fio's
// I/O (observed with write_iolog):
//
//   - Directions: rwmixread for mixed patterns, a draw in [1, 100] before
//     almost every I/O; trimwrite and randtrimwrite trim a block, then
//     write the same block (the write does not count toward size, so the
//     job moves twice its size).
//   - Block sizes: bs, bsrange (the smallest size plus a draw scaled to
//     the largest, rounded down to a multiple of the smallest; any size
//     with bs_unaligned), bssplit (by ascending percentage; entries
//     without one share what is left); with bs_is_seq_rand the read size
//     serves sequential I/O and the write size random I/O. A size that
//     does not fit before the end of the file is drawn again.
//   - Sequential offsets advance per file and direction, skipping the
//     rw=read:N bytes (a negative N reads backwards) and wrapping at the
//     end of the file's region; the bytes issued to a file end it.
//   - Random offsets are blocks of blockalign bytes (the block size by
//     default), the offset stream's draw scaled to their number. Without
//     norandommap a used block gives way to the next free one and an I/O
//     is cut where a used block starts; the map running out ends the
//     file. random_generator=lfsr walks every block once without a map;
//     tausworthe64 draws from 64-bit streams. rw=randread:N issues N I/Os
//     per decision, following it sequentially or, with
//     rw_sequencer=identical, at the same offset; percentage_random makes
//     the rest of the decisions sequential. random_distribution other
//     than random (zipf, pareto, normal, zoned, zoned_abs; runner/offsets) draws
//     the blocks without the map, as fio does.
//   - rate, rate_iops and thinktime pace the I/Os (runner/pace, rate.go).
//   - Files are opened on first use and closed when done, keeping at most
//     openfiles open; file_service_type picks the next: roundrobin[:N]
//     (N I/Os each), sequential (one file until done), random[:N] (a draw
//     every N I/Os) or zipf, pareto and normal.
//   - fsync=N and fdatasync=N sync the file after every N writes, and
//     sync_file_range=FLAGS:N does its call, as a unit of its own.
//
// Everything here runs per I/O: no allocation.

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/bsize"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/offsets"
	"github.com/gofio/gofio/runner/pace"
	"github.com/gofio/gofio/runner/strided"
	"github.com/gofio/gofio/stats"
)

// ioGen is the generator state the worker keeps besides its offset fields.
type ioGen struct {
	// fio's random streams (fiorand.go), seeded from the job's seed slots.
	seeds   [nSeeds]uint64
	repeat  bool          // randrepeat in force: the streams restart each loop
	use64   bool          // random_generator=tausworthe64
	offRng  rng.Stream    // offsets
	mixRng  rng.Stream    // read/write mix
	fileRng rng.Stream    // file_service_type=random
	pctRng  [3]rng.Stream // percentage_random, per direction
	lfsr    []rng.LFSR    // random_generator=lfsr, per file

	// The read/write mix: the current direction, the issue count at
	// which the next draw is due, and the I/Os issued per direction.
	mixDir    stats.Dir
	mixNext   uint64
	mixIssued [3]uint64

	// mapEnds: a file's random map (or LFSR) running out ends it, not
	// the bytes issued, as in fio.
	mapEnds bool

	bs    bsize.Picker // block sizes: bssplit, and their streams
	grain uint64       // random map block size

	fileBytes []uint64 // bytes issued to each file this loop
	opened    []bool   // file open now
	openNow   int      // files open
	doneOpen  int      // files open and done this loop
	openMax   int      // openfiles
	// pastMax: files open past openfiles, as fio 3.33 opens them for
	// end_fsync and the verify phase.
	pastMax  bool
	curFile  int
	fileLeft int // I/Os left on curFile before the next switch

	seqLeft   int         // follow-up I/Os left of the last random offset
	lastStart [][2]uint64 // region-relative start of the last I/O, per file and direction

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

	dists    []offsets.Dist        // random_distribution zipf, pareto, normal per file; nil: uniform
	zones    [3]*offsets.ZoneTable // random_distribution zoned, zoned_abs per direction
	zoneRng  rng.Stream            // zoned: picks the zone
	fileDist offsets.Dist          // file_service_type zipf, pareto, normal
	pace     pace.Pacer            // rate and thinktime (runner/pace, rate.go)
	paceStop <-chan struct{}       // ends a pause: closed by a signal or exitall
	paceHard <-chan struct{}       // ends a pause: closed by a signal only; nil: paceStop
	zone     *strided.Zones        // zonemode=strided (runner/strided, zone.go); nil otherwise
	// switch64: a file has more blocks than 32-bit streams reach; the
	// streams are 64-bit from the next re-seed on. genNote is fio's
	// warning, printed as the job starts (checks.go).
	switch64 bool
	genNote  string
}

// initGen prepares the generator for job j over w's files.
func (w *worker) initGen() error {
	j := w.job
	g := &w.gen
	g.use64 = j.RandomGenerator == jobspec.GenTausworthe64
	w.seedStreams()
	seed := g.seeds[seedBlock]
	g.bs.Init(j)
	n := len(w.files)
	g.fileBytes = make([]uint64, n)
	g.opened = make([]bool, n)
	g.lastStart = make([][2]uint64, n)
	g.openMax = j.OpenFiles
	if g.openMax <= 0 || g.openMax > n {
		g.openMax = n
	}
	g.grain = minBS(j)
	g.switch64 = w.randGenLimit()
	g.zone = strided.New(j, n)
	if g.zone != nil {
		// As in fio, zonemode=strided's random map (and LFSR) covers a
		// zone, zonerange bytes, not the file.
		for i := range w.maps {
			if w.maps[i] != nil {
				w.maps[i] = offsets.NewMap(max(g.zone.Span/g.grain, 1))
			}
		}
	}
	if j.RandomGenerator == jobspec.GenLFSR && j.RW.Random() {
		g.lfsr = make([]rng.LFSR, n)
		for i, f := range w.files {
			blocks := f.size / g.grain
			if g.zone != nil {
				blocks = g.zone.Span / g.grain
			}
			l, ok := rng.NewLFSR(blocks, seed)
			if !ok && f.size >= g.grain {
				return fmt.Errorf("fio: failed initializing LFSR")
			}
			g.lfsr[i] = l
		}
		// The generator visits each block once: no map needed.
		clear(w.maps)
	}
	if k, ok := fileDists[j.FileService]; ok && n > 1 {
		dist := jobspec.Distribution{Kind: k, Param: j.FileServiceParam}
		if dist.Param == 0 {
			dist.Param = map[jobspec.DistKind]float64{jobspec.DistZipf: 1.1, jobspec.DistPareto: 0.2}[k]
		}
		// As in fio: 1024 values per file, not spread, from the file
		// seed.
		g.fileDist = offsets.NewDist(dist, uint64(n)<<10, uint32(g.seeds[seedFile]), false)
	}
	g.fileLeft = w.firstFileLeft()
	g.pace.Init(j)
	if j.RW.Random() && nonUniform(j) {
		// As in fio, a non-uniform distribution turns the random map off.
		// Each file's picker is seeded from its name and the thread
		// number, or, without randrepeat, from the offset seed; its
		// values are blocks of the smaller of the read and write sizes.
		g.dists = make([]offsets.Dist, n)
		unit := min(j.BS[0], j.BS[1])
		for i, f := range w.files {
			seed := offsets.Jhash([]byte(f.path)) * uint32(max(j.ThreadNumber, 1))
			if !g.repeat {
				seed = uint32(g.seeds[seedBlock])
			}
			g.dists[i] = offsets.NewDist(j.RandomDist[0], (f.size+unit-1)/unit, seed, true)
		}
		for d := range g.zones {
			g.zones[d] = offsets.NewZoneTable(j.RandomDist[d])
		}
		clear(w.maps)
	}
	g.mapEnds = j.RW.Random() && !j.TimeBased && g.zone == nil && g.dists == nil &&
		(g.lfsr != nil || (len(w.maps) > 0 && w.maps[0] != nil))
	return nil
}

// seedStreams seeds the job's random streams from its seed slots, as fio
// does when the job starts and, with randrepeat, before each loop.
func (w *worker) seedStreams() {
	j := w.job
	g := &w.gen
	s := &g.seeds
	bsSeeds := [3]uint64{s[seedBS], s[seedBS1], s[seedBS2]}
	if j.Verify.Type != jobspec.VerifyNone {
		bsSeeds[1] = s[seedBS] // as fio: the read seed for writes
	}
	if j.RW == jobspec.RWTrimWrite || j.RW == jobspec.RWRandTrimWrite {
		bsSeeds[2] = bsSeeds[1]
	}
	for d := range bsSeeds {
		g.bs.Seed(d, bsSeeds[d], g.use64)
		g.pctRng[d].Seed(s[seedSeqRand], false)
	}
	g.mixRng.Seed(s[seedMix], false)
	g.fileRng.Seed(s[seedFile], g.use64)
	g.offRng.Seed(s[seedBlock], g.use64)
	g.zoneRng.Seed(s[seedZone], false)
	g.pace.SeedPoisson(paceSeeds(s))
	g.mixDir, g.mixNext = stats.Read, 0
}

// firstFileLeft is how many I/Os of a loop go to the first file before
// the next is picked: none where a draw picks it (fio draws for the first
// I/O too).
func (w *worker) firstFileLeft() int {
	if w.job.FileService == jobspec.ServiceRandom || w.gen.fileDist.N() > 0 {
		return 0
	}
	return w.job.FileServiceNR
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
// random_distribution's generator (runner/offsets).
var fileDists = map[jobspec.FileService]jobspec.DistKind{
	jobspec.ServiceZipf:   jobspec.DistZipf,
	jobspec.ServicePareto: jobspec.DistPareto,
	jobspec.ServiceNormal: jobspec.DistNormal,
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
	if g.loops > 1 && g.repeat {
		// fio re-seeds before each loop under randrepeat: the loop
		// repeats the first.
		g.use64 = g.use64 || g.switch64
		w.seedStreams()
		w.bufs.Reseed(bufSeeds(&g.seeds, g.use64))
	}
	g.mixNext = 0
	clear(g.fileBytes)
	g.doneOpen = 0
	g.seqLeft, g.twPending = 0, false
	if g.loops > 1 && w.job.FileService == jobspec.ServiceRoundRobin {
		// As in fio 3.33 (observed): the round robin goes on from the
		// file after the last one used, loop after loop.
		g.fileLeft = 0
	} else {
		g.curFile, g.fileLeft = 0, w.firstFileLeft()
	}
	if g.zone != nil {
		g.zone.Reset(w.exhaust)
	}
}

// next fills u with the job's next I/O. It returns false when the loop
// has nothing left to issue.
func (w *worker) next(u *engine.IOUnit, now int64) bool {
	if w.stopping || w.err != 0 {
		return false
	}
	if w.deadline != 0 && now >= w.deadline {
		w.stopping = true
		return false
	}
	if w.flow != nil && !w.flowWait() {
		return false
	}
	u.ErrFn = ""
	if w.loopQueued >= w.loopCap && !w.gen.twPending && (w.vfy == nil || !w.vfy.Reading) {
		return false // the loop's queued bytes (queuedCap)
	}
	if w.trace != nil {
		return w.traceNext(u, now) // iolog_trace.go
	}
	if w.vfy != nil {
		return w.nextVerified(u, now) // verify.go
	}
	return w.nextIO(u, now)
}

// nextIO is next past its stop checks: the workload's next I/O.
func (w *worker) nextIO(u *engine.IOUnit, now int64) bool {
	j := w.job
	g := &w.gen
	if g.twPending {
		// The write half of a trimwrite pair: same block, free of size.
		g.twPending = false
		f := w.files[g.twFile]
		w.fillUnit(u, engine.OpWrite, g.twFile, f.fd, g.twOff, uint64(g.twLen))
		g.writes++
		g.lastFile, g.wrOff, g.wrLen = g.twFile, g.twOff, g.twLen
		return true
	}
	if w.numberIOsDone() {
		return false
	}
	room := ^uint64(0)
	if !j.TimeBased {
		// As observed in fio 3.33, a loop ends when its files are used
		// up (offset), or when the job's limit, io_size or size times
		// loops over all loops, is reached; nothing else ends it: not a
		// loop's bytes (rw=rw with loops=2 runs its first loop until a
		// direction reaches the end of the file, and norandommap's
		// first loop does all the loops' I/O), nor the bytes left, which
		// do not cut the last block (size=16k, io_size=10k, bs=4k reads
		// 12k). Strided and zbd zones keep their own rules (zone.go,
		// zbd.go).
		if w.issuedAll() {
			return false
		}
		if g.zone != nil || w.zbd != nil {
			room = w.totalLimit - w.totalIssued
			if w.zbd != nil && !g.mapEnds {
				room = min(w.regionBytes-min(w.regionBytes, w.loopIssued), room)
				if room == 0 {
					return false
				}
			}
		}
	}
	if w.syncDue() {
		return w.fillSync(u)
	}
	// As in fio: the file first, then the direction, the offset and the
	// length; a file found used up is done, and the choice starts over.
	for tries := 0; tries <= len(w.files); tries++ {
		fi := w.pickFile()
		if fi < 0 {
			return false
		}
		d := w.direction()
		if w.zbd != nil {
			d = w.zbd.Dir(fi, d, j) // runner/zbd
		}
		if g.pace.Rated() && j.RW.Reads() && j.RW.Writes() {
			d = g.pace.DueFirst(d, clock.Now())
		}
		if g.pace.Rated() && !w.waitDue(d) {
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
		op := engine.Op(d)
		w.fillUnit(u, op, fi, f.fd, int64(off), bs)
		w.loopIssued += bs
		w.totalIssued += bs
		g.fileBytes[fi] += bs
		w.ios++
		w.allIOs++
		g.mixIssued[d]++
		g.lastSync = false
		if g.pace.Rated() || g.pace.Thinks() {
			t := clock.Now()
			g.pace.Issued(d, bs, t)
			w.thinkAfter(1, true, t)
		}
		if g.fileLeft > 0 {
			g.fileLeft--
		}
		switch op {
		case engine.OpWrite:
			g.writes++
			g.lastFile, g.wrOff, g.wrLen = fi, int64(off), int(bs)
		case engine.OpTrim:
			if j.RW.Writes() {
				g.twPending, g.twFile, g.twOff, g.twLen = true, fi, int64(off), int(bs)
			}
		}
		if g.fileBytes[fi] >= f.size && w.doneByBytes() && !g.twPending {
			w.fileDone(fi)
		}
		return true
	}
	return false
}

// doneByBytes reports whether a file is done once its region's bytes are
// issued in a loop: in a time_based job's passes over several files
// (seqPasses), in a zbd job without a random map, and where the bytes
// tell the end of the file, a sequential pass in one direction without
// rw=read:N (in fio the next offset fails there). A file's bytes do not
// end a random job without its map (norandommap, a random_distribution),
// whose loop only the job's limit ends, nor rw=rw, nor rw=read:N.
func (w *worker) doneByBytes() bool {
	j := w.job
	switch {
	case w.gen.mapEnds || w.gen.zone != nil:
		return false
	case j.TimeBased:
		return w.seqPasses()
	case w.zbd != nil:
		return true
	}
	return !j.RW.Random() && !(j.RW.Reads() && j.RW.Writes()) && w.skip() == 0
}

// fillUnit sets u up for one I/O and prepares its buffer.
func (w *worker) fillUnit(u *engine.IOUnit, op engine.Op, fi, fd int, off int64, bs uint64) {
	u.Op, u.File, u.FD, u.Offset = op, fi, fd, off
	u.Buf = u.Buf[:bs]
	if op == engine.OpWrite {
		w.prepareWrite(u.Buf)
	}
}

// direction picks the direction of the next I/O.
func (w *worker) direction() stats.Dir {
	j := w.job
	switch {
	case j.RW.Reads() && j.RW.Writes():
		// fio's rwmix: while the current direction has issued at least
		// mixNext I/Os, a draw in [1, 100] picks the direction; on a
		// change, the next draw is due once the old direction's count
		// times the new one's share, in percent, is reached.
		g := &w.gen
		cur := g.mixDir
		if g.mixIssued[cur] >= g.mixNext {
			d := stats.Write
			if g.mixRng.Between(1, 100) <= uint64(j.RWMixRead) {
				d = stats.Read
			}
			if d != cur {
				share := uint64(j.RWMixRead)
				if d == stats.Write {
					share = 100 - share
				}
				g.mixNext = g.mixIssued[cur] * share / 100
				g.mixDir = d
			}
		}
		return g.mixDir
	case j.RW.Trims():
		return stats.Trim
	case j.RW.Writes():
		return stats.Write
	}
	return stats.Read
}

// blockSize draws the block size of the next I/O of direction d that
// fits in room bytes (runner/bsize).
func (w *worker) blockSize(d stats.Dir, random bool, room uint64) uint64 {
	return w.gen.bs.Draw(w.job, d, random, room)
}

// offset returns the next offset in file fi for direction d and the
// block size, within room bytes; ok is false when the file has nothing
// left this loop.
func (w *worker) offset(fi int, f *jobFile, d stats.Dir, room uint64) (off, bs uint64, ok bool) {
	if w.zbd != nil && !w.zbd.inner {
		return w.zbdOffset(fi, f, d, room) // zonemode=zbd (zbd.go)
	}
	j := w.job
	g := &w.gen
	random := j.RW.Random()
	switch {
	case j.TimeBased || g.zone != nil:
	case w.zbd != nil:
		if !g.mapEnds {
			room = min(room, f.size-min(f.size, g.fileBytes[fi]))
		}
	case !random:
		// As in fio, a sequential block must fit before the end of the
		// region, from where the direction's pass is: a direction that
		// reaches the end ends the file (rw=rw ends it with the first
		// direction to get there, rw=read:N where a block ends at the
		// end or no longer fits; seqOffset).
		room = f.size - min(f.size, w.seqPos[fi][seqSlot(d)])
	}
	// mark: a random offset is marked in the random map. fio takes a
	// random one, unmarked, where a sequential I/O would start past the
	// end of the file itself (observed in fio 3.33).
	mark := true
	seq, seqAt := false, uint64(0)
	switch {
	case random && g.seqLeft > 0:
		// Follow-up of a decision point of rw=randread:N. As in fio, per
		// direction: from where its last I/O ended, or at its start
		// (rw_sequencer=identical).
		g.seqLeft--
		seq, seqAt = true, w.seqPos[fi][seqSlot(d)]
		if j.RWSequencer != jobspec.SeqSequential {
			seqAt = g.lastStart[fi][seqSlot(d)]
		}
	case random:
		if j.RWSuffix > 1 {
			// A decision point of rw=randread:N: the next N-1 I/Os
			// follow it, whatever percentage_random decides for it.
			g.seqLeft = int(j.RWSuffix) - 1
		}
		// percentage_random: a draw in [1, 100] per direction; above
		// the percentage the I/O continues from the direction's last.
		if j.PercentageRandom[d] < 100 && g.pctRng[d].Between(1, 100) > uint64(j.PercentageRandom[d]) {
			seq, seqAt = true, w.seqPos[fi][seqSlot(d)]
		}
	}
	if seq && g.zone != nil {
		// zonemode=strided (zone.go): on from the direction's last
		// position in the zone.
		if bs = w.blockSize(d, false, room); bs == 0 {
			g.seqLeft = 0
			return 0, 0, false
		}
		return w.stridedOffset(fi, f, d, bs, room, false)
	}
	if seq {
		if seqAt < f.size || f.offset+seqAt < f.realEnd() { // no fstat inside the region
			// Past the end of the region only (size below the file's),
			// or where the smallest block does not fit, the file is done.
			if seqAt < f.size {
				// As in fio, the length must fit in the file; the bytes
				// left to do do not cut it.
				bs = w.blockSize(d, false, f.size-seqAt)
			}
			if bs == 0 {
				g.seqLeft = 0
				return 0, 0, false
			}
			g.lastStart[fi][seqSlot(d)] = seqAt
			w.seqPos[fi][seqSlot(d)] = seqAt + bs
			return f.offset + seqAt, bs, true
		}
		mark = false
	}
	if g.zone != nil && random {
		// zonemode=strided (zone.go): the length follows the offset; as
		// observed in fio 3.33, the bytes left do not cap it.
		return w.stridedOffset(fi, f, d, 0, ^uint64(0), true)
	}
	if g.zone != nil || !random {
		if !random && j.TimeBased && g.zone == nil {
			room = w.seqWrap(fi, f, d, room)
		}
		bs = w.blockSize(d, random, room)
		if bs == 0 || bs > f.size {
			return 0, 0, false
		}
		if g.zone != nil {
			return w.stridedOffset(fi, f, d, bs, room, false) // zone.go
		}
		return w.seqOffset(fi, f, d, bs)
	}
	if w.zbd != nil {
		w.zbd.mark, mark = mark, false // marked once moved (zbd.go)
	}
	rel, bs, ok := w.randOffset(fi, f, d, mark)
	if !ok {
		return 0, 0, false
	}
	g.lastStart[fi][seqSlot(d)] = rel
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
	// (fio's t0007); io_size above size then takes more loops, each
	// from the start. It wraps still in a time_based job, and where the
	// skip, not a block, passes the end (size=32k, bs=4k, rw=read:4k
	// reads blocks 0, 2, 4, 6, 0, ... until the job's limit).
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
	return w.skip() > 0 && w.zbd == nil && !w.job.TimeBased
}

// skip is the rw=read:N byte skip of sequential patterns.
func (w *worker) skip() int64 {
	if w.job.RW.Random() {
		return 0
	}
	return w.job.RWSuffix
}

// randOffset draws a region-relative random offset in file fi, then the
// I/O's length, as fio does: a block of blockalign bytes (the smallest
// block size by default) among those where the smallest block fits,
// from the offset stream scaled to their number, or the LFSR's next; with
// the random map a used block gives way to the first free one after it
// (wrapping), and the length is cut where a used block starts. A map or
// LFSR that has run out ends the file, after its draw, unless the job is
// time_based: then the file starts over.
func (w *worker) randOffset(fi int, f *jobFile, d stats.Dir, mark bool) (uint64, uint64, bool) {
	j := w.job
	g := &w.gen
	minBS := j.BS[d]
	align := j.BlockAlign[d]
	if align == 0 {
		align = minBS
	}
	if align == 0 {
		return 0, 0, false
	}
	lastb := f.randBlocks(d, minBS, align)
	if lastb == 0 {
		return 0, 0, false
	}
	var blk uint64
	m := w.maps[fi]
	if m != nil && j.BlockAlign[d] != 0 && j.BlockAlign[d] != minBS {
		m = nil // as in fio, blockalign other than the block size turns the map off
	}
	switch {
	case g.lfsr != nil:
		l := &g.lfsr[fi]
		b, ok := l.Next()
		if !ok {
			if !j.TimeBased && g.fileDist.N() == 0 {
				return 0, 0, false
			}
			l.Reset()
			if j.TimeBased {
				w.wrapped(fi)
			}
			if b, ok = l.Next(); !ok {
				return 0, 0, false
			}
		}
		blk = b
	case g.zones[d] != nil:
		blk = g.zones[d].Draw(&g.zoneRng, &g.offRng, lastb, align)
	case g.dists != nil:
		blk = g.dists[fi].Draw()
	default:
		blk = w.drawOffset(lastb)
		if m != nil {
			if m.Full() {
				if !j.TimeBased && g.fileDist.N() == 0 {
					return 0, 0, false
				}
				// time_based, or files picked by zipf, pareto or normal:
				// like fio, start the map over within the same loop (no
				// drain, one runtime span), dropping the cached pages
				// again (time_based), and draw again.
				m.Reset()
				if j.TimeBased {
					w.wrapped(fi)
				}
				blk = w.drawOffset(lastb)
			}
			// As in fio, the map is looked up at the block's index in
			// blockalign units and marked at the offset's in units of
			// the direction's smallest block size: with sizes that
			// differ per direction the two mix.
			blk = m.Free(min(blk, m.Blocks()-1))
		}
	}
	off := blk * align
	if off >= f.size {
		return 0, 0, false
	}
	// The length must fit in the file; as in fio, the bytes left to do
	// do not cut it (the random map does).
	bs := w.blockSize(d, true, f.size-off)
	if bs == 0 {
		return 0, 0, false
	}
	if m != nil && mark && g.dists == nil && g.lfsr == nil {
		// The I/O marks its blocks from the first; it is cut where a
		// used one starts, so every block is done once.
		start, k := off/minBS, uint64(0)
		for k*minBS < bs && m.MarkAny(start+k) {
			k++
		}
		if k > 0 {
			bs = min(bs, k*minBS)
		}
	}
	return off, bs, true
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
func (w *worker) fillSync(u *engine.IOUnit) bool {
	j := w.job
	g := &w.gen
	g.lastSync = true
	f := w.files[g.lastFile]
	op := engine.OpFsync
	switch {
	case j.Fsync > 0 && g.writes%uint64(j.Fsync) == 0:
	case j.Fdatasync > 0 && g.writes%uint64(j.Fdatasync) == 0:
		op = engine.OpFdatasync
	default:
		op = engine.OpSyncFileRange
	}
	// The offset is the last write's, as in fio's error line for a
	// failed sync; the engines sync the whole file whatever it is.
	u.Op, u.File, u.FD, u.Offset = op, g.lastFile, f.fd, g.wrOff
	u.Buf = u.Buf[:0]
	return true
}

// syncFileRange performs a sync_file_range unit; the engines never see
// one.
func (w *worker) syncFileRange(u *engine.IOUnit) {
	u.Result, u.Err = 0, 0
	if u.FD >= 0 { // engines without files (null) sync nothing
		u.Err = errno.Of(unix.SyncFileRange(u.FD, 0, 0, w.job.SyncFileRangeFlags))
	}
}

// queue hands u to the engine; sync_file_range units the worker does
// itself.
func (w *worker) queue(u *engine.IOUnit) engine.Status {
	if w.dbg.On(debuglog.IO) {
		w.debugQueue(u)
	}
	if u.Op == engine.OpSyncFileRange {
		w.syncFileRange(u)
		return engine.Completed
	}
	if u.Op == engine.OpTrim && w.zbd != nil {
		return w.zbdTrim(u) // zbd.go
	}
	st := w.eng.Queue(u)
	if st == engine.Queued {
		w.loopQueued += uint64(len(u.Buf))
	}
	return st
}

// preRead reads every file's region once before the job starts
// (pre_read), so the job finds it in the page cache.
func (w *worker) preRead() error {
	buf := make([]byte, 1<<20)
	for _, f := range w.files {
		fd, err := unix.Open(f.path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return &setupError{errno: errno.Of(err), fn: "open", msg: f.path + ": open failed"}
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
	if w.bufs.PerWrite() && (w.vfy == nil || !w.vfy.Header || w.vfy.Pattern != nil) {
		w.bufs.Fill(b) // a verify header's seed fills the block otherwise
	}
}

// think pauses after a completion for the engine's think time (cpuio);
// it reports whether it paused.
func (w *worker) think() bool {
	if w.thinker == nil {
		return false
	}
	ns := w.thinker.ThinkTime()
	// The pause ends early when the job is stopped (exit_on_io_done
	// stops a cpuio job within its pause, as in fio 3.33).
	for now, end := clock.Now(), clock.Now()+ns; now < end; now = clock.Now() {
		if stopped(w.gen.paceStop) {
			w.stopping = true
			break
		}
		clock.Sleep(min(end-now, 20e6))
	}
	return ns > 0
}

// randGenLimit reports whether a random job on the default tausworthe
// generator has a file of more blocks (of its smallest block size) than
// a 32-bit stream can draw, and keeps fio 3.33's warning. Where
// random_generator was not given, fio then switches to tausworthe64, but
// only after the streams were seeded, so the first pass keeps 32-bit
// streams (observed) and later re-seeds make 64-bit ones.
func (w *worker) randGenLimit() bool {
	j := w.job
	if !j.RW.Random() || j.RandomGenerator != jobspec.GenTausworthe {
		return false
	}
	for _, f := range w.files {
		if f.size/w.gen.grain <= 1<<32-1 {
			continue
		}
		w.gen.genNote = "fio: file " + f.path + " exceeds 32-bit tausworthe random generator."
		for _, o := range j.Options {
			if o.Name == "random_generator" {
				w.gen.genNote += "\nfio: Use the random_generator= option to switch to lfsr or tausworthe64."
				return false
			}
		}
		w.gen.genNote += "\nfio: Switching to tausworthe64. Use the random_generator= option to get rid of this warning."
		return true
	}
	return false
}
