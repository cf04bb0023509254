// Package offsets draws the random block numbers of a job's I/O as fio
// 3.33 does (observed): the non-uniform distributions of
// random_distribution and file_service_type (zipf, pareto, normal), the
// zoned tables of zoned and zoned_abs, fio's hash of a file name that
// seeds them, and the random map that, without norandommap, hands out
// every block once per loop.
//
// Each file has a picker with a 32-bit stream of its own, seeded from a
// hash of the file's name times the job's thread number (from the offset
// seed without randrepeat). zipf and pareto draw a popularity rank,
// normal averages twelve draws; the rank is spread over the range by a
// multiplicative hash and shifted by a drawn (or, with a center, a given)
// offset. zoned and zoned_abs pick a zone by its access share from a
// job-wide stream, then a block uniformly in it from the offset stream.
// Nothing here allocates per draw.
package offsets

import (
	"math"

	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
)

// goldenRatio64 is the multiplier fio spreads ranks with.
const goldenRatio64 = 0x61C8864680B583EB

// Dist draws values in [0, n) for one file.
type Dist struct {
	kind    jobspec.DistKind
	n       uint64
	hash    bool // spread ranks (offsets; not files)
	rng     rng.Taus88
	randOff uint64

	// zipf
	theta, zetan, eta, alpha, half float64
	// pareto: rank fraction = u^pow
	pow float64
	// normal
	stddev uint64
}

// NewDist prepares draws of dist (zipf, pareto or normal) over n
// values with the picker's seed; hash spreads the ranks as fio does for
// offsets. The zero Dist (kind random) means none.
func NewDist(dist jobspec.Distribution, n uint64, seed uint32, hash bool) Dist {
	g := Dist{kind: dist.Kind, n: n, hash: hash}
	if n == 0 {
		g.kind = jobspec.DistRandom
		return g
	}
	g.rng.Seed(uint64(seed))
	switch dist.Kind {
	case jobspec.DistZipf, jobspec.DistPareto:
		g.randOff = uint64(g.rng.Next())
		if dist.HasCenter {
			g.randOff = uint64(float64(n) * dist.Center)
		}
		if dist.Kind == jobspec.DistPareto {
			h := dist.Param
			if h == 0 {
				h = 0.2
			}
			g.pow = math.Log(h) / math.Log(1-h)
			break
		}
		g.theta = dist.Param
		if g.theta == 0 {
			g.theta = 1.1
		}
		zeta2 := math.Pow(1, g.theta) + math.Pow(0.5, g.theta)
		for i := uint64(1); i <= min(n, 10_000_000); i++ {
			g.zetan += math.Pow(1/float64(i), g.theta)
		}
		g.alpha = 1 / (1 - g.theta)
		g.eta = (1 - math.Pow(2/float64(n), 1-g.theta)) / (1 - zeta2/g.zetan)
		g.half = 1 + math.Pow(0.5, g.theta)
	case jobspec.DistNormal:
		if dist.Param > 0 {
			g.stddev = min(uint64(math.Ceil(float64(n)*dist.Param/100)), n/2)
		}
		if dist.HasCenter {
			g.randOff = uint64(uint32(int64(float64(n) * (dist.Center - 0.5))))
		}
	default:
		g.kind = jobspec.DistRandom
	}
	return g
}

// N is the number of values drawn from; 0 for the zero Dist.
func (g *Dist) N() uint64 { return g.n }

// Draw returns the next value in [0, n).
func (g *Dist) Draw() uint64 {
	var v uint64
	switch g.kind {
	case jobspec.DistZipf:
		u := float64(g.rng.Next()) / float64(math.MaxUint32)
		z := u * g.zetan
		switch {
		case z < 1:
			v = 1
		case z < g.half:
			v = 2
		default:
			v = 1 + uint64(float64(g.n)*math.Pow(g.eta*u-g.eta+1, g.alpha))
		}
		v--
	case jobspec.DistPareto:
		u := float64(g.rng.Next()) / float64(math.MaxUint32)
		v = uint64(float64(g.n-1) * math.Pow(u, g.pow))
	case jobspec.DistNormal:
		var sum uint64
		for range 12 {
			sum += uint64(g.rng.Next()) % (g.n + 1)
		}
		sum = (sum + 11) / 12
		if g.stddev > 0 {
			r := float64(g.rng.Next()) / 4294967296.0
			dev := int64(float64(g.stddev)*r) - int64(g.stddev/2)
			for sum+uint64(dev) >= g.n {
				dev /= 2
			}
			sum += uint64(dev)
		}
		v = sum
	default:
		return 0
	}
	if g.hash {
		v *= goldenRatio64
	}
	return (v + g.randOff) % g.n
}

// ZoneTable is a zoned or zoned_abs distribution: for each access
// percentile 1..100, the zone it goes to.
type ZoneTable struct {
	abs bool
	// In percent of the range (zoned) or bytes (zoned_abs).
	start, size [100]uint64
}

// NewZoneTable lays out dist's zones; nil when it has none.
func NewZoneTable(dist jobspec.Distribution) *ZoneTable {
	if len(dist.Zones) == 0 {
		return nil
	}
	t := &ZoneTable{abs: dist.Kind == jobspec.DistZonedAbs}
	i := 0
	var at uint64
	for _, z := range dist.Zones {
		size := uint64(z.Size)
		if t.abs {
			size = z.Bytes
		}
		for k := 0; k < z.Access && i < 100; k++ {
			t.start[i], t.size[i] = at, size
			i++
		}
		at += size
	}
	for ; i < 100 && i > 0; i++ {
		t.start[i], t.size[i] = t.start[i-1], t.size[i-1]
	}
	return t
}

// Draw picks a block among lastb blocks of align bytes: a zone by a draw
// in [1, 100] from zr, then a block in it from off.
func (t *ZoneTable) Draw(zr, off *rng.Stream, lastb, align uint64) uint64 {
	i := zr.Between(1, 100) - 1
	var start, span uint64
	if t.abs {
		start, span = t.start[i]/align, t.size[i]/align
	} else {
		start, span = t.start[i]*lastb/100, lastb*t.size[i]/100
	}
	return start + off.Scale(span)
}

// Jhash is fio's hash of a file name (Jenkins' lookup3 as fio 3.33
// computes it: the 12-byte blocks before the last add one byte per word).
func Jhash(k []byte) uint32 {
	rol := func(x uint32, n uint) uint32 { return x<<n | x>>(32-n) }
	a := uint32(0x61C88647) + uint32(len(k))
	b, c := a, a
	if len(k) == 0 {
		return c
	}
	for len(k) > 12 {
		a += uint32(k[0])
		b += uint32(k[4])
		c += uint32(k[8])
		a -= c
		a ^= rol(c, 4)
		c += b
		b -= a
		b ^= rol(a, 6)
		a += c
		c -= b
		c ^= rol(b, 8)
		b += a
		a -= c
		a ^= rol(c, 16)
		c += b
		b -= a
		b ^= rol(a, 19)
		a += c
		c -= b
		c ^= rol(b, 4)
		b += a
		k = k[12:]
	}
	var w [3]uint32
	for i, x := range k {
		w[i/4] += uint32(x) << (8 * (i % 4))
	}
	a += w[0]
	b += w[1]
	c += w[2]
	c ^= b
	c -= rol(b, 14)
	a ^= c
	a -= rol(c, 11)
	b ^= a
	b -= rol(a, 25)
	c ^= b
	c -= rol(b, 16)
	a ^= c
	a -= rol(c, 4)
	b ^= a
	b -= rol(a, 14)
	c ^= b
	c -= rol(b, 24)
	return c
}
