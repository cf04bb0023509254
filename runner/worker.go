package runner

import (
	"cmp"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/flow"
	"github.com/gofio/gofio/runner/limits"
	"github.com/gofio/gofio/runner/lockfile"
	"github.com/gofio/gofio/runner/offsets"
	"github.com/gofio/gofio/runner/statlog"
	"github.com/gofio/gofio/runner/trace"
	"github.com/gofio/gofio/stats"
)

// worker runs one job: it owns the job's files, engine, units and
// statistics, and runs on one locked OS thread. Nothing here is shared
// with other goroutines while the job runs.
type worker struct {
	job   *jobspec.Job
	info  engine.Info
	files []*jobFile

	eng       engine.Engine
	committer engine.Committer // nil for engines without a commit step
	reaper    engine.Reaper    // nil for synchronous engines
	flow      *flow.State      // nil without flow (runner/flow)

	units  []*engine.IOUnit
	free   []*engine.IOUnit // units not in flight
	done   []*engine.IOUnit // reap buffer
	mem    []byte           // all unit buffers, page aligned
	queued []*engine.IOUnit // queued, not yet committed, in queue order
	times  []unitTimes      // per unit, by IOUnit.Index: the runner's timestamps
	flight int              // committed, not yet reaped

	st stats.Job

	// What to measure.
	clat, lat, slat bool
	clatHist        bool
	latHist         bool
	slatHist        bool
	// prioStats: the engine gives I/Os priorities of their own; their
	// latency is kept per priority (lat with lat_percentiles, else clat),
	// the job's own priority (prio) standing for I/Os without one.
	prioStats, prioLat bool
	prio               uint16

	// Offset state.
	seqPos  [][2]uint64 // next sequential offset per file and direction
	maps    []*offsets.Map
	exhaust []bool  // file used up this loop
	zbd     *zbdJob // zonemode=zbd (zbd.go); nil otherwise

	// Limits.
	regionBytes uint64 // bytes per loop (sum of file regions)
	loopIssued  uint64 // bytes issued this loop
	loopQueued  uint64 // bytes the engine queued this loop (not completed in Queue)
	loopCap     uint64 // loopQueued that ends a loop (asynchronous engines); ^0: none
	totalIssued uint64 // bytes issued over all loops
	// verifyIssued: bytes read back by verify phases and backlogs over all
	// loops (experimental_verify counts its reads in totalIssued).
	verifyIssued uint64
	totalLimit   uint64 // io_size or size × loops; 0 for time_based
	ios          uint64 // I/Os issued this loop
	allIOs       uint64 // I/Os issued in all loops (number_ios)
	stopping     bool

	epoch     int64 // start of I/O, moved to the end of the ramp (ns)
	deadline  int64 // epoch + runtime, or 0
	loopStart int64
	ramp      int64 // ramp_time (ns)
	ramping   bool  // statistics not yet counted (ramp_time)
	settling  bool  // ramp just ended: the next reap batch counts bytes only
	ru0       unix.Rusage

	// smp takes the bandwidth/IOPS samples (stats-algorithms.md §3.1);
	// retry is a unit the engine answered Busy, queued again after a reap.
	smp    *stats.Sampler
	logs   *statlog.Logs // bw, iops and latency logs (statlog.go); nil if none
	retry  *engine.IOUnit
	blocks [stats.NDirs]uint64 // completed I/Os per direction

	// clk is the loop's clock (stamp.go); smpNext is when the counts are
	// next handed to smp and stop polled, at most every publishCounts.
	clk     loopClock
	smpNext int64
	stop    <-chan struct{}

	err     unix.Errno
	errFunc string
	tid     int
	dbg     debuglog.Mask // --debug classes for this job's lines (debug.go)
	ts      threadSetup   // affinity, priorities, exec_prerun/postrun (thread.go)

	prog  workerProgress // live view: status line, live reports
	ioerr ioErrors       // error reporting, continue_on_error

	gen     ioGen             // block sizes, files, offsets, syncs (iogen.go)
	bufs    bufState          // write buffer contents (buffers.go)
	opener  engine.FileOpener // the engine's, or nil
	vfy     *verifier         // verify state (verify.go), nil without verify
	trace   *tracer           // write_iolog/read_iolog (trace.go), nil without
	thinker engine.Thinker    // the engine's pause after each completion (cpuio), or nil
	lim     *limits.Limits    // rate_min, max_latency, latency_target (runner/limits); nil without
	locker  *lockfile.Locker  // lockfile (package lockfile); nil without
	overlap *overlapState     // serialize_overlap (overlap.go); nil without
	writes  bool              // the job writes or trims

	// gate holds the job's I/O until every job of its wave has filled
	// its buffers (run.go); nil for a job with startdelay.
	gate *sync.WaitGroup
}

