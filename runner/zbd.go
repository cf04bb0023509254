package runner

// zonemode=zbd over regular files and block devices that are not zoned,
// as fio 3.33 emulates it there (fio's manual, zonemode and the options
// after it; the rest observed with write_iolog):
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
//   - Random I/O is marked in the random map at the offset drawn, for the
//     length the zones left.
//   - Trims reset zones; random trims take only zones with data.
//   - With verify no write resets a zone: the job's zones are reset before
//     each loop, and a write to a full zone goes elsewhere.
//   - zone_reset_frequency: once the zones hold zone_reset_threshold of the
//     job's region in data, every (1 / frequency)th write resets its zone
//     first; the count starts over each loop.

import (
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/stats"
	"golang.org/x/sys/unix"
)

// zbdFile is the zone state of one file, shared by the run's jobs.
type zbdFile struct {
	mu       sync.Mutex
	size     uint64   // zonesize
	capacity uint64   // zonecapacity
	wp       []uint64 // per zone: bytes written from the zone's start
	open     []int    // zones open for writes, when max_open_zones limits them
	maxOpen  int      // max_open_zones; 0: no limit
}

// zbdFiles are the zoned files of one run, by cleaned path.
type zbdFiles map[string]*zbdFile

// zbdJob is a job's view of its files' zones.
type zbdJob struct {
	files []*zbdFile
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
	inner      bool // offset asked from inside zbdOffset
	verify     bool // the job verifies: no zone is reset
	// mark: the I/O is a random draw to mark in the random map once
	// moved (zbdMark).
	mark bool
	loop int // the loop countdown counts for
}

// setupZBD checks the zone settings of task t's files, cuts their regions
// to whole zones and hands them their shared zone state; the messages
// fio prints on the way go to info.
func setupZBD(t *task, zf zbdFiles, info io.Writer) error {
	j := t.job
	z := &j.Zone
	if z.Mode != jobspec.ZoneZBD || t.info.NoFiles || t.info.NoIO {
		return nil
	}
	for _, f := range t.files {
		if z.Size == 0 {
			return &setupError{msgOnly: true, errno: unix.EINVAL,
				msg: f.path + ": Specifying the zone size is mandatory for regular file/block device with --zonemode=zbd\n"} // fio adds an empty line
		}
		if z.Size < 512 {
			return &setupError{msgOnly: true, errno: unix.EINVAL,
				msg: f.path + ": zone size must be at least 512 bytes for --zonemode=zbd\n"} // fio adds an empty line
		}
		if z.Skip != 0 && (z.Skip < 0 || uint64(z.Skip)%z.Size != 0) {
			return &setupError{msgOnly: true, errno: unix.EINVAL,
				msg: fmt.Sprintf("%s: zoneskip %d is not a multiple of the device zone size %d.", f.path, z.Skip, z.Size)}
		}
		if z.JobMaxOpenZones > 0 && z.MaxOpenZones == 0 {
			return &setupError{msgOnly: true, errno: unix.EINVAL,
				msg: "'job_max_open_zones' cannot be used without a global open zones limit"}
		}
		if j.RW.Trims() && j.BS[stats.Trim] != z.Size {
			// On stdout, as fio prints it; nothing runs.
			fmt.Fprintf(info, "%s: trim block size %d is not the zone size %d\n", f.path, j.BS[stats.Trim], z.Size)
			return &setupError{msgOnly: true, unreported: true}
		}
		if z.Capacity > z.Size {
			return &setupError{msgOnly: true, errno: unix.EINVAL,
				msg: fmt.Sprintf("%s: job parameter zonecapacity %d is larger than zone size %d", f.path, z.Capacity, z.Size)}
		}
		size := zbdDeviceSize(f)
		if size < z.Size {
			return &setupError{errno: unix.EINVAL, fn: "zbd_create_zone_info() failed", src: "zbd.c:985",
				msg: fmt.Sprintf("%s: file/device size %d is smaller than zone size %d", f.path, size, z.Size)}
		}
		key := filepath.Clean(f.path)
		s := zf[key]
		if s == nil || s.size != z.Size {
			s = &zbdFile{size: z.Size, capacity: z.Capacity, wp: make([]uint64, size/z.Size), maxOpen: z.MaxOpenZones}
			if s.capacity == 0 {
				s.capacity = s.size
			}
			zf[key] = s
		}
		start := (f.offset + z.Size - 1) / z.Size * z.Size
		end := min((f.offset+f.size)/z.Size*z.Size, uint64(len(s.wp))*z.Size)
		if start != f.offset {
			fmt.Fprintf(info, "%s: rounded up offset from %d to %d\n", f.path, f.offset, start)
		}
		if end <= start {
			// fio prints this with its notes on stdout, and runs nothing.
			fmt.Fprintf(info, "%s: io_size must be at least one zone\n", f.path)
			return &setupError{msgOnly: true, unreported: true}
		}
		if bs := j.BS[stats.Write]; j.Verify.Type != jobspec.VerifyNone && bs > 0 && z.Size%bs != 0 {
			// On stdout, as fio prints it; nothing runs.
			fmt.Fprintf(info, "%s: block size %d is not a divisor of the zone size %d\n", f.path, bs, z.Size)
			return &setupError{msgOnly: true, unreported: true}
		}
		if end-start != f.offset+f.size-start {
			fmt.Fprintf(info, "%s: rounded down io_size from %d to %d\n", f.path, f.offset+f.size-start, end-start)
		}
		f.offset, f.size = start, end-start
	}
	t.zbd = zf
	return nil
}

