//go:build !linux

package runner

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// cgroupState is empty here: control groups are Linux's.
type cgroupState struct{}

// cgroupStart refuses cgroup: control groups are Linux's.
func (w *worker) cgroupStart() bool {
	fmt.Fprintf(w.ts.errs, "gofio: cgroup=%s is not supported on this system\n", w.job.Cgroup)
	return w.threadFailed(unix.EOPNOTSUPP, "cgroup")
}

func (w *worker) cgroupEnd() {}
