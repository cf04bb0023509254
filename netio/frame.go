// Package netio speaks fio 3.33's client/server wire protocol
// (as fio 3.33 puts it on the wire, observed): the 24-byte command header with
// its CRC-16s and 1024-byte fragments, the payload encodings of every
// command gofio uses, and the server and client loops. The statistics
// payloads are built from and decoded into gofio's result model
// (output.Result), so a real fio client prints gofio's results and
// gofio prints a real fio server's.
package netio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/gofio/gofio/internal/crc16"
)

// Protocol constants of fio 3.33.
const (
	// Version is the header version of fio 3.33 (FIO_SERVER_VER).
	Version = 97
	// DefaultPort is fio's default TCP port (FIO_NET_PORT).
	DefaultPort = 8765
	// MaxFragment is the largest payload of one fragment.
	MaxFragment = 1024
	// HeaderSize is the size of the command header.
	HeaderSize = 24
	// flagMore marks a fragment that another of the same message follows.
	flagMore = 1
	// maxMessage bounds a reassembled message (fio's 2048 MiB limit).
	maxMessage = 2048 << 20
)

// Msg is one reassembled command: its opcode, tag and payload.
type Msg struct {
	Op      Op
	Tag     uint64
	Payload []byte
}

// appendHeader appends the header of one fragment of payload p.
func appendHeader(dst []byte, op Op, flags uint32, tag uint64, p []byte) []byte {
	h := make([]byte, HeaderSize)
	binary.LittleEndian.PutUint16(h[0:], Version)
	binary.LittleEndian.PutUint16(h[2:], uint16(op))
	binary.LittleEndian.PutUint32(h[4:], flags)
	binary.LittleEndian.PutUint64(h[8:], tag)
	binary.LittleEndian.PutUint32(h[16:], uint32(len(p)))
	binary.LittleEndian.PutUint16(h[20:], crc16.ARC(h[:20]))
	binary.LittleEndian.PutUint16(h[22:], crc16.ARC(p))
	return append(dst, h...)
}

// Encode returns m on the wire: split into fragments of at most
// MaxFragment payload bytes, each with its own header.
func (m Msg) Encode() []byte {
	p := m.Payload
	out := make([]byte, 0, len(p)+HeaderSize*(len(p)/MaxFragment+1))
	for {
		n := min(len(p), MaxFragment)
		var flags uint32
		if len(p) > n {
			flags = flagMore
		}
		out = appendHeader(out, m.Op, flags, m.Tag, p[:n])
		out = append(out, p[:n]...)
		p = p[n:]
		if len(p) == 0 {
			return out
		}
	}
}

// WriteMsg writes m to w in one call, so that messages written by
// several goroutines under one lock never interleave.
func WriteMsg(w io.Writer, m Msg) error {
	if _, err := w.Write(m.Encode()); err != nil {
		return fmt.Errorf("netio: sending %v: %w", m.Op, err)
	}
	return nil
}

// ErrProtocol is wrapped by every error about malformed input.
var ErrProtocol = errors.New("protocol error")

// ReadMsg reads one message, reassembling its fragments and checking
// each header as fio does: header CRC, version, fragment size, opcode of
// continuation fragments, payload CRC. The errors carry fio's messages.
func ReadMsg(r io.Reader) (Msg, error) {
	return readMsg(r, nil)
}

// readMsg is ReadMsg with a memory bound: before it allocates room for a
// fragment's payload it calls reserve (when not nil) with the payload's
// size, and fails with reserve's error. What was reserved stays
// reserved; the caller releases it.
func readMsg(r io.Reader, reserve func(n int) error) (Msg, error) {
	var m Msg
	h := make([]byte, HeaderSize)
	for first := true; ; first = false {
		if _, err := io.ReadFull(r, h); err != nil {
			if !first && err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return m, err
		}
		if got, want := crc16.ARC(h[:20]), binary.LittleEndian.Uint16(h[20:]); got != want {
			return m, fmt.Errorf("%w: fio: server bad crc on command (got %x, wanted %x)", ErrProtocol, got, want)
		}
		if v := binary.LittleEndian.Uint16(h); v != Version {
			return m, fmt.Errorf("%w: fio: client/server version mismatch (%d != %d)", ErrProtocol, v, Version)
		}
		op := Op(binary.LittleEndian.Uint16(h[2:]))
		flags := binary.LittleEndian.Uint32(h[4:])
		n := binary.LittleEndian.Uint32(h[16:])
		if n > MaxFragment {
			return m, fmt.Errorf("%w: fio: command payload too large: %d", ErrProtocol, n)
		}
		if first {
			m.Op, m.Tag = op, binary.LittleEndian.Uint64(h[8:])
		} else if op != m.Op {
			return m, fmt.Errorf("%w: fio: fragment opcode mismatch (%d != %d)", ErrProtocol, m.Op, op)
		}
		if n == 0 {
			return m, nil
		}
		if len(m.Payload)+int(n) > maxMessage {
			return m, fmt.Errorf("%w: message too large", ErrProtocol)
		}
		if reserve != nil {
			if err := reserve(int(n)); err != nil {
				return m, err
			}
		}
		start := len(m.Payload)
		m.Payload = append(m.Payload, make([]byte, n)...)
		if _, err := io.ReadFull(r, m.Payload[start:]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return m, err
		}
		if got, want := crc16.ARC(m.Payload[start:]), binary.LittleEndian.Uint16(h[22:]); got != want {
			return m, fmt.Errorf("%w: fio: server bad crc on payload (got %x, wanted %x)", ErrProtocol, got, want)
		}
		if flags&flagMore == 0 {
			return m, nil
		}
	}
}
