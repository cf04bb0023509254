// Package bsize draws the block sizes of a job's I/O as fio 3.33 does
// (observed with write_iolog): bs, bsrange (bs=lo-hi), bssplit, with
// bs_is_seq_rand and bs_unaligned, from the job's block size streams.
// Nothing here allocates per draw.
package bsize

import (
	"cmp"
	"slices"

	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// Picker is a job's block size state: its bssplit entries and its
// streams, per size index.
type Picker struct {
	split [3][]pick     // bssplit per size index, by ascending percentage
	rng   [3]rng.Stream // block sizes, per size index
}

// Init reads job j's bssplit.
func (p *Picker) Init(j *jobspec.Job) {
	for d := range p.split {
		p.split[d] = splitPicks(j.BSSplit[d])
	}
}

// Varies reports whether job j's size index idx draws its sizes
// (bssplit or a range) rather than having one.
func (p *Picker) Varies(j *jobspec.Job, idx int) bool {
	return len(p.split[idx]) > 0 || max(j.BS[idx], j.BSMax[idx]) > j.BS[idx]
}

// Seed seeds size index d's stream (use64: the 64-bit generator).
func (p *Picker) Seed(d int, seed uint64, use64 bool) { p.rng[d].Seed(seed, use64) }

// pick is one bssplit entry with its percentage.
type pick struct {
	size uint64
	perc uint64
}

// splitPicks turns bssplit entries into cumulative shares: entries with a
// percentage take it, the others share the rest equally.
func splitPicks(es []jobspec.BSSplit) []pick {
	if len(es) == 0 {
		return nil
	}
	given, unset := 0, 0
	for _, e := range es {
		if e.Percent > 0 {
			given += e.Percent
		} else {
			unset++
		}
	}
	rest := 0
	if unset > 0 && given < 100 {
		rest = (100 - given) / unset
	}
	out := make([]pick, 0, len(es))
	for _, e := range es {
		p := e.Percent
		if p == 0 {
			p = rest
		}
		if p > 0 {
			out = append(out, pick{size: e.Size, perc: uint64(p)})
		}
	}
	// fio walks the entries by ascending percentage (equal ones in the
	// order given).
	slices.SortStableFunc(out, func(a, b pick) int { return cmp.Compare(a.perc, b.perc) })
	return out
}

// Draw draws the block size of the next I/O of job j's direction d that
// fits in room bytes; 0, without a draw, when the smallest does not fit.
// As in fio, the size is drawn again until it fits: bsrange takes the
// smallest size plus the draw scaled to the largest, rounded down to a
// multiple of the smallest (unless bs_unaligned) and capped at the
// largest; bssplit walks its entries by ascending percentage and stops at
// the first whose running percentage covers the draw and that fits.
func (p *Picker) Draw(j *jobspec.Job, d stats.Dir, random bool, room uint64) uint64 {
	idx := int(d)
	if j.BSIsSeqRand {
		idx = 0
		if random {
			idx = 1
		}
	}
	lo, hi := j.BS[idx], max(j.BS[idx], j.BSMax[idx])
	if lo > room {
		return 0
	}
	picks := p.split[idx]
	if len(picks) == 0 && lo == hi {
		return lo
	}
	r := &p.rng[idx]
	limit := r.RandMax() / 100
	for tries := 0; tries < 1<<16; tries++ {
		var bs uint64
		if len(picks) > 0 {
			v := r.Next()
			var cum uint64
			for _, p := range picks {
				bs = p.size
				cum += p.perc
				if v/cum <= limit && bs <= room {
					break
				}
			}
		} else {
			bs = lo + uint64(float64(hi)*(float64(r.Next())/r.Span()))
			if !j.BSUnaligned {
				bs -= bs % lo
			}
		}
		bs = min(bs, hi)
		if bs <= room {
			return bs
		}
	}
	return lo
}
