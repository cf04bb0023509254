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

// With the TSC (where the kernel keeps time with it), Now follows the
// runtime's clock: over a 30 ms sleep both advance alike, within 0.1 %
// plus 100 µs (the calibration's error is parts per million; the slack
// covers a descheduling between readings on a loaded machine), and it
// never goes backwards.
func TestTSCFollowsRuntimeClock(t *testing.T) {
	if !UseTSC() {
		t.Skip("no TSC clock here (kernel clock source is not tsc, or not amd64)")
	}
	a, na := Now(), nanotime()
	time.Sleep(30 * time.Millisecond)
	b, nb := Now(), nanotime()
	got, want := b-a, nb-na
	if d := got - want; d > want/1000+100000 || -d > want/1000+100000 {
		t.Errorf("TSC clock advanced %d ns, runtime clock %d ns", got, want)
	}
	prev := Now()
	for i := 0; i < 100000; i++ {
		n := Now()
		if n < prev {
			t.Fatalf("reading %d: %d after %d", i, n, prev)
		}
		prev = n
	}
}

// The scale maps a TSC difference to nanoseconds: mult is ns per tick
// times 2³².
func TestTSCScale(t *testing.T) {
	c := tscScale{tscBase: 1000, nsBase: 5, mult: 1 << 31} // 2 ticks per ns
	for _, x := range []struct {
		ticks uint64
		ns    int64
	}{{0, 5}, {2, 6}, {3000, 1505}, {1 << 40, 5 + 1<<39}} {
		if got := c.at(c.tscBase + x.ticks); got != x.ns {
			t.Errorf("%d ticks: %d ns, want %d", x.ticks, got, x.ns)
		}
	}
}
