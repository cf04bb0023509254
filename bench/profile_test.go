package main

import (
	"testing"
	"time"
)

// A -traces listing is summed per cost bucket: a stack's first line
// carries its time, the kernel part of a call is told apart by the engine
// method it was made from, and the rest by the loop function it is under.
func TestBucketTraces(t *testing.T) {
	const traces = `File: gofio
Type: cpu
Duration: 3s, Total samples = 1.12s (37.29%)
-----------+-------------------------------------------------------
     460ms   internal/runtime/syscall/linux.Syscall6
             syscall.RawSyscall6
             github.com/gofio/gofio/runner/engine.uringEnter
             github.com/gofio/gofio/runner/engine.(*uringEngine).Commit
             github.com/gofio/gofio/runner.(*worker).commit
             github.com/gofio/gofio/runner.(*worker).asyncLoop
-----------+-------------------------------------------------------
     350ms   internal/runtime/syscall/linux.Syscall6
             syscall.RawSyscall6
             github.com/gofio/gofio/runner/engine.uringEnter
             github.com/gofio/gofio/runner/engine.(*uringEngine).Reap
             github.com/gofio/gofio/runner.(*worker).asyncLoop
-----------+-------------------------------------------------------
     1.5s    runtime.nanotime
             github.com/gofio/gofio/runner.(*worker).stamp
             github.com/gofio/gofio/runner.(*worker).asyncLoop
-----------+-------------------------------------------------------
      10ms   github.com/gofio/gofio/stats.(*Accum).Add (inline)
             github.com/gofio/gofio/stats.(*Job).AddSlat
             github.com/gofio/gofio/runner.(*worker).commit
-----------+-------------------------------------------------------
      20ms   github.com/gofio/gofio/internal/rng.(*Stream).Scale (inline)
             github.com/gofio/gofio/runner.(*worker).randOffset
             github.com/gofio/gofio/runner.(*worker).next
-----------+-------------------------------------------------------
`
	got, total, err := bucketTraces([]byte(traces))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Duration{
		"kernel: submit (io_uring_enter / io_submit)":            460 * time.Millisecond,
		"kernel: reap (io_uring_enter GETEVENTS / io_getevents)": 350 * time.Millisecond,
		"clock reads (issue and completion stamps)":              1500 * time.Millisecond,
		"completion accounting (latency stats, histograms)":      10 * time.Millisecond,
		"generator (offset, size, direction)":                    20 * time.Millisecond,
	}
	if total != 2340*time.Millisecond {
		t.Errorf("total %v, want 2.34s", total)
	}
	if len(got) != len(want) {
		t.Errorf("buckets %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
}
