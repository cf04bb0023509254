package jobspec

import (
	"fmt"
	"strings"
)

// Limits holds the options that end or steer a job by how fast it runs:
// rate_min, rate_iops_min and max_latency end a job that is too slow; the
// latency target options make it search for the deepest queue that keeps
// its latency.
type Limits struct {
	RateMin     [3]uint64 // rate_min: bytes/s per direction; 0: none
	RateIOPSMin [3]uint64 // rate_iops_min: I/Os per second per direction
	MaxLatency  [3]uint64 // max_latency: µs per direction; 0: none

	LatencyTarget     uint64  // latency_target, µs; 0: no target
	LatencyWindow     uint64  // latency_window, µs
	LatencyPercentile float64 // latency_percentile, percent (default 100)
	LatencyRun        bool    // latency_run: keep adjusting
}

// setPerDirTime returns a setter for a per-direction time option stored
// in µs (max_latency): "a,b,c" as for blocksize, a single value for all.
func setPerDirTime(field func(*Job) *[3]uint64) func(*Job, string) error {
	return func(j *Job, value string) error {
		var set bool
		f := field(j)
		for i, p := range pieces(value, true) {
			if i >= 3 {
				break
			}
			// fio reads each comma-separated value on its own here:
			// max_latency=1h,1ns keeps reads under an hour (measured),
			// where the rest of the value as the unit would read "h,1ns"
			// as no unit.
			text, _, _ := strings.Cut(p.Text, ",")
			v, err := parseTimeInt(text, 1)
			if err != nil || v < 0 {
				continue
			}
			for k := i; k < 3 && (k == i || !p.More); k++ {
				f[k] = uint64(v)
			}
			set = true
		}
		if !set {
			return errNoNumber
		}
		return nil
	}
}

// rateMinProblems returns fio's lines for each direction whose minimum
// rate is above its cap (rate_min over rate, rate_iops_min over
// rate_iops), or "" when none is.
func (j *Job) rateMinProblems() string {
	msg := ""
	for d := range 3 {
		if (j.Rate[d] != 0 && j.RateMin[d] > j.Rate[d]) || (j.RateIOPS[d] != 0 && j.RateIOPSMin[d] > j.RateIOPS[d]) {
			if msg != "" {
				msg += "\n"
			}
			msg += fmt.Sprintf("fio: minimum rate exceeds rate, ddir %d", d)
		}
	}
	return msg
}
