package runner

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/host"
)

// ErrReadOnly is fio's refusal of a job that writes or trims under
// --readonly, when the job's rw= was read before --readonly (the option
// reader refuses rw= itself otherwise).
var ErrReadOnly = errors.New("fio: trim and write operations are not allowed with the --readonly parameter.")

// CheckReadOnly returns ErrReadOnly if readOnly is set and a job of plan
// writes or trims. Run makes the check too, before it touches any file.
func CheckReadOnly(plan *jobspec.Plan, readOnly bool) error {
	if !readOnly {
		return nil
	}
	for _, j := range plan.Jobs {
		if j.RW.Writes() || j.RW.Trims() {
			return ErrReadOnly
		}
	}
	return nil
}

// mountedWrites returns fio's refusal when a writing job targets a block
// device that is mounted, unless the job has allow_mounted_write=1; ""
// when there is none. Trims are not checked, as in fio 3.33.
func mountedWrites(tasks []*task) string {
	var mounted map[uint64]bool
	for _, t := range tasks {
		if !t.job.RW.Writes() || t.job.AllowMountedWrite || t.info.NoFiles {
			continue
		}
		for _, f := range t.files {
			if !f.blockDev {
				continue
			}
			var st unix.Stat_t
			if unix.Stat(f.path, &st) != nil {
				continue
			}
			if mounted == nil {
				mounted = host.MountedDevices("/proc/mounts")
			}
			if mounted[st.Rdev] {
				return fmt.Sprintf("fio: %s appears mounted, and 'allow_mounted_write' isn't set. Aborting.", f.path)
			}
		}
	}
	return ""
}

// syncDepthNote is what fio prints when a synchronous engine is given an
// iodepth above 1.
const syncDepthNote = "note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1"

// engineNotices prints the lines fio prints as a job starts: the note on
// a synchronous engine's iodepth and the engine's own announcement
// (cpuio). fio prints them from the job's process, so they go to the
// job's info stream (w.ts).
func engineNotices(t *task, w *worker) {
	out := w.ts.info
	if t.info.Sync && t.job.IODepth > 1 {
		fmt.Fprintln(out, syncDepthNote)
	}
	if n, ok := w.eng.(engine.Noticer); ok && n.Notice(t.job.Name) != "" {
		fmt.Fprintln(out, n.Notice(t.job.Name))
	}
	if w.gen.genNote != "" {
		fmt.Fprintln(out, w.gen.genNote) // iogen.go's randGenLimit
	}
}
