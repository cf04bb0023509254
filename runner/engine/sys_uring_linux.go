package engine

// Thin wrappers over io_uring_setup(2), io_uring_enter(2) and
// io_uring_register(2), the ABI structures of <linux/io_uring.h> and the
// mapping of the rings. No liburing: the calls go straight to the kernel.

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Setup flags (io_uring_params.flags).
const (
	uringSetupIOPoll       = 1 << 0  // IORING_SETUP_IOPOLL: busy-poll for completions
	uringSetupSQPoll       = 1 << 1  // IORING_SETUP_SQPOLL: a kernel thread polls the SQ
	uringSetupSQAff        = 1 << 2  // IORING_SETUP_SQ_AFF: pin it to sq_thread_cpu
	uringSetupClamp        = 1 << 4  // IORING_SETUP_CLAMP: clamp entries to the maximum
	uringSetupRDisabled    = 1 << 6  // IORING_SETUP_R_DISABLED: start disabled (IORING_REGISTER_ENABLE_RINGS)
	uringSetupCoopTaskrun  = 1 << 8  // IORING_SETUP_COOP_TASKRUN: no interrupt to run completion work
	uringSetupSQE128       = 1 << 10 // IORING_SETUP_SQE128: 128-byte SQEs (io_uring_cmd)
	uringSetupCQE32        = 1 << 11 // IORING_SETUP_CQE32: 32-byte CQEs (io_uring_cmd)
	uringSetupSingleIssuer = 1 << 12 // IORING_SETUP_SINGLE_ISSUER: one thread submits
	uringSetupDeferTaskrun = 1 << 13 // IORING_SETUP_DEFER_TASKRUN: completion work runs when the submitter waits
)

// Features (io_uring_params.features).
const (
	uringFeatSingleMmap = 1 << 0 // IORING_FEAT_SINGLE_MMAP: SQ and CQ rings share a mapping
	uringFeatRWCurPos   = 1 << 3 // IORING_FEAT_RW_CUR_POS: 5.6+, with IORING_OP_READ/WRITE
)

// mmap offsets.
const (
	uringOffSQRing = 0          // IORING_OFF_SQ_RING
	uringOffCQRing = 0x8000000  // IORING_OFF_CQ_RING
	uringOffSQEs   = 0x10000000 // IORING_OFF_SQES
)

// io_uring_enter flags.
const (
	uringEnterGetEvents = 1 << 0 // IORING_ENTER_GETEVENTS
	uringEnterSQWakeup  = 1 << 1 // IORING_ENTER_SQ_WAKEUP
	uringEnterSQWait    = 1 << 2 // IORING_ENTER_SQ_WAIT: wait for SQ space (SQPOLL)
)

// SQ ring flags (at sq_off.flags).
const (
	uringSQNeedWakeup = 1 << 0 // IORING_SQ_NEED_WAKEUP
)

// Opcodes (io_uring_sqe.opcode).
const (
	uringOpReadv      = 1  // IORING_OP_READV
	uringOpWritev     = 2  // IORING_OP_WRITEV
	uringOpFsync      = 3  // IORING_OP_FSYNC
	uringOpReadFixed  = 4  // IORING_OP_READ_FIXED
	uringOpWriteFixed = 5  // IORING_OP_WRITE_FIXED
	uringOpRead       = 22 // IORING_OP_READ
	uringOpWrite      = 23 // IORING_OP_WRITE
	uringOpURingCmd   = 46 // IORING_OP_URING_CMD
)

// SQE flags (io_uring_sqe.flags).
const (
	uringSQEFixedFile = 1 << 0 // IOSQE_FIXED_FILE: fd is an index into the registered files
	uringSQEAsync     = 1 << 4 // IOSQE_ASYNC: always go async
)

// uringFsyncDatasync is IORING_FSYNC_DATASYNC (io_uring_sqe.fsync_flags).
const uringFsyncDatasync = 1 << 0

// io_uring_register opcodes.
const (
	uringRegisterBuffers   = 0  // IORING_REGISTER_BUFFERS
	uringUnregisterBuffers = 1  // IORING_UNREGISTER_BUFFERS
	uringRegisterFiles     = 2  // IORING_REGISTER_FILES
	uringRegisterFilesUpd  = 6  // IORING_REGISTER_FILES_UPDATE
	uringRegisterEnable    = 12 // IORING_REGISTER_ENABLE_RINGS
)

// uringFilesUpdate is struct io_uring_files_update: Fds points to the
// new descriptors of the slots from Offset on (-1 empties a slot).
type uringFilesUpdate struct {
	Offset uint32
	resv   uint32
	Fds    uint64
}

