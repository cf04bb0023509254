package engine

// Thin wrappers over the Linux native AIO system calls (io_setup(2),
// io_destroy(2), io_submit(2), io_getevents(2)) and the kernel ABI
// structures from <linux/aio_abi.h>, as laid out on 64-bit little-endian
// machines. No libaio: the calls go straight to the kernel.

import (
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// aioContext is the kernel's aio_context_t: the user-space address of the
// completion ring the kernel maps for the context.
type aioContext uintptr

// Commands of iocb.LioOpcode (enum IOCB_CMD_* in aio_abi.h).
const (
	aioCmdPread  = 0
	aioCmdPwrite = 1
)

// iocbFlagIOPrio is IOCB_FLAG_IOPRIO: aio_reqprio holds an ioprio value.
const iocbFlagIOPrio = 1 << 1

// aioIocb is struct iocb. On little-endian machines aio_key precedes
// aio_rw_flags (the kernel swaps them on big-endian ones, which is why
// this file is limited to little-endian architectures).
type aioIocb struct {
	Data      uint64 // aio_data: returned untouched in io_event.data
	Key       uint32 // aio_key: set by the kernel
	RWFlags   int32  // aio_rw_flags: RWF_* per-I/O flags
	LioOpcode uint16 // aio_lio_opcode: IOCB_CMD_*
	ReqPrio   int16  // aio_reqprio
	FD        uint32 // aio_fildes
	Buf       uint64 // aio_buf: user buffer address
	NBytes    uint64 // aio_nbytes
	Offset    int64  // aio_offset
	_         uint64 // aio_reserved2
	Flags     uint32 // aio_flags: IOCB_FLAG_*
	ResFD     uint32 // aio_resfd
}

// aioEvent is struct io_event.
type aioEvent struct {
	Data uint64 // the iocb's aio_data
	Obj  uint64 // the user address of the iocb
	Res  int64  // bytes transferred, or -errno
	Res2 int64  // secondary result
}

// aioRingHeader is the header of the completion ring the kernel maps at
// the address an aio_context_t holds (struct aio_ring in fs/aio.c, which
// is an ABI in practice: libaio and fio read it). The io_event array
// follows at HeaderLength bytes.
type aioRingHeader struct {
	ID             uint32
	Nr             uint32 // number of io_event slots
	Head           uint32 // consumer index, in [0, Nr)
	Tail           uint32 // producer index, in [0, Nr)
	Magic          uint32
	CompatFeatures uint32
	IncompatFeats  uint32
	HeaderLength   uint32
}

// aioRingMagic is the value of aioRingHeader.Magic on a ring user space
// may read.
const aioRingMagic = 0xa10a10a1

// ioSetup creates a context able to hold nrEvents concurrent requests.
func ioSetup(nrEvents int) (aioContext, error) {
	var ctx aioContext
	_, _, e := unix.Syscall(unix.SYS_IO_SETUP, uintptr(nrEvents), uintptr(unsafe.Pointer(&ctx)), 0)
	if e != 0 {
		return 0, e
	}
	return ctx, nil
}

// ioDestroy cancels what it can, waits for the rest and frees the context.
func ioDestroy(ctx aioContext) error {
	_, _, e := unix.Syscall(unix.SYS_IO_DESTROY, uintptr(ctx), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// ioSubmit submits the iocbs iocbpp points to and returns how many the
// kernel accepted. An error means none was: the first one failed. raw
// makes the call without the scheduler (sys_rw_linux.go): io_submit can
// block in the file system, on a network one without bound.
func ioSubmit(ctx aioContext, iocbpp []*aioIocb, raw bool) (int, unix.Errno) {
	if len(iocbpp) == 0 {
		return 0, 0
	}
	n, e := ioSyscall(raw, unix.SYS_IO_SUBMIT, uintptr(ctx), uintptr(len(iocbpp)), uintptr(unsafe.Pointer(&iocbpp[0])), 0, 0, 0)
	if e != 0 {
		return 0, e
	}
	return n, 0
}

// ioGetevents waits, without timeout, until at least minNr requests have
// completed and stores up to len(events) of them. The wait ends on a
// signal (EINTR), so the call is raw (sys_rw_linux.go).
func ioGetevents(ctx aioContext, minNr int, events []aioEvent) (int, unix.Errno) {
	if len(events) == 0 {
		return 0, 0
	}
	r, _, e := unix.RawSyscall6(unix.SYS_IO_GETEVENTS, uintptr(ctx), uintptr(minNr), uintptr(len(events)),
		uintptr(unsafe.Pointer(&events[0])), 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(r), 0
}

// aioRing gives access to the completion ring of ctx, or nil when the
// kernel's ring does not carry the expected magic.
func aioRing(ctx aioContext) *aioRingHeader {
	if ctx == 0 {
		return nil
	}
	// The context value is the address of kernel-owned memory mapped into
	// this process, outside the Go heap. Reinterpreting the variable's
	// storage keeps vet's uintptr→Pointer check quiet; the memory stays
	// valid until io_destroy.
	p := *(*unsafe.Pointer)(unsafe.Pointer(&ctx))
	r := (*aioRingHeader)(p)
	if atomic.LoadUint32(&r.Magic) != aioRingMagic || r.HeaderLength < uint32(unsafe.Sizeof(aioRingHeader{})) {
		return nil
	}
	return r
}

// aioRingEvents returns the ring's io_event slots.
func aioRingEvents(r *aioRingHeader) []aioEvent {
	p := unsafe.Add(unsafe.Pointer(r), r.HeaderLength)
	return unsafe.Slice((*aioEvent)(p), r.Nr)
}

// aioRingReap copies up to len(events) completions out of the ring without
// entering the kernel, the way libaio's user-space reaping does, and
// returns how many it copied. The caller must be the only consumer.
func aioRingReap(r *aioRingHeader, slots []aioEvent, events []aioEvent) int {
	nr := uint32(len(slots))
	head := atomic.LoadUint32(&r.Head)
	tail := atomic.LoadUint32(&r.Tail) // acquire: the events before tail are written
	n := 0
	for head != tail && n < len(events) {
		events[n] = slots[head%nr]
		n++
		head = (head + 1) % nr
	}
	if n > 0 {
		atomic.StoreUint32(&r.Head, head) // release the slots to the kernel
	}
	return n
}
