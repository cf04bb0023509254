package runner

import (
	"fmt"
	"io"
	"runtime"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// worker runs one job: it owns the job's files, engine, units and
// statistics, and runs on one locked OS thread. Nothing here is shared
// with other goroutines while the job runs.
type worker struct {
	job   *jobspec.Job
	info  EngineInfo
	files []*jobFile

	eng       Engine
	committer Committer // nil for engines without a commit step
	reaper    Reaper    // nil for synchronous engines

	units  []*IOUnit
	free   []*IOUnit // units not in flight
	done   []*IOUnit // reap buffer
	mem    []byte    // all unit buffers, page aligned
	queued []*IOUnit // queued, not yet committed, in queue order
	flight int       // committed, not yet reaped

	st stats.Job

	// What to measure.
	clat, lat, slat bool
	clatHist        bool
	latHist         bool
	slatHist        bool

	// Offset state.
	rng     taus88 // offsets
	mixRng  taus88 // read/write mix
	fileIdx int
	seqPos  [][2]uint64 // next sequential offset per file and direction
	maps    []*randMap
	exhaust []bool // file used up this loop

	// Limits.
	regionBytes uint64 // bytes per loop (sum of file regions)
	loopIssued  uint64 // bytes issued this loop
	totalIssued uint64 // bytes issued over all loops
	totalLimit  uint64 // io_size or size × loops; 0 for time_based
	ios         uint64 // I/Os issued (number_ios)
	stopping    bool

	epoch     int64 // start of I/O (ns)
	deadline  int64 // epoch + runtime, or 0
	loopStart int64

	// Bandwidth/IOPS sampling.
	bwNext, iopsNext   int64
	bwLast, iopsLast   int64
	bwBytes            [stats.NDirs]uint64
	iopsIOs            [stats.NDirs]uint64
	blocks             [stats.NDirs]uint64 // completed I/Os
	bwEvery, iopsEvery int64

	err     unix.Errno
	errFunc string
	tid     int
}

// newWorker prepares job j: engine, units and buffers. Files must have
// been laid out.
func newWorker(j *jobspec.Job, info EngineInfo, files []*jobFile) (*worker, error) {
	w := &worker{job: j, info: info, files: files}
	w.clat = !j.DisableClat
	w.lat = !j.DisableLat
	w.slat = !j.DisableSlat
	w.clatHist = w.clat && j.ClatPercentiles
	w.latHist = w.lat && j.LatPercentiles
	w.slatHist = w.slat && j.SlatPercentiles
	w.st.Members = 1

	maxBS := max(j.BS[0], j.BS[1], j.BS[2])
	depth := j.IODepth
	page := uint64(unix.Getpagesize())
	per := (maxBS + page - 1) / page * page
	mem, err := unix.Mmap(-1, 0, int(per)*depth, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, fmt.Errorf("runner: allocating %d I/O buffers: %w", depth, err)
	}
	w.mem = mem
	fillRandom(mem, j.RandSeed)
	w.units = make([]*IOUnit, depth)
	w.free = make([]*IOUnit, 0, depth)
	w.queued = make([]*IOUnit, 0, depth)
	w.done = make([]*IOUnit, depth)
	for i := range w.units {
		u := &IOUnit{Index: i, Buf: mem[uint64(i)*per : uint64(i)*per+maxBS]}
		w.units[i] = u
		w.free = append(w.free, u)
	}
	eng, err := info.New(EngineConfig{IODepth: depth, Units: w.units, Direct: j.Direct, Options: j.EngineOptions})
	if err != nil {
		w.release()
		return nil, err
	}
	w.eng = eng
	w.committer, _ = eng.(Committer)
	w.reaper, _ = eng.(Reaper)

	w.rng.seed(j.RandSeed)
	w.mixRng.seed(j.RandSeed + 1)
	w.seqPos = make([][2]uint64, len(files))
	w.maps = make([]*randMap, len(files))
	w.exhaust = make([]bool, len(files))
	for i, f := range files {
		w.regionBytes += f.size
		if j.RW.Random() && !j.NoRandomMap {
			w.maps[i] = newRandMap(f.size / minBS(j))
		}
	}
	if !j.TimeBased {
		w.totalLimit = j.IOSize
		if w.totalLimit == 0 {
			w.totalLimit = w.regionBytes * uint64(j.Loops)
		}
	}
	w.bwEvery = int64(j.BWAvgTime) * 1e6
	w.iopsEvery = int64(j.IOPSAvgTime) * 1e6
	return w, nil
}

// minBS is the smallest block size of the directions the job uses.
func minBS(j *jobspec.Job) uint64 {
	m := uint64(0)
	for d, use := range []bool{j.RW.Reads(), j.RW.Writes(), j.RW.Trims()} {
		if use && (m == 0 || j.BS[d] < m) {
			m = j.BS[d]
		}
	}
	if m == 0 {
		m = j.BS[0]
	}
	return m
}

// fillRandom fills b with reproducible pseudo-random bytes, so written
// data does not compress or deduplicate away.
func fillRandom(b []byte, seed uint64) {
	var r taus88
	r.seed(seed ^ 0x5a5a)
	for i := 0; i+4 <= len(b); i += 4 {
		v := r.next()
		b[i], b[i+1], b[i+2], b[i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
}

func (w *worker) release() {
	if c, ok := w.eng.(io.Closer); ok {
		c.Close()
	}
	if w.mem != nil {
		unix.Munmap(w.mem)
		w.mem = nil
	}
	for _, f := range w.files {
		f.close()
	}
}

// run opens the files and does the job's I/O until its size, runtime or
// stop signal is reached. It must run on its own goroutine.
func (w *worker) run(stop <-chan struct{}) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w.tid = unix.Gettid()
	j := w.job
	writes := j.RW.Writes() || j.RW.Trims()
	if !w.info.NoFiles {
		for _, f := range w.files {
			if err := f.open(j, writes); err != nil {
				w.setupFailed(err)
				return
			}
		}
	}
	var ru0 unix.Rusage
	unix.Getrusage(unix.RUSAGE_THREAD, &ru0)
	w.epoch = nanotime()
	if j.TimeBased || j.Runtime > 0 {
		w.deadline = w.epoch + int64(j.Runtime)*1000
	}
	w.bwLast, w.iopsLast = w.epoch, w.epoch
	w.bwNext, w.iopsNext = w.epoch+w.bwEvery, w.epoch+w.iopsEvery

	for loop := 0; ; loop++ {
		w.startLoop()
		if w.reaper == nil {
			w.syncLoop(stop)
		} else {
			w.asyncLoop(stop)
		}
		if w.err == 0 && j.EndFsync && writes && !w.info.NoFiles && !w.more(false) {
			for _, f := range w.files {
				if err := unix.Fsync(f.fd); err != nil {
					w.fail(errno(err), "fsync")
				}
			}
		}
		w.endLoop()
		if !w.more(true) {
			break
		}
	}
	end := nanotime()
	var ru1 unix.Rusage
	unix.Getrusage(unix.RUSAGE_THREAD, &ru1)
	w.st.RuntimeMS = uint64(end-w.epoch) / 1e6
	w.st.UsrMS = uint64(ru1.Utime.Nano()/1e6 - ru0.Utime.Nano()/1e6)
	w.st.SysMS = uint64(ru1.Stime.Nano()/1e6 - ru0.Stime.Nano()/1e6)
	w.st.Ctx = uint64(ru1.Nvcsw + ru1.Nivcsw - ru0.Nvcsw - ru0.Nivcsw)
	w.st.Majf = uint64(ru1.Majflt - ru0.Majflt)
	w.st.Minf = uint64(ru1.Minflt - ru0.Minflt)
}

// startLoop rewinds the files for one loop.
func (w *worker) startLoop() {
	w.loopStart = nanotime()
	w.loopIssued = 0
	for i := range w.files {
		w.seqPos[i] = [2]uint64{}
		w.exhaust[i] = false
		if w.maps[i] != nil {
			w.maps[i].reset()
		}
	}
}

// endLoop adds the loop's duration to the runtime of each direction that
// moved data.
func (w *worker) endLoop() {
	us := uint64(nanotime()-w.loopStart) / 1000
	for d := range w.st.Dir {
		if w.st.Dir[d].IOBytes > 0 {
			w.st.Dir[d].RuntimeUS += us
		}
	}
}

// more reports whether another loop should run (afterLoop) — or, inside a
// loop, whether this is the last one.
func (w *worker) more(afterLoop bool) bool {
	if w.stopping || w.err != 0 {
		return false
	}
	j := w.job
	if j.TimeBased {
		return nanotime() < w.deadline
	}
	if w.deadline != 0 && nanotime() >= w.deadline {
		return false
	}
	if j.NumberIOs > 0 && w.ios >= j.NumberIOs {
		return false
	}
	return w.totalIssued+minBS(j) <= w.totalLimit
}

// setupFailed records an error that stopped the job before its I/O.
func (w *worker) setupFailed(err error) {
	if se, ok := err.(*setupError); ok {
		w.fail(se.errno, se.fn)
		return
	}
	w.fail(unix.EIO, "setup")
}

func (w *worker) fail(e unix.Errno, fn string) {
	if w.err == 0 {
		w.err, w.errFunc = e, fn
	}
	w.stopping = true
}

// next fills u with the job's next I/O. It returns false when the loop
// has nothing left to issue.
func (w *worker) next(u *IOUnit, now int64) bool {
	j := w.job
	if w.stopping || w.err != 0 {
		return false
	}
	if w.deadline != 0 && now >= w.deadline {
		w.stopping = true
		return false
	}
	if j.NumberIOs > 0 && w.ios >= j.NumberIOs {
		return false
	}
	d := w.direction()
	bs := j.BS[d]
	if !j.TimeBased {
		if w.loopIssued+bs > w.regionBytes || w.totalIssued+bs > w.totalLimit {
			return false
		}
	}
	// Pick a file that still has room, round robin.
	for tries := 0; tries < len(w.files); tries++ {
		fi := w.fileIdx
		w.fileIdx++
		if w.fileIdx == len(w.files) {
			w.fileIdx = 0
		}
		if w.exhaust[fi] {
			continue
		}
		f := w.files[fi]
		off, ok := w.offset(fi, f, d, bs)
		if !ok {
			w.exhaust[fi] = true
			continue
		}
		u.Op = Op(d)
		u.FD = f.fd
		u.File = fi
		u.Offset = int64(off)
		u.Buf = u.Buf[:bs]
		w.loopIssued += bs
		w.totalIssued += bs
		w.ios++
		return true
	}
	return false
}

// direction picks read or write for this I/O.
func (w *worker) direction() stats.Dir {
	j := w.job
	switch {
	case j.RW.Reads() && j.RW.Writes():
		if int(w.mixRng.below(100)) < j.RWMixRead {
			return stats.Read
		}
		return stats.Write
	case j.RW.Writes():
		return stats.Write
	case j.RW.Trims():
		return stats.Trim
	}
	return stats.Read
}

// offset returns the next offset in file fi for direction d.
func (w *worker) offset(fi int, f *jobFile, d stats.Dir, bs uint64) (uint64, bool) {
	if f.size < bs {
		return 0, false
	}
	if m := w.maps[fi]; m != nil {
		if m.full() {
			return 0, false
		}
		blk := m.take(w.rng.below(m.blocks))
		return f.offset + blk*minBS(w.job), true
	}
	if w.job.RW.Random() {
		blocks := f.size / bs
		return f.offset + w.rng.below(blocks)*bs, true
	}
	pos := &w.seqPos[fi][min(int(d), 1)]
	if *pos+bs > f.size {
		if !w.job.TimeBased {
			return 0, false
		}
		*pos = 0
	}
	off := f.offset + *pos
	*pos += bs + uint64(w.job.RWSuffix)
	return off, true
}

// syncLoop issues one I/O at a time through an engine that completes it
// in Queue.
func (w *worker) syncLoop(stop <-chan struct{}) {
	u := w.units[0]
	countCalls := w.committer == nil
	now := nanotime()
	for w.next(u, now) {
		if stopped(stop) {
			w.stopping = true
			break
		}
		start := nanotime()
		w.eng.Queue(u)
		now = nanotime()
		if countCalls {
			w.st.AddSubmit(1)
			w.st.AddComplete(1)
		}
		w.st.AddDepth(1, 1)
		w.complete(u, start, start, now)
		w.sample(now)
	}
}

// asyncLoop keeps up to iodepth units in flight: it queues units, commits
// them in batches of iodepth_batch, and reaps completions when the queue
// is full or nothing more can be issued.
func (w *worker) asyncLoop(stop <-chan struct{}) {
	j := w.job
	batch := j.IODepthBatchSubmit
	reapMin := max(1, j.IODepthBatchCompleteMin)
	// Like fio, reap at most iodepth_batch_complete_max per call (by
	// default the min, 1): the queue is refilled after each completion.
	reapMax := min(max(reapMin, j.IODepthBatchCompleteMax), len(w.done))
	now := nanotime()
	for {
		issued := false
		for len(w.free) > 0 && !stopped(stop) {
			u := w.free[len(w.free)-1]
			if !w.next(u, now) {
				break
			}
			w.free = w.free[:len(w.free)-1]
			u.start = nanotime()
			if w.eng.Queue(u) == Completed {
				// Completed inline (null at depth 1, or a trim).
				now = nanotime()
				w.st.AddDepth(w.flight+1, 1)
				w.complete(u, u.start, u.start, now)
				w.free = append(w.free, u)
				continue
			}
			w.queued = append(w.queued, u)
			issued = true
			if len(w.queued) >= batch {
				now = w.commit()
			}
		}
		if len(w.queued) > 0 {
			now = w.commit()
		}
		if stopped(stop) {
			w.stopping = true
		}
		if w.flight == 0 {
			if !issued {
				return
			}
			continue
		}
		min := reapMin
		if min > w.flight {
			min = w.flight
		}
		n, err := w.reaper.Reap(min, w.done[:reapMax])
		if err != nil {
			w.fail(errno(err), "io_getevents")
			w.drain()
			return
		}
		now = nanotime()
		w.st.AddComplete(n)
		for _, u := range w.done[:n] {
			w.flight--
			w.complete(u, u.start, u.issue, now)
			w.free = append(w.free, u)
		}
		w.sample(now)
		if w.err != 0 {
			w.drain()
			return
		}
	}
}

// commit starts the queued units and records their submission latency.
// Engines start queued units in queue order, so the first n of w.queued
// are the ones started.
func (w *worker) commit() int64 {
	n, err := w.committer.Commit()
	now := nanotime()
	if err != nil {
		w.fail(errno(err), "io_submit")
	}
	w.st.AddSubmit(n)
	w.flight += n
	w.st.AddDepth(w.flight, n)
	for _, u := range w.queued[:n] {
		u.issue = now
		if w.slat {
			w.st.AddSlat(stats.Dir(u.Op), uint64(max(0, now-u.start)), w.slatHist)
		}
	}
	rest := copy(w.queued, w.queued[n:])
	w.queued = w.queued[:rest]
	return now
}

// drain reaps every unit still in flight, without accounting.
func (w *worker) drain() {
	for w.flight > 0 {
		n, err := w.reaper.Reap(w.flight, w.done)
		if err != nil {
			return
		}
		w.flight -= n
		for _, u := range w.done[:n] {
			w.free = append(w.free, u)
		}
	}
}

// complete accounts one finished unit.
func (w *worker) complete(u *IOUnit, start, issue, done int64) {
	if u.Err != 0 {
		w.fail(u.Err, "io_u error")
		return
	}
	d := stats.Dir(u.Op)
	s := &w.st.Dir[d]
	s.TotalIOs++
	if u.Result < len(u.Buf) {
		s.ShortIOs++
	}
	s.IOBytes += uint64(u.Result)
	w.blocks[d]++
	if w.clat {
		w.st.AddClat(d, uint64(max(0, done-issue)), w.clatHist)
	}
	if w.lat {
		w.st.AddLat(d, uint64(max(0, done-start)), w.latHist)
	}
}

// sample takes bandwidth and IOPS samples when their interval has passed.
func (w *worker) sample(now int64) {
	if now >= w.bwNext && w.bwEvery > 0 {
		spent := uint64(now-w.bwLast) / 1e6
		for d := range w.st.Dir {
			delta := w.st.Dir[d].IOBytes - w.bwBytes[d]
			if delta > 0 && spent > 0 {
				w.st.Dir[d].BW.Add(delta * 1000 / spent / 1024)
			}
			w.bwBytes[d] = w.st.Dir[d].IOBytes
		}
		w.bwLast, w.bwNext = now, now+w.bwEvery
	}
	if now >= w.iopsNext && w.iopsEvery > 0 {
		spent := uint64(now-w.iopsLast) / 1e6
		for d := range w.st.Dir {
			delta := w.blocks[d] - w.iopsIOs[d]
			if delta > 0 && spent > 0 {
				w.st.Dir[d].IOPS.Add(delta * 1000 / spent)
			}
			w.iopsIOs[d] = w.blocks[d]
		}
		w.iopsLast, w.iopsNext = now, now+w.iopsEvery
	}
}

// stopped reports whether stop is closed, without blocking.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}
