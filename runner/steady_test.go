package runner

import (
	"testing"
)

// A rate-limited job meets a loose criterion at its first sample and
// stops long before its runtime; one that cannot meet it runs to the end
// and reports attained=no.
func TestSteadyStateStops(t *testing.T) {
	cases := []struct {
		name     string
		ss       string
		attained bool
	}{
		{"met", "ss=iops:50%", true},
		{"not met", "ss=iops:0", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			oc, _ := runJobs(t, t.TempDir(), "name=s", "ioengine=null", "size=1g", "rate_iops=1000",
				"time_based", "runtime=2", c.ss, "ss_dur=1")
			j := &oc.Result.Jobs[0]
			ss := j.Steady
			if ss == nil {
				t.Fatal("no steadystate result")
			}
			rt := j.Stats.RuntimeMS
			if ss.Attained != c.attained || (c.attained && rt > 1500) || (!c.attained && rt < 1900) {
				t.Errorf("attained %v after %d ms; want %v", ss.Attained, rt, c.attained)
			}
			if len(ss.IOPSData) != 1 || ss.IOPSData[0] < 500 {
				t.Errorf("iops data %v; want one sample near 1000", ss.IOPSData)
			}
		})
	}
}

// steadystate_duration counts whole seconds: under one turns detection
// off, and the report has no steadystate part (fio 3.33 does the same).
func TestSteadyStateUnderASecond(t *testing.T) {
	for _, dur := range []string{"ss_dur=500ms", "ss_dur=0"} {
		oc, _ := runJobs(t, t.TempDir(), "name=s", "ioengine=null", "size=64k", "ss=iops:5%", dur)
		if ss := oc.Result.Jobs[0].Steady; ss != nil {
			t.Errorf("%s: steadystate %+v; want none", dur, ss)
		}
	}
	oc, _ := runJobs(t, t.TempDir(), "name=s", "ioengine=null", "size=64k", "ss=iops:5%", "ss_dur=1500ms")
	if ss := oc.Result.Jobs[0].Steady; ss == nil || ss.DurationS != 1 || len(ss.IOPSData) != 1 {
		t.Errorf("ss_dur=1500ms: steadystate %+v; want a window of 1 s", ss)
	}
}
