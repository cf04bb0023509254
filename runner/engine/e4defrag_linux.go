package engine

// The e4defrag engine: each write moves the unit's range of the job's
// file into blocks of a donor file with the EXT4_IOC_MOVE_EXT ioctl, as
// fio's manual describes it ("regular EXT4_IOC_MOVE_EXT ioctls to
// simulate defragment activity in request to DDIR_WRITE event"). The
// donor is donorname (in the job's directory= when it has one), opened
// read-write and created, and left in place when the job ends.
//
// With inplace=0 (the default) the donor is preallocated when the engine
// starts: fallocate(2) of the job's filesize= bytes, which fails with
// EINVAL when the job has no filesize= (fio 3.33, observed: the job fails
// in io_queue_init). With inplace=1 each write allocates the donor's
// range first and frees the donor after the move (truncated to 0 bytes:
// fio 3.33 leaves an empty donor).
//
// Observed in fio 3.33 and kept: reads, trims and syncs (fsync=N) fail
// in td_io_queue with EINVAL.

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
)

var e4defragEngine = Info{Name: "e4defrag", New: newE4defrag, Sync: true}

// ext4IocMoveExt is EXT4_IOC_MOVE_EXT: _IOWR('f', 15, struct move_extent).
const ext4IocMoveExt = 0xc028660f

// ext4MoveExtent is struct move_extent (<linux/ext4.h>): the ranges are
// in file system blocks.
type ext4MoveExtent struct {
	Reserved   uint32
	DonorFD    uint32
	OrigStart  uint64
	DonorStart uint64
	Len        uint64
	MovedLen   uint64
}

// e4defragEng is one job's engine.
type e4defragEng struct {
	donor   int
	inplace bool
	bsize   map[int]int64 // file system block size by the job's descriptors
}

var (
	_ Engine     = (*e4defragEng)(nil)
	_ FileOpener = (*e4defragEng)(nil)
)

// OpenFile opens path read-write whatever the job's direction:
// EXT4_IOC_MOVE_EXT takes only a file open for reading and writing
// (EBADF otherwise).
func (e *e4defragEng) OpenFile(_ int, path string, flags int) (int, error) {
	return unix.Open(path, flags&^unix.O_ACCMODE|unix.O_RDWR, 0o600)
}

// CloseFile closes fd.
func (e *e4defragEng) CloseFile(_ int, fd int) error {
	delete(e.bsize, fd)
	return unix.Close(fd)
}

func newE4defrag(cfg Config) (Engine, error) {
	o := &cfg.Options
	if o.DonorName == "" {
		w := ""
		return nil, &QueueInitError{errno: unix.EPERM, err: fmt.Errorf("e4defrag: donorname is required"),
			Msg: "'donorname' options required\nfio: io engine e4defrag init failed.", Where: &w}
	}
	path := o.DonorName
	if cfg.Dir != "" {
		path = cfg.Dir + "/" + o.DonorName
	}
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, e4defragInitError(errno.Of(err))
	}
	e := &e4defragEng{donor: fd, inplace: o.InPlace != 0, bsize: map[int]int64{}}
	if !e.inplace {
		if err := unix.Fallocate(fd, 0, 0, int64(cfg.FileSize)); err != nil {
			unix.Close(fd)
			return nil, e4defragInitError(errno.Of(err))
		}
	}
	return e, nil
}

// e4defragInitError is fio's report of a failed start: "fio: io engine
// e4defrag init failed." on stderr, the job failed in io_queue_init.
func e4defragInitError(e unix.Errno) error {
	w := "file:engines/e4defrag.c:113, func=io_queue_init, error=" + errno.Text(e)
	return &QueueInitError{errno: e, err: fmt.Errorf("e4defrag: donor: %w", e),
		Msg: "fio: io engine e4defrag init failed.", Where: &w}
}

func (e *e4defragEng) Queue(u *IOUnit) Status {
	u.Result, u.Err = 0, 0
	switch u.Op {
	case OpWrite:
		if err := e.move(u); err != 0 {
			u.Err = err
			return Completed
		}
		u.Result = len(u.Buf)
	default:
		u.Err, u.ErrFn = unix.EINVAL, "td_io_queue"
	}
	return Completed
}

// move swaps the unit's range of the file with the donor's.
func (e *e4defragEng) move(u *IOUnit) unix.Errno {
	bs, ok := e.bsize[u.FD]
	if !ok {
		var st unix.Stat_t
		if err := unix.Fstat(u.FD, &st); err != nil {
			return errno.Of(err)
		}
		bs = max(int64(st.Blksize), 1)
		e.bsize[u.FD] = bs
	}
	n := int64(len(u.Buf))
	if e.inplace {
		if err := unix.Fallocate(e.donor, 0, u.Offset, n); err != nil {
			return errno.Of(err)
		}
	}
	me := ext4MoveExtent{DonorFD: uint32(e.donor), OrigStart: uint64(u.Offset / bs), DonorStart: uint64(u.Offset / bs),
		Len: uint64((n + bs - 1) / bs)}
	_, _, en := unix.Syscall(unix.SYS_IOCTL, uintptr(u.FD), ext4IocMoveExt, uintptr(unsafe.Pointer(&me)))
	if e.inplace {
		unix.Ftruncate(e.donor, 0)
	}
	return en
}

// Close closes the donor; the file stays, as in fio 3.33.
func (e *e4defragEng) Close() error {
	if e.donor < 0 {
		return nil
	}
	err := unix.Close(e.donor)
	e.donor = -1
	return err
}
