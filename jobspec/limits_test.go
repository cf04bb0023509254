package jobspec

import (
	"reflect"
	"testing"
)

// TestLimitsSetters checks what rate_min, rate_iops_min, max_latency and
// the latency target options store.
func TestLimitsSetters(t *testing.T) {
	def := defaults().Limits
	with := func(f func(*Limits)) Limits {
		l := def
		f(&l)
		return l
	}
	tests := []struct {
		args []string
		want Limits
	}{
		{nil, def},
		{[]string{"rate_min=1m"}, with(func(l *Limits) { l.RateMin = [3]uint64{1 << 20, 1 << 20, 1 << 20} })},
		{[]string{"ratemin=1k,2k"}, with(func(l *Limits) { l.RateMin = [3]uint64{1024, 2048, 2048} })},
		{[]string{"rate_min=,2k"}, with(func(l *Limits) { l.RateMin = [3]uint64{0, 2048, 2048} })},
		{[]string{"rate_iops_min=100"}, with(func(l *Limits) { l.RateIOPSMin = [3]uint64{100, 100, 100} })},
		{[]string{"rate_iops_min=5,6,7"}, with(func(l *Limits) { l.RateIOPSMin = [3]uint64{5, 6, 7} })},
		{[]string{"max_latency=10"}, with(func(l *Limits) { l.MaxLatency = [3]uint64{10, 10, 10} })},
		{[]string{"max_latency=2,1000"}, with(func(l *Limits) { l.MaxLatency = [3]uint64{2, 1000, 1000} })},
		{[]string{"max_latency=1ms,5s"}, with(func(l *Limits) { l.MaxLatency = [3]uint64{1000, 5000000, 5000000} })},
		{[]string{"max_latency=1ns"}, with(func(l *Limits) { l.MaxLatency = [3]uint64{1, 1, 1} })}, // fio: "max (1000 nsec)"
		// Each comma-separated value keeps its own unit (fio: a read job
		// with max_latency=1h,1ns runs clean).
		{[]string{"max_latency=1h,1ns"}, with(func(l *Limits) { l.MaxLatency = [3]uint64{3600000000, 1, 1} })},
		{[]string{"max_latency=1s,2s"}, with(func(l *Limits) { l.MaxLatency = [3]uint64{1000000, 2000000, 2000000} })},
		{[]string{"latency_target=2ms", "latency_window=100ms", "latency_percentile=99.5", "latency_run=1"},
			with(func(l *Limits) {
				l.LatencyTarget, l.LatencyWindow, l.LatencyPercentile, l.LatencyRun = 2000, 100000, 99.5, true
			})},
		{[]string{"latency_target=50"}, with(func(l *Limits) { l.LatencyTarget = 50 })},
	}
	for _, tt := range tests {
		s := &session{cmdline: append([]string{"name=a"}, tt.args...)}
		p, err := s.run(t)
		if err != nil {
			t.Errorf("%q: %v\n%s", tt.args, err, s.stderr.String())
			continue
		}
		if err := p.Unsupported(); err != nil {
			t.Errorf("%q: %v", tt.args, err)
		}
		if got := p.Jobs[0].Limits; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %+v; want %+v", tt.args, got, tt.want)
		}
	}
}

// TestRateMinChecks checks fio 3.33's refusal of a minimum rate above the
// rate cap (observed: one line per direction, exit status 1; rate_min and
// rate_iops_min are each checked against their own cap only).
func TestRateMinChecks(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"rate=10k,0", "rate_min=20k"}, "fio: minimum rate exceeds rate, ddir 0\n"},
		{[]string{"rate=1m", "rate_min=2m"}, "fio: minimum rate exceeds rate, ddir 0\nfio: minimum rate exceeds rate, ddir 1\nfio: minimum rate exceeds rate, ddir 2\n"},
		{[]string{"rate_iops=10", "rate_iops_min=20"}, "fio: minimum rate exceeds rate, ddir 0\nfio: minimum rate exceeds rate, ddir 1\nfio: minimum rate exceeds rate, ddir 2\n"},
		{[]string{"rate=1m", "rate_min=1m"}, ""},
		{[]string{"rate=10k", "rate_iops_min=20"}, ""},
		{[]string{"rate_iops=10", "rate_min=20k"}, ""},
		{[]string{"rate_min=20k"}, ""},
	}
	for _, tt := range tests {
		s := &session{cmdline: append([]string{"name=a"}, tt.args...)}
		_, err := s.run(t)
		if (err != nil) != (tt.stderr != "") {
			t.Errorf("%q: error %v; want one: %v", tt.args, err, tt.stderr != "")
		}
		if got := s.stderr.String(); got != tt.stderr {
			t.Errorf("%q: stderr %q; want %q", tt.args, got, tt.stderr)
		}
	}
}
