package engine

// The mmap engine maps each file (MAP_SHARED) and copies units to and from
// the mapping. A file is mapped on first use in windows of at most
// mmapWindow bytes, moved when a unit falls outside the current one; the
// kernel is advised of the job's pattern (MADV_SEQUENTIAL or MADV_RANDOM,
// and MADV_HUGEPAGE with thp=1). A sync unit is msync(MS_SYNC) of the
// window. A trim is BLKDISCARD, which a regular file refuses with ENOTTY
// (func=trim, as in fio 3.33).
//
// A unit beyond the end of a file that shrank under the job would raise
// SIGBUS; the copy runs with the goroutine's panic-on-fault set and
// reports EFAULT instead of crashing.

import (
	"runtime/debug"

	"github.com/gofio/gofio/internal/errno"
	"golang.org/x/sys/unix"
)

// mmapWindow is the most of a file mapped at once.
const mmapWindow = 1 << 30

type mmapEngine struct {
	files  []mmapFile // by IOUnit.File
	prot   int
	advice int // madvise(2) advice for each window; -1 for none
	thp    bool
}

// mmapFile is one open file and its current window.
type mmapFile struct {
	fd   int
	size int64  // file size when opened
	mem  []byte // the window, nil when none
	off  int64  // file offset of mem[0]
}

var (
	_ Engine     = (*mmapEngine)(nil)
	_ FileOpener = (*mmapEngine)(nil)
)

func newMmap(cfg Config) (Engine, error) {
	e := &mmapEngine{files: make([]mmapFile, max(cfg.Files, 1)), advice: unix.MADV_SEQUENTIAL}
	for i := range e.files {
		e.files[i].fd = -1
	}
	switch {
	case cfg.RW.Reads() && (cfg.RW.Writes() || cfg.RW.Trims()):
		e.prot = unix.PROT_READ | unix.PROT_WRITE
	case cfg.RW.Writes() || cfg.RW.Trims():
		e.prot = unix.PROT_WRITE
	default:
		e.prot = unix.PROT_READ
	}
	// As fio: the mapping's advice follows the I/O pattern whatever
	// fadvise_hint says, unless that is 0 (no advice at all).
	switch {
	case cfg.NoAdvice:
		e.advice = -1
	case cfg.RW.Random():
		e.advice = unix.MADV_RANDOM
	}
	e.thp = cfg.Options.THP != 0
	return e, nil
}

// OpenFile opens path (read-write when the job writes: a shared writable
// mapping needs it) and notes its size.
func (e *mmapEngine) OpenFile(index int, path string, flags int) (int, error) {
	if index < 0 || index >= len(e.files) {
		return -1, unix.EINVAL
	}
	if flags&unix.O_ACCMODE != unix.O_RDONLY {
		flags = flags&^unix.O_ACCMODE | unix.O_RDWR
	}
	fd, err := unix.Open(path, flags, 0o600)
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, err
	}
	size := st.Size
	if st.Mode&unix.S_IFMT == unix.S_IFBLK {
		if n, err := BlockDevSize(path); err == nil {
			size = int64(n)
		}
	}
	// Faults in the copies become panics that Queue recovers.
	debug.SetPanicOnFault(true)
	e.files[index] = mmapFile{fd: fd, size: size}
	return fd, nil
}

// CloseFile unmaps the file's window and closes it.
func (e *mmapEngine) CloseFile(index int, fd int) error {
	if index >= 0 && index < len(e.files) {
		f := &e.files[index]
		if f.mem != nil {
			unix.Munmap(f.mem)
			f.mem = nil
		}
		f.fd = -1
	}
	if fd >= 0 {
		return unix.Close(fd)
	}
	return nil
}

// Close unmaps every window left.
func (e *mmapEngine) Close() error {
	for i := range e.files {
		if e.files[i].mem != nil {
			unix.Munmap(e.files[i].mem)
			e.files[i].mem = nil
		}
	}
	return nil
}

func (e *mmapEngine) Queue(u *IOUnit) Status {
	u.Result, u.Err = 0, 0
	if u.File < 0 || u.File >= len(e.files) {
		u.Err = unix.EINVAL
		return Completed
	}
	f := &e.files[u.File]
	switch u.Op {
	case OpTrim:
		if u.Err = blkDiscard(u.FD, u.Offset, int64(len(u.Buf))); u.Err != 0 {
			u.ErrFn = "trim"
		} else {
			u.Result = len(u.Buf)
		}
		return Completed
	case OpFsync, OpFdatasync:
		if f.mem != nil {
			u.Err = errno.Of(unix.Msync(f.mem, unix.MS_SYNC))
		}
		return Completed
	}
	end := u.Offset + int64(len(u.Buf))
	if f.mem == nil || u.Offset < f.off || end > f.off+int64(len(f.mem)) {
		if err := e.remap(f, u.Offset, end); err != 0 {
			u.Err = err
			return Completed
		}
	}
	win := f.mem[u.Offset-f.off : end-f.off]
	var faulted bool
	if u.Op == OpWrite {
		faulted = faultSafeCopy(win, u.Buf)
	} else {
		faulted = faultSafeCopy(u.Buf, win)
	}
	if faulted {
		u.Err = unix.EFAULT
		return Completed
	}
	u.Result = len(u.Buf)
	return Completed
}

// remap maps the window of f that holds [off, end).
func (e *mmapEngine) remap(f *mmapFile, off, end int64) unix.Errno {
	if f.mem != nil {
		unix.Munmap(f.mem)
		f.mem = nil
	}
	page := int64(unix.Getpagesize())
	start := off &^ (page - 1)
	length := min(int64(mmapWindow), f.size-start)
	if length < end-start {
		length = end - start
	}
	mem, err := unix.Mmap(f.fd, start, int(length), e.prot, unix.MAP_SHARED)
	if err != nil {
		return errno.Of(err)
	}
	if e.advice >= 0 {
		unix.Madvise(mem, e.advice)
	}
	if e.thp {
		unix.Madvise(mem, unix.MADV_HUGEPAGE)
	}
	f.mem, f.off = mem, start
	return 0
}

// faultSafeCopy copies src to dst and reports whether the copy faulted
// (a mapping beyond the end of its file). The goroutine must have
// panic-on-fault set.
func faultSafeCopy(dst, src []byte) (faulted bool) {
	defer func() {
		if recover() != nil {
			faulted = true
		}
	}()
	copy(dst, src)
	return false
}
