package results

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// Merge folds JSON+ documents into one result: one job per job name and
// reporting group, in the order they first appear, holding all the I/O
// of that job.
// Write it with output.JSON to get a JSON+ document in fio's schema.
//
// The latency histograms are summed bucket by bucket, so the percentiles
// output.JSON prints are those fio computes for one job whose histogram
// holds every I/O; means and standard deviations are pooled exactly from
// each part's N, mean and stddev (the parallel-variance rule fio applies
// under group_reporting), min and max are the extremes.
//
// Two kinds of parts are told apart by where they come from:
//
//   - jobs of one name inside one document ran side by side (the servers
//     of a client/server run, the clones of numjobs): they are merged as
//     fio's group_reporting merges jobs, runtime the longest and the
//     bandwidth and IOPS sample statistics summed;
//   - the same name in different documents ran one after the other
//     (repeated runs, the pieces of one workload): runtimes add up and
//     the bandwidth and IOPS samples are pooled like the latencies.
//
// Every other counter is summed. A job whose document printed
// percentiles without their histogram (plain JSON, not JSON+) cannot be
// merged exactly and is an error.
func Merge(docs []*Document) (*output.Result, error) {
	if len(docs) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	r := &output.Result{GlobalOptions: docs[0].GlobalOptions}
	index := map[jobKey]int{} // → r.Jobs index
	for _, d := range docs {
		if d.Time.After(r.Time) {
			r.Time = d.Time
		}
		r.ElapsedMS += d.ElapsedMS
		// Side-by-side parts of this document first.
		var names []jobKey
		inDoc := map[jobKey]*output.Job{}
		for k := range d.Jobs {
			j := &d.Jobs[k]
			if !j.Bins {
				return nil, fmt.Errorf("%s: job %q has percentiles but no histogram bins: merging needs --output-format=json+", d.Name, j.Report.Name)
			}
			name := jobKey{j.Report.Name, j.Report.GroupID}
			m, ok := inDoc[name]
			if !ok {
				c := j.Report
				c.Remote = nil
				inDoc[name] = &c
				names = append(names, name)
				continue
			}
			mergeJob(m, &j.Report)
			m.Stats.Merge(&j.Report.Stats)
		}
		for _, name := range names {
			part := inDoc[name]
			i, ok := index[name]
			if !ok {
				index[name] = len(r.Jobs)
				r.Jobs = append(r.Jobs, *part)
				continue
			}
			mergeJob(&r.Jobs[i], part)
			mergeSerial(&r.Jobs[i].Stats, &part.Stats)
		}
	}
	r.Groups = groups(r.Jobs)
	return r, nil
}

// jobKey is what makes parts one job: its name and reporting group.
type jobKey struct {
	name  string
	group int
}

// groups lists the run status groups of jobs in ascending order, each
// with the settings of its first job.
func groups(jobs []output.Job) []output.Group {
	var gs []output.Group
	seen := map[int]bool{}
	for _, j := range jobs {
		if !seen[j.GroupID] {
			seen[j.GroupID] = true
			gs = append(gs, output.Group{ID: j.GroupID, KBBase: j.KBBase, UnitBase: j.UnitBase, SigFigs: j.SigFigs, Unified: j.Unified})
		}
	}
	slices.SortStableFunc(gs, func(a, b output.Group) int { return cmp.Compare(a.ID, b.ID) })
	return gs
}

// mergeJob folds the reporting fields of o into j as fio's
// group_reporting does: j keeps its own, the first error counts, and a
// statistic reported with percentiles by either part keeps them.
func mergeJob(j, o *output.Job) {
	if j.Error == 0 {
		j.Error, j.ErrorText = o.Error, o.ErrorText
	}
	j.ClatPercentiles = j.ClatPercentiles || o.ClatPercentiles
	j.LatPercentiles = j.LatPercentiles || o.LatPercentiles
	j.SlatPercentiles = j.SlatPercentiles || o.SlatPercentiles
	if o.ErrorCheck {
		if !j.ErrorCheck || j.FirstError == 0 {
			j.FirstError = o.FirstError
		}
		j.ErrorCheck = true
		j.TotalErrors += o.TotalErrors
	}
}

// mergeSerial folds o into j for runs that happened one after the other:
// stats.Job.Merge's rules but for the per-direction runtime, which adds
// up, and the bandwidth and IOPS samples, which are pooled as one longer
// run's samples would be.
func mergeSerial(j, o *stats.Job) {
	var rt [stats.NDirs]uint64
	var bw, iops [stats.NDirs]stats.Accum
	for d := range j.Dir {
		rt[d] = j.Dir[d].RuntimeUS + o.Dir[d].RuntimeUS
		bw[d], iops[d] = j.Dir[d].BW, j.Dir[d].IOPS
		bw[d].Pool(&o.Dir[d].BW)
		iops[d].Pool(&o.Dir[d].IOPS)
	}
	j.Merge(o)
	for d := range j.Dir {
		j.Dir[d].RuntimeUS, j.Dir[d].BW, j.Dir[d].IOPS = rt[d], bw[d], iops[d]
	}
}
