package jobspec

import (
	"strings"
)

// SteadyOptions are the steady-state options: steadystate (ss),
// steadystate_duration (ss_dur) and steadystate_ramp_time (ss_ramp).
// Detection is off while Duration is 0.
type SteadyOptions struct {
	// IOPS selects the IOPS samples, else bandwidth; Slope the least
	// squares slope criterion, else the maximum deviation from the mean.
	IOPS, Slope bool
	// Limit is the threshold, a percentage of the window's mean when Pct
	// is set.
	Limit float64
	Pct   bool
	// Duration and RampTime are in µs.
	Duration uint64
	RampTime uint64
}

// setSteadyState reads steadystate=CRITERION:LIMIT[%]. The parse-time
// handler (checkSteadyState) has already refused the malformed values
// with fio's messages.
func setSteadyState(j *Job, value string) error {
	var word string
	for _, w := range []string{"iops", "iops_slope", "bw", "bw_slope"} {
		if matchChoice(value, w) {
			word = w
			break
		}
	}
	limit, ok := postfix(value, word)
	if word == "" || !ok {
		return errChoice
	}
	ss := SteadyOptions{
		IOPS:     strings.HasPrefix(word, "iops"),
		Slope:    strings.HasSuffix(word, "_slope"),
		Duration: j.Steady.Duration,
		RampTime: j.Steady.RampTime,
	}
	switch {
	case strings.Contains(limit, "%"):
		ss.Pct = true
		ss.Limit, _ = cStrtod(limit)
	case ss.Slope:
		ss.Limit, _ = cStrtod(limit)
	default:
		v, err := parseSize(limit, j.KBBase)
		if err != nil {
			return err
		}
		ss.Limit = float64(v.N)
	}
	j.Steady = ss
	return nil
}
