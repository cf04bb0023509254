package runner

import (
	"runtime"
	"testing"
)

// TestProgressMemory checks that the live view costs little per job
// before the run: a job's copy of its statistics for live reports (a
// stats.Job, about 150 KB) is made only when a report asks for it.
func TestProgressMemory(t *testing.T) {
	plan := planOf(t, "name=a", "ioengine=null", "size=4k", "numjobs=4000")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p := NewProgress(plan)
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(p)
	const perJob = 1 << 10
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(plan.Jobs))*perJob {
		t.Errorf("NewProgress for %d jobs allocated %d bytes; want at most %d a job", len(plan.Jobs), got, perJob)
	}
}
