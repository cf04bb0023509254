package runner

// The worker's hooks into its statistics logs (write_bw_log,
// write_iops_log, write_lat_log, write_hist_log), which runner/statlog
// keeps and writes.

import (
	"io"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/statlog"
	"github.com/gofio/gofio/stats"
)

// newSampler returns the job's bw/iops sampler, with its samples going
// to the windowed bw and iops logs, and makes the job's logs.
func (w *worker) newSampler() *stats.Sampler {
	j := w.job
	w.logs = statlog.New(j, ioprio(j), clock.Now())
	bw, iops := statlog.Intervals(j)
	s := stats.NewSampler(bw, iops)
	if l := w.logs; l != nil {
		l.Attach(s, bw, iops)
	}
	return s
}

// jobNumber returns j's number in the plan, counting from 1.
func jobNumber(plan *jobspec.Plan, j *jobspec.Job) int {
	for i, p := range plan.Jobs {
		if p == j {
			return i + 1
		}
	}
	return 1
}

// writeLogs ends worker w's logs and writes them, num being the job's
// number in the run; failures are reported on errs, as fio does, and do
// not fail the job.
func (w *worker) writeLogs(num int, errs io.Writer) {
	l := w.logs
	if l == nil {
		return
	}
	l.End(&w.st, w.epoch+int64(w.st.RuntimeMS)*1e6)
	l.Write(num, w.epoch, errs)
}

// ioprio returns job j's I/O priority as ioprio_set takes it: prioclass
// (best effort when only prio is given) in the top bits, prio below.
func ioprio(j *jobspec.Job) uint16 {
	class, level := 0, 0
	if j.PrioSet && j.Prio >= 0 {
		class, level = 2, j.Prio
	}
	if j.PrioClassSet && j.PrioClass >= 0 {
		class = j.PrioClass
	}
	return uint16(class<<13 | level)
}
