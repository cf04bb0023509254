package runner

import "github.com/gofio/gofio/internal/clock"

// flowPollNS is how long a job held back by flow with flow_sleep=0
// sleeps before it looks again.
const flowPollNS = 20_000

// flowWait holds the job back while it is ahead of its share of the
// group's I/Os (its I/Os over the group's, against its weight over the
// group's; runner/flow), sleeping flow_sleep (or flowPollNS) between
// looks, and then counts the I/O it may issue. It returns false when the job is
// stopped or its runtime ends while it waits.
func (w *worker) flowWait() bool {
	f := w.flow
	waited := false
	for !f.Allowed() {
		waited = true
		if ns := f.SleepNS(); ns > 0 {
			clock.Sleep(ns)
		} else {
			// flow_sleep=0: fio 3.33's job looks again at once. A
			// thread of gofio shares its process's CPU share with the
			// job it waits for (fio's jobs are processes, each in a
			// scheduling group of its own), so spinning, or yielding
			// to every other task for a time slice, starved that job on
			// a busy machine: fio's t0011 (flow=1 with rate_iops=1000
			// beside flow=8) did 30-700 IOPS under load where fio did
			// 1000. A short sleep leaves the CPU to the other job.
			clock.Sleep(flowPollNS)
		}
		if stopped(w.stop) {
			w.stopping = true
			return false
		}
		if now := clock.Now(); w.deadline != 0 && now >= w.deadline {
			w.stopping = true
			return false
		}
	}
	if waited && stopped(w.stop) {
		// The group let the job go because a job left it, and one that
		// leaves after stopping this one (exitall) closed the stop
		// first: without this look the job would run on unheld until
		// its next poll of the stop channel (publishCounts).
		w.stopping = true
		return false
	}
	f.Count()
	return true
}
