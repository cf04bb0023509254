package stats

import (
	"math"
	"testing"
)

func TestHistIndexValue(t *testing.T) {
	// Worked examples from stats-algorithms.md §1.3, seen in real fio output.
	tests := []struct {
		ns    uint64
		index int
		value uint64
	}{
		{57, 57, 57},        // exact below 128
		{131, 129, 131},     // 2-wide bucket: the upper value
		{63500, 700, 63744}, // 512-wide bucket
		{39000, 652, 39168},
		{527456, 896, 528384},                   // reported above the sample
		{22249845, 1236, 22151168},              // reported below the sample
		{1 << 40, HistBuckets - 1, 17112760320}, // beyond 2^34 ns: the last bucket
	}
	for _, tt := range tests {
		if got := HistIndex(tt.ns); got != tt.index {
			t.Errorf("HistIndex(%d) = %d; want %d", tt.ns, got, tt.index)
		}
		if got := HistValue(tt.index); got != tt.value {
			t.Errorf("HistValue(%d) = %d; want %d", tt.index, got, tt.value)
		}
	}
}

func TestPercentilesRank(t *testing.T) {
	// N samples 1..N, each in its own exact bucket (values < 128).
	hist := func(n int) *Hist {
		var h Hist
		for v := 1; v <= n; v++ {
			h.Add(uint64(v))
		}
		return &h
	}
	tests := []struct {
		n    int
		p    float64
		want uint64 // the rank of the sample reported
	}{
		{1, 99.99, 1}, // one sample answers every percentile
		{2, 50, 1},    // p ≤ 50 → 1st of 2
		{2, 50.1, 2},
		{3, 33.33, 1},
		{3, 40, 2},
		{25, 60, 15}, // exactly the 15th (not 16th as 80-bit arithmetic gives)
		{25, 5, 2},   // 1.25 → 2
		{100, 99.9, 100},
	}
	for _, tt := range tests {
		got := Percentiles(hist(tt.n), uint64(tt.n), []float64{tt.p})[0]
		if got != tt.want {
			t.Errorf("N=%d p=%v: got sample %d; want %d", tt.n, tt.p, got, tt.want)
		}
	}
	// N = 1000, p = 0.1: the exact threshold is just above 1, so fio
	// reports the 2nd smallest sample; float64 arithmetic would say 1st.
	if r := rank(0.1, 1000); r != 2 {
		t.Errorf("rank(0.1, 1000) = %d; want 2", r)
	}
	if r := rank(99.9, 1000); r != 1000 {
		t.Errorf("rank(99.9, 1000) = %d; want 1000", r)
	}
}

func TestEffectiveList(t *testing.T) {
	got := EffectiveList([]float64{99, 50, 0, 10})
	if len(got) != 2 || got[0] != 50 || got[1] != 99 {
		t.Errorf("EffectiveList(99:50:0:10) = %v; want [50 99] (cut at 0, sorted)", got)
	}
}

func TestAccum(t *testing.T) {
	var a Accum
	for _, x := range []uint64{2, 4, 4, 4, 5, 5, 7, 9} {
		a.Add(x)
	}
	if a.Min != 2 || a.Max != 9 || a.N != 8 || a.Mean != 5 {
		t.Errorf("Accum = %+v; want min 2, max 9, N 8, mean 5", a)
	}
	if sd := a.Stddev(); math.Abs(sd-math.Sqrt(32.0/7)) > 1e-12 {
		t.Errorf("Stddev = %v; want sqrt(32/7)", sd)
	}
	// Pooling two halves equals adding everything to one.
	var b, c Accum
	for _, x := range []uint64{2, 4, 4, 4} {
		b.Add(x)
	}
	for _, x := range []uint64{5, 5, 7, 9} {
		c.Add(x)
	}
	b.Pool(&c)
	if b.Min != a.Min || b.Max != a.Max || b.N != a.N || math.Abs(b.Mean-a.Mean) > 1e-12 || math.Abs(b.S-a.S) > 1e-9 {
		t.Errorf("Pool = %+v; want %+v", b, a)
	}
	// Sample statistics of a group are plain sums.
	var s1, s2 Accum
	s1.Add(10)
	s2.Add(20)
	s1.Sum(&s2)
	if s1.Min != 30 || s1.Max != 30 || s1.Mean != 30 || s1.N != 2 {
		t.Errorf("Sum = %+v; want min=max=mean=30, N=2", s1)
	}
}

func TestJobBuckets(t *testing.T) {
	var j Job
	j.AddClat(Read, 500, true)     // 500 ns → nsec "750" bucket
	j.AddClat(Read, 1500, true)    // 1.5 µs → usec "2"
	j.AddClat(Read, 3000000, true) // 3 ms → msec "4"
	j.AddClat(Read, 2500e6, true)  // 2.5 s → msec ">=2000"
	if j.LatNsec[8] != 1 || j.LatUsec[0] != 1 || j.LatMsec[1] != 1 || j.LatMsec[11] != 1 {
		t.Errorf("latency buckets: nsec %v usec %v msec %v", j.LatNsec, j.LatUsec, j.LatMsec)
	}
	j.AddDepth(16, 1)
	j.AddSubmit(0)
	j.AddComplete(65)
	if j.IODepth[4] != 1 || j.Submit[0] != 1 || j.Complete[6] != 1 || j.Submits != 1 || j.Completes != 1 {
		t.Errorf("depth maps: %v %v %v", j.IODepth, j.Submit, j.Complete)
	}
}

// AddClatLat gives the state AddClat and AddLat give, bit for bit, while
// the two latencies agree, after they part, and when they agree again.
func TestAddClatLat(t *testing.T) {
	pairs := [][2]uint64{{5, 5}, {900, 900}, {17, 17}, {17, 17}, {3, 3}, // twins
		{40, 41}, {1200, 1200}, {8, 8}, {1 << 40, 1 << 40}, {0, 6}, {6, 6}} // apart
	var want, got Job
	for i, p := range pairs {
		want.AddClat(Read, p[0], true)
		want.AddLat(Read, p[1], true)
		got.AddClatLat(Read, p[0], p[1], true, true)
		if w, g := want.Dir[Read], got.Dir[Read]; !w.Clat.same(&g.Clat) || !w.Lat.same(&g.Lat) || w.LatHist != g.LatHist || w.ClatHist != g.ClatHist {
			t.Fatalf("after sample %d %v: AddClatLat gives clat %+v lat %+v, AddClat and AddLat give %+v %+v", i, p, g.Clat, g.Lat, w.Clat, w.Lat)
		}
	}
	if got.Dir[Read].Lat.same(&got.Dir[Read].Clat) {
		t.Fatal("lat and clat fed different samples hold the same state")
	}
}
