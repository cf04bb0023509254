package strided

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// A file moves to the zone zoneskip bytes after its zone's end once the
// job did zonesize bytes, wrapping to the region's start at its end, and
// a file used up starts over at its first zone.
func TestAdvance(t *testing.T) {
	j := &jobspec.Job{}
	j.Zone.Mode, j.Zone.Size, j.Zone.Range, j.Zone.Skip = jobspec.ZoneStrided, 4, 8, 8
	z := New(j, 2)
	if z == nil || z.Span != 8 {
		t.Fatalf("New: %+v; want zonerange 8", z)
	}
	starts := []uint64{0, 16, 32, 0}
	for i, want := range starts {
		if i > 0 {
			z.Done = z.Size
		}
		z.Advance(0, 40)
		s := z.Files[0]
		if s.Start != want || s.Pos != [2]uint64{want, want} || z.Done > 0 && i > 0 {
			t.Errorf("move %d: zone at %d (pos %v, done %d); want %d", i, s.Start, s.Pos, z.Done, want)
		}
	}
	z.Done = 1
	z.Advance(0, 40)
	if z.Files[0].Start != 0 {
		t.Errorf("moved with zonesize not done")
	}
	z.Files[0].Start, z.Files[1].Start = 16, 16
	z.Reset([]bool{true, false})
	if z.Files[0].Start != 0 || z.Files[1].Start != 16 || z.Done != 0 {
		t.Errorf("Reset: starts %d, %d, done %d; want 0, 16, 0", z.Files[0].Start, z.Files[1].Start, z.Done)
	}
	if New(&jobspec.Job{}, 1) != nil {
		t.Error("New without zonemode=strided is not nil")
	}
}
