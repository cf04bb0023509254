package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/runner/host"
)

// This file puts a job's thread into the control group of its cgroup
// option, as fio 3.33 does (observed with strace): fio looks for the
// cgroup v1 blkio hierarchy in /proc/mounts, creates the group (an
// existing one is used as it is), writes cgroup_weight to its
// blkio.weight, and writes the job's id to its tasks file; after the job
// it writes the id to the hierarchy's root tasks file and removes the
// group it created, unless cgroup_nodelete. A v1 tasks file takes a
// thread id and moves that thread only, so gofio's jobs, which are
// threads, behave as fio's processes do.
//
// Without a blkio hierarchy fio 3.33 uses a cgroup v2 mount: it creates
// the group and writes its process id to the group's cgroup.procs, and
// after the job to the root group's; with cgroup_weight it prints "fio:
// cgroup weit doesn't work with cgroup2" and the job does no I/O (error
// 0, reported with nothing done). cgroup.procs moves a whole process,
// which in gofio would move every job; gofio makes the group "threaded"
// (cgroup.type) and moves the job's thread only (cgroup.threads), then
// back to the group it came from. A v2 hierarchy that cannot take the
// group as threaded (a domain controller enabled above it) refuses it,
// and the job fails (EOPNOTSUPP, naming cgroup).

// cgroupState is a job's control group membership.
type cgroupState struct {
	root    string // the hierarchy's mount point
	path    string // the job's group
	v2      bool   // a cgroup v2 hierarchy
	home    string // v2: the group the thread came from
	joined  bool   // the thread was moved into path
	created bool   // gofio created path (counted in created.jobs)
}

// created counts, for each group gofio created, the jobs in it; the
// last job to leave removes it (fio's main process removes it after all
// jobs).
var created struct {
	sync.Mutex
	jobs map[string]int
}

// mountsFile is the mount table read to find the hierarchy.
var mountsFile = "/proc/mounts"

// cgroupStart moves the calling thread into job's cgroup. It returns
// false when the job fails (w.err is set).
func (w *worker) cgroupStart() bool {
	j := w.job
	cg := &w.ts.cg
	root, v2 := host.CgroupMount(mountsFile)
	if root == "" {
		if v2 != "" {
			return w.cgroup2Start(v2)
		}
		fmt.Fprintln(w.ts.errs, "fio: cgroup blkio does not appear to be mounted")
		return true
	}
	cg.root, cg.path = root, filepath.Join(root, j.Cgroup)
	if !w.cgroupCreate() {
		return false
	}
	if j.CgroupWeight != 0 {
		if e, fn := host.WriteCgroupFile(filepath.Join(cg.path, "blkio.weight"), j.CgroupWeight, "weight"); e != 0 {
			return w.threadFailed(e, fn)
		}
	}
	if e, fn := host.WriteCgroupFile(filepath.Join(cg.path, "tasks"), w.tid, "tasks"); e != 0 {
		return w.threadFailed(e, fn)
	}
	cg.joined = true
	return true
}

// cgroupCreate creates the job's group, counting the run's jobs in a
// group gofio created. It returns false when the job fails.
func (w *worker) cgroupCreate() bool {
	cg := &w.ts.cg
	created.Lock()
	err := unix.Mkdir(cg.path, 0o755)
	if err == nil || (err == unix.EEXIST && created.jobs[cg.path] > 0) {
		if created.jobs == nil {
			created.jobs = map[string]int{}
		}
		created.jobs[cg.path]++
		cg.created = true
	}
	created.Unlock()
	if err != nil && err != unix.EEXIST {
		fmt.Fprintf(w.ts.errs, "fio: path %s\n", cg.path)
		return w.threadFailed(errno.Of(err), "cgroup mkdir")
	}
	return true
}

// cgroup2Start moves the calling thread into the job's group of the
// cgroup v2 hierarchy mounted at root, made threaded.
func (w *worker) cgroup2Start(root string) bool {
	j := w.job
	cg := &w.ts.cg
	cg.root, cg.path, cg.v2 = root, filepath.Join(root, j.Cgroup), true
	home, err := host.ThreadCgroup2()
	if err != nil {
		*cg = cgroupState{}
		fmt.Fprintf(w.ts.errs, "gofio: cgroup=%s: %v\n", j.Cgroup, err)
		return w.threadFailed(unix.EOPNOTSUPP, "cgroup")
	}
	cg.home = filepath.Join(root, home)
	if !w.cgroupCreate() {
		return false
	}
	if j.CgroupWeight != 0 {
		// fio 3.33's message, typo included; its job then does no I/O.
		fmt.Fprintln(w.ts.errs, "fio: cgroup weit doesn't work with cgroup2")
		w.stopping = true
		return true
	}
	if t, err := os.ReadFile(filepath.Join(cg.path, "cgroup.type")); err != nil || strings.TrimSpace(string(t)) != "threaded" {
		if e, _ := host.WriteCgroupText(filepath.Join(cg.path, "cgroup.type"), "threaded", "type"); e != 0 {
			fmt.Fprintf(w.ts.errs, "gofio: cgroup=%s is not supported on this cgroup v2 hierarchy: %s cannot be made threaded (%s); gofio's jobs are threads of one process\n", j.Cgroup, cg.path, errno.Text(e))
			return w.threadFailed(unix.EOPNOTSUPP, "cgroup")
		}
	}
	if e, fn := host.WriteCgroupFile(filepath.Join(cg.path, "cgroup.threads"), w.tid, "tasks"); e != 0 {
		return w.threadFailed(e, fn)
	}
	cg.joined = true
	return true
}

// cgroupEnd moves the thread back to the hierarchy's root group and
// removes the group gofio created, unless cgroup_nodelete, when the last
// of the run's jobs in it leaves.
func (w *worker) cgroupEnd() {
	cg := &w.ts.cg
	if cg.root == "" {
		return
	}
	switch {
	case !cg.v2:
		host.WriteCgroupFile(filepath.Join(cg.root, "tasks"), w.tid, "tasks")
	case cg.joined:
		host.WriteCgroupFile(filepath.Join(cg.home, "cgroup.threads"), w.tid, "tasks")
	}
	if cg.created {
		created.Lock()
		created.jobs[cg.path]--
		if created.jobs[cg.path] == 0 {
			delete(created.jobs, cg.path)
			if !w.job.CgroupNoDelete {
				unix.Rmdir(cg.path)
			}
		}
		created.Unlock()
	}
	*cg = cgroupState{}
}
