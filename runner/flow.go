package runner

import (
	"sync"
	"sync/atomic"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
)

// flows are the run's flow groups (flow_id), made as the jobs start.
// Jobs run as threads of one process, so a group is shared memory with
// atomic counters; only jobs with a non-zero flow touch it.
type flows struct {
	mu     sync.Mutex
	groups map[int]*flowGroup
}

// flowGroup is one flow_id: the I/Os its jobs have issued and the sum of
// the weights of the jobs running in it.
type flowGroup struct {
	issued atomic.Uint64
	weight atomic.Uint32
}

// flowState is one job's place in its flow group.
type flowState struct {
	g       *flowGroup
	weight  uint32
	issued  uint64 // this job's I/Os, counted on its own thread
	sleepNS int64
	joined  bool // its weight is in the group's
}

// of returns j's flow state, or nil when j has no flow weight. The job
// joins its group at once: the jobs of a wave all join before any of
// them starts its I/O, as fio's jobs do, so that none runs unchecked
// while another is still starting.
func (fs *flows) of(j *jobspec.Job) *flowState {
	if j.Flow.Weight == 0 {
		return nil
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.groups == nil {
		fs.groups = map[int]*flowGroup{}
	}
	g := fs.groups[j.Flow.ID]
	if g == nil {
		g = &flowGroup{}
		fs.groups[j.Flow.ID] = g
	}
	// fio keeps the weight in an unsigned 32-bit field: a negative flow
	// wraps, and so does the group's sum. Doing the same reproduces what
	// fio 3.33 does with them (flow=-2 next to flow=1 starves the
	// second job; flow=2 next to flow=-1 holds neither back).
	f := &flowState{g: g, weight: uint32(int32(j.Flow.Weight)), sleepNS: int64(j.Flow.SleepUS) * 1000, joined: true}
	g.weight.Add(f.weight)
	return f
}

// flowPollNS is how long a job held back by flow with flow_sleep=0
// sleeps before it looks again.
const flowPollNS = 20_000

// flowWait holds the job back while it is ahead of its share of the
// group's I/Os (its I/Os over the group's, against its weight over the
// group's), sleeping flow_sleep (or flowPollNS) between looks, and
// then counts the I/O it may issue. It returns false when the job is
// stopped or its runtime ends while it waits.
func (w *worker) flowWait() bool {
	f := w.flow
	for !f.allowed() {
		if f.sleepNS > 0 {
			clock.Sleep(f.sleepNS)
		} else {
			// flow_sleep=0: fio 3.33's job looks again at once. A
			// thread of gofio shares its process's CPU share with the
			// job it waits for (fio's jobs are processes, each in a
			// scheduling group of its own), so spinning, or yielding
			// to every other task for a time slice, starved that job on
			// a busy machine: fio's t0011 (flow=1 with rate_iops=1000
			// beside flow=8) did 30-700 IOPS under load where fio did
			// 1000. A short sleep leaves the CPU to the other job.
			clock.Sleep(flowPollNS)
		}
		if stopped(w.stop) {
			w.stopping = true
			return false
		}
		if now := clock.Now(); w.deadline != 0 && now >= w.deadline {
			w.stopping = true
			return false
		}
	}
	f.issued++
	f.g.issued.Add(1)
	return true
}

// allowed reports whether the job's share of the group's I/Os is within
// its share of the group's weight. A group sum of zero (weights that
// wrapped to it) holds nobody back.
func (f *flowState) allowed() bool {
	total := f.g.issued.Load()
	if total == 0 {
		return true
	}
	return float64(f.issued)/float64(total) <= float64(f.weight)/float64(f.g.weight.Load())
}

// leave takes the job's weight out of its group when it ends, so that
// the jobs still running are no longer held to its share.
func (f *flowState) leave() {
	if f != nil && f.joined {
		f.joined = false
		f.g.weight.Add(-f.weight)
	}
}
