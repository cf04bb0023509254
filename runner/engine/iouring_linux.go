package engine

// The io_uring engine, over raw io_uring_setup/enter/register system
// calls and rings mapped with mmap (no liburing).
//
// Queue writes an SQE straight into the mapped SQ array (user_data = the
// unit's index); Commit publishes the SQ tail and submits the batch with
// one io_uring_enter; Reap reads CQEs from the mapped CQ ring and only
// enters the kernel (IORING_ENTER_GETEVENTS) when fewer than min are
// there. Nothing is allocated per I/O.

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/gofio/gofio/internal/errno"
	"golang.org/x/sys/unix"
)

var iouringEngine = Info{Name: "io_uring", New: newIOUring, Pow2Depth: true}

// uringEngine is one job's ring.
type uringEngine struct {
	ring  *uringRing
	units []*IOUnit
	depth int

	pending  int // SQEs written but not yet taken by the kernel
	inflight int // SQEs taken by the kernel and not yet reaped

	vectored   bool         // READV/WRITEV with iovecs (nonvectored=0)
	fixed      bool         // READ_FIXED/WRITE_FIXED (fixedbufs)
	iopoll     bool         // IORING_SETUP_IOPOLL (hipri)
	sqpoll     bool         // IORING_SETUP_SQPOLL (sqthread_poll)
	rwFlags    uint32       // RWF_* for reads and writes (nowait)
	forceAsync int          // every forceAsync'th SQE gets IOSQE_ASYNC
	asyncCount int          // SQEs since the last forced-async one
	iovecs     []unix.Iovec // per unit, when vectored
	bufBase    []uintptr    // registered buffer start per unit (fixed)
	bufLen     []int        // registered buffer length per unit (fixed)
	prio       *cmdPrio     // cmdprio options, nil without them

	// regFiles: the job's files are registered with the ring
	// (registerfiles, or sqthread_poll, which implies it as in fio), and
	// SQEs name them by index with IOSQE_FIXED_FILE. regFD[i] is the
	// descriptor in slot i (file i of the job), -1 while it is closed.
	regFiles bool
	regFD    []int32

	// bound: the ring was set up disabled for one submitter
	// (IORING_SETUP_SINGLE_ISSUER with DEFER_TASKRUN) and is enabled by
	// BindThread on the job's thread; its completions then reach the CQ
	// only when that thread waits for them (IORING_ENTER_GETEVENTS).
	bound bool
}

// newIOUring builds an io_uring engine for one job.
func newIOUring(cfg Config) (Engine, error) {
	e, err := newUringEngine(cfg, 0)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// newUringEngine builds the ring of an io_uring or io_uring_cmd job, with
// the extra setup flags (SQE128, CQE32).
func newUringEngine(cfg Config, setupFlags uint32) (*uringEngine, error) {
	e := &uringEngine{units: cfg.Units, depth: cfg.IODepth}
	if e.depth < 1 {
		e.depth = 1
	}
	o := &cfg.Options
	e.iopoll, e.fixed, e.sqpoll = o.HiPri, o.FixedBufs, o.SQThreadPoll
	e.forceAsync = o.ForceAsync
	if o.NoWait {
		e.rwFlags |= unix.RWF_NOWAIT
	}
	if o.Uncached != 0 && !cfg.Direct {
		// fio 3.33 sets its RWF_UNCACHED on buffered reads and writes
		// only; kernels without that flag fail each I/O (EOPNOTSUPP
		// from Linux 6.11, where the value is RWF_ATOMIC).
		e.rwFlags |= rwfUncached
	}
	nonvectored, sqpollCPU := o.NonVectored, o.SQThreadPollCPU
	// fio 3.33: "sqthread submission requires registered files", and
	// files stay registered for the whole job, so all must be open.
	e.regFiles = o.RegisterFiles || o.SQThreadPoll
	if e.regFiles && cfg.OpenFiles > 0 && cfg.OpenFiles < cfg.Files {
		where := ""
		return nil, &QueueInitError{errno: unix.EPERM,
			err: errors.New("io_uring: registered files require nr_files to be identical to open_files"),
			Msg: "fio: io_uring registered files require nr_files to be identical to open_files\n" +
				"fio: io engine io_uring init failed.", Where: &where}
	}
	prio, err := newCmdPrio("io_uring", cfg)
	if err != nil {
		return nil, err
	}
	e.prio = prio
	for i, u := range cfg.Units {
		if u == nil || u.Index != i {
			return nil, fmt.Errorf("io_uring: unit %d has index mismatch", i)
		}
	}

	// No IORING_SETUP_CLAMP: like fio 3.33, a depth over the kernel's
	// 32768 entries fails (EINVAL) rather than running with fewer.
	p := uringParams{Flags: setupFlags}
	if e.iopoll {
		p.Flags |= uringSetupIOPoll
	}
	if e.sqpoll {
		p.Flags |= uringSetupSQPoll
		if sqpollCPU >= 0 {
			p.Flags |= uringSetupSQAff
			p.SQThreadCPU = uint32(sqpollCPU)
		}
	}
	ring, err := setupRing(uint32(e.depth), p, cfg.ThreadBound)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
			return nil, fmt.Errorf("io_uring: io_uring_setup: %w (io_uring unavailable: kernel without it, "+
				"kernel.io_uring_disabled set, or blocked by a seccomp filter)", err)
		}
		return nil, &QueueInitError{errno: errno.Of(err), err: fmt.Errorf("io_uring: io_uring_setup(%d): %w", e.depth, err)}
	}
	e.bound = ring.params.Flags&uringSetupRDisabled != 0
	e.ring = ring
	switch {
	case nonvectored == 0:
		e.vectored = true
	case nonvectored < 0:
		// IORING_OP_READ/WRITE came with 5.6, as did this feature bit.
		e.vectored = ring.features&uringFeatRWCurPos == 0
	}
	if e.vectored {
		e.iovecs = make([]unix.Iovec, len(cfg.Units))
	}
	if e.fixed {
		if err := e.registerBuffers(); err != nil {
			ring.close()
			return nil, err
		}
	}
	if e.regFiles {
		if err := e.registerFiles(cfg.Files); err != nil {
			ring.close()
			return nil, err
		}
	}
	return e, nil
}