// uringSQRingOffsets is struct io_sqring_offsets.
type uringSQRingOffsets struct {
	Head        uint32
	Tail        uint32
	RingMask    uint32
	RingEntries uint32
	Flags       uint32
	Dropped     uint32
	Array       uint32
	Resv1       uint32
	UserAddr    uint64
}

// uringCQRingOffsets is struct io_cqring_offsets.
type uringCQRingOffsets struct {
	Head        uint32
	Tail        uint32
	RingMask    uint32
	RingEntries uint32
	Overflow    uint32
	CQEs        uint32
	Flags       uint32
	Resv1       uint32
	UserAddr    uint64
}

// uringParams is struct io_uring_params.
type uringParams struct {
	SQEntries    uint32
	CQEntries    uint32
	Flags        uint32
	SQThreadCPU  uint32
	SQThreadIdle uint32
	Features     uint32
	WQFD         uint32
	Resv         [3]uint32
	SQOff        uringSQRingOffsets
	CQOff        uringCQRingOffsets
}

// uringSQE is struct io_uring_sqe (the 64-byte form). Unions are named by
// the member this engine uses.
type uringSQE struct {
	Opcode      uint8  // opcode
	Flags       uint8  // IOSQE_* flags
	IOPrio      uint16 // ioprio
	FD          int32  // fd
	Off         uint64 // off / addr2
	Addr        uint64 // addr / splice_off_in
	Len         uint32 // len
	OpFlags     uint32 // rw_flags / fsync_flags / ...
	UserData    uint64 // user_data
	BufIndex    uint16 // buf_index / buf_group
	Personality uint16 // personality
	SpliceFDIn  int32  // splice_fd_in / file_index
	Addr3       uint64 // addr3
	pad2        uint64 // __pad2[0]
}

// uringCQE is struct io_uring_cqe (the 16-byte form).
type uringCQE struct {
	UserData uint64
	Res      int32
	Flags    uint32
}

// uringSetup calls io_uring_setup(2).
func uringSetup(entries uint32, p *uringParams) (int, error) {
	r, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(p)), 0)
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