// unitTimes are the timestamps the runner keeps for one unit (ns on the
// monotonic clock): when it was made ready, and when it was issued (queued
// by a synchronous engine, committed by an asynchronous one). They are
// kept beside the units, indexed by IOUnit.Index, so that engines see
// only their contract.
type unitTimes struct{ start, issue int64 }

// newWorker prepares job j: engine, units and buffers. Files must have
// been laid out. replay is the trace a read_iolog job replays, as
// planJobFiles read it; nil for other jobs.
func newWorker(j *jobspec.Job, info engine.Info, files []*jobFile, replay *trace.Log) (*worker, error) {
	w := &worker{job: j, info: info, files: files}
	w.clat = !j.DisableClat
	w.lat = !j.DisableLat
	w.slat = !j.DisableSlat
	w.clatHist = w.clat && j.ClatPercentiles
	w.latHist = w.lat && j.LatPercentiles
	w.slatHist = w.slat && j.SlatPercentiles
	w.st.Members = 1

	w.writes = j.RW.Writes() || j.RW.Trims()
	for _, f := range files {
		w.regionBytes += f.size
	}
	mb := j.MaxBS()
	maxBS := max(mb[0], mb[1], mb[2], replayMaxBS(replay))
	depth := j.IODepth
	if info.Pow2Depth {
		depth = 1 << bits.Len(uint(max(depth, 1)-1))
	}
	w.gen.seeds, w.gen.repeat = jobSeeds(j) // fio's seed slots (fiorand.go)
	mem, per, err := w.allocBuffers(depth, maxBS)
	if err != nil {
		return nil, memError(j, err)
	}
	w.mem = mem
	w.units = make([]*engine.IOUnit, depth)
	w.free = make([]*engine.IOUnit, 0, depth)
	w.queued = make([]*engine.IOUnit, 0, depth)
	w.done = make([]*engine.IOUnit, depth)
	w.times = make([]unitTimes, depth)
	for i := range w.units {
		u := &engine.IOUnit{Index: i, Buf: mem[uint64(i)*per : uint64(i)*per+maxBS]}
		w.units[i] = u
		w.free = append(w.free, u)
	}
	mayHang := false
	for _, f := range files {
		mayHang = mayHang || (!f.blockDev && f.path != "" && engine.OnHangProneFS(f.path))
	}
	eng, err := info.New(engine.Config{IODepth: depth, Units: w.units, Direct: j.Direct, Options: j.EngineOptions,
		Job: j.Name, Files: len(files), OpenFiles: min(len(files), cmp.Or(max(j.OpenFiles, 0), len(files))), Seed: j.RandSeed, PrioSeed: w.gen.seeds[seedPrio], RW: j.RW, NoAdvice: j.FadviseHint == jobspec.FadviseNone,
		MayHang: mayHang, Paths: filePaths(files), Dir: firstOr(j.Directory), FileSize: j.FileSize[1],
		Filenames: j.Filename, JobNum: j.JobNum, Runtime: j.Runtime, ThreadBound: !j.Misc.SubmitOffload})
	if err != nil {
		w.release()
		return nil, err
	}
	w.eng = eng
	w.committer, _ = eng.(engine.Committer)
	w.reaper, _ = eng.(engine.Reaper)
	w.opener, _ = eng.(engine.FileOpener)
	w.overlap = newOverlapState(j.Misc.SerializeOverlap, depth)
	w.locker = lockfile.New(j.Misc.LockFile, filePaths(files))
	w.thinker, _ = eng.(engine.Thinker)
	if ps, ok := eng.(engine.PrioStater); ok {
		if prios, on := ps.Prios(); on {
			w.prioStats, w.prioLat, w.prio = true, j.LatPercentiles && w.lat, ioprio(j)
			for d, list := range prios {
				w.st.DeclarePrios(stats.Dir(d), append([]uint16{w.prio}, list...)...)
			}
		}
	}

	w.seqPos = make([][2]uint64, len(files))
	w.maps = make([]*offsets.Map, len(files))
	w.exhaust = make([]bool, len(files))
	for i, f := range files {
		if j.RW.Random() && !j.NoRandomMap {
			w.maps[i] = offsets.NewMap(f.size / minBS(j))
		}
	}
	if !j.TimeBased {
		// As observed in fio 3.33, the job's limit is its bytes per loop
		// (io_size, or size) times loops; a loop runs until its files are
		// used up or the limit is reached, so with io_size below size the
		// first loop goes on past io_size, with the same random streams.
		w.totalLimit = j.IOSize
		if j.IOSizePct > 0 {
			w.totalLimit = w.regionBytes * uint64(j.IOSizePct) / 100 // io_size=N%
		}
		if w.totalLimit == 0 {
			w.totalLimit = w.regionBytes
		}
		w.totalLimit *= uint64(max(j.Loops, 1))
	}
	if info.NoIO {
		// cpuio: no bytes move, so only runtime ends the job.
		w.regionBytes, w.totalLimit = ^uint64(0), ^uint64(0)
	}
	w.loopCap = w.queuedCap()
	if err := w.initGen(); err != nil {
		w.release()
		return nil, err
	}
	if w.vfy, err = newVerifier(j, w.totalLimit/max(minBS(j), 1)+1); err != nil {
		w.release()
		return nil, err
	}
	if w.vfy != nil {
		w.vfy.seeds.Seed(w.gen.seeds[seedVerify], w.gen.use64)
	}
	if w.trace, err = newTracer(w, replay); err != nil {
		w.release()
		return nil, err
	}
	w.smp = w.newSampler()
	w.initClock()
	w.ramp = int64(j.RampTime) * 1000
	w.lim = limits.New(j)
	return w, nil
}

