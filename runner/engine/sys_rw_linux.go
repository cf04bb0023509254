package engine

// The system calls of the I/O loop: the data transfers of the sync
// family, io_submit(2), io_getevents(2) and io_uring_enter(2).
//
// They go through RawSyscall, which does not tell the Go scheduler that
// the thread is in the kernel. That is safe here, and cheaper than it
// looks, because every job runs on its own locked thread with a P of its
// own (procs.go): no other goroutine waits for the P a job holds while it
// blocks. Through unix.Syscall, the runtime's sysmon thread kept taking
// the P back from a job waiting in the kernel and woke to do so about
// 7000 times a second: a tenth of a CPU beside an io_uring QD32 job or a
// psync direct=1 job, a third of the io_uring job's own CPU time
// (docs/perf.md).
//
// The cost of raw calls: a stop-the-world (a GC cycle, which the loop's
// zero allocations keep rare) waits until every job's current call
// returns. The waits of io_getevents and io_uring_enter end on the
// runtime's preemption signal (EINTR, which their callers handle); a
// transfer to a local device ends when the device answers. A transfer on
// a network or FUSE file system may wait without bound when its server
// stops answering, so jobs with such files (Config.MayHang) make
// their transfers and io_submit calls through the scheduler: a hung
// server then stalls only its job, and gofio still stops on a signal.
//
// fsync, fallocate and the other calls that may block for long keep
// unix.Syscall, where handing the P over is worth its cost.

import (
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ioSyscall makes system call trap raw, or through the scheduler when raw
// is false.
func ioSyscall(raw bool, trap, a1, a2, a3, a4, a5, a6 uintptr) (int, unix.Errno) {
	var r uintptr
	var e unix.Errno
	if raw {
		r, _, e = unix.RawSyscall6(trap, a1, a2, a3, a4, a5, a6)
	} else {
		r, _, e = unix.Syscall6(trap, a1, a2, a3, a4, a5, a6)
	}
	return int(r), e
}

// sysRW calls read(2) or write(2) (trap) on fd with b.
func sysRW(raw bool, trap uintptr, fd int, b []byte) (int, unix.Errno) {
	return ioSyscall(raw, trap, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), 0, 0, 0)
}

// sysPRW calls pread64(2) or pwrite64(2) (trap) on fd with b at off.
func sysPRW(raw bool, trap uintptr, fd int, b []byte, off int64) (int, unix.Errno) {
	return ioSyscall(raw, trap, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)),
		uintptr(off), 0, 0)
}

// sysSeek sets fd's file offset to off (lseek(2) with SEEK_SET); it never
// waits for a device, so it is always raw.
func sysSeek(fd int, off int64) unix.Errno {
	_, e := ioSyscall(true, unix.SYS_LSEEK, uintptr(fd), uintptr(off), unix.SEEK_SET, 0, 0, 0)
	return e
}

// sysVec calls one of the vectored transfers (trap: readv, writev,
// preadv, pwritev, preadv2, pwritev2) with one iovec; a, b and c are the
// call's arguments after the iovec count.
func sysVec(raw bool, trap uintptr, fd int, iov *unix.Iovec, a, b, c uintptr) (int, unix.Errno) {
	return ioSyscall(raw, trap, uintptr(fd), uintptr(unsafe.Pointer(iov)), 1, a, b, c)
}

// hangProneFS are the file systems whose I/O may wait without bound on a
// server: network and FUSE file systems.
var hangProneFS = map[int64]bool{
	unix.NFS_SUPER_MAGIC:   true,
	unix.SMB_SUPER_MAGIC:   true,
	unix.SMB2_SUPER_MAGIC:  true,
	unix.CIFS_SUPER_MAGIC:  true,
	unix.FUSE_SUPER_MAGIC:  true,
	unix.CEPH_SUPER_MAGIC:  true,
	unix.AFS_FS_MAGIC:      true,
	unix.AFS_SUPER_MAGIC:   true,
	unix.V9FS_MAGIC:        true,
	unix.CODA_SUPER_MAGIC:  true,
	unix.NCP_SUPER_MAGIC:   true,
	unix.OCFS2_SUPER_MAGIC: true,
}

// OnHangProneFS reports whether path, or the directory it would be
// created in, is on a file system in hangProneFS.
func OnHangProneFS(path string) bool {
	var st unix.Statfs_t
	for p := path; ; {
		if unix.Statfs(p, &st) == nil {
			return hangProneFS[int64(st.Type)]
		}
		parent := filepath.Dir(p)
		if parent == p {
			return false
		}
		p = parent
	}
}
