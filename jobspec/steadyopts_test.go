package jobspec

import "testing"

func TestSteadyOptions(t *testing.T) {
	tests := []struct {
		file string
		want SteadyOptions
	}{
		{"[a]\n", SteadyOptions{IOPS: true, Slope: true, Limit: 0.01, Pct: true}},
		{"[a]\nss=iops:5%\nss_dur=3\n", SteadyOptions{IOPS: true, Limit: 5, Pct: true, Duration: 3e6}},
		{"[a]\nsteadystate=bw_slope:0.5\nsteadystate_duration=2m\nss_ramp=10\n",
			SteadyOptions{Slope: true, Limit: 0.5, Duration: 120e6, RampTime: 10e6}},
		// A fixed bandwidth limit is a size.
		{"[a]\nss=bw:1m\n", SteadyOptions{Limit: 1 << 20}},
		{"[a]\nss=iops_slope:2\nss_dur=1500ms\n", SteadyOptions{IOPS: true, Slope: true, Limit: 2, Duration: 1.5e6}},
	}
	for _, tt := range tests {
		s := &session{files: []string{tt.file}}
		p, err := s.run(t)
		if err != nil {
			t.Fatalf("%q: %v", tt.file, err)
		}
		if got := p.Jobs[0].Steady; got != tt.want {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tt.file, got, tt.want)
		}
		if err := p.Unsupported(); err != nil {
			t.Errorf("%q: %v", tt.file, err)
		}
	}
}
