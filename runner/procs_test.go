package runner

import (
	"testing"

	"github.com/gofio/gofio/runner/engine"
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

func TestOnHangProneFS(t *testing.T) {
	// The test machine's temporary directory is local; a path not created
	// yet is judged by the directory it would be created in.
	dir := t.TempDir()
	for _, p := range []string{dir, dir + "/not/yet/created", "/proc/self"} {
		if engine.OnHangProneFS(p) {
			t.Errorf("onHangProneFS(%q) = true, want false (local)", p)
		}
	}
}
