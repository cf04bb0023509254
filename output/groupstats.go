package output

import (
	"math"

	"github.com/gofio/gofio/stats"
)

// GroupRunStats is one run status group's aggregates per direction
// slot, as fio's group_run_stats carries them in client/server mode.
// A direction without run time has MinRun and MinBW at the largest
// uint64, as in fio.
type GroupRunStats struct {
	ID                                 int
	MaxRun, MinRun, MaxBW, MinBW       [stats.NDirs]uint64 // ms; bytes/s
	IOBytes, Agg                       [stats.NDirs]uint64 // bytes; bytes/s
	KBBase, UnitBase, SigFigs, Unified int
}

// GroupStats returns the aggregates of every group of r, in r.Groups
// order, computed as the reports compute them.
func GroupStats(r *Result) []GroupRunStats {
	reps := make([]*jobRep, len(r.Jobs))
	for k := range r.Jobs {
		reps[k] = newJobRep(&r.Jobs[k])
	}
	out := make([]GroupRunStats, 0, len(r.Groups))
	for _, g := range r.Groups {
		a := aggregate(reps, g.ID)
		gs := GroupRunStats{ID: g.ID, KBBase: KBBase(g.KBBase), UnitBase: g.UnitBase, SigFigs: SigFigs(g.SigFigs), Unified: g.Unified}
		for d := range stats.NDirs {
			x := a.Dir[d]
			gs.MaxRun[d], gs.MaxBW[d], gs.IOBytes[d], gs.Agg[d] = x.MaxRun, x.MaxBW, x.IOBytes, x.Agg
			gs.MinRun[d], gs.MinBW[d] = x.MinRun, x.MinBW
			if x.MaxRun == 0 {
				gs.MinRun[d], gs.MinBW[d] = math.MaxUint64, math.MaxUint64
			}
		}
		out = append(out, gs)
	}
	return out
}
