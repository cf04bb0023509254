// Package zbd is the zone state machine of zonemode=zbd over regular
// files and block devices that are not zoned, as fio 3.33 emulates it
// there (fio's manual, zonemode and the options after it; the rest
// observed with write_iolog):
//
//   - The file is cut into zones of zonesize bytes, each with a write
//     pointer that starts at the zone's start (every zone empty) when the
//     run starts; jobs of the run on the same file share the zones.
//   - A job's region is cut to whole zones: its offset rounded up to a
//     zone start, its end rounded down ("rounded up offset from A to B",
//     "rounded down io_size from A to B"); less than a zone is refused.
//   - Writes go to the write pointer of the zone their offset falls in,
//     cut to the zone's capacity (zonecapacity, zonesize by default); a
//     full zone is reset first (its write pointer back at its start), each
//     reset counted in the job's "N zone resets". Sequential I/O follows
//     the I/O done, moving to the next zone's start once a zone's capacity
//     is reached; a pass ends at the region's end.
//   - With max_open_zones (or job_max_open_zones) at most that many zones
//     take writes at a time: a write to another zone, once the limit is
//     reached, goes to an open one, picked by where the offset falls in
//     the job's zones; a full zone is no longer open once the write that
//     filled it is done.
//   - Reads stay below the write pointer unless read_beyond_wp is set: a
//     sequential read moves on to the next zone with data, and ends the
//     file when none is left; a random read goes to the nearest zone with
//     data (the zone itself, then the next, the one before, and so on), at
//     its offset in its zone taken modulo the data less the block, and is
//     cut where the data ends. A job that reads and writes writes first
//     while the file holds no data.
//   - Trims reset zones; random trims take only zones with data.
//   - With verify no write resets a zone: the job's zones are reset before
//     each loop, and a write to a full zone goes elsewhere.
//   - zone_reset_frequency: once the zones hold zone_reset_threshold of the
//     job's region in data, every (1 / frequency)th write resets its zone
//     first; the count starts over each loop.
package zbd

import (
	"sync"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/stats"
)

// File is the zone state of one file, shared by the run's jobs. Unwrite,
// NextSeq and Job.Place must be called with the file locked (Lock); the
// other Job methods lock it themselves.
type File struct {
	mu       sync.Mutex
	size     uint64   // zonesize
	capacity uint64   // zonecapacity
	wp       []uint64 // per zone: bytes written from the zone's start
	open     []int    // zones open for writes, when max_open_zones limits them
	maxOpen  int      // max_open_zones; 0: no limit
}

// NewFile returns the state of a file of zones zones of size bytes, every
// zone empty; capacity is zonecapacity (0: the zone size) and maxOpen
// max_open_zones (0: no limit).
func NewFile(size, capacity uint64, zones, maxOpen int) *File {
	s := &File{size: size, capacity: capacity, wp: make([]uint64, zones), maxOpen: maxOpen}
	if s.capacity == 0 {
		s.capacity = s.size
	}
	return s
}

// Files are the zoned files of one run, by cleaned path.
type Files map[string]*File

// Lock locks the file's zones.
func (s *File) Lock() { s.mu.Lock() }

// Unlock unlocks the file's zones.
func (s *File) Unlock() { s.mu.Unlock() }

// ZoneSize is the file's zone size (zonesize).
func (s *File) ZoneSize() uint64 { return s.size }

// Zones is the number of zones of the file.
func (s *File) Zones() int { return len(s.wp) }

// Unwrite takes n bytes written at off back from its zone's write
// pointer (a write cut after it was placed).
func (s *File) Unwrite(off, n uint64) { s.wp[s.zone(off)] -= n }

// NextSeq is the offset a sequential I/O of bs bytes at off is followed
// at: its end, or the next zone's start once the zone's capacity is
// reached.
func (s *File) NextSeq(off, bs uint64) uint64 {
	if start := off / s.size * s.size; s.capacity < s.size && off+bs-start >= s.capacity {
		return start + s.size
	}
	return off + bs
}

// Job is a job's view of its files' zones.
type Job struct {
	files []*File
	// first and end are each file's zones of the job's region: [first, end).
	first, end []int
	open       [][]int // the job's open zones per file (job_max_open_zones)
	jobMax     int
	beyondWP   bool
	minBS      [stats.NDirs]uint64
	threshold  float64 // zone_reset_threshold
	every      uint64  // writes between resets past the threshold; 0: none
	countdown  uint64
	resets     uint64
	verify     bool // the job verifies: no zone is reset
}

// NewJob returns job j's view of the zones, without files yet (Add).
func NewJob(j *jobspec.Job) *Job {
	z := &Job{jobMax: j.Zone.JobMaxOpenZones, beyondWP: j.Zone.ReadBeyondWP, threshold: j.Zone.ResetThreshold,
		verify: j.Verify.Type != jobspec.VerifyNone}
	for d := range z.minBS {
		z.minBS[d] = max(j.BS[d], 1)
	}
	if fr := j.Zone.ResetFrequency; fr > 0 {
		z.every = uint64(1 / fr)
		z.countdown = z.every
	}
	return z
}

