package runner

import (
	"unsafe"

	"github.com/gofio/gofio/internal/errno"
	"golang.org/x/sys/unix"
)

// setWriteHint gives the file open on fd the write life time hint of
// write_hint (1 none … 5 extreme), as fio does after each open of a
// regular file: fcntl(F_SET_RW_HINT) on the file's inode. fio leaves
// other files (character devices) alone.
func setWriteHint(fd, hint int) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &setupError{errno: errno.Of(err), fn: "fstat"}
	}
	if m := st.Mode & unix.S_IFMT; m != unix.S_IFREG && m != unix.S_IFBLK {
		return nil
	}
	v := uint64(hint)
	if _, _, e := unix.Syscall(unix.SYS_FCNTL, uintptr(fd), unix.F_SET_RW_HINT, uintptr(unsafe.Pointer(&v))); e != 0 {
		return &setupError{errno: e, fn: "fcntl(F_SET_RW_HINT)"}
	}
	return nil
}
