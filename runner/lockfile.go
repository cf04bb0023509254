package runner

import (
	"fmt"
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
// the file alone. Jobs with lockfile=none take no lock at all.

// fileLocks holds the mutex of each locked file, by cleaned path.
var fileLocks sync.Map

// fileLocker is a job's locking state: the mutex per file index, nil
// when the job locks nothing.
type fileLocker struct {
	mode  jobspec.LockMode
	locks []*sync.RWMutex
}

// newFileLocker returns the locker of a job with lockfile mode over
// files, nil for lockfile=none.
func newFileLocker(mode jobspec.LockMode, files []*jobFile) *fileLocker {
	if mode == jobspec.LockNone {
		return nil
	}
	l := &fileLocker{mode: mode, locks: make([]*sync.RWMutex, len(files))}
	for i, f := range files {
		m, _ := fileLocks.LoadOrStore(filepath.Clean(f.path), new(sync.RWMutex))
		l.locks[i] = m.(*sync.RWMutex)
	}
	return l
}

// shared reports whether an I/O of op may share the lock (readwrite
// reads).
func (l *fileLocker) shared(op engine.Op) bool {
	return l.mode == jobspec.LockReadWrite && op == engine.OpRead
}

// lock takes u's file lock before u is issued.
func (l *fileLocker) lock(u *engine.IOUnit) {
	if l.shared(u.Op) {
		l.locks[u.File].RLock()
	} else {
		l.locks[u.File].Lock()
	}
}

// unlock drops u's file lock once u is done.
func (l *fileLocker) unlock(u *engine.IOUnit) {
	if l.shared(u.Op) {
		l.locks[u.File].RUnlock()
	} else {
		l.locks[u.File].Unlock()
	}
}

// newWorkerLocker is the locker of job j, or the error for a lockfile
// gofio cannot honour: with an asynchronous engine, where I/Os of one job
// overlap.
func newWorkerLocker(j *jobspec.Job, files []*jobFile, async bool) (*fileLocker, error) {
	if j.Misc.LockFile != jobspec.LockNone && async {
		return nil, fmt.Errorf("gofio: lockfile with ioengine=%s is not supported yet (files are locked around synchronous I/O only)", j.IOEngine)
	}
	return newFileLocker(j.Misc.LockFile, files), nil
}
