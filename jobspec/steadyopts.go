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

// steadyCriteria are steadystate's criteria, one per word of its row.
var steadyCriteria = choiceValues("steadystate", steadyCriterion{iops: true}, steadyCriterion{iops: true, slope: true},
	steadyCriterion{}, steadyCriterion{slope: true})

// steadyCriterion is what a steadystate word measures.
type steadyCriterion struct{ iops, slope bool }

// setSteadyState reads steadystate=CRITERION:LIMIT[%]. The parse-time
// handler (checkSteadyState) has already refused the malformed values
// with fio's messages.
func setSteadyState(j *Job, i int, word, value string) error {
	limit, ok := postfix(value, word)
	if !ok {
		return errChoice
	}
	c := steadyCriteria[i]
	ss := SteadyOptions{
		IOPS:     c.iops,
		Slope:    c.slope,
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
