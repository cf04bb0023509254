package engine

// The io_uring_cmd engine (cmd_type=nvme): NVMe commands passed through
// io_uring (IORING_OP_URING_CMD) to an NVMe namespace's generic character
// device (/dev/ngXnY), on a ring of 128-byte SQEs and 32-byte CQEs
// (IORING_SETUP_SQE128, IORING_SETUP_CQE32), as fio's manual describes
// the engine. Each SQE carries a struct nvme_uring_cmd
// (<linux/nvme_ioctl.h>) in its command area: Read (02h), Write (01h),
// Flush (00h) and Dataset Management (09h) with the deallocate attribute
// for trims, addressed in logical blocks of the namespace's format.
// Commit, Reap and Close are the io_uring engine's.
//
// When the engine starts it checks its files as fio 3.33 does (observed):
// anything but a character device fails the job with "ioengine
// io_uring_cmd only works with nvme ns generic char devices (/dev/ngXnY)"
// and a character device that is not an NVMe namespace (NVME_IOCTL_ID
// fails) with "failed to fetch namespace-id", both with error 0.

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

var iouringCmdEngine = Info{Name: "io_uring_cmd", New: newIOUringCmd, Check: checkURingCmd, Pow2Depth: true}

// ioctl numbers of <linux/nvme_ioctl.h>: _IO('N', 0x40) and
// _IOWR('N', n, 72-byte struct).
const (
	nvmeIoctlID       = 0x4e40
	nvmeIoctlAdminCmd = 0xc0484e41
	nvmeURingCmdIO    = 0xc0484e80 // NVME_URING_CMD_IO
	nvmeURingCmdIOVec = 0xc0484e81 // NVME_URING_CMD_IO_VEC
)

// NVMe opcodes (NVM command set; admin Identify).
const (
	nvmeCmdFlush    = 0x00
	nvmeCmdWrite    = 0x01
	nvmeCmdRead     = 0x02
	nvmeCmdDSM      = 0x09
	nvmeAdminIdent  = 0x06
	nvmeDSMAttrDeal = 1 << 2 // Dataset Management: deallocate (AD)
)

// nvmeURingCmd is struct nvme_uring_cmd (also the layout of struct
// nvme_passthru_cmd for the admin ioctl): 72 bytes.
type nvmeURingCmd struct {
	Opcode      uint8
	Flags       uint8
	Rsvd1       uint16
	NSID        uint32
	CDW2, CDW3  uint32
	Metadata    uint64
	Addr        uint64
	MetadataLen uint32
	DataLen     uint32
	CDW10       uint32
	CDW11       uint32
	CDW12       uint32
	CDW13       uint32
	CDW14       uint32
	CDW15       uint32
	TimeoutMS   uint32
	Rsvd2       uint32
}

// nvmeDSMRange is one Dataset Management range (16 bytes).
type nvmeDSMRange struct {
	CAttr uint32
	NLB   uint32
	SLBA  uint64
}

// nvmeRW returns the command of a read or write of n bytes at byte
// offset off of namespace nsid with blocks of 1<<lbaShift bytes, from or
// into addr: SLBA in CDW10-11, the number of blocks less one in CDW12.
func nvmeRW(op Op, nsid uint32, lbaShift uint, off int64, addr uintptr, n int) nvmeURingCmd {
	c := nvmeURingCmd{Opcode: nvmeCmdRead, NSID: nsid, Addr: uint64(addr), DataLen: uint32(n)}
	if op == OpWrite {
		c.Opcode = nvmeCmdWrite
	}
	slba := uint64(off) >> lbaShift
	c.CDW10, c.CDW11 = uint32(slba), uint32(slba>>32)
	c.CDW12 = uint32(n>>lbaShift) - 1
	return c
}

// nvmeTrim returns the Dataset Management command deallocating one range,
// which it fills in r.
func nvmeTrim(nsid uint32, lbaShift uint, off int64, n int, r *nvmeDSMRange) nvmeURingCmd {
	*r = nvmeDSMRange{NLB: uint32(n >> lbaShift), SLBA: uint64(off) >> lbaShift}
	return nvmeURingCmd{Opcode: nvmeCmdDSM, NSID: nsid, Addr: uint64(uintptr(unsafe.Pointer(r))),
		DataLen: uint32(unsafe.Sizeof(*r)), CDW10: 0, CDW11: nvmeDSMAttrDeal}
}

