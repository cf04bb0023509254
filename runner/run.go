// Package runner executes gofio's jobs: it lays out their files, runs each
// job on its own locked OS thread through an I/O engine, collects the
// statistics and hands back the result model the output package prints.
package runner

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/runner/content"
	"github.com/gofio/gofio/runner/diskutil"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/flow"
	"github.com/gofio/gofio/runner/gtod"
	"github.com/gofio/gofio/runner/host"
	"github.com/gofio/gofio/runner/trace"
	"github.com/gofio/gofio/runner/zbd"
	"github.com/gofio/gofio/stats"
)

// Config holds what a run needs besides the jobs.
type Config struct {
	// Log receives the progress lines fio prints on stdout in normal mode
	// ("NAME: Laying out IO file (1 file / 16MiB)"); nil prints none.
	Log io.Writer
	// Errors receives error lines (stderr).
	Errors io.Writer
	// Info receives the runtime messages fio prints on its info stream in
	// every output format ("fio: pid=N, err=..." when a job fails during
	// its I/O); nil prints them on Errors.
	Info io.Writer
	// ProcessInfo and ProcessErrors, when set, replace Info and Errors
	// for the lines a job run as a process (thread=0) prints while it
	// runs: its thread setup, exec_prerun/exec_postrun, I/O and verify
	// errors, its "fio: pid=N, err=..." line. fio prints these from the
	// job's own process; with --output=FILE the file never gets them
	// (fio 3.33, observed), while a thread=1 job's lines reach it.
	ProcessInfo, ProcessErrors io.Writer
	// Progress, if set, receives the live view of the run (status line,
	// live reports).
	Progress *Progress
	// Stop, when closed, ends every job early (signals).
	Stop <-chan struct{}
	// ReadOnly refuses every write and trim (--readonly).
	ReadOnly bool
	// AuxPath is --aux-path: the directory of the files fio writes of
	// its own (verify_dump's, the verify state); "" for the working
	// directory.
	AuxPath string
}

// Outcome is what a run produced.
type Outcome struct {
	Result *output.Result
	// Failed is the number of jobs that ended with an error.
	Failed int
	// Errors are the failed jobs' errors, in job order.
	Errors []JobError
}

// JobError is how one job failed: its error number (0 when fio refused
// its files or region) and the function fio names with it
// ("check_min_rate", "max latency exceeded", a verify step).
type JobError struct {
	Job   string
	Errno unix.Errno
	Func  string
}

// task is one job with what the runner prepared for it.
type task struct {
	job   *jobspec.Job
	info  engine.Info
	files []*jobFile
	// trace is the trace a read_iolog job replays, read while planning
	// (planJobFiles) and handed to its worker; nil for other jobs.
	trace *trace.Log
	w     *worker
	// skipped: the run was refused before this job started (a write
	// to a mounted device).
	skipped bool
	// noDir: a directory above one of the job's files could not be
	// created, or fio refused the job's offset or region; as in fio the
	// job is reported with nothing done and error 0, yet counts as
	// failed for the exit status.
	noDir  bool
	err    unix.Errno
	errFn  string
	errMsg string
	// steady is the steady-state outcome (steady.go); nil without
	// steadystate_duration.
	steady *output.SteadyState
	// zbd is the run's zone state under zonemode=zbd (zbd.go); nil
	// otherwise.
	zbd zbd.Files
}

