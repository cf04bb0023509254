//go:build !amd64

package main

// cpuCycles has no CPU counter to read on this architecture.
func cpuCycles() uint64 { return 0 }

// haveCPUClock reports that cpuCycles reads a CPU counter.
const haveCPUClock = false