// putURingCmdSQE fills a 128-byte SQE for IORING_OP_URING_CMD: cmd_op in
// the low word of off, the command in the 80 bytes from offset 48.
func putURingCmdSQE(sqe *[128]byte, fd int32, cmdOp uint32, userData uint64, cmd *nvmeURingCmd) {
	*sqe = [128]byte{}
	sqe[0] = uringOpURingCmd
	binary.NativeEndian.PutUint32(sqe[4:], uint32(fd))
	binary.NativeEndian.PutUint32(sqe[8:], cmdOp)
	binary.NativeEndian.PutUint64(sqe[32:], userData)
	copy(sqe[48:], unsafe.Slice((*byte)(unsafe.Pointer(cmd)), unsafe.Sizeof(*cmd)))
}

// uringCmdEngine is one job's io_uring_cmd engine.
type uringCmdEngine struct {
	*uringEngine
	nsid     []uint32 // per file
	lbaShift []uint
	ranges   []nvmeDSMRange // per unit, for trims
}

var (
	_ Engine    = (*uringCmdEngine)(nil)
	_ Committer = (*uringCmdEngine)(nil)
	_ Reaper    = (*uringCmdEngine)(nil)
)

func newIOUringCmd(cfg Config) (Engine, error) {
	if cfg.Options.CmdType != "nvme" {
		return nil, fmt.Errorf("io_uring_cmd: cmd_type %s is not supported", cfg.Options.CmdType)
	}
	if len(cfg.Paths) == 0 {
		return nil, fmt.Errorf("io_uring_cmd: job %s has no device", cfg.Job)
	}
	e := &uringCmdEngine{nsid: make([]uint32, len(cfg.Paths)), lbaShift: make([]uint, len(cfg.Paths))}
	for i, p := range cfg.Paths {
		nsid, shift, err := nvmeDevice(p)
		if err != nil {
			return nil, err
		}
		e.nsid[i], e.lbaShift[i] = nsid, shift
	}
	o := cfg.Options
	o.NoWait, o.Uncached = false, 0 // read/write flags of the io_uring engine only
	cfg.Options = o
	ue, err := newUringEngine(cfg, uringSetupSQE128|uringSetupCQE32)
	if err != nil {
		return nil, err
	}
	ue.vectored = cfg.Options.NonVectored == 0
	if ue.vectored && ue.iovecs == nil {
		ue.iovecs = make([]unix.Iovec, len(cfg.Units))
	}
	e.uringEngine = ue
	e.ranges = make([]nvmeDSMRange, len(cfg.Units))
	return e, nil
}

// checkURingCmd checks that the job's files are NVMe generic devices
// (Info.Check).
func checkURingCmd(paths []string, _ jobspec.IOEngineOptions) error {
	for _, p := range paths {
		if _, _, err := nvmeDevice(p); err != nil {
			return err
		}
	}
	return nil
}

// nvmeDevice returns the namespace id and block size shift of the NVMe
// generic device at path, or fio's refusal of it.
func nvmeDevice(path string) (nsid uint32, lbaShift uint, err error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFCHR {
		return 0, 0, &InitError{Msg: "ioengine io_uring_cmd only works with nvme ns generic char devices (/dev/ngXnY)\n"}
	}
	nsid, lbaShift, msg := nvmeNamespace(path)
	if msg != "" {
		return 0, 0, &InitError{Msg: msg}
	}
	return nsid, lbaShift, nil
}

