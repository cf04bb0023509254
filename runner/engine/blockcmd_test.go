package engine

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// The sg engine's CDBs, byte for byte as SBC lays them out (opcode,
// byte 1 flags, LBA, transfer length in blocks), for 512-byte blocks:
// an I/O of 8 KiB at 1 MiB is LBA 0x800, 16 blocks.
func TestSGEncode(t *testing.T) {
	const off, n = 1 << 20, 8192
	for _, tc := range []struct {
		name    string
		enc     sgEncoder
		op      Op
		cdb     string // hex of the CDB
		dir     sgDir
		bytes   int
		param   string // hex of UNMAP's parameter list
		lbaHigh bool   // the 16-byte form with a 64-bit LBA
	}{
		{name: "READ(10)", op: OpRead, cdb: "28000000080000001000", dir: sgFromDev, bytes: n},
		{name: "READ(10) FUA", enc: sgEncoder{readFUA: true}, op: OpRead, cdb: "28080000080000001000", dir: sgFromDev, bytes: n},
		{name: "READ(16)", enc: sgEncoder{long: true}, op: OpRead, cdb: "88000000000000000800000000100000", dir: sgFromDev, bytes: n},
		{name: "WRITE(10)", op: OpWrite, cdb: "2a000000080000001000", dir: sgToDev, bytes: n},
		{name: "WRITE(16) FUA", enc: sgEncoder{long: true, writeFUA: true}, op: OpWrite, cdb: "8a080000000000000800000000100000", dir: sgToDev, bytes: n},
		{name: "WRITE AND VERIFY(10)", enc: sgEncoder{mode: jobspec.SGWriteAndVerify}, op: OpWrite, cdb: "2e020000080000001000", dir: sgToDev, bytes: n},
		{name: "WRITE SAME(10)", enc: sgEncoder{mode: jobspec.SGWriteSame}, op: OpWrite, cdb: "41000000080000001000", dir: sgToDev, bytes: 512},
		{name: "WRITE SAME(16) NDOB", enc: sgEncoder{mode: jobspec.SGWriteSameNDOB}, op: OpWrite, cdb: "93010000000000000800000000100000", dir: sgNone},
		{name: "VERIFY(10) BYTCHK 00", enc: sgEncoder{mode: jobspec.SGVerifyBytchk00}, op: OpWrite, cdb: "2f000000080000001000", dir: sgNone},
		{name: "VERIFY(10) BYTCHK 01", enc: sgEncoder{mode: jobspec.SGVerifyBytchk01}, op: OpWrite, cdb: "2f020000080000001000", dir: sgToDev, bytes: n},
		{name: "VERIFY(16) BYTCHK 11", enc: sgEncoder{long: true, mode: jobspec.SGVerifyBytchk11}, op: OpWrite, cdb: "8f060000000000000800000000100000", dir: sgToDev, bytes: 512},
		{name: "WRITE STREAM(16)", enc: sgEncoder{mode: jobspec.SGWriteStream, streamID: 0x1234}, op: OpWrite, cdb: "9a000000000000000800123400100000", dir: sgToDev, bytes: n},
		{name: "UNMAP", op: OpTrim, cdb: "42000000000000001800", dir: sgToDev, bytes: 24,
			param: "0016001000000000" + "0000000000000800" + "00000010" + "00000000"},
		{name: "SYNCHRONIZE CACHE(10)", op: OpFsync, cdb: "35000000000000000000", dir: sgNone},
		{name: "SYNCHRONIZE CACHE(16)", enc: sgEncoder{long: true}, op: OpFdatasync, cdb: "91000000000000000000000000000000", dir: sgNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.enc.bs = 512
			c := tc.enc.encode(tc.op, off, n)
			if got := hex.EncodeToString(c.cdb[:c.n]); got != tc.cdb {
				t.Errorf("CDB %s, want %s", got, tc.cdb)
			}
			if c.dir != tc.dir || c.bytes != tc.bytes {
				t.Errorf("direction %d, %d bytes; want %d, %d", c.dir, c.bytes, tc.dir, tc.bytes)
			}
			if tc.param != "" {
				if got := hex.EncodeToString(c.param[:]); got != tc.param {
					t.Errorf("parameter list %s, want %s", got, tc.param)
				}
			}
		})
	}
	// A 64-bit LBA in READ(16).
	e := sgEncoder{bs: 4096, long: true}
	c := e.encode(OpRead, 0x123456789<<12, 4096)
	if got := hex.EncodeToString(c.cdb[:16]); got != "88000000000123456789000000010000" {
		t.Errorf("READ(16) of LBA 0x123456789: %s", got)
	}
	if got := hex.EncodeToString(readCapacity16(32)); got != "9e100000000000000000000000200000" {
		t.Errorf("READ CAPACITY(16): %s", got)
	}
}

func TestSGIOHdrSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) == 8 && unsafe.Sizeof(sgIOHdr{}) != 88 {
		t.Errorf("sizeof(struct sg_io_hdr) = %d, want 88", unsafe.Sizeof(sgIOHdr{}))
	}
}

// The NVMe passthrough command and its SQE: struct nvme_uring_cmd is 72
// bytes; a read of 8 KiB at 1 MiB with 4 KiB blocks is SLBA 256 (CDW10,
// CDW11) and 2 blocks (CDW12 = 1, 0-based); the SQE carries opcode
// IORING_OP_URING_CMD, the fd, cmd_op NVME_URING_CMD_IO in the low word
// of off, user_data, and the command from byte 48.
func TestURingCmdEncode(t *testing.T) {
	if s := unsafe.Sizeof(nvmeURingCmd{}); s != 72 {
		t.Fatalf("sizeof(struct nvme_uring_cmd) = %d, want 72", s)
	}
	if s := unsafe.Sizeof(nvmeDSMRange{}); s != 16 {
		t.Fatalf("sizeof(struct nvme_dsm_range) = %d, want 16", s)
	}
	c := nvmeRW(OpRead, 1, 12, 1<<20, 0xdead000, 8192)
	want := nvmeURingCmd{Opcode: 0x02, NSID: 1, Addr: 0xdead000, DataLen: 8192, CDW10: 256, CDW11: 0, CDW12: 1}
	if c != want {
		t.Errorf("read: %+v, want %+v", c, want)
	}
	c = nvmeRW(OpWrite, 3, 9, 0x3_0000_0000<<9, 0x1000, 512)
	if c.Opcode != 0x01 || c.CDW10 != 0 || c.CDW11 != 3 || c.CDW12 != 0 {
		t.Errorf("write of LBA 0x300000000: %+v", c)
	}
	var r nvmeDSMRange
	c = nvmeTrim(2, 12, 1<<20, 1<<20, &r)
	if c.Opcode != 0x09 || c.CDW10 != 0 || c.CDW11 != 1<<2 || c.DataLen != 16 || c.Addr != uint64(uintptr(unsafe.Pointer(&r))) ||
		r != (nvmeDSMRange{NLB: 256, SLBA: 256}) {
		t.Errorf("trim: %+v, range %+v", c, r)
	}

	var sqe [128]byte
	for i := range sqe {
		sqe[i] = 0xff // all overwritten
	}
	cmd := nvmeRW(OpRead, 1, 12, 1<<20, 0xdead000, 8192)
	putURingCmdSQE(&sqe, 7, nvmeURingCmdIO, 42, &cmd)
	le := binary.NativeEndian
	if sqe[0] != 46 || sqe[1] != 0 || le.Uint32(sqe[4:]) != 7 || le.Uint32(sqe[8:]) != 0xc0484e80 ||
		le.Uint64(sqe[32:]) != 42 || sqe[48] != 0x02 || le.Uint32(sqe[52:]) != 1 ||
		le.Uint64(sqe[72:]) != 0xdead000 || le.Uint32(sqe[84:]) != 8192 || le.Uint32(sqe[88:]) != 256 || le.Uint32(sqe[96:]) != 1 {
		t.Errorf("SQE:\n%s", hex.Dump(sqe[:]))
	}
	for _, i := range []int{2, 3, 12, 16, 24, 40, 120} {
		if sqe[i] != 0 {
			t.Errorf("SQE byte %d = %#x, want 0", i, sqe[i])
		}
	}
}

