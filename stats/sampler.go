package stats

import (
	"sync"
	"sync/atomic"
)

// Sampler takes one job's periodic bandwidth and IOPS samples the way
// fio 3.33's helper thread does (stats-algorithms.md §3.1):
//
//   - samples are taken by a ticker outside the I/O path (Ticker), only
//     while the job runs and is past its ramp time (between Start and
//     Stop);
//   - a sample is due when the whole milliseconds since the previous one
//     reach the interval, with 1 ms of slack (a sample at 499 ms counts);
//   - for each direction the sample is delta×1000/ms (bytes, then int-
//     divided by 1024 for KiB/s; completed I/Os for IOPS), and a
//     direction that moved nothing in the interval gets no sample;
//   - the previous sample time becomes the tick's time (no catch-up), and
//     the final partial interval is never sampled.
//
// The job's worker counts completions with plain adds on its own thread
// and hands the totals over with Publish every millisecond or so (atomic
// stores, no lock), so that no I/O pays for an atomic operation; the
// ticker's samples see counts at most that old. Start, Stop and Tick take
// a mutex.
type Sampler struct {
	bytes, ios [NDirs]atomic.Uint64 // completed since Start, as last published
	started    atomic.Int64         // the time Start was last called (ns)

	mu      sync.Mutex
	running bool
	bw, io  window
	bwAcc   [NDirs]Accum
	iopsAcc [NDirs]Accum
}

// window is one sampled quantity: bandwidth or IOPS.
type window struct {
	every int64 // interval in ns; 0 disables sampling
	last  int64 // time of the previous sample (ns)
	base  [NDirs]uint64
	rec   SampleFunc // nil, or the log the samples also go to
	iops  bool
}

// SampleFunc receives each sample a Sampler takes, for a bw or iops log:
// iops is false for bandwidth (KiB/s), at the tick's time in ns. It is
// called on the ticker's goroutine with the sampler's mutex held.
type SampleFunc func(iops bool, d Dir, at int64, v uint64)

// SetRecorder makes the sampler hand its bandwidth samples (bw) and IOPS
// samples (iops) to f as well; either may be false. Call it before Start.
func (s *Sampler) SetRecorder(f SampleFunc, bw, iops bool) {
	if !bw && !iops {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if bw {
		s.bw.rec = f
	}
	if iops {
		s.io.rec = f
	}
}

// NewSampler returns a sampler for intervals bwAvgMS (bwavgtime) and
// iopsAvgMS (iopsavgtime) in milliseconds; 0 disables one.
func NewSampler(bwAvgMS, iopsAvgMS int) *Sampler {
	s := &Sampler{}
	s.bw.every = int64(bwAvgMS) * 1e6
	s.io.every = int64(iopsAvgMS) * 1e6
	s.io.iops = true
	return s
}

// Publish records the job's successful completions since Start: bytes
// and I/O counts per direction. It is the only method the I/O path calls,
// and it never blocks.
func (s *Sampler) Publish(bytes, ios [NDirs]uint64) {
	for d := range NDirs {
		s.bytes[d].Store(bytes[d])
		s.ios[d].Store(ios[d])
	}
}

// Start begins (or, at the end of the ramp time, restarts) sampling at
// now: previous samples are dropped, now becomes the time of the previous
// sample, and the counts start again from zero (Publish counts from
// here).
func (s *Sampler) Start(now int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running = true
	s.started.Store(now)
	s.bwAcc, s.iopsAcc = [NDirs]Accum{}, [NDirs]Accum{}
	s.bw.last, s.io.last = now, now
	s.bw.base, s.io.base = [NDirs]uint64{}, [NDirs]uint64{}
	for d := range NDirs {
		s.bytes[d].Store(0)
		s.ios[d].Store(0)
	}
}

// Stop ends sampling: the job has left the running state.
func (s *Sampler) Stop() {
	s.mu.Lock()
	s.running = false
	s.mu.Unlock()
}

// Tick takes the samples that are due at now and returns the time the
// next one is due (0 when the sampler is stopped or has no interval).
func (s *Sampler) Tick(now int64) (next int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running {
		return 0
	}
	next = s.bw.tick(now, &s.bytes, &s.bwAcc, 1024)
	if n := s.io.tick(now, &s.ios, &s.iopsAcc, 1); n != 0 && (next == 0 || n < next) {
		next = n
	}
	return next
}

// tick takes w's sample if it is due; div is 1024 for KiB/s, 1 for IOPS.
// It returns the time the next sample is due.
func (w *window) tick(now int64, count *[NDirs]atomic.Uint64, acc *[NDirs]Accum, div uint64) int64 {
	if w.every <= 0 {
		return 0
	}
	spent := uint64(max(now-w.last, 0)) / 1e6
	every := uint64(w.every / 1e6)
	if spent < every && every-spent > 1 {
		return w.last + w.every
	}
	if spent == 0 {
		// An interval under 2 ms: nothing measurable yet.
		return now + 1e6
	}
	for d := range NDirs {
		c := count[d].Load()
		if c > w.base[d] {
			v := (c - w.base[d]) * 1000 / spent / div
			acc[d].Add(v)
			if w.rec != nil {
				w.rec(w.iops, Dir(d), now, v)
			}
		}
		w.base[d] = c
	}
	w.last = now
	return now + w.every
}

// Results returns the bandwidth (KiB/s) and IOPS sample statistics per
// direction. Call it after Stop.
func (s *Sampler) Results() (bw, iops [NDirs]Accum) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bwAcc, s.iopsAcc
}

// tickEvery is how often the ticker wakes at the least, as fio's helper
// thread does.
const tickEvery = 250e6 // ns

// Ticker drives samplers the way fio's helper thread does: it wakes every
// 250 ms and also exactly when a sample is due, and ticks every sampler
// added to it.
type Ticker struct {
	mu   sync.Mutex
	list []*Sampler
}

// Add registers s; it is ticked from the next wake-up on.
func (t *Ticker) Add(s *Sampler) {
	t.mu.Lock()
	t.list = append(t.list, s)
	t.mu.Unlock()
}

// Run ticks the samplers until stop is closed. clock returns the time in
// ns on the clock the samplers were started with; sleep waits for a
// duration in ns or until stop is closed, and reports whether stop was
// closed.
func (t *Ticker) Run(clock func() int64, sleep func(ns int64) bool) {
	for {
		now := clock()
		next := now + tickEvery
		t.mu.Lock()
		list := t.list
		t.mu.Unlock()
		for _, s := range list {
			if n := s.Tick(now); n != 0 && n < next {
				next = n
			}
		}
		if sleep(max(next-clock(), 0)) {
			return
		}
	}
}
