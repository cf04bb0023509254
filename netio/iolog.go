package netio

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
)

// IOLog is a decoded IOLOG message (§6.15 of the reference): one job's
// log, which fio's client writes to NAME.HOST.
type IOLog struct {
	Samples uint64
	Thread  uint32
	// Type: 1 lat, 2 clat, 3 slat, 4 bw, 5 iops, 6 histogram.
	Type uint32
	// Compressed: 0 raw records, 1 zlib on the wire, 2 stored compressed.
	Compressed uint32
	Name       string
	// Data are the records, inflated when Compressed is 1.
	Data []byte
}

// Log types.
const (
	LogHist = 6
)

const iologHeader = 288

// DecodeIOLog reads an IOLOG payload. A zlib stream is inflated as far
// as it goes: fio 3.33's server does not terminate it.
func DecodeIOLog(p []byte) (*IOLog, error) {
	if len(p) < iologHeader {
		return nil, fmt.Errorf("%w: IOLOG of %d bytes", ErrProtocol, len(p))
	}
	b := le(p)
	l := &IOLog{Samples: b.u64(0), Thread: b.u32(8), Type: b.u32(12), Compressed: b.u32(16), Name: b.str(32, 256), Data: p[iologHeader:]}
	if l.Compressed == 1 {
		zr, err := zlib.NewReader(bytes.NewReader(l.Data))
		if err != nil {
			return nil, fmt.Errorf("%w: IOLOG: %v", ErrProtocol, err)
		}
		l.Data, _ = io.ReadAll(zr) // a truncated stream still gives its data
	}
	return l, nil
}

// Sample flags in the ddir field of a record.
const (
	sampleOffset = 1 << 31 // the record carries an offset (40 bytes)
	samplePrio   = 1 << 30 // the priority is valid
)

// WriteText writes the records of a raw (Compressed 0 or 1) non-histogram
// log as fio writes log files: "time, value, ddir, bs[, offset], prio".
func (l *IOLog) WriteText(w io.Writer) error {
	if l.Type == LogHist {
		return fmt.Errorf("netio: histogram logs are not supported yet")
	}
	var buf bytes.Buffer
	d := l.Data
	for n := uint64(0); n < l.Samples && len(d) >= 32; n++ {
		r := le(d)
		ddir := r.u32(16)
		size := 32
		if ddir&sampleOffset != 0 {
			size = 40
			if len(d) < size {
				break
			}
		}
		// With log_prio fio logs the priority value in hex; without it,
		// 1 for real-time class I/O, else 0.
		prio := "0"
		if raw := r.u16(20); ddir&samplePrio != 0 {
			prio = fmt.Sprintf("0x%04x", raw)
		} else if raw>>13 == 1 {
			prio = "1"
		}
		fmt.Fprintf(&buf, "%d, %d, %d, %d", r.u64(0), r.u64(8), ddir&^(sampleOffset|samplePrio), r.u64(24))
		if size == 40 {
			fmt.Fprintf(&buf, ", %d", r.u64(32))
		}
		fmt.Fprintf(&buf, ", %s\n", prio)
		d = d[size:]
	}
	_, err := w.Write(buf.Bytes())
	return err
}
