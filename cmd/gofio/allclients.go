package main

import (
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// allClients builds fio's "All clients" report (§8.3 of the
// client/server reference): every START adds its report count to the
// expected number, a server that ends without a report takes one off,
// and once more than one report is expected the reports are summed as
// they arrive; the sum is shown when it holds the expected number.
type allClients struct {
	expected int
	summed   int
	total    stats.Job
	job      *output.Job // the finished aggregate, nil until then
}

// add sums one received report.
func (a *allClients) add(j *output.Job) {
	if a.job != nil || a.expected <= 1 {
		return
	}
	a.total.Merge(&j.Stats)
	a.summed++
	if a.summed < a.expected {
		return
	}
	st := a.total
	st.Members = a.summed
	// fio copies only these from the last report: no units (kb_base and
	// unit_base stay 0), no percentiles, no pid, no latency-target line.
	a.job = &output.Job{Name: "All clients", GroupID: j.GroupID, Unified: j.Unified, SigFigs: j.SigFigs,
		UnitBase: -1, Stats: st, Remote: j.Remote}
}
