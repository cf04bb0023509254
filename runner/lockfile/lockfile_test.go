package lockfile

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// TestFileLockerAsync checks the locking of asynchronous jobs: a job's
// I/Os share the lock its first one took while any is in flight, another
// job's tryLock is refused meanwhile, and the last completion drops it.
func TestFileLockerAsync(t *testing.T) {
	files := []string{filepath.Join(t.TempDir(), "lockasync")}
	rd, wr := &engine.IOUnit{Op: engine.OpRead}, &engine.IOUnit{Op: engine.OpWrite}
	tests := []struct {
		mode jobspec.LockMode
		a    []*engine.IOUnit // the first job's I/Os, in flight together
		b    *engine.IOUnit   // the other job's
		want []bool           // tryLock of each of a, then of b
	}{
		{jobspec.LockExclusive, []*engine.IOUnit{wr, rd, wr}, rd, []bool{true, true, true, false}},
		{jobspec.LockReadWrite, []*engine.IOUnit{rd, rd}, rd, []bool{true, true, true}},
		{jobspec.LockReadWrite, []*engine.IOUnit{rd, rd}, wr, []bool{true, true, false}},
		{jobspec.LockReadWrite, []*engine.IOUnit{wr, rd}, rd, []bool{true, true, false}},
		// A job holding the lock shared waits for its reads before it writes.
		{jobspec.LockReadWrite, []*engine.IOUnit{rd, wr}, rd, []bool{true, false, true}},
	}
	for i, tt := range tests {
		a, b := New(tt.mode, files), New(tt.mode, files)
		var got []bool
		var took []*engine.IOUnit
		for _, u := range tt.a {
			ok := a.TryLock(u)
			got = append(got, ok)
			if ok {
				took = append(took, u)
			}
		}
		ok := b.TryLock(tt.b)
		got = append(got, ok)
		if ok {
			b.Unlock(tt.b)
		}
		for k := range got {
			if k >= len(tt.want) || got[k] != tt.want[k] {
				t.Fatalf("case %d: tryLock results %v, want %v", i, got, tt.want)
			}
		}
		// The lock stays with the first job until its last I/O is done.
		for k, u := range took {
			if !tt.want[len(tt.want)-1] && b.TryLock(tt.b) {
				t.Errorf("case %d: the other job got the lock with %d I/Os in flight", i, len(took)-k)
				b.Unlock(tt.b)
			}
			a.Unlock(u)
		}
		if !b.TryLock(tt.b) {
			t.Errorf("case %d: the lock is still held after the last completion", i)
		} else {
			b.Unlock(tt.b)
		}
		a.ReleaseAll()
		b.ReleaseAll()
	}
}

func TestFileLocker(t *testing.T) {
	files := []string{filepath.Join(t.TempDir(), "shared")}
	tests := []struct {
		mode   jobspec.LockMode
		first  engine.Op
		second engine.Op
		shares bool // the second I/O proceeds while the first holds the lock
	}{
		{jobspec.LockReadWrite, engine.OpRead, engine.OpRead, true},
		{jobspec.LockReadWrite, engine.OpRead, engine.OpWrite, false},
		{jobspec.LockReadWrite, engine.OpWrite, engine.OpRead, false},
		{jobspec.LockExclusive, engine.OpRead, engine.OpRead, false},
	}
	for _, tt := range tests {
		a, b := New(tt.mode, files), New(tt.mode, files)
		ua, ub := &engine.IOUnit{Op: tt.first}, &engine.IOUnit{Op: tt.second}
		a.Lock(ua)
		var wg sync.WaitGroup
		got := make(chan bool, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Lock(ub)
			b.Unlock(ub)
			got <- true
		}()
		// A second I/O that may share the lock gets it however slowly
		// the machine schedules the goroutine: wait for it (10 s at
		// most). One that may not is seen still waiting 50 ms on; a
		// loaded machine can only make a wrongly shared lock harder to
		// see there, never fail the test.
		wait := 50 * time.Millisecond
		if tt.shares {
			wait = 10 * time.Second
		}
		shared := false
		select {
		case <-got:
			shared = true
		case <-time.After(wait):
		}
		a.Unlock(ua)
		wg.Wait()
		if shared != tt.shares {
			t.Errorf("mode %v %v then %v: shared %v, want %v", tt.mode, tt.first, tt.second, shared, tt.shares)
		}
	}
	if New(jobspec.LockNone, files) != nil {
		t.Errorf("lockfile=none has a locker")
	}
}
