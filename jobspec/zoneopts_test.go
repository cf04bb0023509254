package jobspec

import (
	"testing"
)

// TestZoneErrors checks fio 3.33's refusals of zone settings.
func TestZoneErrors(t *testing.T) {
	tests := []struct {
		cmdline []string
		stderr  string
	}{
		{[]string{"name=a", "zonesize=8k"}, "fio: --zonemode=none and --zonesize are not compatible.\n"},
		{[]string{"name=a", "zonemode=strided", "zonerange=8k"}, "fio: --zonesize must be specified when using --zonemode=strided.\n"},
		{[]string{"name=a", "zone_reset_threshold=2"}, "value out of range: 2.000000 (range max: 1.000000)\nfio: failed parsing zone_reset_threshold=2\n"},
		{[]string{"name=a", "zone_reset_frequency=-1"}, "value out of range: -1.000000 (range min: 0.000000)\nfio: failed parsing zone_reset_frequency=-1\n"},
		{[]string{"name=a", "max_open_zones=5000"}, "max_open_zones: max value out of range: 5000 (4096 max)\nfio: failed parsing max_open_zones=5000\n"},
	}
	for _, tt := range tests {
		s := &session{cmdline: tt.cmdline}
		if _, err := s.run(t); err == nil || s.stderr.String() != tt.stderr {
			t.Errorf("%v: %v, stderr %q; want %q", tt.cmdline, err, s.stderr.String(), tt.stderr)
		}
	}
}

// TestZoneOptions checks what the zone options set.
func TestZoneOptions(t *testing.T) {
	s := &session{cmdline: []string{"name=a", "zonemode=strided", "zonesize=8k", "zonerange=16k", "zoneskip=10%",
		"zonecapacity=4k", "max_open_zones=3", "job_max_open_zones=2", "read_beyond_wp=1", "ignore_zone_limits=1",
		"zone_reset_threshold=0.5", "zone_reset_frequency=0.25"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err)
	}
	want := ZoneOptions{Mode: ZoneStrided, Size: 8192, Range: 16384, Skip: -11, Capacity: 4096, MaxOpenZones: 3,
		JobMaxOpenZones: 2, ReadBeyondWP: true, IgnoreZoneLimits: true, ResetThreshold: 0.5, ResetFrequency: 0.25}
	if got := p.Jobs[0].Zone; got != want {
		t.Errorf("Zone = %+v, want %+v", got, want)
	}
	s = &session{cmdline: []string{"name=a", "zonemode=zbd", "zonesize=8k"}}
	if p, err = s.run(t); err != nil {
		t.Fatalf("zonemode=zbd: %v", err)
	}
	if err := p.Unsupported(); err != nil {
		t.Errorf("zonemode=zbd refused: %v", err)
	}
	if z := p.Jobs[0].Zone; z.Mode != ZoneZBD || z.Size != 8192 {
		t.Errorf("zonemode=zbd: Zone = %+v", z)
	}
}
