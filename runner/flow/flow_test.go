package flow

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// Allowed holds a job to its share of the group's weight, with the
// weights kept as fio keeps them (unsigned 32 bits).
func TestFlowAllowed(t *testing.T) {
	cases := []struct {
		name          string
		weights       []int // the group's jobs; the first is checked
		issued, total uint64
		allowed       bool
	}{
		{"first I/O", []int{1, 1}, 0, 0, true},
		{"at its share", []int{1, 1}, 5, 10, true},
		{"ahead", []int{1, 1}, 6, 10, false},
		{"2:1 at 2/3", []int{2, 1}, 20, 30, true},
		{"2:1 ahead", []int{2, 1}, 21, 30, false},
		{"alone", []int{3}, 10, 10, true},
		// flow=-2 next to flow=1: -2 wraps to 2^32-2, its share is ~1.
		{"negative weight", []int{-2, 1}, 99, 100, true},
		// and the job of flow=1 beside it gets a share of ~0.
		{"starved", []int{1, -2}, 1, 100, false},
		// flow=1 next to flow=-1: the sum wraps to 0, nobody is held.
		{"zero sum", []int{1, -1}, 100, 100, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var fs Groups
			var first *State
			for i, w := range c.weights {
				f := fs.Join(&jobspec.Job{Flow: jobspec.FlowOptions{ID: 1, Weight: w}})
				if i == 0 {
					first = f
				}
			}
			first.issued = c.issued
			first.g.issued.Store(c.total)
			if got := first.Allowed(); got != c.allowed {
				t.Errorf("Allowed() = %v; want %v", got, c.allowed)
			}
		})
	}
}
