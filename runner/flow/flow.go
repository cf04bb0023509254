// Package flow is fio's flow groups (flow_id, flow, flow_sleep): jobs
// that share a group issue their I/Os in the ratio of their weights.
package flow

import (
	"sync"
	"sync/atomic"

	"github.com/gofio/gofio/jobspec"
)

// Groups are the run's flow groups (flow_id), made as the jobs start.
// Jobs run as threads of one process, so a group is shared memory with
// atomic counters; only jobs with a non-zero flow touch it.
type Groups struct {
	mu     sync.Mutex
	groups map[int]*group
}

// group is one flow_id: the I/Os its jobs have issued and the sum of
// the weights of the jobs running in it.
type group struct {
	issued atomic.Uint64
	weight atomic.Uint32
}

// State is one job's place in its flow group.
type State struct {
	g       *group
	weight  uint32
	issued  uint64 // this job's I/Os, counted on its own thread
	sleepNS int64
	joined  bool // its weight is in the group's
}

// Join returns j's flow state, or nil when j has no flow weight. The job
// joins its group at once: the jobs of a wave all join before any of
// them starts its I/O, as fio's jobs do, so that none runs unchecked
// while another is still starting.
func (fs *Groups) Join(j *jobspec.Job) *State {
	if j.Flow.Weight == 0 {
		return nil
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.groups == nil {
		fs.groups = map[int]*group{}
	}
	g := fs.groups[j.Flow.ID]
	if g == nil {
		g = &group{}
		fs.groups[j.Flow.ID] = g
	}
	// fio keeps the weight in an unsigned 32-bit field: a negative flow
	// wraps, and so does the group's sum. Doing the same reproduces what
	// fio 3.33 does with them (flow=-2 next to flow=1 starves the
	// second job; flow=2 next to flow=-1 holds neither back).
	f := &State{g: g, weight: uint32(int32(j.Flow.Weight)), sleepNS: int64(j.Flow.SleepUS) * 1000, joined: true}
	g.weight.Add(f.weight)
	return f
}

// Allowed reports whether the job's share of the group's I/Os is within
// its share of the group's weight. A group sum of zero (weights that
// wrapped to it) holds nobody back.
func (f *State) Allowed() bool {
	total := f.g.issued.Load()
	if total == 0 {
		return true
	}
	return float64(f.issued)/float64(total) <= float64(f.weight)/float64(f.g.weight.Load())
}

// Leave takes the job's weight out of its group when it ends, so that
// the jobs still running are no longer held to its share.
func (f *State) Leave() {
	if f != nil && f.joined {
		f.joined = false
		f.g.weight.Add(-f.weight)
	}
}

// SleepNS is flow_sleep in nanoseconds.
func (f *State) SleepNS() int64 { return f.sleepNS }

// Count counts an I/O the job issues.
func (f *State) Count() {
	f.issued++
	f.g.issued.Add(1)
}
