package lattarget

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// TestSearch checks the depth search against the depths fio
// 3.33 was seen to go through: doubling from 1 while windows succeed,
// then halving the gap between the good and the bad depth.
func TestSearch(t *testing.T) {
	tests := []struct {
		name    string
		iodepth int
		windows string // g: a good window, b: a bad one
		depths  []int  // the depth after each window
		conv    int    // index of the window that converged; -1: none
	}{
		// fio: depth=32 after 1,2,4,8,16,32 and one more good window.
		{"all good", 32, "gggggg", []int{2, 4, 8, 16, 32, 32}, 5},
		// fio: depth=9 (libaio, latency_target=1ms, iodepth=32).
		{"binary search", 32, "ggggbbbg", []int{2, 4, 8, 16, 12, 10, 9, 9}, 7},
		// fio: 1 good, 2 bad, back to 1, converged on the next good.
		{"one deep", 32, "gbg", []int{2, 1, 1}, 2},
		// Never good at depth 1: stays there and never converges.
		{"all bad", 32, "bbbb", []int{1, 1, 1, 1}, -1},
		{"iodepth 1", 1, "g", []int{1}, 0},
		{"iodepth 5", 5, "gggg", []int{2, 4, 5, 5}, 3},
	}
	for _, tt := range tests {
		lt := New(&jobspec.Job{IODepth: tt.iodepth, Limits: jobspec.Limits{LatencyTarget: 1, LatencyWindow: 1, LatencyPercentile: 100}})
		conv := -1
		for i, c := range tt.windows {
			if lt.step(c == 'g', int64(i+1)) && conv < 0 {
				conv = i
			}
			if lt.qd != tt.depths[i] || int(lt.depth.Load()) != lt.qd {
				t.Errorf("%s: depth %d (published %d) after window %d; want %d", tt.name, lt.qd, lt.depth.Load(), i, tt.depths[i])
			}
		}
		if conv != tt.conv {
			t.Errorf("%s: converged at window %d; want %d", tt.name, conv, tt.conv)
		}
	}
}
