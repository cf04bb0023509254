package engine

// The posixaio engine gives fio's POSIX AIO semantics without the C
// library: a unit is queued, started (Commit), and reaped later, while the
// job keeps up to iodepth units in flight. glibc implements aio_read(3)
// and aio_write(3) with a pool of helper threads (at most 20 by default)
// doing pread(2)/pwrite(2); gofio does the same with a pool of goroutines
// per job, one per unit of iodepth up to posixaioThreads. Requests reach
// the pool through a buffered channel and come back through another, so
// nothing is allocated per I/O.
//
// Trims (BLKDISCARD) and syncs are done in Queue and complete at once, as
// fio does for this engine's trims.

import (
	"sync"

	"github.com/gofio/gofio/internal/errno"
	"golang.org/x/sys/unix"
)

// posixaioThreads caps a job's helper goroutines, as glibc's aio_threads
// default caps its helper threads.
const posixaioThreads = 20

type posixaioEngine struct {
	pending []*IOUnit    // queued, not yet started
	reqs    chan *IOUnit // to the helpers
	done    chan *IOUnit // from the helpers
	wg      sync.WaitGroup
	flight  int // started, not yet reaped
	closed  bool
}

var (
	_ Engine    = (*posixaioEngine)(nil)
	_ Committer = (*posixaioEngine)(nil)
	_ Reaper    = (*posixaioEngine)(nil)
)

func newPosixaio(cfg Config) (Engine, error) {
	depth := max(cfg.IODepth, 1)
	e := &posixaioEngine{
		pending: make([]*IOUnit, 0, depth),
		reqs:    make(chan *IOUnit, depth),
		done:    make(chan *IOUnit, depth),
	}
	for range min(depth, posixaioThreads) {
		e.wg.Add(1)
		go e.helper()
	}
	return e, nil
}

// helper performs the units it receives until the engine closes.
func (e *posixaioEngine) helper() {
	defer e.wg.Done()
	for u := range e.reqs {
		var n int
		var err error
		if u.Op == OpWrite {
			n, err = unix.Pwrite(u.FD, u.Buf, u.Offset)
		} else {
			n, err = unix.Pread(u.FD, u.Buf, u.Offset)
		}
		u.Result, u.Err = max(n, 0), errno.Of(err)
		e.done <- u
	}
}

// Queue holds a read or write until Commit; trims and syncs complete now.
func (e *posixaioEngine) Queue(u *IOUnit) Status {
	switch u.Op {
	case OpTrim:
		asyncTrim(u)
		return Completed
	case OpFsync, OpFdatasync:
		asyncSync(u)
		return Completed
	}
	if len(e.pending) == cap(e.pending) {
		return Busy
	}
	u.Result, u.Err = 0, 0
	e.pending = append(e.pending, u)
	return Queued
}

// Commit hands the queued units to the helpers, in queue order.
func (e *posixaioEngine) Commit() (int, error) {
	n := len(e.pending)
	for _, u := range e.pending {
		e.reqs <- u
	}
	e.flight += n
	clear(e.pending)
	e.pending = e.pending[:0]
	return n, nil
}

// Reap waits for at least atLeast completions (capped at len(done) and
// at the units in flight) and returns up to len(done).
func (e *posixaioEngine) Reap(atLeast int, done []*IOUnit) (int, error) {
	atLeast = min(atLeast, len(done), e.flight)
	n := 0
	for n < len(done) {
		if n < atLeast {
			done[n] = <-e.done
			n++
			continue
		}
		select {
		case u := <-e.done:
			done[n] = u
			n++
			continue
		default:
		}
		break
	}
	e.flight -= n
	return n, nil
}

// Close stops the helpers once the units they hold are done.
func (e *posixaioEngine) Close() error {
	if !e.closed {
		e.closed = true
		close(e.reqs)
		e.wg.Wait()
	}
	return nil
}
