package engine

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// BlockDevSize returns the size in bytes of the block device at path
// (BLKGETSIZE64).
func BlockDevSize(path string) (uint64, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	var size uint64
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.BLKGETSIZE64, uintptr(unsafe.Pointer(&size)))
	if e != 0 {
		return 0, e
	}
	return size, nil
}
