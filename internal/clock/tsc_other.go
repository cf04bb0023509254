//go:build !amd64

package clock

// rdtsc is not available here: UseTSC keeps the runtime's clock.
func rdtsc() uint64 { return 0 }

func tscSupported() bool { return false }
