//go:build !linux

package runner

import (
	"io"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// setAffinity is not available here: per-thread CPU affinity needs Linux.
func setAffinity(j *jobspec.Job, number int, errs io.Writer) (unix.Errno, string) {
	return unix.ENOSYS, "cpu_set_affinity"
}

// setIOPrio is not available here: ioprio_set(2) is Linux's.
func setIOPrio(class, level int) unix.Errno { return unix.ENOSYS }

// addNice is not available here: gofio's jobs are threads, and only
// Linux gives threads their own nice value.
func addNice(inc int) unix.Errno { return unix.ENOSYS }

// switchIOScheduler is not available here: I/O schedulers are chosen in
// Linux's sysfs.
func switchIOScheduler(sysRoot, name string, paths []string, errs io.Writer) (unix.Errno, string) {
	return unix.ENOSYS, "iosched_switch"
}
