// Package clock reads the runtime's monotonic clock, the time base of
// gofio's I/O timestamps, latencies and deadlines.
package clock

import _ "unsafe" // for go:linkname

// Now is the runtime's monotonic clock in nanoseconds: one vDSO call,
// about half the cost of time.Now, which also reads the wall clock. Its
// zero is arbitrary; only differences between two readings mean anything.
//
//go:linkname Now runtime.nanotime
func Now() int64
