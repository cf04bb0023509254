package runner

// zonemode=strided, as fio 3.33 does it (observed with write_iolog):
//
//   - A file's region is cut into zones of zonerange bytes (zonesize by
//     default); the job does zonesize bytes in a zone (counted over all
//     its files), then moves to the zone that starts zoneskip bytes after
//     the zone's end. Zones are shared by the directions: on a move, each
//     direction starts at the new zone's start.
//   - A zone that starts at or past the file's end wraps to the region's
//     start: zones run on past the region (size) to the end of the file
//     itself, and an I/O past the file's end ends the file for the loop.
//   - The zones carry on from loop to loop; a file used up (and so
//     closed) starts again at its first zone when it is opened again.
//   - Sequential I/O wraps to the zone's start when the last I/O ended at
//     or past the zone's end (zonesize larger than zonerange visits a zone
//     several times); the rw=read:N skip is added after that check. In a
//     random job, sequential decisions (percentage_random, rw=randread:N)
//     go on from the direction's last I/O, random or not.
//   - Random I/O draws blocks of the zone, counted from its start, from
//     the offset stream or the LFSR (random_generator=lfsr); the random
//     map and the LFSR cover one zone (zonerange bytes). Without
//     norandommap a used block is traded for the zone's next free one
//     (wrapping inside the zone) and an I/O is cut where a used block
//     starts; several block sizes must fit before the region's end, a
//     single one is not checked. At the zone's start and after each
//     zonerange bytes done in it, the map and the LFSR start over (and
//     sequential decisions start at the zone's start); a map or LFSR used
//     up before ends the file for the loop.

