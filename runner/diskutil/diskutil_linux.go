// Package diskutil finds the block devices behind a run's files and samples
// their /sys/block statistics, for fio's disk-util report.
package diskutil

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/output"
)

// diskSampleInterval is how often the counters are re-read, as fio's
// helper thread does.
const diskSampleInterval = 250 * time.Millisecond

// Tracker finds the block devices behind files and samples their
// /sys/block/<dev>/stat counters, the way fio builds its "Disk stats
// (read/write):" section and JSON "disk_util" array.
//
// Devices are found as fio finds them: the device number of a block device
// path, or of the file system holding a file (of its directory when the
// file does not exist yet), looked up under /sys/block. A partition is
// replaced by its whole disk; a device with slaves (dm, md) also brings in
// each slave as an entry of its own. Paths on file systems without a block
// device (tmpfs, overlay, btrfs subvolumes...) and character devices or
// FIFOs are ignored.
//
// Counting follows fio: a baseline at Start, then a re-read every 250 ms;
// each re-read adds the counter differences and the whole milliseconds
// since the previous re-read. Stop ends the sampling without counting the
// last partial interval (fio's final re-read happens after every file is
// closed and adds nothing), so a run shorter than 250 ms reports zeros.
// util = 100 × Δio_ticks / counted ms, capped at 100.
//
// The caller decides which jobs qualify: fio tracks only jobs with
// disk_util=1 and an engine doing real block I/O (not null, cpuio, net...).
type Tracker struct {
	sysRoot string    // "/sys"; a fake tree in tests
	origin  time.Time // sampling clock origin: program start

	mu      sync.Mutex
	entries []*diskEntry
	started bool
	stop    chan struct{}
	done    chan struct{}
}

// diskStat is one reading of a device's stat file (the fields fio uses).
type diskStat struct {
	ios, merges, sectors, ticks [2]uint64
	ioTicks, timeInQueue        uint64
}

type diskEntry struct {
	name     string
	dir      string // sysfs directory (may be a symlink path)
	maj, min uint32
	slaves   []*diskEntry

	based    bool // prev holds a reading
	prev     diskStat
	prevTime time.Time
	acc      diskStat // accumulated differences
	msec     uint64   // accumulated whole milliseconds between readings
}

// NewTracker returns an empty tracker.
func NewTracker() *Tracker {
	return &Tracker{sysRoot: "/sys", origin: time.Now()}
}

// Add registers the device holding path (a file, a directory or a block
// device). Call it before the jobs start. Paths without a block device
// behind them are ignored silently.
func (t *Tracker) Add(path string) {
	maj, min, ok := deviceOf(path)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.addDev(maj, min)
}

// DiskDir returns the sysfs directory (under sysRoot, normally "/sys") of
// the whole disk holding path (a partition's disk), or "" when path is on
// no block device that sysfs knows (tmpfs).
func DiskDir(sysRoot, path string) string {
	maj, min, ok := deviceOf(path)
	if !ok {
		return ""
	}
	t := &Tracker{sysRoot: sysRoot}
	dir := t.findSysDir(maj, min)
	if dir == "" {
		return ""
	}
	if parent := filepath.Dir(dir); isDir(filepath.Join(parent, "queue")) {
		dir = parent
	}
	return dir
}

// deviceOf returns the device number fio uses for path.
func deviceOf(path string) (maj, min uint32, ok bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		if err != unix.ENOENT {
			return 0, 0, false
		}
		if err := unix.Stat(filepath.Dir(path), &st); err != nil {
			return 0, 0, false
		}
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFBLK:
		return unix.Major(st.Rdev), unix.Minor(st.Rdev), true
	case unix.S_IFCHR, unix.S_IFIFO:
		return 0, 0, false
	}
	return unix.Major(st.Dev), unix.Minor(st.Dev), true
}

// addDev adds the device maj:min (whole disk for a partition) and its
// slaves; it returns the entry, or nil if sysfs does not know the device.
// t.mu is held.
func (t *Tracker) addDev(maj, min uint32) *diskEntry {
	dir := t.findSysDir(maj, min)
	if dir == "" {
		return nil
	}
	// A partition stands for its whole disk.
	if parent := filepath.Dir(dir); isDir(filepath.Join(parent, "queue")) {
		if pmaj, pmin, ok := readDevFile(filepath.Join(parent, "dev")); ok {
			dir, maj, min = parent, pmaj, pmin
		}
	}
	return t.addEntry(filepath.Base(dir), dir, maj, min, 0)
}

