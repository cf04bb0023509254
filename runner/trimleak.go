package runner

import (
	"fmt"

	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
)

// trimDraws follows trim_percentage in a verifying job that does not
// trim its blocks (no trim_backlog), as fio 3.33 does (observed): each
// write recorded for the verify phase takes a draw from the job's trim
// stream and is marked for a trim below trim_percentage of its range;
// nothing is trimmed, and at the end of each loop's verify phase fio
// warns "fio: N trim entries leaked?" for the N marked.
type trimDraws struct {
	limit uint64 // a draw at or below marks; 0: off
	rng   rng.Stream
	n     int
}

// init prepares the draws of job j from its seed slots (again at each
// loop under randrepeat).
func (t *trimDraws) init(j *jobspec.Job, seeds *[nSeeds]uint64, use64 bool) {
	o := &j.Verify
	t.limit = 0
	if o.Trim.Percentage <= 0 || o.Type == jobspec.VerifyNone || !o.Do || o.Only || o.Backlog > 0 {
		return
	}
	t.rng.Seed(seeds[seedTrim], use64)
	t.limit = t.rng.RandMax() / 100 * uint64(o.Trim.Percentage)
}

// written takes the draw of a write recorded for the verify phase.
func (t *trimDraws) written() {
	if t.limit != 0 && t.rng.Next() <= t.limit {
		t.n++
	}
}

// leaked prints fio's warning for the writes marked this loop.
func (w *worker) trimLeaked() {
	t := &w.gen.trim
	if t.n > 0 {
		fmt.Fprintf(w.ts.errs, "fio: %d trim entries leaked?\n", t.n)
	}
	t.n = 0
}