// setupRing sets up a ring of depth entries with the flags of p and, as
// fio 3.33 does, asks the kernel for cooperative completion work
// (IORING_SETUP_COOP_TASKRUN) and, with single, for one submitting thread
// whose waits run the completion work (SINGLE_ISSUER, DEFER_TASKRUN):
// the kernel then neither interrupts the job's thread nor wakes it for
// each completion, which on a device that hands every read to a kernel
// worker (zram) is most of the cost per I/O. Like fio, it drops the two
// flags a kernel refuses (EINVAL: older than 6.1, or with SQPOLL), then
// COOP_TASKRUN. A single-submitter ring is set up disabled
// (IORING_SETUP_R_DISABLED), because it is set up before the job's thread
// runs and the thread that enables it becomes its submitter (BindThread).
func setupRing(depth uint32, p uringParams, single bool) (*uringRing, error) {
	base := p.Flags
	tries := []uint32{
		base | uringSetupCoopTaskrun | uringSetupSingleIssuer | uringSetupDeferTaskrun | uringSetupRDisabled,
		base | uringSetupCoopTaskrun,
		base,
	}
	if !single {
		tries = tries[1:]
	}
	var err error
	for _, flags := range tries {
		q := p
		q.Flags = flags
		var ring *uringRing
		if ring, err = newUringRing(depth, &q); err == nil {
			return ring, nil
		}
		if !errors.Is(err, unix.EINVAL) {
			return nil, err
		}
	}
	return nil, err
}

// BindThread enables a single-submitter ring on the calling thread,
// which becomes the ring's submitter (engine.ThreadBinder).
func (e *uringEngine) BindThread() error {
	if !e.bound {
		return nil
	}
	if err := uringRegister(e.ring.fd, uringRegisterEnable, nil, 0); err != nil {
		return fmt.Errorf("io_uring: IORING_REGISTER_ENABLE_RINGS: %w", err)
	}
	return nil
}

// CloseOnThread closes the ring on its submitter's thread, where waiting
// for the units still in flight is allowed (engine.ThreadBinder).
func (e *uringEngine) CloseOnThread() error { return e.Close() }

// registerFiles registers a table of n empty file slots (-1), one per
// file of the job; OpenFile fills a slot, CloseFile empties it.
func (e *uringEngine) registerFiles(n int) error {
	if n < 1 {
		n = 1
	}
	e.regFD = make([]int32, n)
	for i := range e.regFD {
		e.regFD[i] = -1
	}
	if err := uringRegister(e.ring.fd, uringRegisterFiles, unsafe.Pointer(&e.regFD[0]), uint32(n)); err != nil {
		return &QueueInitError{errno: errno.Of(err), err: fmt.Errorf("io_uring: registerfiles: IORING_REGISTER_FILES: %w", err)}
	}
	return nil
}

