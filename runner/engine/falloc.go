package engine

// Two engines that turn I/O into file-size operations:
//
//	falloc     fallocate(2): a read allocates without changing the size
//	           (FALLOC_FL_KEEP_SIZE), a write allocates (mode 0), a trim
//	           punches a hole (KEEP_SIZE|PUNCH_HOLE)
//	ftruncate  a write sets the file's size to the unit's offset with
//	           ftruncate(2); any other direction is refused (EINVAL in
//	           td_io_queue), as in fio 3.33
//
// Both complete each unit in Queue and report its full length.

import (
	"github.com/gofio/gofio/internal/errno"
	"golang.org/x/sys/unix"
)

// fallocEngine implements falloc.
type fallocEngine struct{}

// ftruncateEngine implements ftruncate.
type ftruncateEngine struct{}

var (
	_ Engine     = fallocEngine{}
	_ FileOpener = fallocEngine{}
	_ Engine     = ftruncateEngine{}
)

func newFalloc(Config) (Engine, error)    { return fallocEngine{}, nil }
func newFtruncate(Config) (Engine, error) { return ftruncateEngine{}, nil }

// OpenFile opens path read-write, creating it (mode 0600), whatever the
// job's direction: fallocate(2) needs a writable descriptor even for the
// reads (KEEP_SIZE allocations), and fio 3.33 opens falloc's files so
// (strace: O_RDWR|O_CREAT for rw=read, write and trim alike).
func (fallocEngine) OpenFile(_ int, path string, flags int) (int, error) {
	flags = flags&^unix.O_ACCMODE | unix.O_RDWR | unix.O_CREAT
	return unix.Open(path, flags, 0o600)
}

// CloseFile closes fd.
func (fallocEngine) CloseFile(_ int, fd int) error {
	if fd < 0 {
		return nil
	}
	return unix.Close(fd)
}

func (fallocEngine) Queue(u *IOUnit) Status {
	var err error
	switch u.Op {
	case OpRead:
		err = unix.Fallocate(u.FD, unix.FALLOC_FL_KEEP_SIZE, u.Offset, int64(len(u.Buf)))
	case OpWrite:
		err = unix.Fallocate(u.FD, 0, u.Offset, int64(len(u.Buf)))
	case OpTrim:
		err = unix.Fallocate(u.FD, unix.FALLOC_FL_KEEP_SIZE|unix.FALLOC_FL_PUNCH_HOLE, u.Offset, int64(len(u.Buf)))
	case OpFsync:
		err = unix.Fsync(u.FD)
	case OpFdatasync:
		err = unix.Fdatasync(u.FD)
	}
	u.Result, u.Err = 0, errno.Of(err)
	if err == nil && u.Op.IsData() {
		u.Result = len(u.Buf)
	}
	return Completed
}

func (ftruncateEngine) Queue(u *IOUnit) Status {
	var err error
	switch u.Op {
	case OpWrite:
		err = unix.Ftruncate(u.FD, u.Offset)
	case OpFsync:
		err = unix.Fsync(u.FD)
	case OpFdatasync:
		err = unix.Fdatasync(u.FD)
	default:
		u.Result, u.Err, u.ErrFn = 0, unix.EINVAL, "td_io_queue"
		return Completed
	}
	u.Result, u.Err = 0, errno.Of(err)
	if err == nil && u.Op == OpWrite {
		u.Result = len(u.Buf)
	}
	return Completed
}
