package runner

import (
	"runtime"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/stats"
)

// io_submit_mode=offload: the job's thread prepares each I/O and hands
// it to a submission thread of its own, which issues it to the engine
// and waits for it to complete. As observed in fio 3.33, an offloaded job
// reports a depth of 1 whatever its iodepth, its I/Os' latency (lat)
// runs from the hand-off, their completion latency (clat) from the
// engine's call; with an asynchronous engine the time until the I/O is
// submitted is its submission latency (slat), the time to its completion
// its clat.

// offloadDone is what the submission thread reports for one I/O: when it
// was issued to the engine, submitted (asynchronous engines), done, and
// the failed system call, if any.
type offloadDone struct {
	issue, submitted, done int64
	err                    error
	fn                     string
}

// offloader is a job's submission thread.
type offloader struct {
	w    *worker
	in   chan *engine.IOUnit
	out  chan offloadDone
	reap []*engine.IOUnit
}

// newOffloader starts w's submission thread; close ends it.
func newOffloader(w *worker) *offloader {
	o := &offloader{w: w, in: make(chan *engine.IOUnit), out: make(chan offloadDone), reap: make([]*engine.IOUnit, 1)}
	go o.serve()
	return o
}

func (o *offloader) close() { close(o.in) }

// serve issues each unit it is handed and reports when it is done. The
// job's thread waits meanwhile, so the worker's state is the thread's
// alone while it runs.
func (o *offloader) serve() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w := o.w
	for u := range o.in {
		var r offloadDone
		r.issue = w.stamp()
		switch w.queue(u) {
		case engine.Completed:
		case engine.Busy:
			r.err, r.fn = unix.EBUSY, "io_u queue"
		default:
			if w.committer != nil {
				if _, err := w.committer.Commit(); err != nil {
					r.err, r.fn = err, "io_submit"
					break
				}
			}
			r.submitted = w.stamp()
			if _, err := w.reaper.Reap(1, o.reap); err != nil {
				r.err, r.fn = err, "io_getevents"
			}
		}
		r.done = w.stamp()
		o.out <- r
	}
}

// do hands u to the submission thread and waits until it is done.
func (o *offloader) do(u *engine.IOUnit) offloadDone {
	o.in <- u
	return <-o.out
}

// offloadLoop is syncLoop for io_submit_mode=offload: one I/O at a time,
// each issued by the job's submission thread.
func (w *worker) offloadLoop(stop <-chan struct{}) {
	o := newOffloader(w)
	defer o.close()
	u := w.units[0]
	w.pollStop(stop)
	now := w.stamp()
	for w.next(u, now) {
		if w.locker != nil {
			w.locker.Lock(u)
		}
		start := w.stamp()
		r := o.do(u)
		now = r.done
		if w.locker != nil {
			w.locker.Unlock(u)
		}
		if r.err != nil {
			w.fail(errno.Of(r.err), r.fn)
			return
		}
		w.countIssued(u)
		w.st.AddSubmit(1)
		w.st.AddComplete(1)
		w.st.AddDepth(1, 1)
		issue := r.issue
		if r.submitted != 0 {
			// An asynchronous engine: the I/O started when submitted.
			issue = r.submitted
			if w.slat && u.Op.IsData() && w.rampOver(issue) {
				slat := uint64(max(0, issue-start))
				w.st.AddSlat(stats.Dir(u.Op), slat, w.slatHist)
				if w.logs != nil {
					w.logs.Submitted(stats.Dir(u.Op), slat, uint64(u.Offset), uint32(len(u.Buf)), u.Prio, issue, w.epoch)
				}
			}
		}
		w.complete(u, start, issue, now, w.accounting())
		w.rampOver(now)
		w.batchDone(now)
		w.thinkAfter(1, false, now)
		if w.think() {
			now = w.stamp()
		}
	}
}
