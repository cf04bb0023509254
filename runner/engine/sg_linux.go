package engine

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
)

// The sg engine works on devices only: Check refuses other files before
// they are laid out (fio 3.33 creates no file and measures no disk).
var sgEngine = Info{Name: "sg", New: newSG, Sync: true, Check: checkSG}

// sgIOHdr is Linux's struct sg_io_hdr (<scsi/sg.h>).
type sgIOHdr struct {
	interfaceID    int32
	dxferDirection int32
	cmdLen         uint8
	mxSbLen        uint8
	iovecCount     uint16
	dxferLen       uint32
	dxferp         unsafe.Pointer
	cmdp           unsafe.Pointer
	sbp            unsafe.Pointer
	timeout        uint32
	flags          uint32
	packID         int32
	usrPtr         unsafe.Pointer
	status         uint8
	maskedStatus   uint8
	msgStatus      uint8
	sbLenWr        uint8
	hostStatus     uint16
	driverStatus   uint16
	resid          int32
	duration       uint32
	info           uint32
}

const (
	sgIO         = 0x2285 // SG_IO
	sgDxferNone  = -1
	sgDxferToDev = -2
	sgDxferFrom  = -3
	sgInfoOKMask = 0x1
	sgTimeoutMS  = 60000
)

// sgDev is one file of the job as the engine sees it.
type sgDev struct {
	enc sgEncoder
}

// sgEng is one job's sg engine.
type sgEng struct {
	devs  []sgDev
	sense [64]byte
}

var _ Engine = (*sgEng)(nil)

func newSG(cfg Config) (Engine, error) {
	if len(cfg.Paths) == 0 {
		return nil, fmt.Errorf("sg: job %s has no device", cfg.Job)
	}
	e := &sgEng{devs: make([]sgDev, len(cfg.Paths))}
	o := &cfg.Options
	for i, p := range cfg.Paths {
		bs, last, err := sgDevice(p)
		if err != nil {
			return nil, err
		}
		e.devs[i].enc = sgEncoder{bs: bs, long: last > 0xffffffff, readFUA: o.ReadFUA, writeFUA: o.WriteFUA,
			mode: o.SGWriteMode, streamID: uint16(o.StreamID)}
	}
	return e, nil
}

// checkSG checks that the job's files are SCSI devices (Info.Check).
func checkSG(paths []string, _ jobspec.IOEngineOptions) error {
	for _, p := range paths {
		if _, _, err := sgDevice(p); err != nil {
			return err
		}
	}
	return nil
}

// sgDevice returns the block size and last LBA of the SCSI device at
// path, or fio's refusal of it.
func sgDevice(path string) (bs uint32, last uint64, err error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil || (st.Mode&unix.S_IFMT != unix.S_IFBLK && st.Mode&unix.S_IFMT != unix.S_IFCHR) {
		return 0, 0, &InitError{Errno: unix.EINVAL, Fn: "wrong file type", File: "engines/sg.c:1399",
			Msg: "ioengine sg only works on block or character devices\nfile:engines/sg.c:1399, func=wrong file type, error=Invalid argument"}
	}
	bs, last, err = sgReadCapacity(path)
	if err != nil || bs == 0 {
		return 0, 0, &InitError{Msg: "ioengine sg unable to successfully execute read capacity to get block size and maximum lba\nfile:engines/sg.c:1406, func=fio_sgio_read_capacity, error=Success"}
	}
	return bs, last, nil
}

// sgReadCapacity asks the device at path for its block size and last LBA
// (READ CAPACITY(10), then (16) when the last LBA does not fit).
func sgReadCapacity(path string) (bs uint32, last uint64, err error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, 0, err
	}
	defer unix.Close(fd)
	var sense [32]byte
	var buf [32]byte
	if err := sgExec(fd, readCapacity10(), sgFromDev, buf[:8], sense[:]); err != nil {
		return 0, 0, err
	}
	last = uint64(binary.BigEndian.Uint32(buf[0:]))
	bs = binary.BigEndian.Uint32(buf[4:])
	if last == 0xffffffff {
		if err := sgExec(fd, readCapacity16(32), sgFromDev, buf[:], sense[:]); err != nil {
			return 0, 0, err
		}
		last = binary.BigEndian.Uint64(buf[0:])
		bs = binary.BigEndian.Uint32(buf[8:])
	}
	return bs, last, nil
}

// sgExec runs one command with SG_IO; a command the device answers
// with a bad status is EIO.
func sgExec(fd int, cdb []byte, dir sgDir, data, sense []byte) error {
	_, err := sgExecResid(fd, cdb, dir, data, sense)
	return err
}

// sgExecResid is sgExec returning the residual count too (the bytes
// of data not transferred).
func sgExecResid(fd int, cdb []byte, dir sgDir, data, sense []byte) (resid int, err error) {
	h := sgIOHdr{interfaceID: 'S', cmdLen: uint8(len(cdb)), mxSbLen: uint8(len(sense)),
		cmdp: unsafe.Pointer(unsafe.SliceData(cdb)), sbp: unsafe.Pointer(unsafe.SliceData(sense)), timeout: sgTimeoutMS}
	switch dir {
	case sgNone:
		h.dxferDirection = sgDxferNone
	case sgToDev:
		h.dxferDirection = sgDxferToDev
	default:
		h.dxferDirection = sgDxferFrom
	}
	if len(data) > 0 {
		h.dxferLen, h.dxferp = uint32(len(data)), unsafe.Pointer(unsafe.SliceData(data))
	}
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), sgIO, uintptr(unsafe.Pointer(&h)))
	runtime.KeepAlive(cdb)
	runtime.KeepAlive(data)
	runtime.KeepAlive(sense)
	if e != 0 {
		return 0, e
	}
	if h.info&sgInfoOKMask != 0 {
		return int(h.resid), fmt.Errorf("sg: SCSI status %#x, host %#x, driver %#x: %w", h.status, h.hostStatus, h.driverStatus, unix.EIO)
	}
	return int(h.resid), nil
}

func (e *sgEng) Queue(u *IOUnit) Status {
	u.Result, u.Err = 0, 0
	enc := &e.devs[u.File].enc
	if u.Op.IsData() && (u.Offset%int64(enc.bs) != 0 || len(u.Buf)%int(enc.bs) != 0) {
		u.Err = unix.EINVAL
		return Completed
	}
	c := enc.encode(u.Op, u.Offset, len(u.Buf))
	data := u.Buf[:c.bytes]
	if u.Op == OpTrim {
		data = c.param[:]
	}
	resid, err := sgExecResid(u.FD, c.cdb[:c.n], c.dir, data, e.sense[:])
	if err != nil {
		u.Err = errno.Of(err)
		return Completed
	}
	if u.Op.IsData() {
		u.Result = len(u.Buf) - max(resid, 0)
	}
	return Completed
}
