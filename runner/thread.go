package runner

import (
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/host"
)

// This file sets up a job's own OS thread before its I/O and cleans up
// after it, in fio 3.33's order (observed with strace): gid and uid, CPU
// affinity, NUMA nodes and memory policy (package host), lockmem, I/O
// priority, cgroup (cgroup_linux.go), nice, ioscheduler, exec_prerun;
// after the job munlock, leaving the cgroup, then exec_postrun. The thread settings are per thread on Linux, so they
// apply to the job only; a thread that got them is not handed back to
// the Go scheduler but ends with the job's goroutine.

// threadSetup is what a worker needs to set up its thread.
type threadSetup struct {
	// number is fio's thread number: the job's place in the run, from 1
	// (cpus_allowed_policy=split picks the CPU by it).
	number int
	// info receives fio's informational lines ("Saving output of
	// prerun"); errs its perror lines ("mlock: ...").
	info, errs io.Writer

	locked  []byte // the lockmem region
	postrun bool   // run exec_postrun at the end
	// errInfo: the job failed setting up its thread; fio prints that
	// failure on its info stream (stdout), not on stderr.
	errInfo bool
	cg      cgroupState // the job's control group (cgroup_linux.go)
}

// newThreadSetup returns the thread setup of job j, the index-th job of
// the run, with the streams its lines go to (Config.ProcessInfo).
func newThreadSetup(cfg Config, j *jobspec.Job, index int) threadSetup {
	info, errs := cfg.Info, cfg.Errors
	if info == nil {
		info = errs
	}
	if !j.Thread {
		if cfg.ProcessInfo != nil {
			info = cfg.ProcessInfo
		}
		if cfg.ProcessErrors != nil {
			errs = cfg.ProcessErrors
		}
	}
	return threadSetup{number: index + 1, info: info, errs: errs}
}

// threadStart sets up the job's thread (which run has locked). It
// returns false when the job is to do no I/O: it failed (w.err is set),
// or exec_prerun or lockmem failed (fio then reports the job with nothing
// done and no error), or create_only is set.
func (w *worker) threadStart() bool {
	j := w.job
	ts := &w.ts
	if ts.info == nil {
		ts.info = io.Discard
	}
	if ts.errs == nil {
		ts.errs = io.Discard
	}
	pinned := j.UIDSet || j.GIDSet || j.CPUNodesSet || j.MemPolicy != jobspec.MemPolicyNone || j.Cgroup != ""
	if j.CPUsSet || j.PrioSet || j.PrioClassSet || j.Nice != 0 || pinned {
		// The thread's settings stay with it: keep it locked when the
		// goroutine ends, so that the runtime ends the thread too.
		runtime.LockOSThread()
	}
	if j.UIDSet || j.GIDSet {
		if e, fn := host.SwitchIDs(j); e != 0 {
			return w.threadFailed(e, fn)
		}
	}
	if j.CPUsSet {
		if e, fn := host.SetAffinity(j, ts.number, ts.errs); e != 0 {
			return w.threadFailed(e, fn)
		}
	}
	if pinned {
		if e, fn := host.NUMAPlace(j); e != 0 {
			return w.threadFailed(e, fn)
		}
	}
	if j.LockMem > 0 {
		b, err := lockMem(j.LockMem)
		if err != nil {
			fmt.Fprintln(ts.errs, err)
			return w.nothingDone()
		}
		ts.locked = b
	}
	if j.PrioSet || j.PrioClassSet {
		if e := host.SetIOPrio(j.PrioClass, j.Prio); e != 0 {
			return w.threadFailed(e, "ioprio_set")
		}
	}
	if j.Cgroup != "" && !w.cgroupStart() {
		return false
	}
	if j.Nice != 0 {
		if e := host.AddNice(j.Nice); e != 0 {
			return w.threadFailed(e, "nice")
		}
	}
	if j.IOScheduler != "" {
		var paths []string
		for _, f := range w.files {
			if f.path != "" {
				paths = append(paths, f.path)
			}
		}
		if e, fn := host.SwitchIOScheduler("/sys", j.IOScheduler, paths, ts.errs); e != 0 {
			return w.threadFailed(e, fn)
		}
	}
	if j.ExecPrerun != "" {
		if !execAround(ts.info, j.Name, "prerun", j.ExecPrerun) {
			return w.nothingDone()
		}
	}
	ts.postrun = true
	if j.CreateOnly {
		return w.nothingDone()
	}
	return true
}

// threadEnd undoes lockmem and runs exec_postrun.
func (w *worker) threadEnd() {
	ts := &w.ts
	if ts.locked != nil {
		unix.Munlock(ts.locked)
		unix.Munmap(ts.locked)
		ts.locked = nil
	}
	w.cgroupEnd()
	if ts.postrun && w.job.ExecPostrun != "" {
		execAround(ts.info, w.job.Name, "postrun", w.job.ExecPostrun)
	}
}

// threadFailed records a failed thread setting: the job ends with the
// error, which fio prints on its info stream.
func (w *worker) threadFailed(e unix.Errno, fn string) bool {
	w.fail(e, fn)
	w.ts.errInfo = true
	return false
}

// nothingDone ends the job before its I/O without an error: fio reports
// it, with nothing done.
func (w *worker) nothingDone() bool {
	w.epoch = clock.Now()
	return false
}

// lockMem maps size bytes and locks them in memory, as lockmem does.
// The error reads as fio's perror line ("mlock: Cannot allocate memory").
func lockMem(size uint64) ([]byte, error) {
	// fio 3.33 allocates the memory, then locks it, and names the
	// allocation "malloc locked mem" when it fails (ENOMEM for a size
	// no allocation can have, lockmem=50% being 2^64-51 bytes).
	if size > math.MaxInt64/2 {
		return nil, fmt.Errorf("malloc locked mem: %s", errno.Text(unix.ENOMEM))
	}
	b, err := unix.Mmap(-1, 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, fmt.Errorf("malloc locked mem: %s", errno.Text(errno.Of(err)))
	}
	if err := unix.Mlock(b); err != nil {
		unix.Munmap(b)
		return nil, fmt.Errorf("mlock: %s", errno.Text(errno.Of(err)))
	}
	return b, nil
}

// execAround runs exec_prerun or exec_postrun (what is "prerun" or
// "postrun") as fio does: announced on the info stream, through
// "sh -c 'CMD > NAME.WHAT.txt 2>&1'" (so only the command's last part
// writes to the file), with gofio's standard streams. It reports whether
// the command succeeded.
func execAround(info io.Writer, name, what, command string) bool {
	file := name + "." + what + ".txt"
	fmt.Fprintf(info, "%s : Saving output of %s in %s\n", name, what, file)
	cmd := exec.Command("/bin/sh", "-c", command+" > "+file+" 2>&1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run() == nil
}