// Run executes the plan's jobs and returns their result.
func Run(plan *jobspec.Plan, cfg Config) (*Outcome, error) {
	if cfg.Errors == nil {
		cfg.Errors = io.Discard
	}
	useCPUClock(plan)
	tasks := make([]*task, len(plan.Jobs))
	for i, j := range plan.Jobs {
		info, err := engine.Lookup(j.IOEngine)
		if err != nil {
			return nil, fmt.Errorf("%w\nfio: failed to load engine", err)
		}
		if info.BitBased && j.UnitBase == 0 {
			// fio reports the net engines' bandwidths in bits unless
			// unit_base says otherwise.
			j.UnitBase = 1
		}
		tasks[i] = &task{job: j, info: info}
	}
	if err := CheckReadOnly(plan, cfg.ReadOnly); err != nil {
		return nil, err
	}

	disks := diskutil.NewTracker()
	laidOut := map[string]uint64{}
	var measured []*task // the tasks whose disks are measured
	for _, t := range tasks {
		if t.info.NoIO {
			// cpuio: no files; one endless region to draw units from.
			t.files = []*jobFile{{size: 1 << 62, fd: -1}}
			continue
		}
		if t.info.Size != nil && t.job.Size == 0 && t.job.FileSize[1] == 0 {
			// The engine's target gives the job its size (nbd's
			// export), as an existing file does.
			size, err := t.info.Size(t.job.EngineOptions)
			if err != nil {
				t.fail(err)
				continue
			}
			j := *t.job
			j.Size = size
			t.job = &j
		}
		files, tl, err := planJobFiles(t.job, cfg.Errors, cfg.ReadOnly)
		for _, f := range files {
			switch {
			case f.ignored:
				fmt.Fprintf(infoOr(cfg), "fio: file %s may be ignored\n", f.path)
			case f.past && t.job.Invalidate && err == nil:
				fmt.Fprintf(infoOr(cfg), "fio: cache invalidation of %s failed: Invalid argument\n", f.path)
			}
		}
		if err == nil && t.info.Check != nil {
			err = t.info.Check(filePaths(files), t.job.EngineOptions)
		}
		if err != nil {
			t.fail(err)
			continue
		}
		t.files, t.trace = files, tl
		if debuglog.On(debuglog.File) {
			for i, f := range files {
				debugFile("add file %s", f.path)
				debugFile("file %p \"%s\" added at %d", f, f.path, i)
			}
		}
	}
	zoned := zbd.Files{}
	for _, t := range tasks {
		if t.err == 0 && len(t.files) > 0 {
			if err := setupZBD(t, zoned, infoOr(cfg)); err != nil {
				t.fail(err)
			}
		}
	}
	if msg := mountedWrites(tasks); msg != "" {
		// fio refuses the whole run before any job starts, and exits 0
		// (fio 3.33); its report lists the jobs with nothing done.
		fmt.Fprintln(cfg.Errors, msg)
		for _, t := range tasks {
			t.skipped = true
		}
	}
	for _, t := range tasks {
		if t.err != 0 || t.skipped || t.info.NoFiles {
			continue
		}
		if debuglog.On(debuglog.Process) {
			debugSetup()
		}
		if t.job.FileAppend {
			// Each job appends where the jobs laid out before it left
			// the file, as in fio.
			if files, err := planFiles(t.job); err == nil {
				t.files = files
			}
		}
		if !t.info.NoLayout && !t.makeDirs() {
			continue
		}
		if !t.info.NoLayout && !t.job.CreateOnOpen && len(t.job.ReadIolog) == 0 {
			if err := layoutFiles(t, laidOut, cfg); err != nil {
				t.fail(err)
				continue
			}
		}
		if !t.info.Diskless && t.job.DiskUtil && len(t.job.ReadIolog) == 0 { // fio has none for replays
			measured = append(measured, t)
		}
	}
	if !stopped(cfg.Stop) { // a signal during the layouts: fio reports no disk
		for _, t := range measured {
			for _, f := range t.files {
				disks.Add(f.path)
			}
		}
	}
	for _, t := range tasks {
		if t.errMsg != "" {
			fmt.Fprintln(cfg.Errors, t.errMsg)
		}
	}

	disks.Start()
	defer gtod.Start(plan, cfg.Errors)()
	samplers, samplersDone := startTicker()
	genesis := time.Now()
	prog := cfg.Progress
	if prog == nil {
		prog = NewProgress(plan)
	}
	ctl := newControl(tasks, prog, cfg)
	defer ctl.close()
	ssm := startSteady(tasks, ctl)
	var fl flow.Groups
	prog.begin(plan, tasks, disks)
	ws := waves(tasks)
	widest := 0
	for _, wave := range ws {
		widest = max(widest, len(wave))
	}
	defer host.RaiseProcs(widest)()
	for _, wave := range ws {
		if !ctl.startable() {
			break // stopped: later jobs never start
		}
		var wg sync.WaitGroup
		// The wave's jobs fill their buffers in their own threads, then
		// start their I/O together, as fio's jobs do once all of them
		// are set up; a job with startdelay starts on its own.
		gate := &sync.WaitGroup{}
		gate.Add(1) // until every job of the wave is counted
		for _, t := range wave {
			if t.err != 0 || t.skipped {
				ctl.end(t)
				continue
			}
			w, err := newWorker(t.job, t.info, t.files, t.trace)
			var qe *engine.QueueInitError
			if errors.As(err, &qe) {
				t.err, t.errFn = qe.Errno(), "io_queue_init"
				ts := newThreadSetup(cfg, t.job, ctl.index[t])
				if qe.Msg != "" {
					fmt.Fprintln(cfg.Errors, qe.Msg)
				}
				where := "file:runner, func=io_queue_init, error=" + errno.Text(qe.Errno())
				if qe.Where != nil {
					where = *qe.Where
				}
				fmt.Fprintf(ts.info, "fio: pid=%d, err=%d/%s\n", os.Getpid(), int(qe.Errno()), where)
				ctl.end(t)
				continue
			}
			if err != nil {
				t.fail(err)
				fmt.Fprintln(cfg.Errors, t.errMsg)
				ctl.end(t)
				continue
			}
			w.zbd = newZBDJob(t.job, t.files, t.zbd)
			if err := w.verifySetup(cfg.AuxPath, jobNumber(plan, t.job)-1); err != nil {
				// As in fio 3.33: no report, exit status 1.
				fmt.Fprintln(cfg.Errors, err)
				w.release()
				t.noDir = true
				continue
			}
			if m := verifyNotice(t.job); m != "" {
				fmt.Fprintln(cfg.Errors, m)
			}
			w.ts = newThreadSetup(cfg, t.job, ctl.index[t])
			w.dbg = debuglog.ForJob(ctl.index[t], t.job.Thread)
			w.bufs.globalPages(t.job, tasks) // dedupe_global (buffers.go)
			engineNotices(t, w)
			t.w = w
			samplers.Add(w.smp)
			ssm.add(t)
			w.flow = fl.Join(t.job)
			w.gen.paceHard = ctl.sig
			ctl.attach(t)
			if t.job.StartDelay == 0 && t.job.WaitFor == "" {
				gate.Add(1)
				w.gate = gate
			}
			if debuglog.On(debuglog.Process) {
				debugCreate(t.job)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer ctl.end(t)
				defer w.flow.Leave()
				if !ctl.wait(t) {
					w.release()
					return
				}
				w.run(ctl.stop(t))
				w.release()
				w.writeLogs(jobNumber(plan, t.job), cfg.Errors)
				ctl.finished(t)
			}()
		}
		gate.Done()
		wg.Wait()
		if debuglog.On(debuglog.Process) {
			debugReaped(wave)
		}
	}
	if debuglog.On(debuglog.Process) {
		debugTerminate(tasks)
	}
	samplersDone()
	ssm.close()
	disks.Stop()

	out := &Outcome{}
	for _, t := range tasks {
		if t.w != nil && t.w.err != 0 && t.err == 0 {
			t.err, t.errFn = t.w.err, t.w.errFunc // printed by ctl.finished
		}
		if t.err != 0 || t.noDir {
			out.Failed++
			out.Errors = append(out.Errors, JobError{Job: t.job.Name, Errno: t.err, Func: t.errFn})
		}
	}
	out.Result = buildResult(plan, tasks, disks, time.Since(genesis))
	notices := cfg.Info
	if notices == nil {
		notices = cfg.Errors
	}
	for _, n := range out.Result.Notices {
		fmt.Fprintln(notices, n)
	}
	return out, nil
}