// addEntry adds (or finds) the entry for a sysfs device directory, then its
// slaves, recursively. t.mu is held.
func (t *Tracker) addEntry(name, dir string, maj, min uint32, depth int) *diskEntry {
	for _, e := range t.entries {
		if e.name == name || (e.maj == maj && e.min == min) {
			return e
		}
	}
	e := &diskEntry{name: name, dir: dir, maj: maj, min: min}
	t.entries = append(t.entries, e)
	if t.started {
		t.baseline(e, time.Now())
	}
	if depth > 8 { // guard against a looping tree
		return e
	}
	slavesDir := filepath.Join(dir, "slaves")
	list, err := os.ReadDir(slavesDir)
	if err != nil {
		return e
	}
	for _, s := range list {
		sdir := filepath.Join(slavesDir, s.Name())
		smaj, smin, ok := readDevFile(filepath.Join(sdir, "dev"))
		if !ok {
			continue
		}
		se := t.addEntry(s.Name(), sdir, smaj, smin, depth+1)
		if se != nil && se != e && !containsEntry(e.slaves, se) {
			e.slaves = append(e.slaves, se)
		}
	}
	return e
}

func containsEntry(list []*diskEntry, e *diskEntry) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

// findSysDir searches <sysRoot>/block for the device directory whose dev
// file reads maj:min: the top-level entries (symlinks followed), then their
// real (non-symlink) subdirectories, where partitions live.
func (t *Tracker) findSysDir(maj, min uint32) string {
	block := filepath.Join(t.sysRoot, "block")
	list, err := os.ReadDir(block)
	if err != nil {
		return ""
	}
	for _, d := range list {
		dir := filepath.Join(block, d.Name())
		if m, n, ok := readDevFile(filepath.Join(dir, "dev")); ok && m == maj && n == min {
			return dir
		}
	}
	for _, d := range list {
		dir := filepath.Join(block, d.Name())
		subs, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, s := range subs {
			if !s.IsDir() || s.Type()&os.ModeSymlink != 0 {
				continue
			}
			sub := filepath.Join(dir, s.Name())
			if m, n, ok := readDevFile(filepath.Join(sub, "dev")); ok && m == maj && n == min {
				return sub
			}
		}
	}
	return ""
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// readDevFile parses a sysfs "dev" file ("MAJ:MIN\n").
func readDevFile(p string) (maj, min uint32, ok bool) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, 0, false
	}
	a, c, found := strings.Cut(strings.TrimSpace(string(b)), ":")
	if !found {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 10, 32)
	y, err2 := strconv.ParseUint(c, 10, 32)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uint32(x), uint32(y), true
}

// parseDiskStat reads the first 11 numbers of a stat file's first line;
// fewer than 11 means the reading is unusable.
func parseDiskStat(b []byte) (diskStat, bool) {
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 11 {
		return diskStat{}, false
	}
	var v [11]uint64
	for i := range v {
		n, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil {
			return diskStat{}, false
		}
		v[i] = n
	}
	// reads, read merges, read sectors, read ticks, writes, write merges,
	// write sectors, write ticks, in flight, io_ticks, time_in_queue.
	return diskStat{
		ios:         [2]uint64{v[0], v[4]},
		merges:      [2]uint64{v[1], v[5]},
		sectors:     [2]uint64{v[2], v[6]},
		ticks:       [2]uint64{v[3], v[7]},
		ioTicks:     v[9],
		timeInQueue: v[10],
	}, true
}

func (e *diskEntry) read() (diskStat, bool) {
	b, err := os.ReadFile(filepath.Join(e.dir, "stat"))
	if err != nil {
		return diskStat{}, false
	}
	return parseDiskStat(b)
}

// baseline takes the starting reading of e.
func (t *Tracker) baseline(e *diskEntry, now time.Time) {
	if s, ok := e.read(); ok {
		e.prev, e.prevTime, e.based = s, now, true
	}
}

// sub returns a−b, or 0 if the counter went backwards.
func sub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

