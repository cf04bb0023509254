package host

import (
	"fmt"
	"io"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
)

// SetAffinity binds the calling thread to job j's CPUs (cpus_allowed,
// cpumask, cpus_allowed_policy). It returns the errno and fio's func=
// name of a failure: "cpus_split" for split with no CPU,
// "cpu_set_affinity" when the kernel refuses the set (an empty one, say).
func SetAffinity(j *jobspec.Job, number int, errs io.Writer) (unix.Errno, string) {
	cpus, ok := AffinityCPUs(j, number, errs)
	if !ok {
		return unix.EINVAL, "cpus_split"
	}
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	// pid 0 is the calling thread.
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return errno.Of(err), "cpu_set_affinity"
	}
	return 0, ""
}

// The ioprio_set(2) constants (linux/ioprio.h).
const (
	ioprioWhoProcess = 1
	ioprioClassShift = 13
	ioprioClassBE    = 2
)

// SetIOPrio sets the calling thread's I/O priority as fio's prio and
// prioclass do: class 0 (prioclass unset or 0) is best effort.
func SetIOPrio(class, level int) unix.Errno {
	if class == 0 {
		class = ioprioClassBE
	}
	// who 0 with IOPRIO_WHO_PROCESS is the calling thread.
	_, _, e := unix.Syscall(unix.SYS_IOPRIO_SET, ioprioWhoProcess, 0, uintptr(class<<ioprioClassShift|level))
	return e
}

// AddNice adds inc to the calling thread's nice value, as nice(3) does
// (fio calls nice(nice)): a refusal is EPERM.
func AddNice(inc int) unix.Errno {
	// The system call returns 20 - nice.
	raw, err := unix.Getpriority(unix.PRIO_PROCESS, 0)
	if err != nil {
		return errno.Of(err)
	}
	if err := unix.Setpriority(unix.PRIO_PROCESS, 0, 20-raw+inc); err != nil {
		if e := errno.Of(err); e != unix.EACCES {
			return e
		}
		return unix.EPERM
	}
	return 0
}

// splitCPU is the CPU of the set that cpus_allowed_policy=split gives
// the job numbered number (from 1): round robin over the set.
func splitCPU(cpus []int, number int) int {
	return cpus[max(number-1, 0)%len(cpus)]
}

// AffinityCPUs returns the CPUs job j runs on, and false (with fio's
// messages written to errs) for split with an empty set.
func AffinityCPUs(j *jobspec.Job, number int, errs io.Writer) ([]int, bool) {
	if !j.CPUsSplit {
		return j.CPUs, true
	}
	if len(j.CPUs) == 0 {
		fmt.Fprintln(errs, "fio: no CPUs set")
		fmt.Fprintln(errs, "fio: Try increasing number of available CPUs")
		return nil, false
	}
	return []int{splitCPU(j.CPUs, number)}, true
}