// OpenFile opens file index of the job (FileOpener) and, with registered
// files, puts it in its slot.
func (e *uringEngine) OpenFile(index int, path string, flags int) (int, error) {
	fd, err := unix.Open(path, flags, 0o600) // fio's mode for files a job creates
	if err != nil || !e.regFiles {
		return fd, err
	}
	if index < 0 || index >= len(e.regFD) {
		unix.Close(fd)
		return -1, fmt.Errorf("io_uring: registerfiles: file %d of %d", index, len(e.regFD))
	}
	if err := e.updateFile(index, int32(fd)); err != nil {
		unix.Close(fd)
		return -1, err
	}
	e.regFD[index] = int32(fd)
	return fd, nil
}

// CloseFile empties file index's slot, if registered, and closes fd.
func (e *uringEngine) CloseFile(index int, fd int) error {
	if e.regFiles && index >= 0 && index < len(e.regFD) && e.regFD[index] >= 0 {
		e.regFD[index] = -1
		if e.ring != nil {
			_ = e.updateFile(index, -1) // the ring may be gone; its close drops the file anyway
		}
	}
	if fd < 0 {
		return nil
	}
	return unix.Close(fd)
}

// updateFile sets registered file slot index to fd (IORING_REGISTER_FILES_UPDATE).
func (e *uringEngine) updateFile(index int, fd int32) error {
	up := uringFilesUpdate{Offset: uint32(index), Fds: uint64(uintptr(unsafe.Pointer(&fd)))}
	for {
		err := uringRegister(e.ring.fd, uringRegisterFilesUpd, unsafe.Pointer(&up), 1)
		if err == unix.EINTR {
			continue
		}
		runtime.KeepAlive(&fd)
		if err != nil {
			return fmt.Errorf("io_uring: registerfiles: IORING_REGISTER_FILES_UPDATE: %w", err)
		}
		return nil
	}
}

// sqeFile returns the fd field and IOSQE flags that name u's file: its
// registered slot with IOSQE_FIXED_FILE when it has one.
func (e *uringEngine) sqeFile(u *IOUnit) (int32, uint8) {
	if e.regFiles && u.File >= 0 && u.File < len(e.regFD) && e.regFD[u.File] == int32(u.FD) {
		return int32(u.File), uringSQEFixedFile
	}
	return int32(u.FD), 0
}

// registerBuffers registers each unit's buffer (its full capacity) as
// fixed buffer number Index, so the units must have their buffers before
// New. A unit whose Buf later points elsewhere is still served, with a
// plain READ/WRITE.
func (e *uringEngine) registerBuffers() error {
	const maxBuffers = 1 << 14 // IORING_MAX_REG_BUFFERS
	if len(e.units) == 0 {
		return nil
	}
	if len(e.units) > maxBuffers {
		return fmt.Errorf("io_uring: fixedbufs: %d buffers, the kernel takes at most %d", len(e.units), maxBuffers)
	}
	iov := make([]unix.Iovec, len(e.units))
	e.bufBase = make([]uintptr, len(e.units))
	e.bufLen = make([]int, len(e.units))
	for i, u := range e.units {
		if cap(u.Buf) == 0 {
			return fmt.Errorf("io_uring: fixedbufs: unit %d has no buffer to register", i)
		}
		b := u.Buf[:cap(u.Buf)]
		iov[i].Base = &b[0]
		iov[i].SetLen(len(b))
		e.bufBase[i] = uintptr(unsafe.Pointer(&b[0]))
		e.bufLen[i] = len(b)
	}
	err := uringRegister(e.ring.fd, uringRegisterBuffers, unsafe.Pointer(&iov[0]), uint32(len(iov)))
	if err != nil {
		hint := ""
		if errors.Is(err, unix.ENOMEM) {
			hint = " (raise RLIMIT_MEMLOCK: ulimit -l)"
		}
		return fmt.Errorf("io_uring: fixedbufs: IORING_REGISTER_BUFFERS: %w%s", err, hint)
	}
	return nil
}