// zbdDeviceSize is the size of f's file or device, 0 when it does not
// exist yet (fio sets the zones up before laying files out).
func zbdDeviceSize(f *jobFile) uint64 {
	if n, err := engine.BlockDevSize(f.path); err == nil && n > 0 {
		return n
	}
	var st unix.Stat_t
	if unix.Stat(f.path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0
	}
	return uint64(st.Size)
}

// newZBDJob returns job j's zone view of files, nil when j is not zbd.
func newZBDJob(j *jobspec.Job, files []*jobFile, zf zbdFiles) *zbdJob {
	if j.Zone.Mode != jobspec.ZoneZBD || zf == nil {
		return nil
	}
	z := &zbdJob{jobMax: j.Zone.JobMaxOpenZones, beyondWP: j.Zone.ReadBeyondWP, threshold: j.Zone.ResetThreshold,
		verify: j.Verify.Type != jobspec.VerifyNone}
	for d := range z.minBS {
		z.minBS[d] = max(j.BS[d], 1)
	}
	if fr := j.Zone.ResetFrequency; fr > 0 {
		z.every = uint64(1 / fr)
		z.countdown = z.every
	}
	for _, f := range files {
		s := zf[filepath.Clean(f.path)]
		if s == nil {
			return nil
		}
		z.files = append(z.files, s)
		z.first = append(z.first, int(f.offset/s.size))
		z.end = append(z.end, int((f.offset+f.size)/s.size))
		z.open = append(z.open, nil)
	}
	return z
}

// zbdOffset is offset under zonemode=zbd: the offset and length the
// job's pattern asks for, moved to where the zones allow.
func (w *worker) zbdOffset(fi int, f *jobFile, d stats.Dir, room uint64) (uint64, uint64, bool) {
	z := w.zbd
	random := w.job.RW.Random()
	if z.loop != w.gen.loops {
		// A loop goes on from where the last one ended (fio keeps the
		// positions), from the start where that was the region's end,
		// and counts the writes to the next reset afresh.
		z.loop, z.countdown = w.gen.loops, z.every
		for k, g := range w.files {
			for slot := range w.seqPos[k] {
				if w.seqPos[k][slot] >= g.size {
					w.seqPos[k][slot] = 0
				}
			}
		}
		if z.verify && w.job.RW.Writes() {
			// With verify, fio resets the job's zones before each loop
			// writes, so that no write has to.
			w.st.ZoneResets += z.resetAll()
		}
	}
	if slot := seqSlot(d); !random && w.seqPos[fi][slot] >= f.size && !w.job.TimeBased &&
		w.totalLimit <= w.regionBytes*uint64(max(w.job.Loops, 1)) {
		// The pass reached the region's end (the last zone's capacity,
		// or data read or written up to it) before its bytes were
		// done: as in fio it is over, and the next loop starts at the
		// region's start. io_size above the size wraps instead.
		w.seqPos[fi][slot] = 0
		return 0, 0, false
	}
	if room > 0 && !w.job.TimeBased {
		// fio issues a whole block while any of the job's bytes are
		// left (observed: io_size=320k in 48k writes does 7 writes).
		room = max(room, w.job.MaxBS()[d])
	}
	z.inner, z.mark = true, false
	off, bs, ok := w.offset(fi, f, d, room)
	z.inner = false
	if !ok {
		return 0, 0, false
	}
	s := z.files[fi]
	s.mu.Lock()
	defer s.mu.Unlock()
	resets := z.resets
	defer func() { w.st.ZoneResets += z.resets - resets }()
	drawn := off
	switch d {
	case stats.Write:
		if bs > s.size {
			// fio fails the job at its first such write.
			w.fail(unix.EINVAL, "I/O buflen exceeds zone size")
			return 0, 0, false
		}
		off, bs, ok = z.write(fi, s, off, bs, random)
	case stats.Read:
		off, bs, ok = z.read(fi, s, off, bs, random)
	case stats.Trim:
		off, bs, ok = z.trim(fi, s, off, bs, random)
	}
	if ok && z.mark {
		bs = w.zbdMark(fi, f, d, s, drawn, off, bs)
	}
	switch {
	case ok:
		// The next sequential I/O follows the one done, not the one
		// asked for, from the next zone's start once the zone's
		// capacity is reached, then skips rw=write:N's N.
		rel := off - f.offset
		next := rel + bs
		if start := off / s.size * s.size; !random && s.capacity < s.size && off+bs-start >= s.capacity {
			next = start + s.size - f.offset
		}
		w.seqPos[fi][seqSlot(d)] = uint64(max(int64(next)+w.skip(), 0))
		if random {
			w.gen.lastStart[fi][seqSlot(d)] = rel
		}
	case !random:
		// The pass ended before its bytes were done: the next loop
		// starts over at the region's start.
		w.seqPos[fi][seqSlot(d)] = 0
	}
	return off, bs, ok
}