// startTicker starts the goroutine that takes every job's bandwidth and
// IOPS samples, as fio's helper thread does; done stops it.
func startTicker() (t *stats.Ticker, done func()) {
	t = &stats.Ticker{}
	stop := make(chan struct{})
	finished := make(chan struct{})
	timer := time.NewTimer(time.Hour)
	sleep := func(ns int64) bool {
		timer.Reset(time.Duration(ns))
		select {
		case <-stop:
			return true
		case <-timer.C:
			return false
		}
	}
	go func() {
		defer close(finished)
		t.Run(clock.Now, sleep)
	}()
	return t, func() {
		close(stop)
		<-finished
	}
}

// makeDirs creates the missing directories above the task's files, as
// fio does when the job starts (create_on_open included). It reports
// false, the task skipped, when one cannot be made.
func (t *task) makeDirs() bool {
	for _, f := range t.files {
		if f.blockDev || f.path == "" {
			continue
		}
		if err := host.MakeParents(f.path); err != nil {
			t.errMsg, t.skipped, t.noDir = err.Error(), true, true
			return false
		}
	}
	return true
}

// infoOr is cfg's info stream, or its error stream when it has none.
func infoOr(cfg Config) io.Writer {
	if cfg.Info != nil {
		return cfg.Info
	}
	return cfg.Errors
}

