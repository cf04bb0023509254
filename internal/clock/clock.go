package runner

import _ "unsafe" // for go:linkname

// nanotime is the runtime's monotonic clock in nanoseconds: one vDSO call,
// about half the cost of time.Now, which also reads the wall clock.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64
