// Package runner executes gofio's jobs: it lays out their files, runs each
// job on its own locked OS thread through an I/O engine, collects the
// statistics and hands back the result model the output package prints.
package runner

import (
	"fmt"
	"io"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// Config holds what a run needs besides the jobs.
type Config struct {
	// Log receives the progress lines fio prints on stdout in normal mode
	// ("NAME: Laying out IO file (1 file / 16MiB)"); nil prints none.
	Log io.Writer
	// Errors receives error lines (stderr).
	Errors io.Writer
	// Stop, when closed, ends every job early (signals).
	Stop <-chan struct{}
	// ReadOnly refuses every write and trim (--readonly).
	ReadOnly bool
}

// Outcome is what a run produced.
type Outcome struct {
	Result *output.Result
	// Failed is the number of jobs that ended with an error.
	Failed int
}

// task is one job with what the runner prepared for it.
type task struct {
	job    *jobspec.Job
	info   EngineInfo
	files  []*jobFile
	w      *worker
	err    unix.Errno
	errFn  string
	errMsg string
}

// Run executes the plan's jobs and returns their result.
func Run(plan *jobspec.Plan, cfg Config) (*Outcome, error) {
	if cfg.Errors == nil {
		cfg.Errors = io.Discard
	}
	tasks := make([]*task, len(plan.Jobs))
	for i, j := range plan.Jobs {
		info, err := LookupEngine(j.IOEngine)
		if err != nil {
			return nil, fmt.Errorf("%w\nfio: failed to load engine", err)
		}
		if cfg.ReadOnly && (j.RW.Writes() || j.RW.Trims()) {
			return nil, fmt.Errorf("fio: job <%s> has write bit set, but fio is in read-only mode", j.Name)
		}
		if j.RW.Trims() {
			return nil, fmt.Errorf("gofio: rw=%s is not supported yet", j.RW)
		}
		tasks[i] = &task{job: j, info: info}
	}

	disks := NewDiskTracker()
	laidOut := map[string]bool{}
	for _, t := range tasks {
		files, err := planFiles(t.job)
		if err != nil {
			t.fail(err)
			continue
		}
		t.files = files
		if t.info.NoFiles {
			continue
		}
		if err := layoutFiles(t, laidOut, cfg.Log); err != nil {
			t.fail(err)
			continue
		}
		for _, f := range files {
			disks.Add(f.path)
		}
	}
	for _, t := range tasks {
		if t.errMsg != "" {
			fmt.Fprintln(cfg.Errors, t.errMsg)
		}
	}

	disks.Start()
	genesis := time.Now()
	for _, wave := range waves(tasks) {
		var wg sync.WaitGroup
		for _, t := range wave {
			if t.err != 0 {
				continue
			}
			w, err := newWorker(t.job, t.info, t.files)
			if err != nil {
				t.fail(err)
				fmt.Fprintln(cfg.Errors, t.errMsg)
				continue
			}
			t.w = w
			wg.Add(1)
			go func() {
				defer wg.Done()
				if d := t.job.StartDelay; d > 0 {
					select {
					case <-time.After(time.Duration(d) * time.Microsecond):
					case <-cfg.Stop:
						return
					}
				}
				w.run(cfg.Stop)
				w.release()
			}()
		}
		wg.Wait()
	}
	disks.Stop()

	out := &Outcome{}
	for _, t := range tasks {
		if t.w != nil && t.w.err != 0 && t.err == 0 {
			t.err, t.errFn = t.w.err, t.w.errFunc
			fmt.Fprintf(cfg.Errors, "fio: pid=%d, err=%d/file:runner, func=%s, error=%s\n", t.w.tid, int(t.err), t.errFn, errText(t.err))
		}
		if t.err != 0 {
			out.Failed++
		}
	}
	out.Result = buildResult(plan, tasks, disks, time.Since(genesis))
	return out, nil
}

// fail records a setup error of the task.
func (t *task) fail(err error) {
	if se, ok := err.(*setupError); ok {
		t.err, t.errFn, t.errMsg = se.errno, se.fn, se.Error()
		return
	}
	t.err, t.errFn, t.errMsg = unix.EINVAL, "setup", err.Error()
}

// layoutFiles creates or extends the task's files that are too small,
// printing fio's "Laying out IO file" line for them.
func layoutFiles(t *task, done map[string]bool, log io.Writer) error {
	var todo []*jobFile
	var bytes uint64
	for _, f := range t.files {
		if done[f.path] {
			continue
		}
		done[f.path] = true
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
	buf := make([]byte, 1<<20)
	fillRandom(buf, t.job.RandSeed)
	for _, f := range todo {
		if err := f.layout(t.job.RW.Reads(), buf); err != nil {
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
func buildResult(plan *jobspec.Plan, tasks []*task, disks *DiskTracker, elapsed time.Duration) *output.Result {
	r := &output.Result{
		Time:      time.Now(),
		Disks:     disks.Disks(),
		ElapsedMS: uint64(elapsed.Milliseconds()),
	}
	if plan.GlobalOptions != nil {
		r.GlobalOptions = rawToOutput(plan.GlobalOptions)
	}
	var cur *output.Job
	var curReporting bool
	for _, t := range tasks {
		j := t.job
		if !j.Stats {
			continue
		}
		var st stats.Job
		depth := 0
		tid := 0
		if t.w != nil {
			st = t.w.st
			tid = t.w.tid
			if t.w.epoch != 0 {
				depth = j.IODepth
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
			continue
		}
		r.Jobs = append(r.Jobs, output.Job{
			Name:                j.Name,
			Description:         j.Description,
			GroupID:             j.GroupID,
			Pid:                 tid,
			Error:               int(t.err),
			ErrorText:           errorText(t),
			Options:             rawToOutput(j.Options),
			Stats:               st,
			KBBase:              j.KBBase,
			UnitBase:            j.UnitBase,
			SigFigs:             j.SignificantFigures,
			Unified:             j.UnifiedRWReporting,
			Percentiles:         j.PercentileList,
			PercentilePrecision: j.PercentilePrecision,
			ClatPercentiles:     j.ClatPercentiles,
			LatPercentiles:      j.LatPercentiles,
			SlatPercentiles:     j.SlatPercentiles,
			LatencyPercentile:   100,
			Depth:               depth,
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

func errorText(t *task) string {
	if t.err == 0 {
		return ""
	}
	return fmt.Sprintf("file:runner, func=%s, error=%s", t.errFn, errText(t.err))
}

func rawToOutput(in []jobspec.RawOption) []output.Option {
	out := make([]output.Option, len(in))
	for i, o := range in {
		out[i] = output.Option{Name: o.Name, Value: o.Value}
	}
	return out
}
