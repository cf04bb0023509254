package engine

// nullEngine performs no I/O: every unit completes at once with its full
// length. At iodepth 1 it completes units in Queue; deeper, it queues them
// and hands them all back on the next Reap, like an asynchronous engine.
// Like fio's null engine it refuses new units (Busy) while committed ones
// wait to be reaped, so it never holds more than one batch: fio 3.33
// reports its I/O depth as 1 at any iodepth.
type nullEngine struct {
	async  bool
	queued []*IOUnit
	done   []*IOUnit
}

var (
	_ Engine    = (*nullEngine)(nil)
	_ Committer = (*nullEngine)(nil)
	_ Reaper    = (*nullEngine)(nil)
)

func newNull(cfg Config) (Engine, error) {
	return &nullEngine{
		async:  cfg.IODepth > 1,
		queued: make([]*IOUnit, 0, cfg.IODepth),
		done:   make([]*IOUnit, 0, cfg.IODepth),
	}, nil
}

func (e *nullEngine) Queue(u *IOUnit) Status {
	u.Result, u.Err = len(u.Buf), 0
	if !e.async {
		return Completed
	}
	if len(e.done) > 0 {
		return Busy
	}
	e.queued = append(e.queued, u)
	return Queued
}

// Commit moves the queued units to the completed list.
func (e *nullEngine) Commit() (int, error) {
	n := len(e.queued)
	e.done = append(e.done, e.queued...)
	e.queued = e.queued[:0]
	return n, nil
}

// Reap returns the committed units; min is always met at once.
func (e *nullEngine) Reap(min int, done []*IOUnit) (int, error) {
	n := copy(done, e.done)
	rest := copy(e.done, e.done[n:])
	e.done = e.done[:rest]
	return n, nil
}