// queuedCap returns the bytes an asynchronous engine may queue in one
// loop. As observed in fio 3.33, a loop also ends once the I/Os that the
// engine queued rather than completed at once (libaio, io_uring,
// posixaio; not psync, sync or mmap) add up to the job's size: with
// libaio, rw=rw with size=64k and loops=2 does 16 I/Os per loop (with
// psync its first loop runs on to the end of a direction), and
// norandommap reads size bytes per loop. Random writes under norandommap
// may queue io_size if larger; a job that verifies with verify_backlog,
// and trimwrite (whose writes count here), twice the size. Not for
// time_based jobs, zones, or replayed traces, which end their loops
// their own way, nor with io_submit_mode=offload (fio 3.33 then runs
// libaio's loops as psync's).
func (w *worker) queuedCap() uint64 {
	j := w.job
	if j.TimeBased || j.Zone.Mode != jobspec.ZoneNone || len(j.ReadIolog) > 0 || j.Misc.SubmitOffload {
		return ^uint64(0)
	}
	c := w.regionBytes
	if j.RW.Writes() && j.RW.Random() && j.NoRandomMap {
		c = max(c, w.totalLimit/uint64(max(j.Loops, 1)))
	}
	if j.Verify.Type != jobspec.VerifyNone && j.RW.Writes() && j.Verify.Backlog > 0 {
		c += w.regionBytes
	}
	if j.RW == jobspec.RWTrimWrite || j.RW == jobspec.RWRandTrimWrite {
		c += w.regionBytes
	}
	return c
}