// A ring set up with SQE128 and CQE32 strides its entries by 128 and 32
// bytes: two NOPs written through nextSQE come back in the two big CQEs.
func TestURingBigEntries(t *testing.T) {
	p := uringParams{Flags: uringSetupSQE128 | uringSetupCQE32}
	r, err := newUringRing(4, &p)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EINVAL) {
			t.Skipf("io_uring with SQE128/CQE32 unavailable here: %v", err)
		}
		t.Fatal(err)
	}
	defer r.close()
	a, b := r.nextSQE(), r.nextSQE()
	if d := uintptr(unsafe.Pointer(b)) - uintptr(unsafe.Pointer(a)); d != 128 {
		t.Fatalf("SQEs %d bytes apart, want 128", d)
	}
	*a = uringSQE{Opcode: 0, UserData: 11} // IORING_OP_NOP
	*b = uringSQE{Opcode: 0, UserData: 22}
	r.publish()
	if _, e := uringEnter(r.fd, 2, 2, uringEnterGetEvents); e != 0 {
		t.Fatalf("io_uring_enter: %v", e)
	}
	if n := r.cqReady(); n != 2 {
		t.Fatalf("%d CQEs ready, want 2", n)
	}
	c0, c1 := r.cqe(0), r.cqe(1)
	if d := uintptr(unsafe.Pointer(c1)) - uintptr(unsafe.Pointer(c0)); d != 32 {
		t.Errorf("CQEs %d bytes apart, want 32", d)
	}
	if c0.UserData != 11 || c1.UserData != 22 || c0.Res != 0 || c1.Res != 0 {
		t.Errorf("CQEs %+v %+v", *c0, *c1)
	}
	r.cqAdvance(2)
}

// The io_uring_cmd engine's whole path on a file that takes no
// passthrough commands: the 128-byte SQE is accepted and its completion,
// reaped from the 32-byte CQEs, carries the kernel's refusal
// (EOPNOTSUPP: regular files have no uring_cmd).
func TestURingCmdEngineRefusedByFile(t *testing.T) {
	units := asyncTUnits(t, 2, 4096)
	cfg := Config{IODepth: 2, Units: units, Options: engineOpts(t, "io_uring_cmd")}
	ue, err := newUringEngine(cfg, uringSetupSQE128|uringSetupCQE32)
	if err != nil {
		t.Skipf("io_uring with SQE128/CQE32 unavailable here: %v", err)
	}
	e := &uringCmdEngine{uringEngine: ue, nsid: []uint32{1}, lbaShift: []uint{9}, ranges: make([]nvmeDSMRange, 2)}
	defer e.Close()
	fd, err := unix.Open(filepath.Join(t.TempDir(), "f"), unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	units[0].Op, units[0].FD, units[0].Offset = OpRead, fd, 4096
	units[1].Op, units[1].FD, units[1].Offset = OpTrim, fd, 0
	for _, u := range units {
		if st := e.Queue(u); st != Queued {
			t.Fatalf("Queue: status %d", st)
		}
	}
	if n, err := e.Commit(); err != nil || n != 2 {
		t.Fatalf("Commit = %d, %v", n, err)
	}
	done := make([]*IOUnit, 2)
	n, err := e.Reap(2, done)
	if err != nil || n != 2 {
		t.Fatalf("Reap = %d, %v", n, err)
	}
	for _, u := range done {
		if u.Err != unix.EOPNOTSUPP || u.Result != 0 {
			t.Errorf("op %d: Result %d, Err %v; want 0, EOPNOTSUPP", u.Op, u.Result, u.Err)
		}
	}
	u := units[0]
	u.Offset = 100 // not a multiple of the 512-byte blocks
	if st := e.Queue(u); st != Completed || u.Err != unix.EINVAL {
		t.Errorf("unaligned read: status %d, Err %v; want Completed, EINVAL", st, u.Err)
	}
}

// The sg engine's SG_IO path on descriptors that are no SCSI devices:
// READ CAPACITY fails on /dev/null (which is why fio and gofio refuse
// it), and a unit's command on a regular file comes back with the
// kernel's ENOTTY.
func TestSGExecRefused(t *testing.T) {
	if _, _, err := sgReadCapacity("/dev/null"); err == nil {
		t.Error("READ CAPACITY on /dev/null succeeded")
	}
	fd, err := unix.Open(filepath.Join(t.TempDir(), "f"), unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	e := &sgEng{devs: []sgDev{{enc: sgEncoder{bs: 512}}}}
	u := asyncTUnits(t, 1, 4096)[0]
	for _, op := range []Op{OpRead, OpWrite, OpTrim, OpFsync} {
		u.Op, u.FD, u.Offset = op, fd, 8192
		if st := e.Queue(u); st != Completed || u.Err != unix.ENOTTY || u.Result != 0 {
			t.Errorf("op %d: status %d, Result %d, Err %v; want ENOTTY", op, st, u.Result, u.Err)
		}
	}
	u.Op, u.Offset = OpRead, 100
	if e.Queue(u); u.Err != unix.EINVAL {
		t.Errorf("unaligned read: Err %v, want EINVAL", u.Err)
	}
}
