package runner

// zonemode=zbd's glue (the zone state machine is runner/zbd): the zone
// settings checked and the regions cut to whole zones at setup, each I/O
// the job's pattern asks for moved to where the zones allow, and random
// I/O marked in the random map at the offset drawn, for the length the
// zones left.

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/zbd"
	"github.com/gofio/gofio/stats"
	"golang.org/x/sys/unix"
)

// zbdJob is a job's view of its files' zones, with the generator's
// state around it.
type zbdJob struct {
	*zbd.Job
	inner bool // offset asked from inside zbdOffset
	// mark: the I/O is a random draw to mark in the random map once
	// moved (zbdMark).
	mark bool
	loop int // the loop the zone_reset_frequency count counts for
}

// setupZBD checks the zone settings of task t's files, cuts their regions
// to whole zones and hands them their shared zone state; the messages
// fio prints on the way go to info.
func setupZBD(t *task, zf zbd.Files, info io.Writer) error {
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
		if s == nil || s.ZoneSize() != z.Size {
			s = zbd.NewFile(z.Size, z.Capacity, int(size/z.Size), z.MaxOpenZones)
			zf[key] = s
		}
		start := (f.offset + z.Size - 1) / z.Size * z.Size
		end := min((f.offset+f.size)/z.Size*z.Size, uint64(s.Zones())*z.Size)
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
func newZBDJob(j *jobspec.Job, files []*jobFile, zf zbd.Files) *zbdJob {
	if j.Zone.Mode != jobspec.ZoneZBD || zf == nil {
		return nil
	}
	z := zbd.NewJob(j)
	for _, f := range files {
		s := zf[filepath.Clean(f.path)]
		if s == nil {
			return nil
		}
		z.Add(s, f.offset, f.size)
	}
	return &zbdJob{Job: z}
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
		z.loop = w.gen.loops
		z.StartLoop()
		for k, g := range w.files {
			for slot := range w.seqPos[k] {
				if w.seqPos[k][slot] >= g.size {
					w.seqPos[k][slot] = 0
				}
			}
		}
		if w.job.Verify.Type != jobspec.VerifyNone && w.job.RW.Writes() {
			// With verify, fio resets the job's zones before each loop
			// writes, so that no write has to.
			w.st.ZoneResets += z.ResetAll()
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
	s := z.File(fi)
	s.Lock()
	defer s.Unlock()
	resets := z.Resets()
	defer func() { w.st.ZoneResets += z.Resets() - resets }()
	drawn := off
	if d == stats.Write && bs > s.ZoneSize() {
		// fio fails the job at its first such write.
		w.fail(unix.EINVAL, "I/O buflen exceeds zone size")
		return 0, 0, false
	}
	off, bs, ok = z.Place(fi, d, off, bs, random)
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
		if !random {
			next = s.NextSeq(off, bs) - f.offset
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

// zbdMark marks a random I/O of bs bytes, moved from drawn to off, in
// file fi's random map and returns its length: as observed in fio 3.33,
// the blocks marked are those at the offset drawn, for the length the
// zones left, and the I/O is cut where a marked block starts (a write
// then takes less of its zone).
func (w *worker) zbdMark(fi int, f *jobFile, d stats.Dir, s *zbd.File, drawn, off, bs uint64) uint64 {
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
		s.Unwrite(off, bs-n)
	}
	return n
}

// zbdTrim does trim unit u as fio does under zonemode=zbd: a reset of the
// zones it covers, not a trim sent to the engine.
func (w *worker) zbdTrim(u *engine.IOUnit) engine.Status {
	w.zbd.ResetZones(u.File, uint64(u.Offset), uint64(u.Offset)+uint64(len(u.Buf)))
	u.Result, u.Err = len(u.Buf), 0
	return engine.Completed
}
