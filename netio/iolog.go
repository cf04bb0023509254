package netio

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
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
	// Coarseness is a histogram log's log_hist_coarseness: its lines
	// sum 2^Coarseness buckets per bin.
	Coarseness uint32
	Name       string
	// Data are the records, inflated when Compressed is 1.
	Data []byte
}

// Log types.
const (
	LogLat  = 1
	LogClat = 2
	LogSlat = 3
	LogBW   = 4
	LogIOPS = 5
	LogHist = 6
)

// Record sizes: a sample, a sample with its offset, and a histogram
// entry (16 bytes of list pointers, then the bucket counts) that follows
// each sample of a histogram log.
const (
	SampleSize       = 32
	SampleOffsetSize = 40
	HistBuckets      = 1856
	HistEntrySize    = 16 + 8*HistBuckets
)

const iologHeader = 288

// DecodeIOLog reads an IOLOG payload. A zlib stream is inflated as far
// as it goes: fio 3.33's server does not terminate it.
func DecodeIOLog(p []byte) (*IOLog, error) {
	if len(p) < iologHeader {
		return nil, fmt.Errorf("%w: IOLOG of %d bytes", ErrProtocol, len(p))
	}
	b := le(p)
	l := &IOLog{Samples: b.u64(0), Thread: b.u32(8), Type: b.u32(12), Compressed: b.u32(16), Coarseness: b.u32(28), Name: b.str(32, 256), Data: p[iologHeader:]}
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
	SampleOffset = 1 << 31 // the record carries an offset (40 bytes)
	SamplePrio   = 1 << 30 // the priority is valid
)

// Encode returns the IOLOG payload of l, whose Data holds raw records
// (or, with Compressed 2, the stored compressed bytes). With zlib (the
// client's PROBE offered it) raw records travel as a zlib stream
// (Compressed 1), as fio's server sends them.
func (l *IOLog) Encode(zlibOK bool) []byte {
	data, comp := l.Data, l.Compressed
	if comp != 2 {
		comp = 0
		if zlibOK {
			var zb bytes.Buffer
			zw := zlib.NewWriter(&zb)
			zw.Write(data)
			zw.Close()
			data, comp = zb.Bytes(), 1
		}
	}
	b := le(make([]byte, iologHeader+len(data)))
	b.put64(0, l.Samples)
	b.put32(8, l.Thread)
	b.put32(12, l.Type)
	b.put32(16, comp)
	// log_offset and log_prio stay 0, as fio 3.33 sends them: the
	// records' own flags tell.
	b.put32(28, l.Coarseness)
	b.putStr(32, 256, l.Name)
	copy(b[iologHeader:], data)
	return b
}

// AppendSample appends one raw record: 32 bytes, or 40 with SampleOffset
// set in ddir.
func AppendSample(b []byte, time, value uint64, ddir uint32, prio uint16, bs, offset uint64) []byte {
	r := le(make([]byte, SampleSize, SampleOffsetSize))
	r.put64(0, time)
	r.put64(8, value)
	r.put32(16, ddir)
	r.put16(20, prio)
	r.put64(24, bs)
	if ddir&SampleOffset != 0 {
		r = binary.LittleEndian.AppendUint64(r, offset)
	}
	return append(b, r...)
}

// WriteText writes the records of a raw (Compressed 0 or 1) non-histogram
// log as fio writes log files: "time, value, ddir, bs[, offset], prio".
func (l *IOLog) WriteText(w io.Writer) error {
	if l.Type == LogHist {
		return l.writeHist(w)
	}
	var buf bytes.Buffer
	d := l.Data
	for n := uint64(0); n < l.Samples && len(d) >= 32; n++ {
		r := le(d)
		ddir := r.u32(16)
		size := 32
		if ddir&SampleOffset != 0 {
			size = 40
			if len(d) < size {
				break
			}
		}
		// With log_prio fio logs the priority value in hex; without it,
		// 1 for real-time class I/O, else 0.
		prio := "0"
		if raw := r.u16(20); ddir&SamplePrio != 0 {
			prio = fmt.Sprintf("0x%04x", raw)
		} else if raw>>13 == 1 {
			prio = "1"
		}
		fmt.Fprintf(&buf, "%d, %d, %d, %d", r.u64(0), r.u64(8), ddir&^(SampleOffset|SamplePrio), r.u64(24))
		if size == 40 {
			fmt.Fprintf(&buf, ", %d", r.u64(32))
		}
		fmt.Fprintf(&buf, ", %s\n", prio)
		d = d[size:]
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// writeHist writes a histogram log as fio writes its clat_hist files:
// "time, direction, block size, bins...", each bin the sum of
// 2^Coarseness buckets.
func (l *IOLog) writeHist(w io.Writer) error {
	coarse := min(l.Coarseness, 16)
	var b []byte
	d := l.Data
	for n := uint64(0); n < l.Samples; n++ {
		size := SampleSize
		if len(d) >= SampleSize && le(d).u32(16)&SampleOffset != 0 {
			size = SampleOffsetSize
		}
		if len(d) < size+HistEntrySize {
			break
		}
		r := le(d)
		b = strconv.AppendUint(b[:0], r.u64(0), 10)
		b = append(b, ", "...)
		b = strconv.AppendUint(b, uint64(r.u32(16)&^(SampleOffset|SamplePrio)), 10)
		b = append(b, ", "...)
		b = strconv.AppendUint(b, r.u64(24), 10)
		buckets := le(d[size+16 : size+HistEntrySize])
		per := 1 << coarse
		for i := 0; i < HistBuckets; i += per {
			var sum uint64
			for k := i; k < i+per && k < HistBuckets; k++ {
				sum += buckets.u64(8 * k)
			}
			b = append(b, ", "...)
			b = strconv.AppendUint(b, sum, 10)
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
		d = d[size+HistEntrySize:]
	}
	return nil
}
