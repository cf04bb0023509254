package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// profileEnv names the file that receives a CPU profile of the whole run
// (go tool pprof reads it). It is a hidden switch for performance work,
// not an fio option: see docs/perf.md.
const profileEnv = "GOFIO_CPUPROFILE"

// startProfile starts the CPU profile GOFIO_CPUPROFILE asks for, if any,
// and returns the function that ends it. A profile that cannot start is
// reported on stderr and the run goes on without it.
func startProfile(stderr io.Writer) (stop func()) {
	path := os.Getenv(profileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "gofio: %s: %v\n", profileEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "gofio: %s: %v\n", profileEnv, err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "gofio: %s: %v\n", profileEnv, err)
		}
	}
}
