package runner

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// The TSC clock is used unless a job asks for clock_gettime
// (clocksource=cpu and the default leave it to gofio, as in fio).
func TestWantsCPUClock(t *testing.T) {
	job := func(c jobspec.ClockSource) *jobspec.Job {
		j := &jobspec.Job{}
		j.Misc.Clock = c
		return j
	}
	for _, c := range []struct {
		clocks []jobspec.ClockSource
		want   bool
	}{
		{nil, true},
		{[]jobspec.ClockSource{jobspec.ClockDefault}, true},
		{[]jobspec.ClockSource{jobspec.ClockCPU, jobspec.ClockDefault}, true},
		{[]jobspec.ClockSource{jobspec.ClockDefault, jobspec.ClockGettime}, false},
	} {
		plan := &jobspec.Plan{}
		for _, cl := range c.clocks {
			plan.Jobs = append(plan.Jobs, job(cl))
		}
		if got := wantsCPUClock(plan); got != c.want {
			t.Errorf("clocks %v: %v, want %v", c.clocks, got, c.want)
		}
	}
}
