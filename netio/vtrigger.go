package netio

import (
	"encoding/binary"
	"fmt"
)

// VTRIGGER (§6.16 of the reference): the client asks the server to stop
// its jobs now, send their verify state and run a command; fio's
// --trigger-file and --trigger-timeout on the client send it.

// EncodeVTrigger returns a VTRIGGER request carrying the command the
// server runs (--trigger-remote; may be empty).
func EncodeVTrigger(cmd string) []byte {
	if len(cmd) > 0xffff {
		cmd = cmd[:0xffff]
	}
	b := binary.LittleEndian.AppendUint16(nil, uint16(len(cmd)))
	return append(b, cmd...)
}

// DecodeVTrigger returns the command of a VTRIGGER request.
func DecodeVTrigger(p []byte) (string, error) {
	if len(p) < 2 || int(le(p).u16(0)) > len(p)-2 {
		return "", fmt.Errorf("%w: bad VTRIGGER", ErrProtocol)
	}
	return string(p[2 : 2+int(le(p).u16(0))]), nil
}

// VerifyState is one job thread's verify state as a VTRIGGER reply
// carries it: fio's record of its writes, from which a later
// verify_state_load run checks what was written.
type VerifyState struct {
	Name string
	// NumberIO is the number of writes issued.
	NumberIO uint64
}

// verifyRecordSize is a record with one file and an I/O depth of one:
// the fixed part (152 bytes) and one completion slot.
const verifyRecordSize = 152 + 16

// Record returns the state as fio's thread_io_list record: no
// completions in flight, one file, depth one, the write count, no
// random-generator state, the job name.
func (v VerifyState) Record() []byte {
	b := le(make([]byte, verifyRecordSize))
	b.put32(8, 1)  // depth
	b.put32(12, 1) // nofiles
	b.put64(16, v.NumberIO)
	b.putStr(88, 64, v.Name)
	return b
}

// EncodeVTriggerReply returns the VTRIGGER reply: the number of job
// threads, then their records.
func EncodeVTriggerReply(states []VerifyState) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(states)))
	for _, s := range states {
		b = append(b, s.Record()...)
	}
	return b
}

// StateRecord is one record of a VTRIGGER reply.
type StateRecord struct {
	Name string
	Data []byte // the whole record, as fio's client stores it
}

// DecodeVTriggerReply splits a VTRIGGER reply into its records.
func DecodeVTriggerReply(p []byte) ([]StateRecord, error) {
	if len(p) < 8 {
		return nil, fmt.Errorf("%w: VTRIGGER reply of %d bytes", ErrProtocol, len(p))
	}
	n := le(p).u64(0)
	p = p[8:]
	var out []StateRecord
	for i := uint64(0); i < n; i++ {
		if len(p) < 152 {
			return out, fmt.Errorf("%w: VTRIGGER reply truncated", ErrProtocol)
		}
		r := le(p)
		size := uint64(152) + 16*uint64(r.u32(8))*uint64(r.u32(12))
		if size > uint64(len(p)) {
			return out, fmt.Errorf("%w: VTRIGGER reply truncated", ErrProtocol)
		}
		out = append(out, StateRecord{Name: r.str(88, 64), Data: p[:size]})
		p = p[size:]
	}
	return out, nil
}

// StateFile returns a verify state file as fio writes it: a 24-byte
// header (version 3, the record's size, its CRC-32C without the final
// inversion) and the record.
func StateFile(record []byte) []byte {
	b := le(make([]byte, 24, 24+len(record)))
	b.put64(0, 3)
	b.put64(8, uint64(len(record)))
	b.put64(16, uint64(crc32cRaw(record)))
	return append(b, record...)
}

// crc32cRaw is CRC-32C (Castagnoli) with the initial inversion and no
// final one, as fio stores it in state files.
func crc32cRaw(b []byte) uint32 {
	crc := uint32(0xffffffff)
	for _, x := range b {
		crc ^= uint32(x)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0x82F63B78
			} else {
				crc >>= 1
			}
		}
	}
	return crc
}

// DecodeSendFile returns the path of a SENDFILE request: the state file
// a verify_state_load job on the server asks its client for.
func DecodeSendFile(p []byte) (string, error) {
	if len(p) < 256 {
		return "", fmt.Errorf("%w: SENDFILE of %d bytes", ErrProtocol, len(p))
	}
	return le(p).str(0, 256), nil
}

// EncodeSendFileReply returns the reply to a SENDFILE request: the
// file's bytes, or an errno.
func EncodeSendFileReply(data []byte, errno uint32) []byte {
	b := le(make([]byte, 8+len(data)))
	b.put32(0, uint32(len(data)))
	b.put32(4, errno)
	copy(b[8:], data)
	return b
}
