package parser

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// naiveDidYouMean is DidYouMean as a full edit-distance scan.
func naiveDidYouMean(typed string, names []string) string {
	limit := (len(typed) + 1) / 2
	best, bestDist := "", limit+1
	for _, n := range names {
		if d := naiveDistance(typed, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

func naiveDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
		}
	}
	return d[len(a)][len(b)]
}

// testNames are option names of the lengths fio's table has.
var testNames = []string{"name", "bs", "blocksize", "rw", "readwrite", "iodepth", "iodepth_batch",
	"iodepth_low", "numjobs", "size", "filesize", "filename", "directory", "ioengine",
	"time_based", "runtime", "ramp_time", "group_reporting", "randrepeat", "norandommap",
	"rwmixread", "rwmixwrite", "verify", "verify_pattern", "do_verify", "write_bw_log", "flow"}

func TestClosestMatchesFullScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abdeioprstw_x="
	for range 3000 {
		var b strings.Builder
		if r.IntN(2) == 0 {
			// A typo of a real name.
			n := []byte(testNames[r.IntN(len(testNames))])
			for range r.IntN(4) {
				i := r.IntN(len(n) + 1)
				n = append(n[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, n[i:]...)...)
			}
			b.Write(n)
		} else {
			for range r.IntN(20) {
				b.WriteByte(alphabet[r.IntN(len(alphabet))])
			}
		}
		typed := b.String()
		if got, want := DidYouMean(typed, testNames), naiveDidYouMean(typed, testNames); got != want {
			t.Fatalf("DidYouMean(%q) = %q, full scan %q", typed, got, want)
		}
		for _, n := range testNames[:5] {
			if got, want := EditDistance(typed, n), naiveDistance(typed, n); got != want {
				t.Fatalf("EditDistance(%q, %q) = %d, want %d", typed, n, got, want)
			}
		}
	}
	for _, tt := range []struct {
		typed string
		max   int
		want  string
	}{
		{"bs", 0, "bs"}, {"bz", 0, ""}, {"bz", 1, "bs"}, {"iodepht", 2, "iodepth"}, {"", 2, "bs"}, {"", 1, ""},
	} {
		if got := Closest(tt.typed, testNames, tt.max); got != tt.want {
			t.Errorf("Closest(%q, %d) = %q, want %q", tt.typed, tt.max, got, tt.want)
		}
	}
}

// TestDidYouMeanHugeInput: an unknown option of a million bytes is
// rejected at once. A full edit-distance table against every name takes
// seconds here (about 10^10 steps); the bound is 100 times what the
// pruned search needs on a loaded machine.
func TestDidYouMeanHugeInput(t *testing.T) {
	names := make([]string, 0, 15*len(testNames))
	for range 15 {
		names = append(names, testNames...)
	}
	for _, typed := range []string{strings.Repeat("x", 1_000_000), "bs=" + strings.Repeat("4k", 500_000)} {
		start := time.Now()
		if got := DidYouMean(typed, names); got != "" {
			t.Errorf("suggestion %q", got)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("DidYouMean on %d bytes took %v", len(typed), d)
		}
	}
}