// Queue writes u's SQE and holds it until Commit. Trims are done at once
// (BLKDISCARD), as fio does for its asynchronous engines.
func (e *uringEngine) Queue(u *IOUnit) Status {
	var opcode uint8
	u.Prio = 0
	switch u.Op {
	case OpTrim:
		asyncTrim(u)
		return Completed
	case OpRead:
		opcode = uringOpRead
	case OpWrite:
		opcode = uringOpWrite
	case OpFsync, OpFdatasync:
		opcode = uringOpFsync
	default:
		u.Result, u.Err = 0, unix.EINVAL
		return Completed
	}
	if u.Index < 0 || u.Index >= len(e.units) {
		u.Result, u.Err = 0, unix.EINVAL
		return Completed
	}
	if e.pending+e.inflight >= e.depth || (e.ring.sqSpace() == 0 && !e.waitSQ()) {
		return Busy
	}
	sqe := e.ring.nextSQE()
	fd, flags := e.sqeFile(u)
	*sqe = uringSQE{Opcode: opcode, Flags: flags, FD: fd, UserData: uint64(u.Index)}
	switch u.Op {
	case OpRead, OpWrite:
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(u.Buf)))
		sqe.Off = uint64(u.Offset)
		sqe.OpFlags = e.rwFlags
		u.Prio = e.prio.pick(u)
		sqe.IOPrio = u.Prio
		switch {
		case e.fixed && e.bufLen[u.Index] > 0 && addr >= e.bufBase[u.Index] && addr+uintptr(len(u.Buf)) <= e.bufBase[u.Index]+uintptr(e.bufLen[u.Index]):
			sqe.Opcode = uringOpReadFixed
			if u.Op == OpWrite {
				sqe.Opcode = uringOpWriteFixed
			}
			sqe.Addr = uint64(addr)
			sqe.Len = uint32(len(u.Buf))
			sqe.BufIndex = uint16(u.Index)
		case e.vectored:
			sqe.Opcode = uringOpReadv
			if u.Op == OpWrite {
				sqe.Opcode = uringOpWritev
			}
			iov := &e.iovecs[u.Index]
			iov.Base = unsafe.SliceData(u.Buf)
			iov.SetLen(len(u.Buf))
			sqe.Addr = uint64(uintptr(unsafe.Pointer(iov)))
			sqe.Len = 1
		default:
			sqe.Addr = uint64(addr)
			sqe.Len = uint32(len(u.Buf))
		}
	case OpFdatasync:
		sqe.OpFlags = uringFsyncDatasync
	}
	if e.forceAsync > 0 {
		e.asyncCount++
		if e.asyncCount >= e.forceAsync {
			sqe.Flags |= uringSQEAsync
			e.asyncCount = 0
		}
	}
	u.Result, u.Err = 0, 0
	e.pending++
	return Queued
}

// Prios returns the I/O priorities the cmdprio options give (PrioStater).
func (e *uringEngine) Prios() ([2][]uint16, bool) { return e.prio.prios() }

// waitSQ waits for a free SQ slot and reports whether there is one. With
// fewer units held than SQ slots, a full SQ only happens with SQPOLL: the
// polling thread posts completions before it moves the SQ head past the
// batch they came in, so the wait is short.
func (e *uringEngine) waitSQ() bool {
	if !e.sqpoll {
		return false
	}
	for i := 0; i < 1000 && e.ring.sqSpace() == 0; i++ {
		if _, errno := uringEnter(e.ring.fd, 0, 0, uringEnterSQWait); errno != 0 && errno != unix.EINTR {
			runtime.Gosched()
		}
	}
	return e.ring.sqSpace() > 0
}

