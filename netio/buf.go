package netio

import (
	"bytes"
	"encoding/binary"
	"math"
)

// le is a fixed-size payload written and read by explicit byte offsets
// (fio's structures are packed or naturally aligned; neither is Go's
// layout, so nothing here relies on struct layout).
type le []byte

func (b le) u16(off int) uint16 { return binary.LittleEndian.Uint16(b[off:]) }
func (b le) u32(off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }
func (b le) u64(off int) uint64 { return binary.LittleEndian.Uint64(b[off:]) }

func (b le) put16(off int, v uint16) { binary.LittleEndian.PutUint16(b[off:], v) }
func (b le) put32(off int, v uint32) { binary.LittleEndian.PutUint32(b[off:], v) }
func (b le) put64(off int, v uint64) { binary.LittleEndian.PutUint64(b[off:], v) }

// f64 reads an fp64 slot: the IEEE bits in the first 8 of 16 bytes.
func (b le) f64(off int) float64 { return math.Float64frombits(b.u64(off)) }

// putF64 writes an fp64 slot; -0 and non-finite values are sent as 0,
// which fio's decoder maps to 0.0 (fio's encoder cannot send them).
func (b le) putF64(off int, v float64) {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	b.put64(off, math.Float64bits(v))
	b.put64(off+8, 0)
}

// str reads a NUL-terminated string from a field of size n.
func (b le) str(off, n int) string {
	f := b[off : off+n]
	if i := bytes.IndexByte(f, 0); i >= 0 {
		f = f[:i]
	}
	return string(f)
}

// putStr writes s into a field of size n, truncated to n-1 bytes and
// zero-filled.
func (b le) putStr(off, n int, s string) {
	if len(s) > n-1 {
		s = s[:n-1]
	}
	f := b[off : off+n]
	clear(f)
	copy(f, s)
}
