package engine

// The splice engine (fio's manual: "splice(2) is used to transfer the
// data and vmsplice(2) to transfer data from user space to the kernel"):
// each unit goes through a pipe the engine keeps. A write maps the
// buffer into the pipe with vmsplice(2) and splices the pipe into the
// file at the unit's offset; a read splices the file's block into the
// pipe and copies it out into the buffer. Every unit completes in Queue.

import (
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
)

type spliceEngine struct {
	pipe [2]int     // read end, write end
	off  int64      // the file offset splice(2) reads or writes at
	iov  unix.Iovec // the one iovec of vmsplice(2)
	max  int        // the pipe's capacity: the most one step moves
}

var _ Engine = (*spliceEngine)(nil)

func newSplice(Config) (Engine, error) {
	e := &spliceEngine{}
	if err := unix.Pipe2(e.pipe[:], unix.O_CLOEXEC); err != nil {
		return nil, &InitError{Errno: errno.Of(err), Fn: "pipe"}
	}
	e.max = pipeSize(e.pipe[1])
	return e, nil
}

// Close closes the pipe.
func (e *spliceEngine) Close() error {
	unix.Close(e.pipe[0])
	return unix.Close(e.pipe[1])
}

func (e *spliceEngine) Queue(u *IOUnit) Status {
	var n int
	var err unix.Errno
	switch u.Op {
	case OpRead:
		n, err = e.read(u)
	case OpWrite:
		n, err = e.write(u)
	default:
		n, err = syncOp(u)
	}
	u.Result, u.Err = n, err
	return Completed
}

// read splices the block into the pipe and reads it out, until the
// buffer is full or the file ends.
func (e *spliceEngine) read(u *IOUnit) (int, unix.Errno) {
	e.off = u.Offset
	done := 0
	for done < len(u.Buf) {
		s, _, en := unix.Syscall6(unix.SYS_SPLICE, uintptr(u.FD), uintptr(unsafe.Pointer(&e.off)), uintptr(e.pipe[1]), 0, uintptr(min(len(u.Buf)-done, e.max)), 0)
		if en == unix.EINTR {
			continue
		}
		if en != 0 {
			return done, en
		}
		if s == 0 {
			break // end of file
		}
		n, en := readPipe(e.pipe[0], u.Buf[done:done+int(s)])
		done += n
		if en != 0 {
			return done, en
		}
	}
	return done, 0
}

// readPipe reads len(b) bytes, spliced into the pipe before, from its
// read end fd, retrying on EINTR; it returns how many it read.
func readPipe(fd int, b []byte) (int, unix.Errno) {
	done := 0
	for done < len(b) {
		r, _, en := unix.Syscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[done])), uintptr(len(b)-done))
		if en == unix.EINTR {
			continue
		}
		if en != 0 {
			return done, en
		}
		done += int(r)
	}
	return done, 0
}

// write maps the buffer into the pipe and splices it into the file.
func (e *spliceEngine) write(u *IOUnit) (int, unix.Errno) {
	e.off = u.Offset
	done := 0
	for done < len(u.Buf) {
		e.iov.Base = &u.Buf[done]
		e.iov.SetLen(min(len(u.Buf)-done, e.max))
		m, _, en := unix.Syscall6(unix.SYS_VMSPLICE, uintptr(e.pipe[1]), uintptr(unsafe.Pointer(&e.iov)), 1, 0, 0, 0)
		if en == unix.EINTR {
			continue
		}
		if en != 0 {
			return done, en
		}
		for left := int(m); left > 0; {
			s, _, en := unix.Syscall6(unix.SYS_SPLICE, uintptr(e.pipe[0]), 0, uintptr(u.FD), uintptr(unsafe.Pointer(&e.off)), uintptr(left), 0)
			if en == unix.EINTR {
				continue
			}
			if en != 0 {
				e.drain(left)
				return done, en
			}
			left -= int(s)
			done += int(s)
		}
	}
	return done, 0
}

// drain empties the pipe of n bytes a failed splice left there, so the
// next unit starts with an empty pipe.
func (e *spliceEngine) drain(n int) {
	var b [512]byte
	for n > 0 {
		r, _, en := unix.Syscall(unix.SYS_READ, uintptr(e.pipe[0]), uintptr(unsafe.Pointer(&b[0])), uintptr(min(n, len(b))))
		if en != 0 && en != unix.EINTR || r == 0 && en == 0 {
			return
		}
		n -= int(r)
	}
}

// pipeSize returns the capacity of the pipe fd writes to: a splice or
// vmsplice of more would wait for a reader that never comes.
func pipeSize(fd int) int {
	if n, err := unix.FcntlInt(uintptr(fd), unix.F_GETPIPE_SZ, 0); err == nil && n > 0 {
		return n
	}
	return 1 << 16 // Linux's default
}
