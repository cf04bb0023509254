package engine

// The blocking engines of fio's sync family, which share one type:
//
//	sync     lseek(2), then read(2)/write(2)
//	psync    pread(2)/pwrite(2)
//	vsync    lseek(2), then readv(2)/writev(2) with one iovec
//	pvsync   preadv(2)/pwritev(2) with one iovec
//	pvsync2  preadv2(2)/pwritev2(2) with RWF_* flags: hipri (RWF_HIPRI,
//	         on hipri_percentage of the units), uncached, nowait
//
// Each unit completes inside Queue. The transfers are direct system calls
// (sys_rw_linux.go), the vectored ones with an iovec kept in the engine,
// so nothing is allocated per I/O. Trims are BLKDISCARD, as in fio 3.33 for every engine: on a
// regular file the kernel answers ENOTTY and the job fails in td_io_queue.

import (
	"unsafe"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/internal/rng"
	"golang.org/x/sys/unix"
)

// syncKind is the system call flavour of a sync-family engine.
type syncKind uint8

const (
	kindSync syncKind = iota
	kindPsync
	kindVsync
	kindPvsync
	kindPvsync2
)

// rwfUncached is the RWF_UNCACHED flag value fio 3.33 passes for
// uncached=1. No released kernel gave it this meaning; from Linux 6.11
// 0x40 is RWF_ATOMIC, refused (EOPNOTSUPP) on buffered I/O, which is what
// fio 3.33 gets too.
const rwfUncached = 0x40

// syncEngine implements sync, psync, vsync, pvsync and pvsync2.
type syncEngine struct {
	kind syncKind
	iov  unix.Iovec // the one iovec of the vectored calls
	raw  bool       // transfers by RawSyscall (sys_rw_linux.go)

	flags    uintptr // RWF_* of every pvsync2 unit
	hipri    bool
	hipriPct int // hipri_percentage
	rng      rng.Taus88
}

var _ Engine = (*syncEngine)(nil)

func newSync(cfg Config) (Engine, error) {
	return &syncEngine{kind: kindSync, raw: !cfg.MayHang}, nil
}
func newPsync(cfg Config) (Engine, error) {
	return &syncEngine{kind: kindPsync, raw: !cfg.MayHang}, nil
}
func newVsync(cfg Config) (Engine, error) {
	return &syncEngine{kind: kindVsync, raw: !cfg.MayHang}, nil
}
func newPvsync(cfg Config) (Engine, error) {
	return &syncEngine{kind: kindPvsync, raw: !cfg.MayHang}, nil
}

// newPvsync2 reads pvsync2's options: hipri, hipri_percentage, uncached,
// nowait.
func newPvsync2(cfg Config) (Engine, error) {
	o := &cfg.Options
	e := &syncEngine{kind: kindPvsync2, hipri: o.HiPri, hipriPct: o.HiPriPercentage, raw: !cfg.MayHang}
	e.rng.Seed(cfg.Seed ^ 0x2b)
	if o.Uncached != 0 && !cfg.Direct { // fio 3.33: buffered I/O only
		e.flags |= rwfUncached
	}
	if o.NoWait {
		e.flags |= unix.RWF_NOWAIT
	}
	return e, nil
}

func (e *syncEngine) Queue(u *IOUnit) Status {
	var n int
	var err unix.Errno
	switch u.Op {
	case OpRead, OpWrite:
		n, err = e.transfer(u)
	default:
		n, err = syncOp(u)
	}
	u.Result, u.Err = n, err
	return Completed
}

// syncOp does a unit of the synchronous engines (sync family, splice)
// that moves no data: a trim (BLKDISCARD), an fsync or an fdatasync.
func syncOp(u *IOUnit) (int, unix.Errno) {
	switch u.Op {
	case OpTrim:
		if err := blkDiscard(u.FD, u.Offset, int64(len(u.Buf))); err != 0 {
			u.ErrFn = "td_io_queue"
			return 0, err
		}
		return len(u.Buf), 0
	case OpFsync:
		return 0, errno.Of(unix.Fsync(u.FD))
	case OpFdatasync:
		return 0, errno.Of(unix.Fdatasync(u.FD))
	}
	return 0, 0
}

// transfer reads or writes u with the engine's system call.
func (e *syncEngine) transfer(u *IOUnit) (int, unix.Errno) {
	write := u.Op == OpWrite
	var n int
	var en unix.Errno
	switch e.kind {
	case kindPsync:
		trap := uintptr(unix.SYS_PREAD64)
		if write {
			trap = unix.SYS_PWRITE64
		}
		n, en = sysPRW(e.raw, trap, u.FD, u.Buf, u.Offset)
	case kindSync:
		if en = sysSeek(u.FD, u.Offset); en != 0 {
			return 0, en
		}
		trap := uintptr(unix.SYS_READ)
		if write {
			trap = unix.SYS_WRITE
		}
		n, en = sysRW(e.raw, trap, u.FD, u.Buf)
	default:
		n, en = e.transferVec(u, write)
	}
	if en != 0 {
		return 0, en
	}
	return n, 0
}

// transferVec is transfer for the engines that pass one iovec.
func (e *syncEngine) transferVec(u *IOUnit, write bool) (int, unix.Errno) {
	var trap, a, b, c uintptr
	switch e.kind {
	case kindVsync:
		if en := sysSeek(u.FD, u.Offset); en != 0 {
			return 0, en
		}
		trap = unix.SYS_READV
		if write {
			trap = unix.SYS_WRITEV
		}
	case kindPvsync:
		trap = unix.SYS_PREADV
		if write {
			trap = unix.SYS_PWRITEV
		}
		a, b = offsetLoHi(u.Offset)
	default:
		trap = unix.SYS_PREADV2
		if write {
			trap = unix.SYS_PWRITEV2
		}
		flags := e.flags
		if e.hipri && (e.hipriPct >= 100 || int(e.rng.Below(100)) < e.hipriPct) {
			flags |= unix.RWF_HIPRI
		}
		a, b = offsetLoHi(u.Offset)
		c = uintptr(flags)
	}
	e.iov.Base = unsafe.SliceData(u.Buf)
	e.iov.SetLen(len(u.Buf))
	n, en := sysVec(e.raw, trap, u.FD, &e.iov, a, b, c)
	e.iov.Base = nil
	return n, en
}

// offsetLoHi splits a file offset into the two words the p*v system calls
// take (the high word is 0 on 64-bit systems).
func offsetLoHi(off int64) (lo, hi uintptr) {
	const longBits = int(unsafe.Sizeof(uintptr(0))) * 8
	return uintptr(off), uintptr(uint64(off) >> (longBits - 1) >> 1)
}

// blkDiscard discards length bytes at off of a block device (BLKDISCARD).
// A regular file answers ENOTTY.
func blkDiscard(fd int, off, length int64) unix.Errno {
	r := [2]uint64{uint64(off), uint64(length)}
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.BLKDISCARD, uintptr(unsafe.Pointer(&r[0])))
	return e
}