import (
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// stridedZones is the strided zone state of a job's files.
type stridedZones struct {
	size, span uint64 // zonesize, zonerange
	skip       int64  // zoneskip
	// done counts the bytes issued since the last move to a new zone.
	// As observed in fio 3.33, the count is the job's, not a file's:
	// with several files, the file whose I/O finds it at zonesize moves
	// on, and the count starts again.
	done  uint64
	files []zoneState
}

// zoneState is the current zone of one file.
type zoneState struct {
	start uint64    // region-relative start of the zone
	pos   [2]uint64 // next sequential offset per direction
	end   [2]uint64 // end of the last sequential I/O per direction
	limit uint64    // the file's end, region-relative; 0: not read yet
}

// newStridedZones returns the zone state for job j over n files, or nil
// when j is not strided.
func newStridedZones(j *jobspec.Job, n int) *stridedZones {
	if j.Zone.Mode != jobspec.ZoneStrided || j.Zone.Size == 0 {
		return nil
	}
	z := &stridedZones{size: j.Zone.Size, span: j.Zone.Range, skip: j.Zone.Skip, files: make([]zoneState, n)}
	if z.span == 0 {
		z.span = z.size
	}
	return z
}

// reset starts the files used up in the last loop at their first zone
// (a new loop; the others carry on).
func (z *stridedZones) reset(usedUp []bool) {
	for i := range z.files {
		if i < len(usedUp) && usedUp[i] {
			z.files[i] = zoneState{}
			z.done = 0
		}
	}
}

// stridedOffset returns the next offset in file fi under
// zonemode=strided, and the I/O's length; ok is false when the file has
// nothing left this loop. bs is the length drawn for sequential I/O;
// random I/O draws its own after the offset, within room.
func (w *worker) stridedOffset(fi int, f *jobFile, d stats.Dir, bs, room uint64, random bool) (off, n uint64, ok bool) {
	z := w.gen.zone
	s := &z.files[fi]
	if s.limit == 0 {
		s.limit = f.size
		if end := f.realEnd(); end > f.offset {
			s.limit = end - f.offset
		}
	}
	size := s.limit
	if z.done >= z.size {
		next := int64(s.start+z.span) + z.skip
		if next < 0 || uint64(next) >= size {
			next = 0
		}
		s.start = uint64(next)
		z.done = 0
		s.pos = [2]uint64{s.start, s.start}
		s.end = s.pos
	}
	if w.job.RW.Random() && z.done%z.span == 0 {
		// As fio 3.33 does (observed): at a zone's start, and after each
		// zonerange bytes in it, the random map and the LFSR start over,
		// and sequential I/O (percentage_random) starts at the zone's
		// start.
		w.zoneReset(fi)
		s.pos = [2]uint64{s.start, s.start}
		s.end = s.pos
	}
	if random {
		off, bs, ok = w.zoneRandom(fi, f, s, z.span, d, size, room)
		if ok {
			// The next sequential I/O follows this one.
			s.pos[seqSlot(d)], s.end[seqSlot(d)] = off+bs, off+bs
		}
	} else {
		slot := seqSlot(d)
		if s.end[slot] >= s.start+z.span {
			s.pos[slot], s.end[slot] = s.start, s.start
		}
		off, ok = s.pos[slot], true
		next := int64(off+bs) + w.skip()
		s.end[slot] = off + bs
		s.pos[slot] = uint64(max(next, int64(s.start)))
	}
	if ok && off+bs > size && !random && w.job.TimeBased {
		// time_based: back to the zone's start rather than ending.
		off = s.start
		if off+bs > size {
			off = 0
		}
		s.end[seqSlot(d)] = off + bs
		s.pos[seqSlot(d)] = off + bs
	}
	if !ok || off+bs > size {
		return 0, 0, false
	}
	z.done += bs
	if d == stats.Trim && w.job.RW.Writes() {
		z.done += bs // trimwrite: the write of the same block counts too
	}
	return f.offset + off, bs, true
}

// zoneReset starts file fi's random map and LFSR over.
func (w *worker) zoneReset(fi int) {
	if m := w.maps[fi]; m != nil {
		m.Reset()
	}
	if l := w.gen.lfsr; l != nil {
		l[fi].Reset()
	}
}

// zoneRandom draws an offset in the zone [s.start, s.start+span) and the
// I/O's length, as fio 3.33 does (observed with write_iolog): the blocks
// are counted in the zone, not the file, and the random map and the LFSR
// (both over span bytes) index them from the zone's start. The random
// map cuts the length where a used block starts. A used-up map or LFSR ends the
// file for the loop, unless the job is time_based.
func (w *worker) zoneRandom(fi int, f *jobFile, s *zoneState, span uint64, d stats.Dir, size, room uint64) (uint64, uint64, bool) {
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
	lastb := span
	if minBS > align {
		lastb -= min(lastb, minBS-align)
	}
	lastb /= align
	if lastb == 0 {
		return 0, 0, false
	}
	m := w.maps[fi]
	if m != nil && j.BlockAlign[d] != 0 && j.BlockAlign[d] != minBS {
		m = nil // as in fio, blockalign other than the block size turns the map off
	}
	var blk uint64
	for try := 0; ; try++ {
		var ok bool
		switch {
		case g.lfsr != nil:
			blk, ok = g.lfsr[fi].Next()
		case m != nil:
			blk = g.offRng.Scale(lastb)
			if ok = !m.Full(); ok {
				blk = m.Free(min(blk, m.Blocks()-1))
			}
		default:
			blk, ok = g.offRng.Scale(lastb), true
		}
		if ok {
			break
		}
		if try > 0 || !j.TimeBased {
			return 0, 0, false
		}
		w.zoneReset(fi)
	}
	off := s.start + blk*align
	// As observed in fio 3.33: a single block size takes no draw and is
	// not checked against the region (zones run on to the file's end);
	// several are drawn until one fits before the region's end (size),
	// and where the smallest does not, the file is done.
	idx := int(d)
	if j.BSIsSeqRand {
		idx = 1
	}
	room = min(room, size-min(size, off))
	if g.bs.Varies(j, idx) {
		room = min(room, f.size-min(f.size, off))
	}
	bs := w.blockSize(d, true, room)
	if bs == 0 {
		return 0, 0, false
	}
	if m != nil {
		// The I/O marks its blocks from the first; it is cut where a
		// used one starts.
		first, k := (off-s.start)/g.grain, uint64(0)
		for k*g.grain < bs && m.MarkAny(first+k) {
			k++
		}
		if k > 0 {
			bs = min(bs, k*g.grain)
		}
	}
	return off, bs, true
}
