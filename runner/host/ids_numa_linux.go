package host

import (
	"fmt"
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
)

// This file moves a job's thread to the job's group and user (gid, uid)
// and NUMA placement (numa_cpu_nodes, numa_mem_policy). Linux keeps
// credentials and memory policies per thread at the system-call level:
// the raw system calls below change the calling thread only (Go's
// syscall.Setuid would change every thread of gofio). The thread is then
// never handed back to the Go scheduler (see threadStart).

// SwitchIDs sets the calling thread's group, then user, as fio does with
// setgid(2) and setuid(2): as root they set the real, effective and
// saved ids; the supplementary groups stay as they are, as in fio. It
// returns the errno and fio's func= name of a failure.
func SwitchIDs(j *jobspec.Job) (unix.Errno, string) {
	if j.GIDSet {
		if _, _, e := unix.RawSyscall(unix.SYS_SETGID, uintptr(j.GID), 0, 0); e != 0 {
			return e, "setgid"
		}
	}
	if j.UIDSet {
		if _, _, e := unix.RawSyscall(unix.SYS_SETUID, uintptr(j.UID), 0, 0); e != 0 {
			return e, "setuid"
		}
	}
	return 0, ""
}

// nodeRoot is where Linux lists the NUMA nodes and their CPUs.
const nodeRoot = "/sys/devices/system/node"

// nodeCPUs returns the CPUs of the nodes in m, from each node's cpulist.
func nodeCPUs(m *jobspec.NodeMask) ([]int, error) {
	var cpus []int
	for n := 0; n < 1024; n++ {
		if !m.IsSet(n) {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("%s/node%d/cpulist", nodeRoot, n))
		if err != nil {
			return nil, err
		}
		cpus = append(cpus, parseCPUList(strings.TrimSpace(string(b)))...)
	}
	return cpus, nil
}

// parseCPUList reads a kernel CPU list ("0-3,8").
func parseCPUList(s string) []int {
	var cpus []int
	for _, el := range strings.Split(s, ",") {
		var lo, hi int
		if n, _ := fmt.Sscanf(el, "%d-%d", &lo, &hi); n == 2 {
			for c := lo; c <= hi; c++ {
				cpus = append(cpus, c)
			}
		} else if n == 1 {
			cpus = append(cpus, lo)
		}
	}
	return cpus
}

// The set_mempolicy(2) modes (linux/mempolicy.h).
const (
	mpolPreferred  = 1
	mpolBind       = 2
	mpolInterleave = 3
	mpolLocal      = 4
)

// NUMAPlace binds the calling thread to the CPUs of numa_cpu_nodes and
// sets numa_mem_policy, in fio's order. It returns the errno and a
// func= name of a failure.
func NUMAPlace(j *jobspec.Job) (unix.Errno, string) {
	if j.CPUNodesSet {
		cpus, err := nodeCPUs(&j.CPUNodes)
		if err != nil {
			return errno.Of(err), "numa_run_on_node"
		}
		var set unix.CPUSet
		for _, c := range cpus {
			set.Set(c)
		}
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			return errno.Of(err), "numa_run_on_node"
		}
	}
	if j.MemPolicy == jobspec.MemPolicyNone || j.MemPolicy == jobspec.MemPolicyDefault {
		// fio 3.33 changes nothing for "default" (observed).
		return 0, ""
	}
	mode := map[jobspec.MemPolicy]uintptr{
		jobspec.MemPolicyPrefer:     mpolPreferred,
		jobspec.MemPolicyBind:       mpolBind,
		jobspec.MemPolicyInterleave: mpolInterleave,
		jobspec.MemPolicyLocal:      mpolLocal,
	}[j.MemPolicy]
	var mask *uint64
	maxNode := uintptr(0)
	if mode != mpolLocal {
		// maxnode counts one more than the mask's bits, as fio passes it.
		mask, maxNode = &j.MemNodes[0], uintptr(len(j.MemNodes)*64+1)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SET_MEMPOLICY, mode, uintptr(unsafe.Pointer(mask)), maxNode); e != 0 {
		return e, "set_mempolicy"
	}
	return 0, ""
}
