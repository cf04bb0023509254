//go:build !linux

package runner

import (
	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// switchIDs is not available here: only Linux lets one thread change
// its credentials alone.
func switchIDs(j *jobspec.Job) (unix.Errno, string) { return unix.ENOSYS, "setuid" }

// numaPlace is not available here: NUMA placement is Linux's.
func numaPlace(j *jobspec.Job) (unix.Errno, string) { return unix.ENOSYS, "set_mempolicy" }