// fail records a setup error of the task.
func (t *task) fail(err error) {
	if se, ok := err.(*setupError); ok && se.unreported {
		t.errMsg, t.skipped, t.noDir = se.Error(), true, true
		return
	}
	if se, ok := err.(*setupError); ok {
		t.err, t.errFn, t.errMsg = se.errno, se.fn, se.Error()
		return
	}
	if ie, ok := err.(*engine.InitError); ok && ie.Errno == 0 {
		// Reported with nothing done and error 0, failed for the exit
		// status (fio 3.33's nbd, sg and io_uring_cmd refusals).
		t.errMsg, t.skipped, t.noDir = ie.Error(), true, true
		return
	}
	if ie, ok := err.(*engine.InitError); ok {
		t.err, t.errFn, t.errMsg = ie.Errno, ie.Fn, ie.Error()
		return
	}
	t.err, t.errFn, t.errMsg = unix.EINVAL, "setup", err.Error()
}

// layoutFiles creates or extends the task's files that are too small,
// printing fio's "Laying out IO file" line for them. Under --readonly
// nothing is written: fio says so for a file too small, and a missing
// one makes the job fail when it opens it.
func layoutFiles(t *task, done map[string]uint64, cfg Config) error {
	log := cfg.Log
	var todo []*jobFile
	var bytes uint64
	if debuglog.On(debuglog.File) {
		debugFile("setup files")
		for i, f := range t.files {
			debugFile("get file size for %p/%d/%s", f, i, f.path)
		}
	}
	for _, f := range t.files {
		// A file shared by jobs is laid out once, unless a later job
		// needs it larger (offset_increment) or finds it still short:
		// fio 3.33 lays out again for each job that finds the file
		// smaller than its size (fallocate=none or keep, whose layout
		// of a written file sets no size; an earlier layout cut short
		// by ENOSPC).
		if done[f.path] >= f.fileSize && done[f.path] > 0 && f.needsLayout() == 0 {
			continue
		}
		done[f.path] = max(done[f.path], f.fileSize)
		if n := f.needsLayout(); n > 0 {
			todo = append(todo, f)
			bytes += n
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if log != nil {
		output.LayingOut(log, t.job.Name, len(todo), bytes)
	}
	if cfg.ReadOnly {
		for _, f := range todo {
			var st unix.Stat_t
			if unix.Stat(f.path, &st) == nil {
				fmt.Fprintln(cfg.Errors, "fio: refusing extend of file due to read-only")
			}
		}
		return nil
	}
	// As in fio, the files are written in chunks of the largest write
	// block, each filled from the job's buffer stream.
	j := t.job
	var lb content.Filler
	seeds, _ := jobSeeds(j)
	lb.Init(j, 0, bufSeeds(&seeds, j.RandomGenerator == jobspec.GenTausworthe64))
	chunk := max(j.MaxBS()[1], 1)
	buf := make([]byte, max(1<<20/chunk, 1)*chunk)
	fill := func(b []byte) uint64 {
		var k uint64
		for off := uint64(0); off < uint64(len(b)); off += chunk {
			k += lb.LayoutFill(b[off:min(off+chunk, uint64(len(b)))])
		}
		return k
	}
	for _, f := range todo {
		if stopped(cfg.Stop) {
			// A signal came: fio still names the layouts of the jobs
			// after it but does none; those jobs never start.
			return nil
		}
		info := cfg.Info
		if info == nil {
			info = cfg.Errors
		}
		before := lb.Draws()
		err := f.layout(t.job, buf, fill, cfg.Stop, info, cfg.Errors)
		f.bufDraws = lb.Draws().Since(before)
		if err != nil {
			if err == errLayoutStopped {
				return nil
			}
			return err
		}
	}
	return nil
}

// waves splits the tasks where a job has stonewall: each wave starts when
// the one before it has finished.
func waves(tasks []*task) [][]*task {
	var out [][]*task
	for i, t := range tasks {
		if i == 0 || t.job.Stonewall {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], t)
	}
	return out
}

// buildResult folds the jobs into reported records (merging groups under
// group_reporting) and fills the result model.
func buildResult(plan *jobspec.Plan, tasks []*task, disks *diskutil.Tracker, elapsed time.Duration) *output.Result {
	r := &output.Result{
		Time:  time.Now(),
		Disks: disks.Disks(),
		// Rounded up: fio's clock also covers starting the jobs, so a
		// 2 s job reports "elapsed" 3, as in fio.
		ElapsedMS: uint64((elapsed + time.Millisecond - 1) / time.Millisecond),
	}
	if plan.GlobalOptions != nil {
		r.GlobalOptions = rawToOutput(plan.GlobalOptions)
	}
	var cur *output.Job
	var curReporting bool
	var kbNoted, unitNoted bool // the group's "differs" notices were given
	for _, t := range tasks {
		j := t.job
		if !j.Stats || (neverStarted(t) && !t.skipped) {
			continue
		}
		var st stats.Job
		depth := 0
		tid := 0
		var ioerr ioErrors
		if t.w != nil {
			st = t.w.st
			tid = t.w.tid
			ioerr = t.w.ioerr
			if t.w.epoch != 0 {
				depth = reportedDepth(t.w, j)
			}
		} else {
			st.Members = 1
		}
		if cur != nil && curReporting && j.GroupReporting && cur.GroupID == j.GroupID {
			cur.Stats.Merge(&st)
			cur.Options = rawToOutput(j.Options)
			if cur.Error == 0 && t.err != 0 {
				cur.Error, cur.ErrorText = int(t.err), errorText(t)
			}
			cur.Depth = max(cur.Depth, depth)
			cur.TotalErrors += ioerr.total
			if cur.FirstError == 0 && ioerr.first != 0 {
				cur.FirstError, cur.FirstErrorText = int(ioerr.first), errno.Text(ioerr.first)
			}
			// fio keeps the first member's units and says so once per
			// group and setting, at most one notice per member, kb_base
			// first; for unit_base it names its internal unit code (4
			// bytes, 5 bits).
			switch {
			case j.KBBase != cur.KBBase && !kbNoted:
				kbNoted = true
				r.Notices = append(r.Notices, fmt.Sprintf("fio: kb_base differs for jobs in group, using %d as the base", cur.KBBase))
			case unitBits(j.UnitBase) != unitBits(cur.UnitBase) && !unitNoted:
				unitNoted = true
				code := 4
				if unitBits(cur.UnitBase) {
					code = 5
				}
				r.Notices = append(r.Notices, fmt.Sprintf("fio: unit_base differs for jobs in group, using %d as the base", code))
			}
			continue
		}
		kbNoted, unitNoted = false, false
		r.Jobs = append(r.Jobs, output.Job{
			Name:                j.Name,
			Description:         j.Description,
			GroupID:             j.GroupID,
			Pid:                 tid,
			Error:               int(max(t.err, t.verifyErr(), ioerr.survived)),
			ErrorText:           survivedText(t, &ioerr, errorText(t)),
			Options:             rawToOutput(j.Options),
			Stats:               st,
			KBBase:              j.KBBase,
			UnitBase:            j.UnitBase,
			SigFigs:             j.SignificantFigures,
			Unified:             j.UnifiedRWReporting,
			Percentiles:         j.PercentileList,
			PercentilePrecision: j.PercentilePrecision,
			// A disabled latency turns its percentiles off, whatever
			// the order of the options (fio does it when it adds the job).
			ClatPercentiles:   j.ClatPercentiles && !j.DisableClat,
			LatPercentiles:    j.LatPercentiles && !j.DisableLat,
			SlatPercentiles:   j.SlatPercentiles && !j.DisableSlat,
			LatencyTarget:     j.LatencyTarget * 1000,
			LatencyWindow:     j.LatencyWindow,
			LatencyPercentile: j.LatencyPercentile,
			Depth:             depth,
			ErrorCheck:        j.ContinueOnError != jobspec.ContinueNone || j.Misc.IgnoreErrorSet,
			BlockLifetime:     j.Misc.BlockErrorPercentiles,
			TotalErrors:       ioerr.total,
			FirstError:        int(ioerr.first),
			FirstErrorText:    errorTextOrSuccess(ioerr.first),
			Steady:            t.steady,
		})
		cur = &r.Jobs[len(r.Jobs)-1]
		curReporting = j.GroupReporting
	}
	seen := map[int]bool{}
	for _, j := range plan.Jobs {
		if seen[j.GroupID] {
			continue
		}
		seen[j.GroupID] = true
		r.Groups = append(r.Groups, output.Group{ID: j.GroupID, KBBase: j.KBBase, UnitBase: j.UnitBase, SigFigs: j.SignificantFigures, Unified: j.UnifiedRWReporting})
	}
	return r
}

// unitBits reports whether a unit_base setting reports bits (1) rather than
// bytes (0 or 8).
func unitBits(unitBase int) bool { return unitBase == 1 }

func errorText(t *task) string {
	if t.err == 0 {
		return ""
	}
	return fmt.Sprintf("file:runner, func=%s, error=%s", t.errFn, errno.Text(t.err))
}

func rawToOutput(in []jobspec.RawOption) []output.Option {
	out := make([]output.Option, len(in))
	for i, o := range in {
		out[i] = output.Option{Name: o.Name, Value: o.Value}
	}
	return out
}

// useCPUClock times the run with the CPU's time stamp counter where it is
// reliable, as fio 3.33 does by default ("cpu is the preferred
// clocksource if it is reliable", HOWTO, clocksource), unless a job asks
// for clocksource=clock_gettime. It is decided once per process, before
// anything is timed (clock.UseTSC).
func useCPUClock(plan *jobspec.Plan) {
	if wantsCPUClock(plan) {
		clock.UseTSC()
	}
}

// wantsCPUClock tells whether plan leaves the clock to gofio: no job sets
// clocksource=clock_gettime.
func wantsCPUClock(plan *jobspec.Plan) bool {
	for _, j := range plan.Jobs {
		if j.Misc.Clock == jobspec.ClockGettime {
			return false
		}
	}
	return true
}
