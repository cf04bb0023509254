//go:build !linux

package runner

import "golang.org/x/sys/unix"

// setWriteHint fails: write life time hints are Linux's.
func setWriteHint(fd, hint int) error {
	return &setupError{errno: unix.ENOTSUP, fn: "fcntl(F_SET_RW_HINT)"}
}
