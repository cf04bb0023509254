package bsize

import (
	"slices"
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// bssplit entries without a percentage share what is left equally; the
// entries are walked by ascending percentage, equal ones in their order.
func TestSplitPicks(t *testing.T) {
	tests := []struct {
		name string
		in   []jobspec.BSSplit
		want []pick
	}{
		{"none", nil, nil},
		{"given", []jobspec.BSSplit{{Size: 4096, Percent: 70}, {Size: 8192, Percent: 30}},
			[]pick{{8192, 30}, {4096, 70}}},
		{"rest shared", []jobspec.BSSplit{{Size: 4096, Percent: 50}, {Size: 8192}, {Size: 16384}},
			[]pick{{8192, 25}, {16384, 25}, {4096, 50}}},
		{"nothing left", []jobspec.BSSplit{{Size: 4096, Percent: 100}, {Size: 8192}},
			[]pick{{4096, 100}}},
	}
	for _, tt := range tests {
		if got := splitPicks(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A fixed size takes no draw; a range stays within it and, aligned, is a
// multiple of the smallest size.
func TestDraw(t *testing.T) {
	var p Picker
	j := &jobspec.Job{}
	j.BS, j.BSMax = [3]uint64{4096, 4096, 4096}, [3]uint64{4096, 4096, 4096}
	p.Init(j)
	if got := p.Draw(j, 0, false, 1<<20); got != 4096 {
		t.Errorf("fixed: %d, want 4096", got)
	}
	if got := p.Draw(j, 0, false, 100); got != 0 {
		t.Errorf("no room: %d, want 0", got)
	}
	j.BSMax[0] = 65536
	p.Seed(0, 1234, false)
	for range 1000 {
		if got := p.Draw(j, 0, false, 1<<20); got < 4096 || got > 65536 || got%4096 != 0 {
			t.Fatalf("range: %d, want a multiple of 4096 in [4096, 65536]", got)
		}
	}
}
