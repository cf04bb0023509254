package host

import (
	"testing"
)

func TestProcsFor(t *testing.T) {
	tests := []struct {
		workers, current, want int
	}{
		{workers: 1, current: 2, want: 3},
		{workers: 0, current: 2, want: 2},
		{workers: 1, current: 16, want: 16},
		{workers: 64, current: 2, want: 66},
		{workers: 64, current: 128, want: 128},
	}
	for _, tt := range tests {
		if got := procsFor(tt.workers, tt.current); got != tt.want {
			t.Errorf("procsFor(%d, %d) = %d, want %d", tt.workers, tt.current, got, tt.want)
		}
	}
}