// nvmeNamespace returns the namespace id and the log2 of the block size
// of the namespace whose generic device is path, or fio's message.
func nvmeNamespace(path string) (nsid uint32, lbaShift uint, msg string) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, 0, "failed to fetch namespace-id"
	}
	defer unix.Close(fd)
	r, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), nvmeIoctlID, 0)
	if e != 0 || int32(r) <= 0 {
		return 0, 0, "failed to fetch namespace-id"
	}
	nsid = uint32(r)
	// Identify Namespace (CNS 0): FLBAS at byte 26 selects the LBA
	// format, whose LBADS (byte 2 of the 4-byte entry at 128) is the
	// log2 of the block size.
	id := make([]byte, 4096)
	cmd := nvmeURingCmd{Opcode: nvmeAdminIdent, NSID: nsid, Addr: uint64(uintptr(unsafe.Pointer(&id[0]))), DataLen: 4096}
	_, _, e = unix.Syscall(unix.SYS_IOCTL, uintptr(fd), nvmeIoctlAdminCmd, uintptr(unsafe.Pointer(&cmd)))
	if e != 0 {
		return 0, 0, "failed to fetch identify namespace"
	}
	lbads := uint(id[128+4*int(id[26]&0xf)+2])
	if lbads < 9 {
		return 0, 0, "failed to fetch identify namespace"
	}
	return nsid, lbads, ""
}

// Queue writes u's SQE and holds it until Commit.
func (e *uringCmdEngine) Queue(u *IOUnit) Status {
	if u.Index < 0 || u.Index >= len(e.units) || u.File < 0 || u.File >= len(e.nsid) {
		u.Result, u.Err = 0, unix.EINVAL
		return Completed
	}
	if e.pending+e.inflight >= e.depth || (e.ring.sqSpace() == 0 && !e.waitSQ()) {
		return Busy
	}
	nsid, shift := e.nsid[u.File], e.lbaShift[u.File]
	if u.Op.IsData() && (u.Offset&(1<<shift-1) != 0 || len(u.Buf)&(1<<shift-1) != 0 || len(u.Buf) == 0) {
		u.Result, u.Err = 0, unix.EINVAL
		return Completed
	}
	var cmd nvmeURingCmd
	cmdOp := uint32(nvmeURingCmdIO)
	switch u.Op {
	case OpRead, OpWrite:
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(u.Buf)))
		cmd = nvmeRW(u.Op, nsid, shift, u.Offset, addr, len(u.Buf))
		if e.vectored {
			iov := &e.iovecs[u.Index]
			iov.Base = unsafe.SliceData(u.Buf)
			iov.SetLen(len(u.Buf))
			cmd.Addr, cmd.DataLen = uint64(uintptr(unsafe.Pointer(iov))), 1
			cmdOp = nvmeURingCmdIOVec
		}
	case OpTrim:
		cmd = nvmeTrim(nsid, shift, u.Offset, len(u.Buf), &e.ranges[u.Index])
	case OpFsync, OpFdatasync:
		cmd = nvmeURingCmd{Opcode: nvmeCmdFlush, NSID: nsid}
	default:
		u.Result, u.Err = 0, unix.EINVAL
		return Completed
	}
	sqe := (*[128]byte)(unsafe.Pointer(e.ring.nextSQE()))
	fd, flags := e.sqeFile(u)
	putURingCmdSQE(sqe, fd, cmdOp, uint64(u.Index), &cmd)
	sqe[1] = flags
	u.Prio = e.prio.pick(u)
	binary.NativeEndian.PutUint16(sqe[2:], u.Prio)
	if e.forceAsync > 0 {
		e.asyncCount++
		if e.asyncCount >= e.forceAsync {
			sqe[1] |= uringSQEAsync
			e.asyncCount = 0
		}
	}
	u.Result, u.Err = 0, 0
	e.pending++
	return Queued
}

// Reap is the io_uring engine's, with the NVMe outcome: a CQE's res is
// 0 for success (the unit moved its whole buffer), a positive NVMe
// status for a failed command (EIO) or a negative errno.
func (e *uringCmdEngine) Reap(min int, done []*IOUnit) (int, error) {
	n, err := e.uringEngine.Reap(min, done)
	for _, u := range done[:n] {
		switch {
		case u.Err != 0:
		case u.Result > 0:
			u.Result, u.Err = 0, unix.EIO
		case u.Op.IsData():
			u.Result = len(u.Buf)
		}
	}
	return n, err
}
