// Package strided is the zones of zonemode=strided, as fio 3.33 does it (observed with write_iolog):
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
package strided

import "github.com/gofio/gofio/jobspec"

// Zones is the strided zone state of a job's files.
type Zones struct {
	Size, Span uint64 // zonesize, zonerange
	skip       int64  // zoneskip
	// Done counts the bytes issued since the last move to a new zone.
	// As observed in fio 3.33, the count is the job's, not a file's:
	// with several files, the file whose I/O finds it at zonesize moves
	// on, and the count starts again.
	Done  uint64
	Files []Zone // per file
}

// Zone is the current zone of one file.
type Zone struct {
	Start uint64    // region-relative start of the zone
	Pos   [2]uint64 // next sequential offset per direction
	End   [2]uint64 // end of the last sequential I/O per direction
	Limit uint64    // the file's end, region-relative; 0: not read yet
}

// New returns the zone state for job j over n files, or nil
// when j is not strided.
func New(j *jobspec.Job, n int) *Zones {
	if j.Zone.Mode != jobspec.ZoneStrided || j.Zone.Size == 0 {
		return nil
	}
	z := &Zones{Size: j.Zone.Size, Span: j.Zone.Range, skip: j.Zone.Skip, Files: make([]Zone, n)}
	if z.Span == 0 {
		z.Span = z.Size
	}
	return z
}

// Reset starts the files used up in the last loop at their first zone
// (a new loop; the others carry on).
func (z *Zones) Reset(usedUp []bool) {
	for i := range z.Files {
		if i < len(usedUp) && usedUp[i] {
			z.Files[i] = Zone{}
			z.Done = 0
		}
	}
}

// Advance moves file fi to its next zone once the job has done zonesize
// bytes in the current one: the zone zoneskip bytes after the zone's end,
// or the region's start where that is at or past size (the file's end,
// region-relative).
func (z *Zones) Advance(fi int, size uint64) {
	if z.Done < z.Size {
		return
	}
	s := &z.Files[fi]
	next := int64(s.Start+z.Span) + z.skip
	if next < 0 || uint64(next) >= size {
		next = 0
	}
	s.Start = uint64(next)
	z.Done = 0
	s.Rewind()
}

// Rewind starts both directions' sequential I/O at the zone's start.
func (s *Zone) Rewind() {
	s.Pos = [2]uint64{s.Start, s.Start}
	s.End = s.Pos
}
