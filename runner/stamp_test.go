package runner

import (
	"io"
	"testing"

	"github.com/gofio/gofio/jobspec"
)

func TestCoarseClockKeepsRuntime(t *testing.T) {
	// gtod_reduce reads the clock only every few I/Os; the job must still
	// end on time (the deadline is checked against the coarse stamps) and
	// record no latency.
	p := planOf(t, "name=g", "ioengine=null", "rw=randread", "bs=4k", "size=1g", "norandommap",
		"gtod_reduce=1", "time_based", "runtime=300ms")
	oc, err := Run(p, Config{Errors: io.Discard, Log: io.Discard})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	st := &oc.Result.Jobs[0].Stats
	if ms := st.RuntimeMS; ms < 300 || ms > 1000 {
		t.Errorf("job runtime %d ms; want 300 ms (at most a scheduling delay more)", ms)
	}
	if st.Dir[0].TotalIOs == 0 {
		t.Errorf("no I/O done")
	}
	if n := st.Dir[0].Clat.N + st.Dir[0].Lat.N + st.Dir[0].Slat.N; n != 0 {
		t.Errorf("%d latency samples with gtod_reduce; want none", n)
	}
}

func TestStampCoarseServesCachedReadings(t *testing.T) {
	// A coarse clock serves its last reading until `every` calls have
	// used it, and never goes backwards.
	w := &worker{job: &jobspec.Job{}}
	w.initClock() // no latency measured: w.clat, w.lat, w.slat are false
	if !w.clk.coarse {
		t.Fatal("clock not coarse for a job that measures no latency")
	}
	prev := int64(0)
	reads := 0
	for i := 0; i < 10000; i++ {
		left := w.clk.left
		now := w.stamp()
		if now < prev {
			t.Fatalf("call %d: stamp went back from %d to %d", i, prev, now)
		}
		if left > 0 && now != prev {
			t.Fatalf("call %d: a fresh reading with %d calls left on the last one", i, left)
		}
		if left == 0 {
			reads++
		}
		prev = now
	}
	if reads == 10000 {
		t.Errorf("every call read the clock; want fewer reads in a tight loop")
	}
	w.clat = true
	w.initClock()
	if w.clk.coarse {
		t.Errorf("clock coarse for a job that measures clat")
	}
}
