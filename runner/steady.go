package runner

import (
	"sync"
	"time"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/runner/steady"
	"github.com/gofio/gofio/stats"
)

// steadyMon watches the jobs with steady-state detection (steadystate
// and steadystate_duration): once a second, 900 ms after the start of
// the job and every second after (as fio's helper thread does), it takes each watched unit's
// IOPS and bandwidth over the time since its previous sample (I/Os or
// bytes × 1000 / whole ms) into the unit's rolling window, and when the
// criterion over a full window is below the limit it stops the unit's
// jobs. A unit is a job, or with group_reporting every job of the group
// (their counts summed). Jobs without the options cost nothing: the
// monitor reads the published counters off the I/O path.
type steadyMon struct {
	ctl   *control
	units []*ssUnit
	byJob map[*task]*ssUnit
	mu    sync.Mutex
	stop  chan struct{}
	done  chan struct{}
}

// ssUnit is one window and the jobs that feed it.
type ssUnit struct {
	opt     jobspec.SteadyOptions
	members []*ssMember
	win     *steady.Window
	res     *output.SteadyState

	begun    bool  // a member has run: the first tick set the baseline
	last     int64 // time of the previous sample (ns)
	next     int64 // time the next sample is due (ns)
	collect  int64 // steadystate_ramp_time ends (ns); 0 once past it, or without one
	finished bool  // attained, or every member ended
}

type ssMember struct {
	t            *task
	smp          *stats.Sampler
	start        int64 // when its sampler started (ns)
	bytes, ios   uint64
	ran, stopped bool
}

// startSteady starts the monitor for the tasks that ask for steady-state
// detection; it returns nil, and starts nothing, when none does.
func startSteady(tasks []*task, ctl *control) *steadyMon {
	m := &steadyMon{ctl: ctl, byJob: map[*task]*ssUnit{}}
	groups := map[int]*ssUnit{}
	for _, t := range tasks {
		j := t.job
		if j.Steady.Duration < 1e6 {
			continue // whole seconds: under one is none, as in fio
		}
		u := groups[j.GroupID]
		if u == nil || !j.GroupReporting {
			u = newSSUnit(j.Steady)
			m.units = append(m.units, u)
			if j.GroupReporting {
				groups[j.GroupID] = u
			}
		}
		u.members = append(u.members, &ssMember{t: t})
		m.byJob[t] = u
		t.steady = u.res
	}
	if len(m.units) == 0 {
		return nil
	}
	m.stop, m.done = make(chan struct{}), make(chan struct{})
	go m.loop()
	return m
}

// ssFirst is when the first sample is taken after the job starts: fio's
// helper thread ticks on its own once-a-second grid, which its jobs start
// about 100 ms into, so its first sample covers about 900 ms.
const ssFirst = int64(900 * time.Millisecond)

func newSSUnit(opt jobspec.SteadyOptions) *ssUnit {
	slots := int(opt.Duration / 1e6)
	u := &ssUnit{opt: opt, win: steady.NewWindow(slots)}
	u.res = &output.SteadyState{
		IOPS: opt.IOPS, Slope: opt.Slope, Limit: float32(opt.Limit), Pct: opt.Pct,
		DurationS: uint64(slots),
	}
	u.win.Evaluate(&opt, u.res)
	return u
}

// add gives the monitor t's sampler, once t has its worker.
func (m *steadyMon) add(t *task) {
	if m == nil || m.byJob[t] == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, mb := range m.byJob[t].members {
		if mb.t == t {
			mb.smp = t.w.smp
		}
	}
}

// close stops the monitor; the results stay in the tasks.
func (m *steadyMon) close() {
	if m == nil {
		return
	}
	close(m.stop)
	<-m.done
}

// ssPoll is how often the monitor looks for units whose jobs have not
// started yet.
const ssPoll = 50 * time.Millisecond

func (m *steadyMon) loop() {
	defer close(m.done)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := clock.Now()
		wake := now + int64(ssPoll)
		m.mu.Lock()
		for _, u := range m.units {
			if u.tick(now) {
				m.ctl.stopTasks(u.tasks())
			}
			if u.begun && !u.finished {
				wake = min(wake, u.next)
			}
		}
		m.mu.Unlock()
		timer.Reset(time.Duration(max(wake-clock.Now(), 0)))
		select {
		case <-m.stop:
			return
		case <-timer.C:
		}
	}
}

func (u *ssUnit) tasks() []*task {
	ts := make([]*task, len(u.members))
	for i, mb := range u.members {
		ts[i] = mb.t
	}
	return ts
}

// tick takes the unit's sample if it is due at now; it reports whether
// the unit has just reached steady state.
func (u *ssUnit) tick(now int64) bool {
	if u.finished || (u.begun && now < u.next) {
		return false
	}
	var dBytes, dIOs uint64
	running := false
	for _, mb := range u.members {
		if mb.smp == nil || mb.stopped {
			continue
		}
		bytes, ios, started, run := mb.smp.Totals()
		if !run {
			if mb.ran {
				mb.stopped = true
			}
			continue
		}
		if !mb.ran {
			mb.ran, mb.start = true, started
		}
		running = true
		if bytes < mb.bytes || ios < mb.ios {
			mb.bytes, mb.ios = 0, 0 // restarted when its ramp_time ended
		}
		dBytes += bytes - mb.bytes
		dIOs += ios - mb.ios
		mb.bytes, mb.ios = bytes, ios
	}
	if !running {
		if u.begun {
			u.finished = true
		}
		return false
	}
	if !u.begun {
		// The first tick the job is seen running: what it did since it
		// started counts toward the first sample, as in fio.
		u.begun = true
		u.last = u.startTime(now)
		if u.opt.RampTime > 0 {
			u.collect = u.last + int64(u.opt.RampTime)*1000
		}
		u.next = u.last + ssFirst
		return false
	}
	u.next = max(u.next+int64(time.Second), now+int64(ssPoll))
	if u.collect != 0 {
		// steadystate_ramp_time: the first tick past it only takes the
		// baseline, as in fio (ss_ramp=1: samples at 2.9 s and 3.9 s).
		if now >= u.collect {
			u.collect = 0
		}
		u.last = now
		return false
	}
	ms := uint64(max(now-u.last, 0)) / 1e6
	u.last = now
	if ms == 0 {
		return false
	}
	u.win.Add(dIOs*1000/ms, dBytes*1000/ms)
	if u.win.Evaluate(&u.opt, u.res) {
		u.res.Attained = true
		u.finished = true
		return true
	}
	return false
}

// startTime is when the unit's first running member started measuring.
func (u *ssUnit) startTime(now int64) int64 {
	start := now
	for _, mb := range u.members {
		if mb.ran {
			start = min(start, mb.start)
		}
	}
	return start
}

// stopTasks stops the given jobs, as their runtime ending would.
func (c *control) stopTasks(ts []*task) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range ts {
		c.closeLocked(c.index[t])
	}
}
