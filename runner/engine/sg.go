package engine

// The sg engine: SCSI commands through the SCSI generic interface (the
// SG_IO ioctl) on /dev/sg* character devices and SCSI block devices, as
// fio's manual describes the sg engine. Reads are READ(10/16), writes
// WRITE(10/16) or, by sg_write_mode, WRITE AND VERIFY, WRITE SAME,
// VERIFY or WRITE STREAM(16); trims are UNMAP and syncs SYNCHRONIZE
// CACHE. The 16-byte commands are used when the device's last LBA does
// not fit READ CAPACITY(10)'s 32 bits. The command layouts are SBC's
// (SCSI Block Commands). Each unit completes in Queue (SG_IO blocks).
//
// When the engine starts it checks its files as fio 3.33 does (observed):
// a file that is neither a block nor a character device fails the job
// with "ioengine sg only works on block or character devices" (err=22);
// a device that does not answer READ CAPACITY (a loop device, /dev/null)
// fails it with "ioengine sg unable to successfully execute read
// capacity to get block size and maximum lba" and error 0.

import (
	"encoding/binary"

	"github.com/gofio/gofio/jobspec"
)

// SCSI operation codes (SBC).
const (
	scsiReadCapacity10 = 0x25
	scsiRead10         = 0x28
	scsiWrite10        = 0x2a
	scsiWriteVerify10  = 0x2e
	scsiVerify10       = 0x2f
	scsiSyncCache10    = 0x35
	scsiWriteSame10    = 0x41
	scsiUnmap          = 0x42
	scsiRead16         = 0x88
	scsiWrite16        = 0x8a
	scsiWriteVerify16  = 0x8e
	scsiVerify16       = 0x8f
	scsiSyncCache16    = 0x91
	scsiWriteSame16    = 0x93
	scsiWriteStream16  = 0x9a
	scsiServiceIn16    = 0x9e // READ CAPACITY(16) is its service action 0x10
	scsiReadCapacity16 = 0x10

	scsiFUA  = 1 << 3 // byte 1 of READ/WRITE
	scsiNDOB = 1 << 0 // byte 1 of WRITE SAME(16)
)

// sgDir is the data transfer direction of a command.
type sgDir int8

const (
	sgNone    sgDir = iota // no data
	sgToDev                // data out
	sgFromDev              // data in
)

// sgCmd is one encoded command: its CDB, the direction of its data and
// how many bytes of the unit's buffer it moves (a parameter list for
// UNMAP is built into param instead).
type sgCmd struct {
	cdb   [16]byte
	n     int // CDB length: 10 or 16
	dir   sgDir
	bytes int
	param [24]byte // UNMAP parameter list
}

// sgEncoder builds the CDBs of one device.
type sgEncoder struct {
	bs       uint32 // logical block size
	long     bool   // 16-byte commands (last LBA over 32 bits)
	readFUA  bool
	writeFUA bool
	mode     jobspec.SGWriteMode
	streamID uint16
}

