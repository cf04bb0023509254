package statlog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofio/gofio/stats"
)

// TestHistLogWindows checks when histogram lines are logged and how many
// completions each holds, against fio 3.33 runs of rate-limited null
// jobs (completions every 100 ms or every 1 ms).
func TestHistLogWindows(t *testing.T) {
	every := func(step, n int64) []int64 {
		var at []int64
		for i := range n {
			at = append(at, i*step)
		}
		return at
	}
	tests := []struct {
		name string
		msec int
		at   []int64 // completion times, ms since the epoch
		want string  // "time:completions" per line
	}{
		{"10/s, 100 ms", 100, every(100, 5), "200:3 300:1 400:1"},
		{"10/s, 150 ms", 150, every(100, 5), "300:4 400:1"},
		{"10/s, 250 ms", 250, every(100, 5), "400:5"},
		{"1000/s, 150 ms", 150, every(1, 1000), "151:152 301:150 451:150 601:150 751:150 901:150"},
		{"log_hist_msec=0 logs nothing", 0, every(100, 5), ""},
	}
	for _, tt := range tests {
		h := newHistLog(tt.msec, 6)
		const epoch = 1e9
		for _, at := range tt.at {
			h.add(stats.Read, epoch+at*1e6, epoch, 1000, 4096)
		}
		var got []string
		for _, l := range h.lines {
			if len(l.bins) != 29 {
				t.Fatalf("%s: %d bins, want 29 (1856>>6)", tt.name, len(l.bins))
			}
			sum := uint64(0)
			for _, b := range l.bins {
				sum += b
			}
			got = append(got, fmt.Sprintf("%d:%d", (l.at-epoch)/1e6, sum))
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s: lines %q, want %q", tt.name, g, tt.want)
		}
	}
}

// TestHistLogFile checks a line's layout and the coarse bins: bucket i
// of fio's histogram lands in bin i>>coarseness.
func TestHistLogFile(t *testing.T) {
	h := newHistLog(1, 4)
	const epoch = 1e9
	h.add(stats.Write, epoch, epoch, 100, 512)       // bucket 100 → bin 6
	h.add(stats.Write, epoch+2e6, epoch, 5, 512)     // bucket 5 → bin 0
	h.add(stats.Write, epoch+3e6, epoch, 1<<40, 512) // past the last bucket → last bin; logs the window
	h.add(stats.Write, epoch+5e6, epoch, 5, 512)     // logs the next window
	name := filepath.Join(t.TempDir(), "h_clat_hist.1.log")
	if err := h.writeFile(&Logs{}, name, epoch); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), b)
	}
	want := func(prefix string, bins map[int]int) string {
		f := make([]string, 116)
		for i := range f {
			f[i] = fmt.Sprint(bins[i])
		}
		return prefix + ", " + strings.Join(f, ", ")
	}
	if w := want("3, 1, 512", map[int]int{0: 1, 6: 1, 115: 1}); lines[0] != w {
		t.Errorf("line 1:\n%s\nwant\n%s", lines[0], w)
	}
	if w := want("5, 1, 512", map[int]int{0: 1}); lines[1] != w {
		t.Errorf("line 2:\n%s\nwant\n%s", lines[1], w)
	}
}
