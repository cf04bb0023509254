package runner

// zonemode=strided's offsets (the zones' bookkeeping is runner/strided).

import (
	"github.com/gofio/gofio/runner/strided"
	"github.com/gofio/gofio/stats"
)

// stridedOffset returns the next offset in file fi under
// zonemode=strided, and the I/O's length; ok is false when the file has
// nothing left this loop. bs is the length drawn for sequential I/O;
// random I/O draws its own after the offset, within room.
func (w *worker) stridedOffset(fi int, f *jobFile, d stats.Dir, bs, room uint64, random bool) (off, n uint64, ok bool) {
	z := w.gen.zone
	s := &z.Files[fi]
	if s.Limit == 0 {
		s.Limit = f.size
		if end := f.realEnd(); end > f.offset {
			s.Limit = end - f.offset
		}
	}
	size := s.Limit
	z.Advance(fi, size)
	if w.job.RW.Random() && z.Done%z.Span == 0 {
		// As fio 3.33 does (observed): at a zone's start, and after each
		// zonerange bytes in it, the random map and the LFSR start over,
		// and sequential I/O (percentage_random) starts at the zone's
		// start.
		w.zoneReset(fi)
		s.Rewind()
	}
	if random {
		off, bs, ok = w.zoneRandom(fi, f, s, z.Span, d, size, room)
		if ok {
			// The next sequential I/O follows this one.
			s.Pos[seqSlot(d)], s.End[seqSlot(d)] = off+bs, off+bs
		}
	} else {
		slot := seqSlot(d)
		if s.End[slot] >= s.Start+z.Span {
			s.Pos[slot], s.End[slot] = s.Start, s.Start
		}
		off, ok = s.Pos[slot], true
		next := int64(off+bs) + w.skip()
		s.End[slot] = off + bs
		s.Pos[slot] = uint64(max(next, int64(s.Start)))
	}
	if ok && off+bs > size && !random && w.job.TimeBased {
		// time_based: back to the zone's start rather than ending.
		off = s.Start
		if off+bs > size {
			off = 0
		}
		s.End[seqSlot(d)] = off + bs
		s.Pos[seqSlot(d)] = off + bs
	}
	if !ok || off+bs > size {
		return 0, 0, false
	}
	z.Done += bs
	if d == stats.Trim && w.job.RW.Writes() {
		z.Done += bs // trimwrite: the write of the same block counts too
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

// zoneRandom draws an offset in the zone [s.Start, s.Start+span) and the
// I/O's length, as fio 3.33 does (observed with write_iolog): the blocks
// are counted in the zone, not the file, and the random map and the LFSR
// (both over span bytes) index them from the zone's start. The random
// map cuts the length where a used block starts. A used-up map or LFSR ends the
// file for the loop, unless the job is time_based.
func (w *worker) zoneRandom(fi int, f *jobFile, s *strided.Zone, span uint64, d stats.Dir, size, room uint64) (uint64, uint64, bool) {
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
	off := s.Start + blk*align
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
		first, k := (off-s.Start)/g.grain, uint64(0)
		for k*g.grain < bs && m.MarkAny(first+k) {
			k++
		}
		if k > 0 {
			bs = min(bs, k*g.grain)
		}
	}
	return off, bs, true
}
