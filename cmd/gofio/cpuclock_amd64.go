package main

// cpuCycles reads the CPU's time-stamp counter (RDTSC after LFENCE).
func cpuCycles() uint64

// haveCPUClock reports that cpuCycles reads a CPU counter.
const haveCPUClock = true
