package clock

import (
	"testing"
	"time"
)

// Now never goes backwards.
func TestNowMonotonic(t *testing.T) {
	prev := Now()
	for i := 0; i < 100000; i++ {
		n := Now()
		if n < prev {
			t.Fatalf("reading %d: %d after %d", i, n, prev)
		}
		prev = n
	}
}

// Now advances as time.Since does: an interval measured by both, with
// Now's readings inside time.Since's, is no longer and at most 50 ms
// shorter (the slack covers a descheduling between the four readings on a
// loaded machine; both read the same monotonic clock).
func TestNowAgreesWithTimeSince(t *testing.T) {
	const tolerance = 50 * time.Millisecond
	start := time.Now()
	a := Now()
	time.Sleep(20 * time.Millisecond)
	b := Now()
	since := time.Since(start)
	got := time.Duration(b - a)
	if got < 20*time.Millisecond {
		t.Errorf("Now advanced %v over a 20ms sleep", got)
	}
	if got > since || since-got > tolerance {
		t.Errorf("Now advanced %v, time.Since %v: want at most %v apart, Now's no longer", got, since, tolerance)
	}
}

// Sleep sleeps at least as long as asked.
func TestSleep(t *testing.T) {
	const ns = 5e6
	a := Now()
	Sleep(ns)
	if d := Now() - a; d < ns {
		t.Errorf("Sleep(%d) returned after %d ns", int64(ns), d)
	}
}
