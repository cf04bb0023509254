package pace

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// A capped direction's due time moves on by the larger of the byte and
// the I/O gap from its first I/O; an uncapped one is never held.
func TestIssued(t *testing.T) {
	j := &jobspec.Job{RW: jobspec.RWRandRW}
	j.BS = [3]uint64{4096, 4096, 4096}
	j.Rate[stats.Read] = 4096 * 1000 // 1 ms per 4k
	j.RateIOPS[stats.Read] = 500     // 2 ms per I/O
	var p Pacer
	p.Init(j)
	if !p.Rated() || p.Due(stats.Read) != 0 {
		t.Fatalf("rated %v, due %d before the first I/O", p.Rated(), p.Due(stats.Read))
	}
	p.Issued(stats.Read, 4096, 100)
	p.Issued(stats.Read, 4096, 150)
	if got := p.Due(stats.Read); got != 100+4e6 {
		t.Errorf("due %d after two I/Os from 100; want %d", got, int64(100+4e6))
	}
	if p.NotDue(200) {
		t.Error("NotDue with an uncapped write direction")
	}
	if got := p.DueFirst(stats.Read, 200); got != stats.Read {
		t.Errorf("DueFirst = %v with writes uncapped; want read", got)
	}
}

// The think time is due after thinktime_blocks I/Os on its side, and
// with rate_ignore_thinktime it moves the due times on.
func TestThinkDue(t *testing.T) {
	j := &jobspec.Job{}
	j.ThinkTime, j.ThinkTimeSpin, j.ThinkTimeBlocks, j.RateIgnoreThinktime = 10, 4, 2, true
	j.Rate[stats.Read] = 1 << 20
	var p Pacer
	p.Init(j)
	p.Issued(stats.Read, 4096, 1000)
	due := p.Due(stats.Read)
	if _, _, ok := p.ThinkDue(1, false, 1); ok {
		t.Error("due after 1 of 2 blocks")
	}
	if _, _, ok := p.ThinkDue(1, true, 1); ok {
		t.Error("due on the issue side, counted at completion")
	}
	spin, think, ok := p.ThinkDue(1, false, 2)
	if !ok || spin != 4000 || think != 10000 {
		t.Errorf("ThinkDue = %d, %d, %v; want 4000, 10000, true", spin, think, ok)
	}
	p.Thought(5000, 15000)
	if got := p.Due(stats.Read); got != due+10000 {
		t.Errorf("due %d after the think; want %d", got, due+10000)
	}
}
