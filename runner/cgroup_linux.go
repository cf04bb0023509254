package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/gofio/gofio/internal/errno"
	"golang.org/x/sys/unix"
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
// Without a blkio hierarchy fio 3.33 uses a cgroup v2 mount and writes
// its process id to cgroup.procs. That moves a whole process: in gofio
// it would move every job, and a v2 group takes single threads only in
// "threaded" mode, which changes what the group controls. gofio refuses
// cgroup there, naming the option.

// cgroupState is a job's control group membership.
type cgroupState struct {
	root    string // the hierarchy's mount point
	path    string // the job's group
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

// cgroupMount returns the mount point of the cgroup v1 blkio hierarchy
// and, when there is none, whether a cgroup v2 hierarchy is mounted.
func cgroupMount() (blkio string, v2 bool) {
	b, err := os.ReadFile(mountsFile)
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		switch f[2] {
		case "cgroup":
			for _, o := range strings.Split(f[3], ",") {
				if o == "blkio" {
					return f[1], false
				}
			}
		case "cgroup2":
			v2 = true
		}
	}
	return "", v2
}

// cgroupStart moves the calling thread into job's cgroup. It returns
// false when the job fails (w.err is set).
func (w *worker) cgroupStart() bool {
	j := w.job
	cg := &w.ts.cg
	root, v2 := cgroupMount()
	if root == "" {
		if v2 {
			fmt.Fprintf(w.ts.errs, "gofio: cgroup=%s is not supported on a cgroup v2 hierarchy (fio moves its whole job process there; gofio's jobs are threads of one process)\n", j.Cgroup)
			return w.threadFailed(unix.EOPNOTSUPP, "cgroup")
		}
		fmt.Fprintln(w.ts.errs, "fio: cgroup blkio does not appear to be mounted")
		return true
	}
	cg.root, cg.path = root, filepath.Join(root, j.Cgroup)
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
	if j.CgroupWeight != 0 {
		if e, fn := writeCgroupFile(filepath.Join(cg.path, "blkio.weight"), j.CgroupWeight, "weight"); e != 0 {
			return w.threadFailed(e, fn)
		}
	}
	if e, fn := writeCgroupFile(filepath.Join(cg.path, "tasks"), w.tid, "tasks"); e != 0 {
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
	writeCgroupFile(filepath.Join(cg.root, "tasks"), w.tid, "tasks")
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

// writeCgroupFile writes the number v to a cgroup file, as fio opens it
// (O_CREAT|O_TRUNC: a missing file in a cgroup fs is EACCES). It returns
// the errno and fio's func= name of a failure ("cgroup open weight").
func writeCgroupFile(path string, v int, what string) (unix.Errno, string) {
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o666)
	if err != nil {
		return errno.Of(err), "cgroup open " + what
	}
	defer unix.Close(fd)
	if _, err := unix.Write(fd, []byte(strconv.Itoa(v))); err != nil {
		return errno.Of(err), "cgroup write " + what
	}
	return 0, ""
}
