// Package lockfile serializes the I/O of jobs sharing a file (fio's
// lockfile option).
package lockfile

import (
	"path/filepath"
	"sync"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// lockfile serializes the I/O of jobs sharing a file. fio takes the lock
// when a job picks the file for an I/O and drops it when the I/O is done;
// gofio's jobs are threads of one process, so the locks are in-process:
// one read-write mutex per file path, shared by every job of the run.
// exclusive takes it for writing for every I/O (one I/O at a time, any
// job); readwrite lets reads share it and gives writes, trims and syncs
// the file alone. Jobs with lockfile=none take no lock at all. An
// asynchronous job holds a lock while it has I/Os of the file queued or
// in flight (Locker).

// fileLocks holds the mutex of each locked file, by cleaned path.
var fileLocks sync.Map

// Locker is a job's locking state: the mutex per file index, nil
// when the job locks nothing. A job with an asynchronous engine holds a
// file's lock while it has I/Os of that file queued or in flight (held
// and count, per file index): its I/Os share the lock the first of them
// took, and the lock is dropped when the last of them completes, so other
// jobs take turns with it between bursts, as with synchronous I/O.
type Locker struct {
	mode  jobspec.LockMode
	locks []*sync.RWMutex
	held  []holdMode
	count []int
}

// holdMode is how a job holds a file's lock.
type holdMode uint8

const (
	holdNone holdMode = iota
	holdShared
	holdExclusive
)

// New returns the locker of a job with lockfile mode over
// files, nil for lockfile=none.
func New(mode jobspec.LockMode, paths []string) *Locker {
	if mode == jobspec.LockNone {
		return nil
	}
	l := &Locker{mode: mode, locks: make([]*sync.RWMutex, len(paths)),
		held: make([]holdMode, len(paths)), count: make([]int, len(paths))}
	for i, p := range paths {
		m, _ := fileLocks.LoadOrStore(filepath.Clean(p), new(sync.RWMutex))
		l.locks[i] = m.(*sync.RWMutex)
	}
	return l
}

// shared reports whether an I/O of op may share the lock (readwrite
// reads).
func (l *Locker) shared(op engine.Op) bool {
	return l.mode == jobspec.LockReadWrite && op == engine.OpRead
}

// Lock takes u's file lock before u is issued, waiting for it.
func (l *Locker) Lock(u *engine.IOUnit) {
	if l.shared(u.Op) {
		l.locks[u.File].RLock()
		l.held[u.File] = holdShared
	} else {
		l.locks[u.File].Lock()
		l.held[u.File] = holdExclusive
	}
	l.count[u.File]++
}

// TryLock counts u under its file's lock if the job holds the lock in a
// mode that covers u, or takes it if it is free. It reports false, having
// done nothing, when u has to wait: the job then completes what it has
// in flight (dropping its locks) before it waits in Lock.
func (l *Locker) TryLock(u *engine.IOUnit) bool {
	f, sh := u.File, l.shared(u.Op)
	switch l.held[f] {
	case holdExclusive:
	case holdShared:
		if !sh {
			return false
		}
	default:
		if sh {
			if !l.locks[f].TryRLock() {
				return false
			}
			l.held[f] = holdShared
		} else {
			if !l.locks[f].TryLock() {
				return false
			}
			l.held[f] = holdExclusive
		}
	}
	l.count[f]++
	return true
}

// Unlock uncounts u once it is done (or was refused), dropping the lock
// with the file's last I/O.
func (l *Locker) Unlock(u *engine.IOUnit) {
	f := u.File
	if l.count[f] == 0 {
		return
	}
	if l.count[f]--; l.count[f] > 0 {
		return
	}
	l.release(f)
}

func (l *Locker) release(f int) {
	switch l.held[f] {
	case holdShared:
		l.locks[f].RUnlock()
	case holdExclusive:
		l.locks[f].Unlock()
	}
	l.held[f], l.count[f] = holdNone, 0
}

// ReleaseAll drops every lock the job still holds (units left queued
// when the job failed); it does nothing on a nil locker.
func (l *Locker) ReleaseAll() {
	if l == nil {
		return
	}
	for f := range l.held {
		l.release(f)
	}
}
