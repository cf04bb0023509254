package runner

import (
	"path/filepath"
	"testing"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// TestFileLockerAsync checks the locking of asynchronous jobs: a job's
// I/Os share the lock its first one took while any is in flight, another
// job's tryLock is refused meanwhile, and the last completion drops it.
func TestFileLockerAsync(t *testing.T) {
	files := []*jobFile{{path: filepath.Join(t.TempDir(), "lockasync")}}
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
		a, b := newFileLocker(tt.mode, files), newFileLocker(tt.mode, files)
		var got []bool
		var took []*engine.IOUnit
		for _, u := range tt.a {
			ok := a.tryLock(u)
			got = append(got, ok)
			if ok {
				took = append(took, u)
			}
		}
		ok := b.tryLock(tt.b)
		got = append(got, ok)
		if ok {
			b.unlock(tt.b)
		}
		for k := range got {
			if k >= len(tt.want) || got[k] != tt.want[k] {
				t.Fatalf("case %d: tryLock results %v, want %v", i, got, tt.want)
			}
		}
		// The lock stays with the first job until its last I/O is done.
		for k, u := range took {
			if !tt.want[len(tt.want)-1] && b.tryLock(tt.b) {
				t.Errorf("case %d: the other job got the lock with %d I/Os in flight", i, len(took)-k)
				b.unlock(tt.b)
			}
			a.unlock(u)
		}
		if !b.tryLock(tt.b) {
			t.Errorf("case %d: the lock is still held after the last completion", i)
		} else {
			b.unlock(tt.b)
		}
		a.releaseAll()
		b.releaseAll()
	}
}