// Add adds the job's next file, s, whose region is size bytes at offset
// (whole zones).
func (z *Job) Add(s *File, offset, size uint64) {
	z.files = append(z.files, s)
	z.first = append(z.first, int(offset/s.size))
	z.end = append(z.end, int((offset+size)/s.size))
	z.open = append(z.open, nil)
}

// File returns the zone state of the job's file fi.
func (z *Job) File(fi int) *File { return z.files[fi] }

// StartLoop starts the count of writes to the next reset
// (zone_reset_frequency) afresh, as fio does each loop.
func (z *Job) StartLoop() { z.countdown = z.every }

// Resets is the number of zone resets the job's writes did so far.
func (z *Job) Resets() uint64 { return z.resets }

// Place moves an I/O of direction d, bs bytes at off in file fi, to where
// the zones allow, and returns its offset and length; false when the
// zones leave no room for it (the file is done). random tells a random
// I/O from a sequential one. File fi must be locked.
func (z *Job) Place(fi int, d stats.Dir, off, bs uint64, random bool) (uint64, uint64, bool) {
	s := z.files[fi]
	switch d {
	case stats.Write:
		return z.write(fi, s, off, bs, random)
	case stats.Read:
		return z.read(fi, s, off, bs, random)
	case stats.Trim:
		return z.trim(fi, s, off, bs, random)
	}
	return off, bs, true
}

// ResetZones resets the zones of file fi that [off, end) covers (a trim
// under zonemode=zbd, as fio does it).
func (z *Job) ResetZones(fi int, off, end uint64) {
	s := z.files[fi]
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := s.zone(off); i < len(s.wp) && uint64(i)*s.size < end; i++ {
		s.wp[i] = 0
		z.close(fi, s, i)
	}
}

// Dir is the direction of the job's next I/O to file fi, d as drawn: as
// in fio, a job that reads and writes writes instead of reading while the
// file holds no data at all (unless read_beyond_wp).
func (z *Job) Dir(fi int, d stats.Dir, j *jobspec.Job) stats.Dir {
	if d != stats.Read || !j.RW.Writes() || z.beyondWP {
		return d
	}
	s := z.files[fi]
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.wp {
		if n > 0 {
			return d
		}
	}
	return stats.Write
}

// zone returns the zone of file offset off.
func (s *File) zone(off uint64) int { return int(off / s.size) }

// full reports whether zone i has no room for a block of bs bytes.
func (s *File) full(i int, bs uint64) bool { return s.wp[i]+bs > s.capacity }

// write moves a write of bs bytes at off to its zone's write pointer.
func (z *Job) write(fi int, s *File, off, bs uint64, random bool) (uint64, uint64, bool) {
	minBS := z.minBS[stats.Write]
	i := s.zone(off)
	if i < z.first[fi] || i >= z.end[fi] {
		return 0, 0, false
	}
	if z.verify && s.full(i, minBS) {
		// With verify, fio never resets a zone (the data to read back
		// would be lost): the write goes to an open zone, picked by
		// the offset as when the open zones are at their limit, or
		// without a limit to the next zone with room; the job's
		// writes end when there is none.
		if list, _ := z.openList(fi, s); len(*list) > 0 {
			i = z.pickOpen(fi, s, *list, off)
		} else {
			k, ok := z.withRoom(fi, s, i, minBS)
			if !ok {
				return 0, 0, false
			}
			i = k
		}
	}
	i = z.openZone(fi, s, i, off)
	if z.every > 0 {
		var data uint64
		for k := z.first[fi]; k < z.end[fi]; k++ {
			data += s.wp[k]
		}
		region := uint64(z.end[fi]-z.first[fi]) * s.size
		if float64(data) >= float64(region)*z.threshold {
			if z.countdown--; z.countdown == 0 {
				z.countdown = z.every
				if s.wp[i] > 0 { // an empty zone needs no reset
					s.wp[i] = 0
					z.resets++
				}
			}
		}
	}
	if s.full(i, minBS) {
		s.wp[i] = 0
		z.resets++
	}
	at := uint64(i)*s.size + s.wp[i]
	n := min(bs, s.capacity-s.wp[i]) / minBS * minBS
	if n == 0 {
		return 0, 0, false
	}
	s.wp[i] += n
	return at, n, true
}

// ResetAll resets the non-empty zones of the job's regions and returns
// how many it reset.
func (z *Job) ResetAll() uint64 {
	var n uint64
	for fi, s := range z.files {
		s.mu.Lock()
		for i := z.first[fi]; i < z.end[fi]; i++ {
			if s.wp[i] > 0 {
				s.wp[i] = 0
				z.close(fi, s, i)
				n++
			}
		}
		s.mu.Unlock()
	}
	return n
}

