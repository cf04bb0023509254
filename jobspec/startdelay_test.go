package jobspec

import "testing"

// TestDrawStartDelay checks startdelay ranges against the delays fio 3.33
// draws (its model, checked by the jobs' start times in
// conformance/startdelay_test.go).
func TestDrawStartDelay(t *testing.T) {
	tests := []struct {
		name string
		set  func(j *Job)
		want uint64
	}{
		{"default", func(j *Job) {}, 2339105},
		{"second job", func(j *Job) { j.ThreadNumber = 2 }, 1175553},
		{"randseed", func(j *Job) { j.RandSeed, j.RandSeedSet = 3, true }, 2888916},
		{"allrandrepeat", func(j *Job) { j.AllRandRepeat = true }, 2891629},
		{"ms range", func(j *Job) { j.ThreadNumber, j.StartDelay, j.StartDelayHigh = 2, 500000, 2000000 }, 631665},
		{"no range", func(j *Job) { j.StartDelayHigh = 0 }, 1000000},
	}
	for _, tt := range tests {
		j := defaults()
		j.ThreadNumber, j.StartDelay, j.StartDelayHigh = 1, 1000000, 3000000
		tt.set(j)
		j.drawStartDelay()
		if j.StartDelay != tt.want {
			t.Errorf("%s: startdelay %d µs, want %d", tt.name, j.StartDelay, tt.want)
		}
	}
}

// TestStartDelayRange checks that startdelay reads both ends of a range.
func TestStartDelayRange(t *testing.T) {
	for _, tt := range []struct {
		value    string
		lo, high uint64
	}{
		{"1-3", 1000000, 3000000},
		{"500ms-2s", 500000, 2000000},
		{"2", 2000000, 0},
	} {
		j := defaults()
		if err := setStartDelay(j, tt.value); err != nil {
			t.Fatalf("%s: %v", tt.value, err)
		}
		if j.StartDelay != tt.lo || j.StartDelayHigh != tt.high {
			t.Errorf("startdelay=%s: %d-%d, want %d-%d", tt.value, j.StartDelay, j.StartDelayHigh, tt.lo, tt.high)
		}
	}
}
