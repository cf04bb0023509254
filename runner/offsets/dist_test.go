package offsets

import (
	"sort"
	"testing"

	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
)

// hits draws k block indexes of d over n blocks and returns the counts
// per block, checking each index is in range.
func hits(t *testing.T, dist jobspec.Distribution, n uint64, k int) []int {
	t.Helper()
	g := NewDist(dist, n, 7, true)
	zt := NewZoneTable(dist)
	var zr, off rng.Stream
	zr.Seed(0x89, false)
	off.Seed(0x8a, false)
	c := make([]int, n)
	for i := 0; i < k; i++ {
		var b uint64
		switch {
		case dist.Kind == jobspec.DistRandom:
			b = off.Scale(n)
		case zt != nil:
			b = zt.Draw(&zr, &off, n, 4096)
		default:
			b = g.Draw()
		}
		if b >= n {
			t.Fatalf("%+v: block %d out of [0, %d)", dist, b, n)
		}
		c[b]++
	}
	return c
}

// topShare is the share of the draws the hottest frac of the blocks got.
func topShare(c []int, frac float64) float64 {
	s := append([]int(nil), c...)
	sort.Sort(sort.Reverse(sort.IntSlice(s)))
	top, all := 0, 0
	for i, v := range s {
		if i < int(frac*float64(len(s))) {
			top += v
		}
		all += v
	}
	return float64(top) / float64(all)
}

// The distributions concentrate accesses as their parameters say.
func TestDistributionShape(t *testing.T) {
	const n, k = 10000, 200000
	cases := []struct {
		name   string
		dist   jobspec.Distribution
		lo, hi float64 // share of the draws on the hottest 10% of blocks
	}{
		// Uniform: about 10% (a little more: the hottest of random counts).
		{"random", jobspec.Distribution{}, 0.10, 0.16},
		// zipf 1.2 concentrates hard (fio's gives ~95% on 10%).
		{"zipf 1.2", jobspec.Distribution{Kind: jobspec.DistZipf, Param: 1.2}, 0.85, 1},
		// zipf 0.5 skews mildly.
		{"zipf 0.5", jobspec.Distribution{Kind: jobspec.DistZipf, Param: 0.5}, 0.25, 0.45},
		// pareto 0.2: 20% of the blocks get 80%; 10% get well over half.
		{"pareto 0.2", jobspec.Distribution{Kind: jobspec.DistPareto, Param: 0.2}, 0.6, 0.85},
		// normal averages 12 uniform draws (σ about n/12) and adds a
		// uniform deviation of ±2.5%: the hottest 10% get about 45%.
		{"normal 5", jobspec.Distribution{Kind: jobspec.DistNormal, Param: 5}, 0.38, 0.52},
	}
	for _, c := range cases {
		if got := topShare(hits(t, c.dist, n, k), 0.1); got < c.lo || got > c.hi {
			t.Errorf("%s: hottest 10%% of blocks got %.3f of the accesses; want %.2f..%.2f", c.name, got, c.lo, c.hi)
		}
	}
}

// Zoned distributions give each zone its access share.
func TestDistributionZoned(t *testing.T) {
	const n, k = 1000, 100000
	cases := []struct {
		name string
		dist jobspec.Distribution
	}{
		// rand-zones.fio: 50% to the first 5%, 30% to the next 15%, 20%
		// to the remaining 80%.
		{"zoned", jobspec.Distribution{Kind: jobspec.DistZoned, Zones: []jobspec.Zone{{Access: 50, Size: 5}, {Access: 30, Size: 15}, {Access: 20, Size: 80}}}},
		// The same zones in bytes of 4k blocks.
		{"zoned_abs", jobspec.Distribution{Kind: jobspec.DistZonedAbs, Zones: []jobspec.Zone{{Access: 50, Bytes: 50 * 4096}, {Access: 30, Bytes: 150 * 4096}, {Access: 20, Bytes: 800 * 4096}}}},
	}
	for _, c := range cases {
		h := hits(t, c.dist, n, k)
		var z [3]int
		for b, v := range h {
			switch {
			case b < 50:
				z[0] += v
			case b < 200:
				z[1] += v
			default:
				z[2] += v
			}
		}
		for i, want := range []float64{0.5, 0.3, 0.2} {
			if got := float64(z[i]) / k; got < want-0.01 || got > want+0.01 {
				t.Errorf("%s: zone %d got %.3f of the accesses; want %.2f", c.name, i, got, want)
			}
		}
	}
}

// A center puts the most likely block there.
func TestDistributionCenter(t *testing.T) {
	const n = 1000
	h := hits(t, jobspec.Distribution{Kind: jobspec.DistZipf, Param: 1.2, Center: 0.25, HasCenter: true}, n, 10000)
	best := 0
	for b := range h {
		if h[b] > h[best] {
			best = b
		}
	}
	if best != 250 {
		t.Errorf("hottest block %d; want 250 (center 0.25 of 1000)", best)
	}
}

// file_service_type=zipf's generator: the hottest 2 of 20 files get
// about half the draws.
func TestDistFiles(t *testing.T) {
	const nfiles, ios = 20, 4000
	g := NewDist(jobspec.Distribution{Kind: jobspec.DistZipf, Param: 1.2}, nfiles<<10, 1, false)
	c := make([]int, nfiles)
	for i := 0; i < ios; i++ {
		c[g.Draw()>>10]++
	}
	if s := topShare(c, 0.1); s < 0.4 {
		t.Errorf("hottest 2 of 20 files got %.2f of the I/Os; want over 0.4 (uniform: 0.1)", s)
	}
}

// fio's file name hash, with its single-byte quirk for names over 12
// bytes.
func TestJhash(t *testing.T) {
	for name, want := range map[string]uint32{"a.0.0": 0xa0275764, "rngfile": 0x203a271d,
		"abcdefghijkl": 0xd855beeb, "abcdefghijklm": 0x59536a0b} {
		if got := Jhash([]byte(name)); got != want {
			t.Errorf("jhash(%q) = %#x, want %#x", name, got, want)
		}
	}
}