// uringEnter calls io_uring_enter(2) without a signal mask, raw
// (sys_rw_linux.go): submission hands blocking work to the kernel's
// workers, and the wait for completions ends on a signal (EINTR).
func uringEnter(fd int, toSubmit, minComplete, flags uint32) (int, unix.Errno) {
	r, _, e := unix.RawSyscall6(unix.SYS_IO_URING_ENTER, uintptr(fd), uintptr(toSubmit), uintptr(minComplete),
		uintptr(flags), 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(r), 0
}

// uringRegister calls io_uring_register(2).
func uringRegister(fd int, opcode uint32, arg unsafe.Pointer, nrArgs uint32) error {
	_, _, e := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(fd), uintptr(opcode), uintptr(arg),
		uintptr(nrArgs), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// uringRing is a set-up ring with its three mappings.
type uringRing struct {
	fd       int
	params   uringParams
	sqMem    []byte // SQ ring (and CQ ring with IORING_FEAT_SINGLE_MMAP)
	cqMem    []byte // CQ ring when mapped separately
	sqeMem   []byte
	sqHead   *uint32 // written by the kernel
	sqTail   *uint32 // written by us
	sqFlags  *uint32
	sqMask   uint32
	sqArray  []uint32
	sqes     []uringSQE
	cqHead   *uint32 // written by us
	cqTail   *uint32 // written by the kernel
	cqMask   uint32
	cqes     []uringCQE
	sqLocal  uint32 // our next SQ tail, published by submit
	cqLocal  uint32 // our CQ head
	features uint32
	// sqeShift and cqeShift are 1 for the big SQEs (SQE128: two
	// uringSQE per entry) and CQEs (CQE32: two uringCQE per entry).
	sqeShift, cqeShift uint
}

// newUringRing sets up a ring of at least entries SQEs with the given
// setup flags and maps it.
func newUringRing(entries uint32, p *uringParams) (*uringRing, error) {
	fd, err := uringSetup(entries, p)
	if err != nil {
		return nil, err
	}
	r := &uringRing{fd: fd, params: *p, features: p.Features}
	if p.Flags&uringSetupSQE128 != 0 {
		r.sqeShift = 1
	}
	if p.Flags&uringSetupCQE32 != 0 {
		r.cqeShift = 1
	}
	if err := r.mmap(); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

func (r *uringRing) mmap() error {
	p := &r.params
	sqSize := int(p.SQOff.Array) + int(p.SQEntries)*4
	cqSize := int(p.CQOff.CQEs) + int(p.CQEntries<<r.cqeShift)*int(unsafe.Sizeof(uringCQE{}))
	single := p.Features&uringFeatSingleMmap != 0
	if single && cqSize > sqSize {
		sqSize = cqSize
	}
	const prot = unix.PROT_READ | unix.PROT_WRITE
	const flags = unix.MAP_SHARED | unix.MAP_POPULATE
	var err error
	r.sqMem, err = unix.Mmap(r.fd, uringOffSQRing, sqSize, prot, flags)
	if err != nil {
		return fmt.Errorf("mmap SQ ring: %w", err)
	}
	cq := r.sqMem
	if !single {
		r.cqMem, err = unix.Mmap(r.fd, uringOffCQRing, cqSize, prot, flags)
		if err != nil {
			return fmt.Errorf("mmap CQ ring: %w", err)
		}
		cq = r.cqMem
	}
	sqeSize := int(p.SQEntries<<r.sqeShift) * int(unsafe.Sizeof(uringSQE{}))
	r.sqeMem, err = unix.Mmap(r.fd, uringOffSQEs, sqeSize, prot, flags)
	if err != nil {
		return fmt.Errorf("mmap SQEs: %w", err)
	}

	u32 := func(mem []byte, off uint32) *uint32 { return (*uint32)(unsafe.Pointer(&mem[off])) }
	r.sqHead = u32(r.sqMem, p.SQOff.Head)
	r.sqTail = u32(r.sqMem, p.SQOff.Tail)
	r.sqFlags = u32(r.sqMem, p.SQOff.Flags)
	r.sqMask = *u32(r.sqMem, p.SQOff.RingMask)
	r.sqArray = unsafe.Slice(u32(r.sqMem, p.SQOff.Array), p.SQEntries)
	r.sqes = unsafe.Slice((*uringSQE)(unsafe.Pointer(&r.sqeMem[0])), p.SQEntries<<r.sqeShift)
	r.cqHead = u32(cq, p.CQOff.Head)
	r.cqTail = u32(cq, p.CQOff.Tail)
	r.cqMask = *u32(cq, p.CQOff.RingMask)
	r.cqes = unsafe.Slice((*uringCQE)(unsafe.Pointer(&cq[p.CQOff.CQEs])), p.CQEntries<<r.cqeShift)

	// SQE i always sits in SQ array slot i: fill the indirection once.
	for i := range r.sqArray {
		r.sqArray[i] = uint32(i)
	}
	r.sqLocal = atomic.LoadUint32(r.sqTail)
	r.cqLocal = atomic.LoadUint32(r.cqHead)
	return nil
}

// close unmaps the rings and closes the ring's descriptor.
func (r *uringRing) close() error {
	var first error
	for _, m := range []*[]byte{&r.sqeMem, &r.cqMem, &r.sqMem} {
		if *m != nil {
			if err := unix.Munmap(*m); err != nil && first == nil {
				first = err
			}
			*m = nil
		}
	}
	r.sqes, r.cqes, r.sqArray = nil, nil, nil
	r.sqHead, r.sqTail, r.sqFlags, r.cqHead, r.cqTail = nil, nil, nil, nil, nil
	if r.fd >= 0 {
		if err := unix.Close(r.fd); err != nil && first == nil {
			first = err
		}
		r.fd = -1
	}
	return first
}

// sqSpace is how many SQEs can be written before the SQ is full.
func (r *uringRing) sqSpace() uint32 {
	return uint32(len(r.sqArray)) - (r.sqLocal - atomic.LoadUint32(r.sqHead))
}

// nextSQE returns the next free SQE, to be filled by the caller; the
// caller has checked sqSpace.
func (r *uringRing) nextSQE() *uringSQE {
	sqe := &r.sqes[(r.sqLocal&r.sqMask)<<r.sqeShift]
	r.sqLocal++
	return sqe
}

// publish makes the SQEs written so far visible to the kernel.
func (r *uringRing) publish() {
	atomic.StoreUint32(r.sqTail, r.sqLocal) // release: the SQEs are written
}

// cqReady is how many CQEs are waiting.
func (r *uringRing) cqReady() uint32 {
	return atomic.LoadUint32(r.cqTail) - r.cqLocal // acquire: CQEs up to tail are written
}

// cqe returns the i'th waiting CQE.
func (r *uringRing) cqe(i uint32) *uringCQE {
	return &r.cqes[((r.cqLocal+i)&r.cqMask)<<r.cqeShift]
}

// cqAdvance releases n CQEs to the kernel.
func (r *uringRing) cqAdvance(n uint32) {
	r.cqLocal += n
	atomic.StoreUint32(r.cqHead, r.cqLocal)
}

// needWakeup reports whether the SQ polling thread sleeps (SQPOLL only).
func (r *uringRing) needWakeup() bool {
	return atomic.LoadUint32(r.sqFlags)&uringSQNeedWakeup != 0
}
