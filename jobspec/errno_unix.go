//go:build unix

package jobspec

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// errnoByName finds an errno by its C name ("EIO").
func errnoByName(name string) (syscall.Errno, bool) {
	for e := syscall.Errno(1); e < 256; e++ {
		if unix.ErrnoName(e) == name {
			return e, true
		}
	}
	return 0, false
}
