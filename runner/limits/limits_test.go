package limits

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// max_latency reports the direction's maximum when an I/O is over it;
// rate_min takes its baseline 2 s after the start, then checks each
// rate_cycle.
func TestLimits(t *testing.T) {
	if New(&jobspec.Job{}) != nil {
		t.Fatal("New without limits is not nil")
	}
	j := &jobspec.Job{Name: "a"}
	j.MaxLatency[stats.Read] = 10   // µs
	j.RateMin[stats.Read] = 1 << 20 // 1 MiB/s
	j.RateCycle = 1000              // ms
	l := New(j)
	if most, over := l.Count(stats.Read, 4096, 10_000); over {
		t.Errorf("10 µs over max_latency 10 µs (%d)", most)
	}
	if most, over := l.Count(stats.Read, 4096, 10_001); !over || most != 10_000 {
		t.Errorf("Count = %d, %v; want 10000, true", most, over)
	}
	if msg := l.CheckMin(1e9, 0, j.Name); msg != "" || l.baseSet {
		t.Errorf("checked before 2 s: %q", msg)
	}
	if msg := l.CheckMin(2e9, 0, j.Name); msg != "" || !l.baseSet {
		t.Errorf("no baseline at 2 s (%q)", msg)
	}
	l.Count(stats.Read, 4096, 0)
	const want = "a: rate_min=1048576B/s not met, got 4096B/s\n"
	if msg := l.CheckMin(3e9, 0, j.Name); msg != want {
		t.Errorf("CheckMin after a cycle = %q; want %q", msg, want)
	}
}
