package runner

// Limits: the options that end a job for being too slow (rate_min,
// rate_iops_min, max_latency) and the latency target mode, which searches
// for the deepest queue that keeps latency_percentile of the I/Os of each
// latency_window within latency_target (latency.go).
//
// What fio 3.33 was seen to do, and what this does:
//
//   - rate_min / rate_iops_min: the rates are first checked once two
//     seconds of measured time (after ramp_time) have passed; that check
//     only takes a baseline. From then on, every completion at least
//     rate_cycle ms after the last baseline compares the bytes (I/Os) done
//     since it with the minimum, as bytes×1000/ms, and moves the baseline.
//     A miss prints "NAME: rate_min=NB/s not met, got MB/s" (or
//     "NAME: rate_iops_min=N not met, got M IOPS") on stderr and ends the
//     job with EIO in check_min_rate.
//   - max_latency: a completion whose total latency (submission to
//     completion) is over the direction's maximum prints "fio: latency of
//     N nsec exceeds specified max (M nsec): FILE DIR OFFSET LEN" on
//     stderr and ends the job with ETIMEDOUT in "max latency exceeded".
//
// Neither is checked during ramp_time. Only a job with one of these
// options has a limits value; the I/O loop tests one pointer per I/O.

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/lattarget"
	"github.com/gofio/gofio/stats"
)

// rateCheckDelay is how long fio lets a job run, after its ramp, before
// its first rate_min check (measured: the first failure comes 2 s plus
// rate_cycle after the start, whatever the rate_cycle).
const rateCheckDelay = 2e9

// limits is a worker's rate_min, max_latency and latency target state.
type limits struct {
	rateMin  [3]uint64 // bytes/s; 0: none
	iopsMin  [3]uint64 // I/Os per second; 0: none
	checkMin bool      // a minimum is set
	cycle    int64     // rate_cycle, ns
	maxLat   [3]int64  // ns; 0: none
	checkLat bool      // a maximum is set

	bytes, ios [3]uint64 // done since the measurement started
	baseSet    bool      // a baseline was taken
	baseAt     int64     // its time
	baseBytes  [3]uint64
	baseIOs    [3]uint64

	lt *lattarget.Search // latency_target state (runner/lattarget); nil without it
}

// newLimits returns job j's limits, or nil when it sets none.
func newLimits(j *jobspec.Job) *limits {
	l := &limits{cycle: int64(j.RateCycle) * 1e6}
	for d := range 3 {
		l.rateMin[d], l.iopsMin[d] = j.RateMin[d], j.RateIOPSMin[d]
		l.maxLat[d] = int64(j.MaxLatency[d]) * 1000
		l.checkMin = l.checkMin || l.rateMin[d] > 0 || l.iopsMin[d] > 0
		l.checkLat = l.checkLat || l.maxLat[d] > 0
	}
	if j.LatencyTarget > 0 {
		l.lt = lattarget.New(j)
	}
	if !l.checkMin && !l.checkLat && l.lt == nil {
		return nil
	}
	return l
}

// limitsCompleted checks one accounted completion of direction d with total
// latency lat (ns), done at now.
func (w *worker) limitsCompleted(u *engine.IOUnit, d stats.Dir, lat, now int64) {
	l := w.lim
	if d < 3 {
		l.bytes[d] += uint64(u.Result)
		l.ios[d]++
		if l.checkLat && l.maxLat[d] > 0 && lat > l.maxLat[d] {
			w.latencyExceeded(u, lat, l.maxLat[d])
		}
	}
	if l.checkMin {
		w.checkMinRate(now)
	}
	if l.lt != nil {
		w.latTargetCompleted(u, lat, now)
	}
}

// latencyExceeded ends the job for an I/O whose latency lat is over max.
func (w *worker) latencyExceeded(u *engine.IOUnit, lat, max int64) {
	if w.err != 0 {
		return
	}
	if w.ioerr.out != nil {
		fmt.Fprintf(w.ioerr.out, "fio: latency of %d nsec exceeds specified max (%d nsec): %s %s %d %d\n",
			lat, max, w.files[u.File].path, opNames[u.Op], u.Offset, len(u.Buf))
	}
	w.fail(unix.ETIMEDOUT, "max latency exceeded")
}

// checkMinRate compares the rates since the last baseline with the
// minimums once a rate_cycle has passed.
func (w *worker) checkMinRate(now int64) {
	l := w.lim
	if w.err != 0 || now-w.epoch < rateCheckDelay {
		return
	}
	if !l.baseSet {
		l.rebase(now)
		return
	}
	spent := (now - l.baseAt) / 1e6
	if now-l.baseAt < l.cycle || spent == 0 {
		return
	}
	for d := range 3 {
		if l.ios[d] == 0 {
			continue // a direction the job has not done is not checked
		}
		if l.rateMin[d] > 0 {
			got := (l.bytes[d] - l.baseBytes[d]) * 1000 / uint64(spent)
			if got < l.rateMin[d] {
				w.minRateMissed(fmt.Sprintf("%s: rate_min=%dB/s not met, got %dB/s\n", w.job.Name, l.rateMin[d], got))
				return
			}
		}
		if l.iopsMin[d] > 0 {
			got := (l.ios[d] - l.baseIOs[d]) * 1000 / uint64(spent)
			if got < l.iopsMin[d] {
				w.minRateMissed(fmt.Sprintf("%s: rate_iops_min=%d not met, got %d IOPS\n", w.job.Name, l.iopsMin[d], got))
				return
			}
		}
	}
	l.rebase(now)
}

// rebase takes the rates' baseline at now.
func (l *limits) rebase(now int64) {
	l.baseSet, l.baseAt = true, now
	l.baseBytes, l.baseIOs = l.bytes, l.ios
}

// minRateMissed reports a missed minimum rate and ends the job.
func (w *worker) minRateMissed(msg string) {
	if w.ioerr.out != nil {
		fmt.Fprint(w.ioerr.out, msg)
	}
	w.fail(unix.EIO, "check_min_rate")
}

// quiesce reports whether the I/Os still in flight when the job stops
// are accounted as they complete: after a limit ended the job, fio counts
// them (a max_latency failure at iodepth 8 reports all 8 I/Os).
func (l *limits) quiesce(w *worker) bool {
	return w.errFunc == "max latency exceeded" || w.errFunc == "check_min_rate"
}

// restart forgets the counts taken before now (the measurement
// restarted).
func (l *limits) restart() {
	l.bytes, l.ios = [3]uint64{}, [3]uint64{}
	l.baseSet = false
}
