package stats

import (
	"slices"
	"testing"
)

func prioList(d *DirStats) (out []uint16) {
	for _, p := range d.ReportedPrios() {
		out = append(out, p.IOPrio)
	}
	return out
}

// TestPrioStats checks the per-priority entries: configuration order
// kept, empty entries not reported, a lone priority not reported, and
// merging (group_reporting, unified_rw_reporting) pooling same-priority
// entries without touching the records merged from.
func TestPrioStats(t *testing.T) {
	var a, b Job
	a.DeclarePrios(Read, 0x4005, 0x2000, 0x6001)
	a.AddPrio(Read, 0x6001, 100, true)
	if got := prioList(&a.Dir[Read]); got != nil {
		t.Errorf("one priority with samples reported: %x", got)
	}
	a.AddPrio(Read, 0x4005, 300, true)
	if got, want := prioList(&a.Dir[Read]), []uint16{0x4005, 0x6001}; !slices.Equal(got, want) {
		t.Errorf("reported %x, want %x (configuration order, empty entry left out)", got, want)
	}
	b.AddPrio(Read, 0x2000, 50, true)
	b.AddPrio(Read, 0x6001, 200, true)
	b.AddPrio(Write, 0x6003, 10, false)

	m := a.Dir[Read] // as group reporting starts from the first job's record
	m.Merge(&b.Dir[Read])
	if got, want := prioList(&m), []uint16{0x4005, 0x2000, 0x6001}; !slices.Equal(got, want) {
		t.Errorf("merged %x, want %x", got, want)
	}
	p := m.ReportedPrios()[2]
	if p.Lat.N != 2 || p.Lat.Min != 100 || p.Lat.Max != 200 || p.Lat.Mean != 150 {
		t.Errorf("merged 0x6001: %+v", p.Lat)
	}
	var n uint64
	for _, c := range p.Hist {
		n += c
	}
	if n != 2 {
		t.Errorf("merged 0x6001 histogram holds %d samples, want 2", n)
	}
	if a.Dir[Read].Prios[2].Lat.N != 1 {
		t.Errorf("merge changed the record merged from: %+v", a.Dir[Read].Prios[2].Lat)
	}
	m.Merge(&b.Dir[Write])
	if got := prioList(&m); len(got) != 4 || got[3] != 0x6003 {
		t.Errorf("unified merge %x, want the write priority last", got)
	}
	if c, l := m.Prios[3].Class(), m.Prios[3].Level(); c != 3 || l != 3 {
		t.Errorf("class/level of 0x6003: %d/%d", c, l)
	}
}
