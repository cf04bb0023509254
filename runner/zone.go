package runner

// zonemode=strided, as fio 3.33 does it (observed with write_iolog):
//
//   - A file's region is cut into zones of zonerange bytes (zonesize by
//     default); the job does zonesize bytes in a zone, then moves to the
//     zone that starts zoneskip bytes after the zone's end. Zones are
//     shared by the directions: on a move, each direction starts at the
//     new zone's start.
//   - A zone that starts at or past the region's end wraps to its start.
//   - Sequential I/O wraps to the zone's start when the last I/O ended at
//     or past the zone's end (zonesize larger than zonerange visits a zone
//     several times); the rw=read:N skip is added after that check. An I/O
//     that would run past the region's end ends the file for the loop.
//   - Random I/O draws blocks inside the zone from the offset stream;
//     without norandommap a block used before is traded for the zone's
//     next free one (wrapping inside the zone); a zone with none left, or
//     the first zone come round again, starts the random map over.

import (
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// stridedZones is the strided zone state of a job's files.
type stridedZones struct {
	size, span uint64 // zonesize, zonerange
	skip       int64  // zoneskip
	files      []zoneState
}

// zoneState is the current zone of one file.
type zoneState struct {
	start uint64    // region-relative start of the zone
	done  uint64    // bytes issued in the zone
	pos   [2]uint64 // next sequential offset per direction
	end   [2]uint64 // end of the last sequential I/O per direction
	// used counts the zone's blocks set in the random map, when counted.
	used    uint64
	counted bool
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

// reset starts every file at its first zone (a new loop).
func (z *stridedZones) reset() {
	clear(z.files)
}

// stridedOffset returns the next offset in file fi under
// zonemode=strided; ok is false when the file has nothing left this loop.
func (w *worker) stridedOffset(fi int, f *jobFile, d stats.Dir, bs uint64, random bool) (off, n uint64, ok bool) {
	z := w.gen.zone
	s := &z.files[fi]
	if s.done >= z.size {
		next := int64(s.start+z.span) + z.skip
		if next < 0 || uint64(next) >= f.size {
			next = 0
			if m := w.maps[fi]; m != nil {
				// Observed in fio 3.33: back at the first zone, the
				// random map starts over.
				m.reset()
				for i := range z.files {
					z.files[i].counted = false
				}
			}
		}
		s.start = uint64(next)
		s.done = 0
		s.pos = [2]uint64{s.start, s.start}
		s.end = s.pos
		s.counted = false
	}
	if random {
		off, ok = w.zoneRandom(fi, s, z.span, d, bs, f.size)
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
	if ok && off+bs > f.size && !random && w.job.TimeBased {
		// time_based: back to the zone's start rather than ending.
		off = s.start
		if off+bs > f.size {
			off = 0
		}
		s.end[seqSlot(d)] = off + bs
		s.pos[seqSlot(d)] = off + bs
	}
	if !ok || off+bs > f.size {
		return 0, 0, false
	}
	s.done += bs
	if d == stats.Trim && w.job.RW.Writes() {
		s.done += bs // trimwrite: the write of the same block counts too
	}
	return f.offset + off, bs, true
}

// zoneRandom draws a block of the zone [s.start, s.start+span).
func (w *worker) zoneRandom(fi int, s *zoneState, span uint64, d stats.Dir, bs, size uint64) (uint64, bool) {
	start := s.start
	align := w.job.BlockAlign[d]
	if align == 0 {
		align = w.job.BS[d]
	}
	if align == 0 {
		return 0, false
	}
	slots := max(span/align, 1)
	m := w.maps[fi]
	if m == nil {
		return start + w.randBelow(slots)*align, true
	}
	grain := w.gen.grain
	lo, hi := start/grain, min((start+span+grain-1)/grain, m.blocks)
	if !s.counted {
		s.used, s.counted = m.count(lo, hi), true
	}
	if s.used >= hi-lo {
		// The zone is used up: as fio 3.33 does, the map starts over
		// before the draw.
		m.reset()
		s.used = 0
	}
	off := start + w.randBelow(slots)*align
	if off+bs > size {
		return off, true
	}
	b := off / grain
	for k := lo; k < hi; k++ {
		if m.mark(b) {
			s.used++
			return b * grain, true
		}
		if b++; b >= hi {
			b = lo
		}
	}
	return off, true
}
