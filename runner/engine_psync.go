package runner

import "golang.org/x/sys/unix"

// syncEngine implements the blocking engines: psync (pread/pwrite) and
// sync (lseek, then read/write). Each unit completes inside Queue.
type syncEngine struct {
	positioned bool // pread/pwrite rather than lseek + read/write
}

var _ Engine = (*syncEngine)(nil)

func newPsync(EngineConfig) (Engine, error) { return &syncEngine{positioned: true}, nil }
func newSync(EngineConfig) (Engine, error)  { return &syncEngine{}, nil }

func (e *syncEngine) Queue(u *IOUnit) Status {
	var n int
	var err error
	switch u.Op {
	case OpRead:
		if e.positioned {
			n, err = unix.Pread(u.FD, u.Buf, u.Offset)
		} else if _, err = unix.Seek(u.FD, u.Offset, 0); err == nil {
			n, err = unix.Read(u.FD, u.Buf)
		}
	case OpWrite:
		if e.positioned {
			n, err = unix.Pwrite(u.FD, u.Buf, u.Offset)
		} else if _, err = unix.Seek(u.FD, u.Offset, 0); err == nil {
			n, err = unix.Write(u.FD, u.Buf)
		}
	case OpTrim:
		err = punchHole(u.FD, u.Offset, int64(len(u.Buf)))
		n = len(u.Buf)
	case OpFsync:
		err = unix.Fsync(u.FD)
	case OpFdatasync:
		err = unix.Fdatasync(u.FD)
	}
	u.Result, u.Err = n, errno(err)
	return Completed
}

// punchHole discards a byte range of a regular file (trim on a file).
func punchHole(fd int, off, length int64) error {
	return unix.Fallocate(fd, unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, off, length)
}

// errno extracts the errno of a syscall error (EIO for anything else).
func errno(err error) unix.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(unix.Errno); ok {
		return e
	}
	return unix.EIO
}
