package runner

// Non-uniform random offsets (random_distribution). A distDraw picks a
// block index in [0, n): zipf and pareto draw a popularity rank, normal a
// Gaussian value; ranks are spread over the range by a fixed permutation,
// so hot blocks are scattered through the file as in fio, unless a center
// is given, which puts the most likely block there. zoned picks a zone by
// its access share, then a block uniformly inside it. The exact sequences
// differ from fio's; the shape of the distribution (the share of the
// accesses the hottest blocks get) follows the same parameters.
//
// Zipf ranks use the method of Gray et al. ("Quickly generating
// billion-record synthetic databases", SIGMOD 1994); pareto ranks follow
// the power law in which a fraction h of the ranks gets 1-h of the
// accesses. Nothing here allocates per draw.

import (
	"math"
	"math/bits"

	"github.com/gofio/gofio/jobspec"
)

// distDraw draws block indexes for one file and direction.
type distDraw struct {
	kind jobspec.DistKind
	n    uint64

	// zipf
	theta, zetan, eta, alpha, half float64
	// pareto: rank fraction = u^pow
	pow float64
	// normal: σ in blocks
	sigma float64
	// center: rank 0 lands on block shift (center set) and ranks are not
	// scattered; otherwise perm scatters them.
	center    bool
	shift     uint64
	perm      uint64
	permShift uint64

	zones []zoneRange
}

// zoneRange is one zone: accesses below upTo (out of 1<<32) go to
// blocks [start, start+blocks).
type zoneRange struct {
	upTo          uint64
	start, blocks uint64
}

// zipfExact is how many terms of the zeta sum are added one by one; the
// rest is the integral's value.
const zipfExact = 10_000_000

// newDistDraw prepares draws of dist over n blocks of grain bytes; the
// zero distDraw (kind random) means uniform.
func newDistDraw(dist jobspec.Distribution, n, grain uint64, seed uint64) distDraw {
	g := distDraw{kind: dist.Kind, n: n}
	if n == 0 {
		g.kind = jobspec.DistRandom
		return g
	}
	if dist.HasCenter {
		g.center = true
		g.shift = uint64(dist.Center*float64(n)) % n
	}
	// An odd multiplier coprime to n permutes [0, n).
	g.perm = (0x9e3779b97f4a7c15 | 1) % n
	for n > 1 && gcd(g.perm, n) != 1 {
		g.perm = (g.perm + 1) % n
	}
	g.permShift = (seed * 0x2545f4914f6cdd1d) % n
	switch dist.Kind {
	case jobspec.DistZipf:
		g.theta = dist.Param
		g.zetan = zeta(n, g.theta)
		zeta2 := zeta(2, g.theta)
		g.alpha = 1 / (1 - g.theta)
		g.eta = (1 - math.Pow(2/float64(n), 1-g.theta)) / (1 - zeta2/g.zetan)
		g.half = 1 + math.Pow(0.5, g.theta)
	case jobspec.DistPareto:
		h := dist.Param
		g.pow = math.Log(h) / math.Log(1-h)
	case jobspec.DistNormal:
		dev := dist.Param
		if dev == 0 {
			dev = 6 // fio's default spread, measured
		}
		g.sigma = dev / 100 * float64(n)
		if !dist.HasCenter {
			g.shift = n / 2
		}
	case jobspec.DistZoned, jobspec.DistZonedAbs:
		var acc, start uint64
		for _, z := range dist.Zones {
			size := z.Bytes / max(grain, 1)
			if dist.Kind == jobspec.DistZoned {
				size = n * uint64(z.Size) / 100
			}
			size = min(size, n-min(start, n))
			acc += uint64(z.Access) << 32 / 100
			if size > 0 {
				g.zones = append(g.zones, zoneRange{upTo: acc, start: start, blocks: size})
			}
			start += size
		}
		if len(g.zones) == 0 {
			g.kind = jobspec.DistRandom
		} else {
			g.zones[len(g.zones)-1].upTo = 1 << 32
		}
	}
	return g
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// zeta is the sum of 1/i^theta for i in 1..n.
func zeta(n uint64, theta float64) float64 {
	m := min(n, zipfExact)
	var s float64
	for i := uint64(1); i <= m; i++ {
		s += math.Pow(float64(i), -theta)
	}
	if n > m {
		// ∫ x^-θ dx from m to n.
		s += (math.Pow(float64(n), 1-theta) - math.Pow(float64(m), 1-theta)) / (1 - theta)
	}
	return s
}

// uniform returns a float in [0, 1).
func uniform(r *taus88) float64 { return float64(r.next()) / (1 << 32) }

// uniformPos returns a float in (0, 1].
func uniformPos(r *taus88) float64 { return (float64(r.next()) + 1) / (1 << 32) }

// draw returns a block index in [0, n).
func (g *distDraw) draw(r *taus88) uint64 {
	switch g.kind {
	case jobspec.DistZipf:
		u := uniform(r)
		uz := u * g.zetan
		var rank uint64
		switch {
		case uz < 1:
			rank = 0
		case uz < g.half:
			rank = 1
		default:
			rank = uint64(float64(g.n) * math.Pow(g.eta*u-g.eta+1, g.alpha))
		}
		return g.place(min(rank, g.n-1))
	case jobspec.DistPareto:
		rank := uint64(float64(g.n) * math.Pow(uniform(r), g.pow))
		return g.place(min(rank, g.n-1))
	case jobspec.DistNormal:
		for tries := 0; tries < 16; tries++ {
			// Box–Muller.
			z := math.Sqrt(-2*math.Log(uniformPos(r))) * math.Cos(2*math.Pi*uniform(r))
			v := float64(g.shift) + z*g.sigma
			if v >= 0 && v < float64(g.n) {
				return g.spread(uint64(v))
			}
		}
		return g.spread(g.shift)
	case jobspec.DistZoned, jobspec.DistZonedAbs:
		u := uint64(r.next())
		for _, z := range g.zones {
			if u < z.upTo {
				return z.start + r.below(z.blocks)
			}
		}
		z := g.zones[len(g.zones)-1]
		return z.start + r.below(z.blocks)
	}
	return r.below(g.n)
}

// place maps a popularity rank to a block: from the center, or scattered.
func (g *distDraw) place(rank uint64) uint64 {
	if g.center {
		return (rank + g.shift) % g.n
	}
	return g.spread(rank)
}

// spread permutes [0, n) so that neighbouring values land apart, as fio
// scatters its hot blocks; with a center given, values stay in place.
func (g *distDraw) spread(v uint64) uint64 {
	if g.center {
		return v
	}
	hi, lo := bits.Mul64(v, g.perm)
	return (bits.Rem64(hi, lo, g.n) + g.permShift) % g.n
}