// withRoom returns the first zone after zone i, wrapping within the job's
// zones, with room for a block of bs bytes.
func (z *Job) withRoom(fi int, s *File, i int, bs uint64) (int, bool) {
	lo, n := z.first[fi], z.end[fi]-z.first[fi]
	for step := 1; step < n; step++ {
		if k := lo + (i-lo+step)%n; !s.full(k, bs) {
			return k, true
		}
	}
	return 0, false
}

// openZone returns the zone a write at off, in zone i, goes to: i, opened
// if needed, or, where the open zones are at their limit, one of them:
// the open zone whose place in the list (in the order they were opened)
// is where off falls in the job's zones (observed in fio 3.33).
func (z *Job) openZone(fi int, s *File, i int, off uint64) int {
	list, limit := z.openList(fi, s)
	if limit == 0 {
		return i
	}
	for _, o := range *list {
		if o == i {
			return i
		}
	}
	if len(*list) < limit {
		*list = append(*list, i)
		return i
	}
	return z.pickOpen(fi, s, *list, off)
}

// openList returns the open zones that limit the job's writes to file fi
// and their limit (0: none): the job's own with job_max_open_zones, else
// the file's.
func (z *Job) openList(fi int, s *File) (*[]int, int) {
	if z.jobMax > 0 {
		return &z.open[fi], z.jobMax
	}
	return &s.open, s.maxOpen
}

// pickOpen returns the open zone of list whose place in it is where off
// falls in the job's zones.
func (z *Job) pickOpen(fi int, s *File, list []int, off uint64) int {
	lo := uint64(z.first[fi]) * s.size
	k := (off - lo) * uint64(len(list)) / (uint64(z.end[fi])*s.size - lo)
	return list[min(int(k), len(list)-1)]
}

// Written is told of each write done: as in fio, a zone filled up is no
// longer open once the write that filled it completes (with iodepth above
// 1, the writes issued meanwhile still find it open).
func (z *Job) Written(u *engine.IOUnit) {
	s := z.files[u.File]
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := s.zone(uint64(u.Offset)); i < len(s.wp) && s.full(i, z.minBS[stats.Write]) {
		z.close(u.File, s, i)
	}
}

// close drops full zone i from the open zones.
func (z *Job) close(fi int, s *File, i int) {
	drop := func(l []int) []int {
		for k, o := range l {
			if o == i {
				return append(l[:k], l[k+1:]...)
			}
		}
		return l
	}
	s.open = drop(s.open)
	z.open[fi] = drop(z.open[fi])
}

// read keeps a read of bs bytes at off below the write pointers.
func (z *Job) read(fi int, s *File, off, bs uint64, random bool) (uint64, uint64, bool) {
	if z.beyondWP {
		return off, bs, true
	}
	i := s.zone(off)
	start := uint64(i) * s.size
	minBS := z.minBS[stats.Read]
	if !random {
		if i < len(s.wp) && off+minBS <= start+s.wp[i] {
			return off, min(bs, start+s.wp[i]-off) / minBS * minBS, true
		}
		for k := i + 1; k < z.end[fi]; k++ {
			if s.wp[k] >= minBS {
				return uint64(k) * s.size, min(bs, s.wp[k]) / minBS * minBS, true
			}
		}
		return 0, 0, false
	}
	// A zone with data is one holding the smallest block; the read is
	// cut where the data ends (observed in fio 3.33).
	k, ok := z.withData(fi, s, i, minBS)
	if !ok {
		return 0, 0, false
	}
	// Even inside the data, as in fio: the offset is taken modulo the
	// data less the block (the zone's last block is read only from its
	// own offset's remainder); at the zone's start when the block is
	// longer than the data.
	rel := off - start
	if s.wp[k] > bs {
		rel %= s.wp[k] - bs
	} else {
		rel = 0
	}
	rel = rel / minBS * minBS
	return uint64(k)*s.size + rel, min(bs, s.wp[k]-rel) / minBS * minBS, true
}

// withData returns the zone nearest to zone i that holds bs bytes of
// data: i itself, then i+1, i-1, i+2, ... within the job's zones.
func (z *Job) withData(fi int, s *File, i int, bs uint64) (int, bool) {
	lo, hi := z.first[fi], z.end[fi]
	if i >= lo && i < hi && s.wp[i] >= bs {
		return i, true
	}
	for n := 1; i+n < hi || i-n >= lo; n++ {
		if k := i + n; k >= lo && k < hi && s.wp[k] >= bs {
			return k, true
		}
		if k := i - n; k >= lo && k < hi && s.wp[k] >= bs {
			return k, true
		}
	}
	return 0, false
}

// trim picks the zone a trim of bs bytes at off resets: as in fio, a
// sequential trim takes every zone in turn, a random one only zones with
// data (the nearest to the one drawn), and ends the file when none is
// left.
func (z *Job) trim(fi int, s *File, off, bs uint64, random bool) (uint64, uint64, bool) {
	i := s.zone(off)
	if !random || (i < len(s.wp) && s.wp[i] > 0) {
		return off, bs, true
	}
	k, ok := z.withData(fi, s, i, 1)
	if !ok {
		return 0, 0, false
	}
	return uint64(k) * s.size, bs, true
}