// Commit publishes the queued SQEs and submits them with one
// io_uring_enter, returning how many the kernel took. When it has no room
// (EAGAIN, EBUSY) the rest stay queued: Commit returns what it started and
// the caller reaps, then commits again. An SQE the kernel rejects still
// counts as started: its error comes back in its CQE.
func (e *uringEngine) Commit() (int, error) {
	if e.pending == 0 {
		return 0, nil
	}
	e.ring.publish()
	if e.sqpoll {
		// The kernel thread picks the SQEs up; wake it if it sleeps.
		if e.ring.needWakeup() {
			for {
				_, errno := uringEnter(e.ring.fd, 0, 0, uringEnterSQWakeup)
				if errno == unix.EINTR {
					continue
				}
				if errno != 0 {
					return 0, fmt.Errorf("io_uring: io_uring_enter(SQ_WAKEUP): %w", errno)
				}
				break
			}
		}
		n := e.pending
		e.inflight += n
		e.pending = 0
		return n, nil
	}
	started := 0
	for e.pending > 0 {
		n, errno := uringEnter(e.ring.fd, uint32(e.pending), 0, 0)
		switch errno {
		case 0:
		case unix.EINTR:
			continue
		case unix.EAGAIN, unix.EBUSY:
			if started > 0 || e.inflight > 0 {
				return started, nil
			}
			return started, fmt.Errorf("io_uring: io_uring_enter: %w", errno)
		default:
			return started, fmt.Errorf("io_uring: io_uring_enter: %w", errno)
		}
		if n <= 0 {
			break
		}
		if n > e.pending {
			n = e.pending
		}
		started += n
		e.inflight += n
		e.pending -= n
	}
	return started, nil
}

// Reap waits until at least min started units have completed and stores
// up to len(done) of them. min is capped at len(done) and at the number of
// units in flight. With hipri (IOPOLL) it always polls the device once.
func (e *uringEngine) Reap(min int, done []*IOUnit) (int, error) {
	if min > len(done) {
		min = len(done)
	}
	if min > e.inflight {
		min = e.inflight
	}
	r := e.ring
	got := 0
	polled := false
	spins := 0
	for got < len(done) {
		if ready := r.cqReady(); ready > 0 {
			if room := uint32(len(done) - got); ready > room {
				ready = room
			}
			for i := uint32(0); i < ready; i++ {
				c := r.cqe(i)
				u := e.units[c.UserData]
				if c.Res < 0 {
					u.Result, u.Err = 0, unix.Errno(-c.Res)
				} else {
					u.Result, u.Err = int(c.Res), 0
				}
				done[got] = u
				got++
			}
			r.cqAdvance(ready)
			e.inflight -= int(ready)
			continue
		}
		need := min - got
		if need <= 0 {
			// Enough, unless an IOPOLL ring is to be polled, or a
			// bound ring's completions wait for its thread to ask
			// (DEFER_TASKRUN) and none was asked for: ask once.
			if polled || e.inflight == 0 || !(e.iopoll || (e.bound && got == 0)) {
				break
			}
			need = 0
		}
		if e.sqpoll && need > 0 && (e.inflight <= sqpollSpinDepth || spins < sqpollSpins) {
			// With sqthread_poll the kernel's thread submits and the
			// job's thread watches the CQ (fio 3.33 only watches it).
			// With one or two I/Os in flight it watches until one
			// completes: a wait in the kernel would add a wake-up to
			// every I/O. With more it watches a while, then waits in
			// the kernel, leaving the CPU to the threads that do the
			// I/O, which have completions enough to keep it busy.
			spins++
			continue
		}
		_, errno := uringEnter(r.fd, 0, uint32(need), uringEnterGetEvents)
		polled = true
		if errno != 0 && errno != unix.EINTR {
			return got, fmt.Errorf("io_uring: io_uring_enter(GETEVENTS): %w", errno)
		}
	}
	return got, nil
}

// sqpollSpins is how many times Reap looks at the CQ of an sqthread_poll
// ring before it waits in the kernel: a few microseconds. At up to
// sqpollSpinDepth I/Os in flight it looks until one completes, as fio
// does at any depth. Measured on zram, 2 vCPUs, 4k random reads
// (docs/perf.md, "A fast device: zram"): watching without end did 2.2×
// the IOPS of the bounded watch at QD1, about the same at QD2 to QD4,
// and 0.6× at QD8 and QD32.
const (
	sqpollSpins     = 2000
	sqpollSpinDepth = 2
)

// Close waits for the I/O still in flight (so no buffer is written after
// it returns), then unmaps the rings and closes the ring's descriptor.
func (e *uringEngine) Close() error {
	if e.ring == nil {
		return nil
	}
	r := e.ring
	for e.inflight > 0 {
		if ready := r.cqReady(); ready > 0 {
			r.cqAdvance(ready)
			e.inflight -= int(ready)
			continue
		}
		_, errno := uringEnter(r.fd, 0, 1, uringEnterGetEvents)
		if errno != 0 && errno != unix.EINTR {
			break
		}
	}
	e.ring = nil
	if err := r.close(); err != nil {
		return fmt.Errorf("io_uring: close: %w", err)
	}
	return nil
}
