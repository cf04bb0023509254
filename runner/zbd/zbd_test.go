package zbd

import (
	"slices"
	"testing"

	"github.com/gofio/gofio/runner/engine"
)

// newTestZBD returns a job view of one file of n zones of 4 bytes (capacity
// cp), 1-byte blocks, and the file.
func newTestZBD(n int, cp uint64, maxOpen int) (*Job, *File) {
	s := &File{size: 4, capacity: cp, wp: make([]uint64, n), maxOpen: maxOpen}
	z := &Job{files: []*File{s}, first: []int{0}, end: []int{n}, open: [][]int{nil}}
	for d := range z.minBS {
		z.minBS[d] = 1
	}
	return z, s
}

// TestZBDWrite checks where writes go: the zone's write pointer (also
// for an offset past the zone's capacity), a reset of a full zone, an
// open zone once max_open_zones are open.
func TestZBDWrite(t *testing.T) {
	tests := []struct {
		name    string
		cp      uint64
		maxOpen int
		wp      []uint64
		open    []int
		off, bs uint64
		random  bool
		want    uint64 // offset
		wantN   uint64
		resets  uint64
		wantWP  []uint64
	}{
		{"at wp", 4, 0, []uint64{2, 0, 0, 0}, nil, 1, 1, true, 2, 1, 0, []uint64{3, 0, 0, 0}},
		{"cut to capacity", 4, 0, []uint64{3, 0, 0, 0}, nil, 0, 2, true, 3, 1, 0, []uint64{4, 0, 0, 0}},
		{"full is reset", 4, 0, []uint64{4, 0, 0, 0}, nil, 2, 1, true, 0, 1, 1, []uint64{1, 0, 0, 0}},
		{"seq past capacity, zone not full", 3, 0, []uint64{2, 0, 0, 0}, nil, 3, 1, false, 2, 1, 0, []uint64{3, 0, 0, 0}},
		{"seq past capacity, zone full", 3, 0, []uint64{3, 0, 0, 0}, nil, 3, 1, false, 0, 1, 1, []uint64{1, 0, 0, 0}},
		{"outside the job's zones", 4, 0, []uint64{0, 0, 0, 0}, nil, 17, 1, false, 0, 0, 0, nil},
		{"opens a zone", 4, 2, []uint64{1, 0, 0, 0}, []int{0}, 9, 1, true, 8, 1, 0, []uint64{1, 0, 1, 0}},
		{"limit: low offset picks the first", 4, 2, []uint64{1, 0, 1, 0}, []int{2, 0}, 5, 1, true, 9, 1, 0, []uint64{1, 0, 2, 0}},
		{"limit: high offset picks the last", 4, 2, []uint64{1, 0, 1, 0}, []int{2, 0}, 13, 1, true, 1, 1, 0, []uint64{2, 0, 1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			z, s := newTestZBD(4, tt.cp, tt.maxOpen)
			copy(s.wp, tt.wp)
			s.open = slices.Clone(tt.open)
			off, n, ok := z.write(0, s, tt.off, tt.bs, tt.random)
			if tt.wantN == 0 {
				if ok {
					t.Fatalf("write(%d) = %d, %d; want the end", tt.off, off, n)
				}
				return
			}
			if !ok || off != tt.want || n != tt.wantN || z.resets != tt.resets || !slices.Equal(s.wp, tt.wantWP) {
				t.Errorf("write(%d, %d) = %d, %d, %v; resets %d, wp %v; want %d, %d, resets %d, wp %v",
					tt.off, tt.bs, off, n, ok, z.resets, s.wp, tt.want, tt.wantN, tt.resets, tt.wantWP)
			}
		})
	}
}

// TestZBDWriteClosesFullZone checks that a zone filled up is no longer
// open once the write that filled it is done, and open until then.
func TestZBDWriteClosesFullZone(t *testing.T) {
	z, s := newTestZBD(4, 4, 2)
	s.wp[1], s.open = 3, []int{1, 3}
	off, n, ok := z.write(0, s, 4, 1, true)
	if !ok {
		t.Fatal("write failed")
	}
	if !slices.Equal(s.open, []int{1, 3}) {
		t.Errorf("open = %v before the write is done, want [1 3]", s.open)
	}
	z.Written(&engine.IOUnit{Op: engine.OpWrite, Offset: int64(off), Buf: make([]byte, n)})
	if !slices.Equal(s.open, []int{3}) {
		t.Errorf("open = %v, want [3]", s.open)
	}
}

// TestZBDRead checks reads below the write pointers: in place inside the
// data, the nearest zone with data (forward first), the offset modulo the
// data less the block, the length cut to the data, the end where no data
// is left.
func TestZBDRead(t *testing.T) {
	tests := []struct {
		name    string
		wp      []uint64
		off, bs uint64
		random  bool
		want, n uint64
		ok      bool
	}{
		{"inside", []uint64{4, 0, 0, 0}, 1, 1, true, 1, 1, true},
		{"modulo inside the zone", []uint64{3, 0, 0, 0}, 2, 1, true, 0, 1, true},
		{"forward first", []uint64{4, 0, 4, 0}, 5, 1, true, 9, 1, true},
		{"backward", []uint64{4, 0, 0, 0}, 13, 1, true, 1, 1, true},
		{"nothing", []uint64{0, 0, 0, 0}, 5, 1, true, 0, 0, false},
		{"cut to the data", []uint64{3, 0, 0, 0}, 1, 2, true, 0, 2, true},
		{"longer than the data", []uint64{2, 0, 0, 0}, 1, 3, true, 0, 2, true},
		{"seq next zone", []uint64{2, 0, 3, 0}, 2, 1, false, 8, 1, true},
		{"seq nothing ahead", []uint64{2, 0, 0, 0}, 2, 1, false, 0, 0, false},
		{"seq inside", []uint64{2, 0, 0, 0}, 1, 1, false, 1, 1, true},
		{"seq cut", []uint64{3, 0, 0, 0}, 1, 4, false, 1, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			z, s := newTestZBD(4, 4, 0)
			copy(s.wp, tt.wp)
			off, n, ok := z.read(0, s, tt.off, tt.bs, tt.random)
			if ok != tt.ok || (ok && (off != tt.want || n != tt.n)) {
				t.Errorf("read(%d, %d) = %d, %d, %v; want %d, %d, %v", tt.off, tt.bs, off, n, ok, tt.want, tt.n, tt.ok)
			}
		})
	}
	z, s := newTestZBD(4, 4, 0)
	z.beyondWP = true
	if off, _, ok := z.read(0, s, 13, 1, true); !ok || off != 13 {
		t.Errorf("read_beyond_wp: read(13) = %d, %v", off, ok)
	}
}

// TestZBDTrim checks the zones trims take: every zone in turn when
// sequential, only zones with data when random.
func TestZBDTrim(t *testing.T) {
	z, s := newTestZBD(4, 4, 0)
	s.wp[2] = 1
	if off, _, ok := z.trim(0, s, 0, 4, false); !ok || off != 0 {
		t.Errorf("sequential trim(0) = %d, %v", off, ok)
	}
	if off, _, ok := z.trim(0, s, 4, 4, true); !ok || off != 8 {
		t.Errorf("random trim(4) = %d, %v; want 8", off, ok)
	}
	s.wp[2] = 0
	if _, _, ok := z.trim(0, s, 4, 4, true); ok {
		t.Error("random trim of empty zones did not end the file")
	}
}