// dir is the direction of the job's next I/O to file fi, d as drawn: as
// in fio, a job that reads and writes writes instead of reading while the
// file holds no data at all (unless read_beyond_wp).
func (z *zbdJob) dir(fi int, d stats.Dir, j *jobspec.Job) stats.Dir {
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

// zbdMark marks a random I/O of bs bytes, moved from drawn to off, in
// file fi's random map and returns its length: as observed in fio 3.33,
// the blocks marked are those at the offset drawn, for the length the
// zones left, and the I/O is cut where a marked block starts (a write
// then takes less of its zone).
func (w *worker) zbdMark(fi int, f *jobFile, d stats.Dir, s *zbdFile, drawn, off, bs uint64) uint64 {
	j := w.job
	m := w.maps[fi]
	g := &w.gen
	if m == nil || g.dists != nil || g.lfsr != nil || (j.BlockAlign[d] != 0 && j.BlockAlign[d] != j.BS[d]) {
		return bs
	}
	minBS := max(j.BS[d], 1)
	start, k := (drawn-f.offset)/minBS, uint64(0)
	for k*minBS < bs && start+k < m.Blocks() && m.Mark(start+k) {
		k++
	}
	if k == 0 || k*minBS >= bs {
		return bs
	}
	n := k * minBS
	if d == stats.Write {
		s.wp[s.zone(off)] -= bs - n
	}
	return n
}

// zone returns the zone of file offset off.
func (s *zbdFile) zone(off uint64) int { return int(off / s.size) }

// full reports whether zone i has no room for a block of bs bytes.
func (s *zbdFile) full(i int, bs uint64) bool { return s.wp[i]+bs > s.capacity }

// write moves a write of bs bytes at off to its zone's write pointer.
func (z *zbdJob) write(fi int, s *zbdFile, off, bs uint64, random bool) (uint64, uint64, bool) {
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

// resetAll resets the non-empty zones of the job's regions and returns
// how many it reset.
func (z *zbdJob) resetAll() uint64 {
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
func (z *zbdJob) withRoom(fi int, s *zbdFile, i int, bs uint64) (int, bool) {
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
func (z *zbdJob) openZone(fi int, s *zbdFile, i int, off uint64) int {
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
func (z *zbdJob) openList(fi int, s *zbdFile) (*[]int, int) {
	if z.jobMax > 0 {
		return &z.open[fi], z.jobMax
	}
	return &s.open, s.maxOpen
}

// pickOpen returns the open zone of list whose place in it is where off
// falls in the job's zones.
func (z *zbdJob) pickOpen(fi int, s *zbdFile, list []int, off uint64) int {
	lo := uint64(z.first[fi]) * s.size
	k := (off - lo) * uint64(len(list)) / (uint64(z.end[fi])*s.size - lo)
	return list[min(int(k), len(list)-1)]
}

// written is told of each write done: as in fio, a zone filled up is no
// longer open once the write that filled it completes (with iodepth above
// 1, the writes issued meanwhile still find it open).
func (z *zbdJob) written(u *engine.IOUnit) {
	s := z.files[u.File]
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := s.zone(uint64(u.Offset)); i < len(s.wp) && s.full(i, z.minBS[stats.Write]) {
		z.close(u.File, s, i)
	}
}

// close drops full zone i from the open zones.
func (z *zbdJob) close(fi int, s *zbdFile, i int) {
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
func (z *zbdJob) read(fi int, s *zbdFile, off, bs uint64, random bool) (uint64, uint64, bool) {
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
func (z *zbdJob) withData(fi int, s *zbdFile, i int, bs uint64) (int, bool) {
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
func (z *zbdJob) trim(fi int, s *zbdFile, off, bs uint64, random bool) (uint64, uint64, bool) {
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

// zbdTrim does trim unit u as fio does under zonemode=zbd: a reset of the
// zones it covers, not a trim sent to the engine.
func (w *worker) zbdTrim(u *engine.IOUnit) engine.Status {
	z := w.zbd
	s := z.files[u.File]
	s.mu.Lock()
	defer s.mu.Unlock()
	end := uint64(u.Offset) + uint64(len(u.Buf))
	for i := s.zone(uint64(u.Offset)); i < len(s.wp) && uint64(i)*s.size < end; i++ {
		s.wp[i] = 0
		z.close(u.File, s, i)
	}
	u.Result, u.Err = len(u.Buf), 0
	return engine.Completed
}