// sample re-reads every entry and accumulates the differences. t.mu is
// held.
func (t *Tracker) sample(now time.Time) {
	for _, e := range t.entries {
		s, ok := e.read()
		if !ok {
			continue
		}
		if !e.based {
			e.prev, e.prevTime, e.based = s, now, true
			continue
		}
		for d := 0; d < 2; d++ {
			e.acc.ios[d] += sub(s.ios[d], e.prev.ios[d])
			e.acc.merges[d] += sub(s.merges[d], e.prev.merges[d])
			e.acc.sectors[d] += sub(s.sectors[d], e.prev.sectors[d])
			e.acc.ticks[d] += sub(s.ticks[d], e.prev.ticks[d])
		}
		e.acc.ioTicks += sub(s.ioTicks, e.prev.ioTicks)
		e.acc.timeInQueue += sub(s.timeInQueue, e.prev.timeInQueue)
		if ms := now.Sub(e.prevTime).Milliseconds(); ms > 0 {
			e.msec += uint64(ms)
		}
		e.prev, e.prevTime = s, now
	}
}

// Start takes the baseline readings and starts the 250 ms sampling.
func (t *Tracker) Start() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.started {
		return
	}
	t.started = true
	now := time.Now()
	for _, e := range t.entries {
		t.baseline(e, now)
	}
	if len(t.entries) == 0 {
		return
	}
	t.stop = make(chan struct{})
	t.done = make(chan struct{})
	go t.loop(t.stop, t.done)
}

func (t *Tracker) loop(stop, done chan struct{}) {
	defer close(done)
	// fio's helper thread samples every 250 ms from program start, not
	// from the start of the jobs: the first sample comes sooner when file
	// layout took time, which shows in short runs.
	first := diskSampleInterval - time.Since(t.origin)%diskSampleInterval
	tick := time.NewTimer(first)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			t.mu.Lock()
			t.sample(now)
			t.mu.Unlock()
			tick.Reset(diskSampleInterval - time.Since(t.origin)%diskSampleInterval)
		}
	}
}

// Stop ends the sampling. The time since the last 250 ms re-read is not
// counted, as in fio, whose final re-read finds no open file.
func (t *Tracker) Stop() {
	t.mu.Lock()
	stop, done := t.stop, t.done
	t.stop, t.done = nil, nil
	t.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
}

func (e *diskEntry) util() float64 {
	if e.msec == 0 {
		return 0
	}
	u := 100 * float64(e.acc.ioTicks) / float64(e.msec)
	if u > 100 {
		u = 100
	}
	return u
}

// Disks returns each tracked device's accumulated differences and
// utilisation, in first-seen order (slaves after their master). A device
// with slaves carries their aggregate: the sums divided by the slave count,
// and the highest slave utilisation.
func (t *Tracker) Disks() []output.Disk {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.entries) == 0 {
		return nil
	}
	out := make([]output.Disk, 0, len(t.entries))
	for _, e := range t.entries {
		d := output.Disk{
			Name:        e.name,
			ReadIOs:     e.acc.ios[0],
			WriteIOs:    e.acc.ios[1],
			ReadMerges:  e.acc.merges[0],
			WriteMerges: e.acc.merges[1],
			ReadTicks:   e.acc.ticks[0],
			WriteTicks:  e.acc.ticks[1],
			InQueue:     e.acc.timeInQueue,
			Util:        e.util(),
		}
		if n := uint64(len(e.slaves)); n > 0 {
			a := &output.DiskAggregate{}
			for _, s := range e.slaves {
				a.ReadIOs += s.acc.ios[0]
				a.WriteIOs += s.acc.ios[1]
				a.ReadMerges += s.acc.merges[0]
				a.WriteMerges += s.acc.merges[1]
				a.ReadTicks += s.acc.ticks[0]
				a.WriteTicks += s.acc.ticks[1]
				a.InQueue += s.acc.timeInQueue
				if u := s.util(); u > a.Util {
					a.Util = u
				}
			}
			a.ReadIOs /= n
			a.WriteIOs /= n
			a.ReadMerges /= n
			a.WriteMerges /= n
			a.ReadTicks /= n
			a.WriteTicks /= n
			a.InQueue /= n
			d.Slaves = a
		}
		out = append(out, d)
	}
	return out
}
