package clock

import (
	"math/bits"
	"os"
	"strings"
	"sync"
)

// tscScale turns TSC readings into nanoseconds on the runtime's clock:
// ns = nsBase + (tsc - tscBase) × mult / 2³².
type tscScale struct {
	tscBase uint64
	nsBase  int64
	mult    uint64
}

func (c *tscScale) now() int64 { return c.at(rdtsc()) }

// at is the time of TSC reading tsc.
func (c *tscScale) at(tsc uint64) int64 {
	hi, lo := bits.Mul64(tsc-c.tscBase, c.mult)
	return c.nsBase + int64(hi<<32|lo>>32)
}

// calibration is how long UseTSC measures the TSC's rate against the
// runtime's clock: the error of one pair of readings (tens of ns) over
// 10 ms is a few parts per million, 0.2 ms over a minute's runtime.
const calibration = 10e6

var tscOnce sync.Once

// UseTSC switches Now to the time stamp counter when the kernel itself
// keeps time with it (its clock source is "tsc": the counter is constant,
// keeps running in idle states and agrees between CPUs, which the kernel
// checks) and it calibrates cleanly, and reports whether Now reads it.
// The first call measures the counter's rate over about 10 ms; later
// calls return at once. It must be called before the goroutines whose
// readings are compared start, as readings of either clock agree only to
// the calibration's error.
func UseTSC() bool {
	tscOnce.Do(func() {
		if !tscSupported() || kernelClockSource() != "tsc" {
			return
		}
		c, ok := calibrate()
		if ok {
			tscClock.Store(c)
		}
	})
	return tscClock.Load() != nil
}

// calibrate measures the TSC's rate against the runtime's clock and
// checks the result against it.
func calibrate() (*tscScale, bool) {
	t0, n0, ok0 := pairReading()
	Sleep(calibration)
	t1, n1, ok1 := pairReading()
	if !ok0 || !ok1 || t1 <= t0 || n1-n0 < calibration {
		return nil, false
	}
	dn, dt := uint64(n1-n0), t1-t0
	if dn >= 1<<32 { // slept for seconds: not a machine to trust
		return nil, false
	}
	c := &tscScale{tscBase: t1, nsBase: n1, mult: (dn << 32) / dt}
	if c.mult == 0 {
		return nil, false
	}
	// The scaled counter must follow the runtime's clock: within 20 µs
	// (tolerance for a descheduling between the two reads).
	for range 8 {
		a := nanotime()
		b := c.now()
		d := nanotime()
		if b < a-20000 || b > d+20000 {
			return nil, false
		}
	}
	return c, true
}

// pairReading reads the TSC and the runtime's clock at nearly the same
// instant: of several tries, the one whose two TSC readings around the
// clock's are closest, and false when none came within 10 µs.
func pairReading() (tsc uint64, ns int64, ok bool) {
	best := ^uint64(0)
	for range 16 {
		a := rdtsc()
		n := nanotime()
		b := rdtsc()
		if b >= a && b-a < best {
			best, tsc, ns = b-a, a+(b-a)/2, n
		}
	}
	return tsc, ns, best < 30000
}

// kernelClockSource is the kernel's current clock source ("tsc"), or
// "unknown".
func kernelClockSource() string {
	b, err := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}