// maxBS is the largest block size of any direction, used or not (fio
// 3.33 weighs a rw=read job with bs=4k,8k by its 8k writes' size).
func maxBS(j *jobspec.Job) uint64 {
	m := j.MaxBS()
	return max(m[0], m[1], m[2])
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

// passGate tells the job's wave that this job is set up and, with wait,
// waits until every job of the wave is (a stop signal cuts their setup
// short).
func (w *worker) passGate(wait bool) {
	if g := w.gate; g != nil {
		w.gate = nil
		g.Done()
		if wait {
			g.Wait()
		}
	}
}

func (w *worker) release() {
	if c, ok := w.eng.(io.Closer); ok {
		c.Close()
	}
	if w.mem != nil {
		w.bufs.releaseBuffers()
		w.mem = nil
	}
	if w.gen.opened != nil {
		w.closeAll()
	}
	if w.trace != nil {
		w.trace.close()
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
	if w.dbg != 0 {
		w.debugStart()
	}
	if w.dbg.On(debuglog.IO) {
		defer w.debugEngineEnd()
	}
	defer w.threadEnd()
	if !w.threadStart() {
		w.passGate(false)
		return
	}
	if tb, ok := w.eng.(engine.ThreadBinder); ok {
		defer tb.CloseOnThread() // before the thread is unlocked
		if err := tb.BindThread(); err != nil {
			w.fail(errno.Of(err), "io_uring_register")
			w.passGate(false)
			return
		}
	}
	w.gen.paceStop = stop
	j := w.job
	writes := w.writes
	if w.bufs.pending != nil {
		w.fillBuffers(stop)
	}
	w.passGate(true)
	if !w.info.NoFiles && j.PreRead {
		if err := w.preRead(); err != nil {
			w.setupFailed(err)
			return
		}
	}
	if c, ok := w.eng.(engine.Connector); ok {
		if err := c.Connect(); err != nil {
			w.setupFailed(err)
			return
		}
	}
	unix.Getrusage(unix.RUSAGE_THREAD, &w.ru0)
	w.epoch = clock.Now()
	w.ramping = w.ramp > 0
	if w.dbg.On(debuglog.Process) {
		w.debugRunning()
	}
	if !w.ramping {
		w.startMeasuring(w.epoch)
	}
	w.progressStart()

	for loop := 0; ; loop++ {
		w.startLoop()
		switch {
		case w.vfy != nil && w.vfy.Only:
			w.skipWrites()
		case j.Misc.SubmitOffload:
			w.offloadLoop(stop) // offload.go
		case w.reaper == nil:
			w.syncLoop(stop)
		default:
			w.asyncLoop(stop)
		}
		if w.err == 0 && (j.EndFsync || j.FsyncOnClose) && writes && !w.info.NoFiles {
			w.endFsync()
		}
		if w.vfy != nil {
			w.verifyLoop(stop) // reads back, then ends the loop
		} else {
			w.endLoop()
		}
		if !w.more() {
			break
		}
		if w.ios == 0 {
			// A loop that found no block to do (every file's region is
			// smaller than a block) would find none again: the job is
			// done with nothing done, as in fio, time_based or not.
			break
		}
	}
	w.endVerify()
	if j.Unlink && !w.info.NoFiles {
		w.unlinkFiles()
	}
	w.smp.Stop()
	if w.dbg.On(debuglog.Process) {
		w.debugRunstate("RUNNING", "FINISHING")
	}
	end := clock.Now()
	var ru1 unix.Rusage
	unix.Getrusage(unix.RUSAGE_THREAD, &ru1)
	ru0 := &w.ru0
	w.st.RuntimeMS = uint64(end-w.epoch) / 1e6
	// CPU times: the difference of each pair, truncated to whole ms.
	w.st.UsrMS = uint64(max(ru1.Utime.Nano()-ru0.Utime.Nano(), 0)) / 1e6
	w.st.SysMS = uint64(max(ru1.Stime.Nano()-ru0.Stime.Nano(), 0)) / 1e6
	w.st.Ctx = uint64(ru1.Nvcsw + ru1.Nivcsw - ru0.Nvcsw - ru0.Nivcsw)
	w.st.Majf = uint64(ru1.Majflt - ru0.Majflt)
	w.st.Minf = uint64(ru1.Minflt - ru0.Minflt)
	bw, iops := w.smp.Results()
	for d := range w.st.Dir {
		w.st.Dir[d].BW, w.st.Dir[d].IOPS = bw[d], iops[d]
	}
}

// startMeasuring starts the measured part of the job at now: at the
// epoch, or when the ramp time ends (then every statistic counted so far
// is dropped, stats-algorithms.md §9.2; the bytes done still count toward
// size).
func (w *worker) startMeasuring(now int64) {
	if w.ramping {
		w.ramping, w.settling = false, true
		w.st = stats.Job{Members: 1}
		w.blocks = [stats.NDirs]uint64{}
		w.epoch, w.loopStart = now, now
		unix.Getrusage(unix.RUSAGE_THREAD, &w.ru0)
	}
	if w.job.TimeBased || w.job.Runtime > 0 {
		w.deadline = now + int64(w.job.Runtime)*1000
	}
	w.smp.Start(now)
}

// rampOver ends the ramp time when it has passed at now, and reports
// whether the job is past its ramp. A completion or a submission that
// records a latency checks it, as fio does (lazily).
func (w *worker) rampOver(now int64) bool {
	if w.ramping && now-w.epoch >= w.ramp {
		w.startMeasuring(now)
	}
	return !w.ramping
}

// accounting reports whether the latencies of the completions reaped
// now count: not during the ramp time, nor in the batch that ends it or
// the first batch after it (fio still flags the job as ramping then).
func (w *worker) accounting() bool { return !w.ramping && !w.settling }

// batchDone closes a batch of completions.
func (w *worker) batchDone(now int64) {
	w.settling = false
	w.progressTick(now)
	w.sample(now)
}

// startLoop rewinds the files for one loop.
func (w *worker) startLoop() {
	w.loopStart = clock.Now()
	w.loopIssued, w.loopQueued = 0, 0
	w.ios = 0
	w.genStartLoop()
	for i := range w.files {
		if w.zbd == nil { // zbd: a loop goes on from where the last ended (zbd.go)
			w.seqPos[i] = [2]uint64{}
		}
		w.exhaust[i] = false
		if w.maps[i] != nil {
			w.maps[i].Reset()
		}
	}
}

// endLoop adds the loop's duration to the runtime of each direction that
// moved data.
func (w *worker) endLoop() {
	w.loopFilesDone()
	us := uint64(clock.Now()-w.loopStart) / 1000
	for d := range w.st.Dir {
		if w.st.Dir[d].IOBytes > 0 {
			w.st.Dir[d].RuntimeUS += us
		}
	}
}

// more reports, at the end of a loop, whether another loop should run.
func (w *worker) more() bool {
	if w.stopping || w.err != 0 {
		return false
	}
	if w.trace != nil && w.trace.replay != nil {
		return !w.trace.replay.Ended() // a trace is replayed once
	}
	j := w.job
	if j.TimeBased {
		return w.ramping || clock.Now() < w.deadline
	}
	if w.deadline != 0 && clock.Now() >= w.deadline {
		return false
	}
	if j.NumberIOs > 0 && (w.gen.loops >= j.Loops || w.numberIOsDone()) {
		return false // loops cut short by number_ios: the bytes do not tell
	}
	if (w.gen.zone != nil || w.zbd != nil) && j.IOSize == 0 && w.gen.loops >= j.Loops {
		return false // strided or zbd zones may end a loop early (zone.go, zbd.go)
	}
	if w.zbd != nil {
		return w.totalIssued < w.totalLimit // zbd.go: a whole block while bytes are left
	}
	if w.gen.loops < j.Loops {
		// A loop stops at the job's limit (nextIO) or with its files used
		// up; the loops asked for run on while the limit is not reached.
		return w.totalIssued < w.totalLimit
	}
	// Past the loops, as observed in fio 3.33, another loop runs while
	// the job has done less than one loop's amount (io_size, or size) by
	// at least the largest block size of any direction, unless every
	// file was used up and io_size is not set: rw=read with size=32k,
	// io_size=80k and loops=2 reads the file three times, rw=read:4k
	// with size=36k reads 20k once, with io_size=100k five times.
	// The verify reads count toward that amount (fio 3.33: rw=write with
	// size=16k, io_size=24k and verify writes and reads back 16k once,
	// with io_size=48k twice).
	loop := w.totalLimit / uint64(max(j.Loops, 1))
	done := w.totalIssued + w.verifyIssued
	if done >= loop || loop-done < maxBS(j) {
		return false
	}
	return j.IOSize > 0 || j.IOSizePct > 0 || slices.Contains(w.exhaust, false)
}

// endFsync syncs the job's files at the end of a loop (end_fsync, and
// fsync_on_close, which fio 3.33 also syncs this way; observed in
// write_iolog). Before a loop that is not the last the files are closed
// first. A file that is closed (used up, or to make room under
// openfiles) is opened again for its sync, past openfiles, and closed
// after it.
func (w *worker) endFsync() {
	w.setState(StateFsyncing)
	if w.more() {
		w.loopFilesDone()
	}
	w.gen.pastMax = true
	defer func() { w.gen.pastMax = false }()
	for i, f := range w.files {
		reopened := !w.gen.opened[i]
		if reopened && !w.openFile(i, stats.Write) {
			return
		}
		w.traceFile(i, "sync")
		if err := unix.Fsync(f.fd); err != nil {
			w.endFsyncFailed(f, errno.Of(err))
		}
		if reopened {
			w.closeFile(i)
		}
	}
}

// endFsyncFailed reports a failed end_fsync as fio 3.33 does: it queues
// the sync as an I/O unit, so a synchronous engine prints the io_u error
// line (with the last write's offset and length) and fails the job in
// "io_u error", an asynchronous one in "td_io_queue"; then "end_fsync
// failed for file".
func (w *worker) endFsyncFailed(f *jobFile, e unix.Errno) {
	fn := "td_io_queue"
	if w.reaper == nil {
		fn = "io_u error"
		if w.ioerr.out != nil {
			fmt.Fprintf(w.ioerr.out, "fio: io_u error on file %s: %s: sync offset=%d, buflen=%d\n",
				f.path, errno.Text(e), w.gen.wrOff, w.gen.wrLen)
		}
	}
	if w.ioerr.out != nil {
		fmt.Fprintf(w.ioerr.out, "fio: end_fsync failed for file %s\n", f.path)
	}
	w.fail(e, fn)
}

// setupFailed records an error that stopped the job before its I/O.
func (w *worker) setupFailed(err error) {
	if se, ok := err.(*setupError); ok {
		w.fail(se.errno, se.fn)
		return
	}
	if ie, ok := err.(*engine.InitError); ok {
		w.fail(ie.Errno, ie.Fn)
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

// syncLoop issues one I/O at a time through an engine that completes it
// in Queue.
func (w *worker) syncLoop(stop <-chan struct{}) {
	u := w.units[0]
	countCalls := w.committer == nil
	w.pollStop(stop)
	now := w.stamp()
	for w.next(u, now) {
		// fio's timestamps (stats-algorithms.md §0.1): start when the
		// unit is ready, issue right before the engine's call (one read:
		// nothing happens between them), done right after it.
		if w.locker != nil {
			w.locker.Lock(u)
		}
		start := w.stamp()
		issue := start
		w.queue(u)
		now = w.stamp()
		if w.locker != nil {
			w.locker.Unlock(u)
		}
		w.countIssued(u)
		if countCalls {
			w.st.AddSubmit(1)
			w.st.AddComplete(1)
		}
		w.st.AddDepth(1, 1)
		w.complete(u, start, issue, now, w.accounting())
		w.rampOver(now)
		w.batchDone(now)
		w.thinkAfter(1, false, now)
		if w.think() {
			now = clock.Now()
		}
	}
}

// asyncLoop keeps up to iodepth units in flight: it queues units, commits
// them in batches of iodepth_batch, and reaps completions when the queue
// is full or nothing more can be issued. When nothing more can be issued
// it waits for every unit in flight with one reap call, as fio does.
//
// As in fio (HOWTO, iodepth_low and iodepth_batch_complete_*): once the
// queue is full it reaps until no more than iodepth_low units are in
// flight before it fills the queue again; each reap waits for at least
// iodepth_batch_complete_min units (one when that is 0) and takes at most
// iodepth_batch_complete_max; with both 0 it reaps after every unit it
// queues (fio's "polling" mode).
func (w *worker) asyncLoop(stop <-chan struct{}) {
	j := w.job
	batch := j.IODepthBatchSubmit
	reapMin := max(1, j.IODepthBatchCompleteMin)
	// Like fio, reap at most iodepth_batch_complete_max per call (by
	// default the min, 1): the queue is refilled after each completion.
	reapMax := min(max(reapMin, j.IODepthBatchCompleteMax), len(w.done))
	polling := j.IODepthBatchCompleteMin == 0 && j.IODepthBatchCompleteMax == 0
	low := j.IODepthLow
	if low <= 0 || low > j.IODepth {
		low = j.IODepth
	}
	defer w.locker.ReleaseAll() // units left queued by a failure
	w.pollStop(stop)
	now := w.stamp()
	for {
		exhausted, busy := false, false
		for !busy {
			u := w.retry
			w.retry = nil
			if u != nil && w.stopping {
				w.free = append(w.free, u)
				u = nil
			}
			if u == nil {
				if len(w.free) == 0 || (w.flight+len(w.queued) > 0 && w.gen.pace.NotDue(now)) || w.depthFull() {
					break // full, or rated and not due: reap first
				}
				u = w.free[len(w.free)-1]
				if !w.next(u, now) {
					exhausted = true
					break
				}
				w.free = w.free[:len(w.free)-1]
				w.times[u.Index].start = w.stamp()
			}
			if w.overlap != nil && w.overlaps(u) {
				// serialize_overlap: reap, then offer the unit again.
				w.retry = u
				busy = true
				break
			}
			if w.locker != nil && !w.locker.TryLock(u) {
				if w.flight+len(w.queued) > 0 {
					// lockfile: complete what is in flight (dropping
					// its locks), then offer the unit again.
					w.retry = u
					busy = true
					break
				}
				w.locker.Lock(u) // nothing held: wait for the lock
			}
			// An engine that completes u in Queue is timed like a sync
			// engine: issued right before the call, when it was ready.
			w.times[u.Index].issue = w.times[u.Index].start
			switch w.queue(u) {
			case engine.Busy:
				// Full: reap, then offer the same unit again.
				if w.locker != nil {
					w.locker.Unlock(u)
				}
				w.retry = u
				busy = true
			case engine.Completed:
				// Completed inline (null at depth 1, or a trim).
				now = w.stamp()
				w.countIssued(u)
				w.st.AddDepth(w.flight+1, 1)
				if w.locker != nil {
					w.locker.Unlock(u)
				}
				w.complete(u, w.times[u.Index].start, w.times[u.Index].issue, now, w.accounting())
				w.rampOver(now)
				w.batchDone(now)
				w.thinkAfter(1, false, now)
				w.free = append(w.free, u)
			default:
				w.countIssued(u)
				w.queued = append(w.queued, u)
				if len(w.queued) >= batch {
					now = w.commit()
					// Filling a deep queue takes long when each
					// submission waits for the device: poll the stop
					// channel between submissions too (sample does,
					// every publishCounts), so a signal stops the
					// job with only what was submitted in flight.
					w.sample(now)
				}
			}
			if polling {
				break
			}
		}
		// fio's queue_full, or a refusal with units in flight: then it
		// reaps down to iodepth_low.
		full := len(w.free) == 0 || w.depthFull() || (busy && w.flight+len(w.queued) > 0)
		if len(w.queued) > 0 {
			now = w.commit()
		}
		if w.err != 0 {
			w.drain()
			return
		}
		if w.flight == 0 {
			switch {
			case exhausted:
				return
			case busy && len(w.queued) == 0:
				// Nothing in flight and still refused: give up rather
				// than spin.
				w.free = append(w.free, w.retry)
				w.retry = nil
				w.fail(unix.EBUSY, "io_u queue")
				return
			}
			continue
		}
		for {
			lo, hi := min(reapMin, w.flight), reapMax
			if exhausted {
				lo, hi = w.flight, w.flight
			}
			n, err := w.reaper.Reap(lo, w.done[:hi])
			if err != nil {
				w.fail(errno.Of(err), "io_getevents")
				w.drain()
				return
			}
			now = w.stamp()
			w.st.AddComplete(n)
			acct := w.accounting()
			for _, u := range w.done[:n] {
				w.flight--
				if w.locker != nil {
					w.locker.Unlock(u)
				}
				w.complete(u, w.times[u.Index].start, w.times[u.Index].issue, now, acct)
				w.rampOver(now)
				w.free = append(w.free, u)
			}
			w.batchDone(now)
			w.thinkAfter(n, false, now)
			if w.err != 0 {
				w.drain()
				return
			}
			if !full || w.flight <= low || w.stopping {
				break
			}
		}
	}
}

// commit starts the queued units and records their submission latency.
// Engines start queued units in queue order, so the first n of w.queued
// are the ones started.
func (w *worker) commit() int64 {
	n, err := w.committer.Commit()
	now := w.stamp()
	if err != nil {
		w.fail(errno.Of(err), "io_submit")
	}
	w.st.AddSubmit(n)
	w.flight += n
	w.st.AddDepth(w.flight, n)
	for _, u := range w.queued[:n] {
		w.times[u.Index].issue = now
		// Recording a slat sample ends the ramp time if it has passed;
		// that sample already counts (fio 3.33 does the same).
		if w.slat && u.Op.IsData() && w.rampOver(now) {
			slat := uint64(max(0, now-w.times[u.Index].start))
			w.st.AddSlat(stats.Dir(u.Op), slat, w.slatHist)
			if w.logs != nil {
				w.logs.Submitted(stats.Dir(u.Op), slat, uint64(u.Offset), uint32(len(u.Buf)), u.Prio, now, w.epoch)
			}
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
		acct := w.lim != nil && limitsQuiesce(w) // limits.go
		for _, u := range w.done[:n] {
			if w.locker != nil {
				w.locker.Unlock(u)
			}
			switch {
			case acct:
				w.complete(u, w.times[u.Index].start, w.times[u.Index].issue, w.stamp(), w.accounting())
			case u.Err != 0:
				// fio reports every failed I/O it reaps, those still in
				// flight when the job failed included (8 lines for a
				// libaio job at iodepth=8 on a full file system).
				w.ioFailed(u)
			}
			w.free = append(w.free, u)
		}
	}
}

// countIssued counts u as issued: fio counts an I/O when the engine
// accepts it, completed or queued (stats-algorithms.md §0.3).
func (w *worker) countIssued(u *engine.IOUnit) {
	switch u.Op {
	case engine.OpFsync:
		w.st.SyncIOs++
	case engine.OpFdatasync:
		// fio 3.33 counts fdatasync and sync_file_range in the short
		// column of reads and writes ("short=3,0,0,0"), not as syncs.
		w.st.Dir[stats.Read].ShortIOs++
	case engine.OpSyncFileRange:
		w.st.Dir[stats.Write].ShortIOs++
	default:
		w.st.Dir[u.Op].TotalIOs++
	}
}

// complete accounts one finished unit. Its bytes always count; its
// latencies only when acct is set (past the ramp time when the batch it
// came in was reaped).
func (w *worker) complete(u *engine.IOUnit, start, issue, done int64, acct bool) {
	if w.dbg.On(debuglog.IO) {
		w.debugIO("complete", u)
	}
	if w.zbd != nil && u.Op == engine.OpWrite {
		w.zbd.Written(u) // runner/zbd
	}
	if u.End {
		// The peer ended the stream (net engines): nothing more to do.
		u.End = false
		w.stopping = true
		return
	}
	if u.Err != 0 || (u.Result == 0 && u.Op.IsData() && len(u.Buf) > 0) {
		w.ioFailed(u)
		return
	}
	w.ioerr.seen = true
	if !u.Op.IsData() {
		if acct && w.clat {
			w.st.AddSyncLat(uint64(max(0, done-issue)))
		}
		return
	}
	d := stats.Dir(u.Op)
	s := &w.st.Dir[d]
	if u.Result < len(u.Buf) {
		s.ShortIOs++
	}
	bytes := uint64(u.Result)
	if w.info.NoIO {
		bytes = 0 // cpuio moves no data
	}
	s.IOBytes += bytes
	w.blocks[d]++
	if w.vfy != nil {
		if u.Op == engine.OpRead {
			w.verifyRead(u)
		} else {
			w.verifyWritten(u)
		}
	}
	if w.lim != nil && acct {
		w.limitsCompleted(u, d, max(0, done-start), done)
	}
	if !acct || w.info.NoStats {
		return
	}
	switch {
	case w.clat && w.lat:
		w.st.AddClatLat(d, uint64(max(0, done-issue)), uint64(max(0, done-start)), w.clatHist, w.latHist)
	case w.clat:
		w.st.AddClat(d, uint64(max(0, done-issue)), w.clatHist)
	case w.lat:
		w.st.AddLat(d, uint64(max(0, done-start)), w.latHist)
	}
	if w.prioStats {
		p := u.Prio
		if p == 0 {
			p = w.prio
		}
		if w.prioLat {
			w.st.AddPrio(d, p, uint64(max(0, done-start)), w.latHist)
		} else {
			w.st.AddPrio(d, p, uint64(max(0, done-issue)), w.clatHist)
		}
	}
	if w.logs != nil {
		w.logs.Complete(d, uint64(u.Offset), uint32(len(u.Buf)), u.Prio, bytes, start, issue, done, w.epoch)
	}
}

// sample is the I/O loop's periodic hook, called after each completion
// batch with the time it was reaped. Bandwidth and IOPS samples are not
// taken here: the run's stats.Ticker takes them, as fio's helper thread
// does, so they keep their timing while the job waits in a long I/O. The
// loop counts completions with plain adds; every publishCounts this hands
// the counts to the sampler (a few atomic stores) and polls the stop
// channel, so no I/O pays for a lock or an atomic operation.
func (w *worker) sample(now int64) {
	if now < w.smpNext {
		return
	}
	w.smpNext = now + publishCounts
	var bytes [stats.NDirs]uint64
	for d := range bytes {
		bytes[d] = w.st.Dir[d].IOBytes
	}
	w.smp.Publish(bytes, w.blocks)
	w.pollStop(w.stop)
}

// publishCounts is how often the I/O loop hands its completion counts to
// the sampler (ns): the ticker's samples see counts at most this old, less
// than fio's helper thread's own wake-up jitter.
const publishCounts = 1e6

// pollStop notes a closed stop channel; the loops then issue nothing more.
// They poll it when they start and then every publishCounts.
func (w *worker) pollStop(stop <-chan struct{}) {
	w.stop = stop
	if stopped(stop) {
		w.stopping = true
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

// numberIOsDone reports whether the job has issued its number_ios. As
// observed in fio 3.33, the limit is number_ios times loops, over all
// loops: a loop runs on past number_ios I/Os (with the same random
// streams) unless its files are used up first (loops=3 with
// number_ios=20 does 60 I/Os in one loop). A time_based job counts each
// loop's I/Os and runs on.
func (w *worker) numberIOsDone() bool {
	j := w.job
	if j.NumberIOs == 0 {
		return false
	}
	if j.TimeBased {
		return w.ios >= j.NumberIOs
	}
	return w.allIOs >= j.NumberIOs*uint64(max(j.Loops, 1))
}
