// Package limits is the options that end a job for being too slow (rate_min,
// rate_iops_min, max_latency) and the latency target mode, which searches
// for the deepest queue that keeps latency_percentile of the I/Os of each
// latency_window within latency_target (runner/lattarget).
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
package limits

import (
	"fmt"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/lattarget"
	"github.com/gofio/gofio/stats"
)

// rateCheckDelay is how long fio lets a job run, after its ramp, before
// its first rate_min check (measured: the first failure comes 2 s plus
// rate_cycle after the start, whatever the rate_cycle).
const rateCheckDelay = 2e9

// Limits is a job's rate_min, max_latency and latency target state.
type Limits struct {
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

	lt *lattarget.Search // latency_target state; nil without it
}

// New returns job j's limits, or nil when it sets none.
func New(j *jobspec.Job) *Limits {
	l := &Limits{cycle: int64(j.RateCycle) * 1e6}
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

// Target is the latency target's depth search; nil without one.
func (l *Limits) Target() *lattarget.Search { return l.lt }

// ChecksMin reports whether a minimum rate is set.
func (l *Limits) ChecksMin() bool { return l.checkMin }

// Count counts one accounted completion of n bytes of direction d with
// total latency lat (ns), and reports the direction's max_latency when
// lat is over it.
func (l *Limits) Count(d stats.Dir, n uint64, lat int64) (most int64, over bool) {
	if d >= 3 {
		return 0, false
	}
	l.bytes[d] += n
	l.ios[d]++
	if l.checkLat && l.maxLat[d] > 0 && lat > l.maxLat[d] {
		return l.maxLat[d], true
	}
	return 0, false
}

// CheckMin compares the rates since the last baseline with the minimums
// once a rate_cycle has passed, at now in a job measuring since epoch
// (named name); it returns the message of a missed minimum (the job then
// ends), "" otherwise.
func (l *Limits) CheckMin(now, epoch int64, name string) string {
	if now-epoch < rateCheckDelay {
		return ""
	}
	if !l.baseSet {
		l.rebase(now)
		return ""
	}
	spent := (now - l.baseAt) / 1e6
	if now-l.baseAt < l.cycle || spent == 0 {
		return ""
	}
	for d := range 3 {
		if l.ios[d] == 0 {
			continue // a direction the job has not done is not checked
		}
		if l.rateMin[d] > 0 {
			got := (l.bytes[d] - l.baseBytes[d]) * 1000 / uint64(spent)
			if got < l.rateMin[d] {
				return fmt.Sprintf("%s: rate_min=%dB/s not met, got %dB/s\n", name, l.rateMin[d], got)
			}
		}
		if l.iopsMin[d] > 0 {
			got := (l.ios[d] - l.baseIOs[d]) * 1000 / uint64(spent)
			if got < l.iopsMin[d] {
				return fmt.Sprintf("%s: rate_iops_min=%d not met, got %d IOPS\n", name, l.iopsMin[d], got)
			}
		}
	}
	l.rebase(now)
	return ""
}

// rebase takes the rates' baseline at now.
func (l *Limits) rebase(now int64) {
	l.baseSet, l.baseAt = true, now
	l.baseBytes, l.baseIOs = l.bytes, l.ios
}

// Restart forgets the counts taken before now (the measurement
// restarted).
func (l *Limits) Restart() {
	l.bytes, l.ios = [3]uint64{}, [3]uint64{}
	l.baseSet = false
}
