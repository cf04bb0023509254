package host

import "runtime"

// Every job runs on its own locked OS thread (the runner's worker.run), and a thread
// needs one of the Go runtime's Ps to run Go code between its system
// calls. With GOMAXPROCS at the CPU count, the Ps become a lock with
// that many slots over all the jobs: when the kernel preempts a thread
// that holds a P (as it does on a busy machine), every job waiting for
// that P stalls with it, where fio's job processes would simply run. On
// a 2-CPU machine shared with other work, numjobs=64 psync on the page
// cache did 0.4–0.5× fio's IOPS that way, and 1.05–1.1× with one P per
// job (docs/perf.md, "Many jobs on few cores").

// helperProcs are the Ps kept for the goroutines beside the jobs: the
// ticker, the disk sampler and the main goroutine's status line.
const helperProcs = 2

// procsFor returns the GOMAXPROCS for running workers jobs at once, when
// it is current now: one P per job plus the helpers', never fewer than
// current.
func procsFor(workers, current int) int {
	return max(current, workers+helperProcs)
}

// RaiseProcs makes room for workers jobs running at once and returns a
// function that restores the previous setting.
func RaiseProcs(workers int) (restore func()) {
	prev := runtime.GOMAXPROCS(0)
	if n := procsFor(workers, prev); n != prev {
		runtime.GOMAXPROCS(n)
		return func() { runtime.GOMAXPROCS(prev) }
	}
	return func() {}
}