// encode returns the command for an I/O of op at byte offset off and
// length n (both multiples of the block size).
func (e *sgEncoder) encode(op Op, off int64, n int) sgCmd {
	var c sgCmd
	lba := uint64(off) / uint64(e.bs)
	blocks := uint32(n / int(e.bs))
	c.n = 10
	if e.long {
		c.n = 16
	}
	switch op {
	case OpRead:
		c.dir, c.bytes = sgFromDev, n
		e.rw(&c, scsiRead10, scsiRead16, lba, blocks, e.readFUA)
	case OpWrite:
		c.dir, c.bytes = sgToDev, n
		switch e.mode {
		case jobspec.SGWrite:
			e.rw(&c, scsiWrite10, scsiWrite16, lba, blocks, e.writeFUA)
		case jobspec.SGWriteAndVerify:
			e.rw(&c, scsiWriteVerify10, scsiWriteVerify16, lba, blocks, false)
			c.cdb[1] |= 1 << 1 // BYTCHK: compare the data sent
		case jobspec.SGWriteSame, jobspec.SGWriteSameNDOB:
			if e.mode == jobspec.SGWriteSameNDOB {
				c.n = 16
			}
			e.rw(&c, scsiWriteSame10, scsiWriteSame16, lba, blocks, false)
			c.bytes = int(e.bs) // one block, written over the range
			if e.mode == jobspec.SGWriteSameNDOB {
				c.cdb[1] |= scsiNDOB // no data-out buffer: zeroes
				c.dir, c.bytes = sgNone, 0
			}
		case jobspec.SGVerifyBytchk00, jobspec.SGVerifyBytchk01, jobspec.SGVerifyBytchk11:
			e.rw(&c, scsiVerify10, scsiVerify16, lba, blocks, false)
			switch e.mode {
			case jobspec.SGVerifyBytchk00: // the medium only
				c.dir, c.bytes = sgNone, 0
			case jobspec.SGVerifyBytchk01: // compare with the data sent
				c.cdb[1] |= 0b01 << 1
			case jobspec.SGVerifyBytchk11: // compare each block with one block sent
				c.cdb[1] |= 0b11 << 1
				c.bytes = int(e.bs)
			}
		case jobspec.SGWriteStream:
			c.n = 16
			c.cdb[0] = scsiWriteStream16
			if e.writeFUA {
				c.cdb[1] |= scsiFUA
			}
			binary.BigEndian.PutUint64(c.cdb[2:], lba)
			binary.BigEndian.PutUint16(c.cdb[10:], e.streamID)
			binary.BigEndian.PutUint16(c.cdb[12:], uint16(blocks))
		}
	case OpTrim:
		// UNMAP with one block descriptor (SBC: UNMAP parameter list).
		c.n, c.dir, c.bytes = 10, sgToDev, 24
		c.cdb[0] = scsiUnmap
		binary.BigEndian.PutUint16(c.cdb[7:], 24)   // parameter list length
		binary.BigEndian.PutUint16(c.param[0:], 22) // UNMAP data length
		binary.BigEndian.PutUint16(c.param[2:], 16) // block descriptor data length
		binary.BigEndian.PutUint64(c.param[8:], lba)
		binary.BigEndian.PutUint32(c.param[16:], blocks)
	case OpFsync, OpFdatasync:
		// SYNCHRONIZE CACHE of the whole device (LBA 0, 0 blocks).
		c.dir = sgNone
		if e.long {
			c.cdb[0] = scsiSyncCache16
		} else {
			c.cdb[0] = scsiSyncCache10
		}
	}
	return c
}

// rw fills a READ/WRITE-layout CDB: opcode, FUA, LBA and transfer
// length, 10- or 16-byte by c.n.
func (e *sgEncoder) rw(c *sgCmd, op10, op16 byte, lba uint64, blocks uint32, fua bool) {
	if fua {
		c.cdb[1] |= scsiFUA
	}
	if c.n == 16 {
		c.cdb[0] = op16
		binary.BigEndian.PutUint64(c.cdb[2:], lba)
		binary.BigEndian.PutUint32(c.cdb[10:], blocks)
		return
	}
	c.cdb[0] = op10
	binary.BigEndian.PutUint32(c.cdb[2:], uint32(lba))
	binary.BigEndian.PutUint16(c.cdb[7:], uint16(blocks))
}

// readCapacity10 is the READ CAPACITY(10) CDB; its 8 bytes of data are
// the last LBA and the block length.
func readCapacity10() []byte { return []byte{scsiReadCapacity10, 0, 0, 0, 0, 0, 0, 0, 0, 0} }

// readCapacity16 is the READ CAPACITY(16) CDB asking for n bytes; the
// data starts with the last LBA (64 bits) and the block length.
func readCapacity16(n uint32) []byte {
	cdb := make([]byte, 16)
	cdb[0], cdb[1] = scsiServiceIn16, scsiReadCapacity16
	binary.BigEndian.PutUint32(cdb[10:], n)
	return cdb
}
