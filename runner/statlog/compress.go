package statlog

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// This file is log_compression and log_store_compressed for the bw, iops
// and latency logs. fio's manual: with log_compression a log is kept in
// memory in compressed chunks of about that many bytes and written as
// text at the end; with log_store_compressed it is written compressed,
// as NAME.fz, for --inflate-log to read back.
//
// The stored format, as observed on fio 3.33 (fio 3.33's --inflate-log
// reads what gofio writes and the other way round): a series of zlib
// streams (one per in-memory chunk of fio's; gofio writes one per file,
// and per_job_logs=0 appends more), which inflate to binary samples,
// little endian: time (ms, u64), value (u64), direction (u32) with bit
// 31 set when an offset follows and bit 30 set with log_prio, the I/O's
// ioprio value (u16), 2 bytes of padding, block size (u64), and, with
// log_offset, the offset (u64): 32 or 40 bytes.

// Flags in a stored sample's direction word.
const (
	sampleOffsetBit = 1 << 31 // the sample is 40 bytes: an offset follows
	samplePrioBit   = 1 << 30 // log_prio: the priority is printed raw
)

// sampleSize returns the size of a stored sample, with or without the
// offset.
func sampleSize(offset bool) int {
	if offset {
		return 40
	}
	return 32
}

// appendSample appends e as a stored sample whose time is t.
func appendSample(b []byte, e *logEntry, t uint64, offset, prio bool) []byte {
	dir := uint32(e.dir)
	if offset {
		dir |= sampleOffsetBit
	}
	if prio {
		dir |= samplePrioBit
	}
	b = binary.LittleEndian.AppendUint64(b, t)
	b = binary.LittleEndian.AppendUint64(b, e.val)
	b = binary.LittleEndian.AppendUint32(b, dir)
	b = binary.LittleEndian.AppendUint16(b, e.prio)
	b = append(b, 0, 0)
	b = binary.LittleEndian.AppendUint64(b, uint64(e.bs))
	if offset {
		b = binary.LittleEndian.AppendUint64(b, e.off)
	}
	return b
}

// logZip holds the compressed chunks of an ioLog with log_compression.
// The in-memory samples carry the raw time (ns on nanotime's clock), as
// the epoch and the log's clock are applied when the log is written.
type logZip struct {
	cpus   []int    // log_compression_cpus, or nil (compress_cpus.go)
	per    int      // entries per chunk
	offset bool     // samples carry the offset
	chunks [][]byte // zlib streams, oldest first
	buf    bytes.Buffer
	raw    []byte
}

// zlibWriters are shared by the logs of all jobs: a zlib writer holds
// some hundreds of KiB, which every log keeping one would multiply. The
// chunks are compressed at zlib's fastest level, in the goroutine that
// logs (gofio has no compression threads): half the CPU of the default
// level (measured: 0.65 s against 1.16 s for 1.3 million samples in
// 10 KiB chunks).
var zlibWriters = sync.Pool{New: func() any {
	w, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed) // a valid level
	return w
}}

// compress replaces entries by a compressed chunk.
func (z *logZip) compress(entries []logEntry) {
	if z.cpus != nil {
		compressOn(z.cpus, func() { z.compressHere(entries) })
		return
	}
	z.compressHere(entries)
}

// compressHere is compress on the calling thread.
func (z *logZip) compressHere(entries []logEntry) {
	z.raw = z.raw[:0]
	for i := range entries {
		e := &entries[i]
		z.raw = appendSample(z.raw, e, uint64(e.at), z.offset, false)
	}
	z.buf.Reset()
	zw := zlibWriters.Get().(*zlib.Writer)
	zw.Reset(&z.buf)
	zw.Write(z.raw) // a bytes.Buffer does not fail
	zw.Close()
	zlibWriters.Put(zw)
	z.chunks = append(z.chunks, bytes.Clone(z.buf.Bytes()))
}

// entries calls f with every entry of the chunks, in order.
func (z *logZip) entries(f func(e *logEntry)) {
	size := sampleSize(z.offset)
	var zr io.ReadCloser
	var buf bytes.Buffer
	for _, c := range z.chunks {
		// The chunks are gofio's own streams, in memory: they inflate.
		if zr == nil {
			zr, _ = zlib.NewReader(bytes.NewReader(c))
		} else {
			zr.(zlib.Resetter).Reset(bytes.NewReader(c), nil)
		}
		buf.Reset()
		buf.ReadFrom(zr)
		raw := buf.Bytes()
		for ; len(raw) >= size; raw = raw[size:] {
			e := logEntry{
				at:   int64(binary.LittleEndian.Uint64(raw)),
				val:  binary.LittleEndian.Uint64(raw[8:]),
				dir:  uint8(binary.LittleEndian.Uint32(raw[16:])),
				prio: binary.LittleEndian.Uint16(raw[20:]),
				bs:   uint32(binary.LittleEndian.Uint64(raw[24:])),
			}
			if z.offset {
				e.off = binary.LittleEndian.Uint64(raw[32:])
			}
			f(&e)
		}
	}
}

// setCompression keeps l's entries compressed in chunks of about chunk
// bytes of stored samples (log_compression).
func (l *ioLog) setCompression(chunk int, offset bool, cpus []int) {
	per := max(chunk/sampleSize(offset), 1)
	l.zip = &logZip{per: per, offset: offset, cpus: cpus}
	l.chunks, l.next = nil, per
	l.cur = make([]logEntry, 0, per)
}

// writeFileCompressed writes log to the file name+".fz", as fio 3.33
// does with log_store_compressed.
func (l *Logs) writeFileCompressed(name string, log *ioLog, epoch int64) error {
	name += ".fz"
	f, err := l.openLog(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	zw := zlib.NewWriter(bw)
	var b []byte
	log.entries(func(e *logEntry) {
		b = appendSample(b[:0], e, uint64(l.logMS(e.at, epoch)), l.opts.LogOffset, l.opts.LogPrio)
		zw.Write(b)
	})
	zerr := zw.Close()
	err = closeLog(f, bw, name)
	if zerr != nil && err == nil {
		err = fmt.Errorf("gofio: writing log %s: %w", name, zerr)
	}
	return err
}

// ErrInflate is the error of InflateLog on data that is not zlib; fio
// 3.33 then exits with status 253.
var ErrInflate = errors.New("fio: failed inflating log: -3")

// InflateLog writes the compressed log r (a file of log_store_compressed)
// to w as text, as fio's --inflate-log does: one line per sample, "time,
// value, direction, block size[, offset], priority", from each zlib
// stream in turn. As fio 3.33 does (observed), it writes what a
// truncated stream holds and stops without an error, and on data that
// is not zlib (a bad header, corrupt data, a bad checksum, also after
// good streams) it stops with ErrInflate; how much of a damaged stream
// comes out depends on the inflater, so may differ from fio's.
func InflateLog(w io.Writer, r io.Reader) error {
	br := bufio.NewReader(r) // an io.ByteReader: zlib reads no further than its stream
	out := bufio.NewWriter(w)
	var pending []byte // a sample split between two streams
	var err error
	for {
		if _, perr := br.Peek(1); perr != nil {
			break
		}
		var zr io.ReadCloser
		if zr, err = zlib.NewReader(br); err != nil {
			break
		}
		var data []byte
		data, err = io.ReadAll(zr)
		pending = formatSamples(out, append(pending, data...))
		if err != nil {
			break
		}
	}
	if ferr := out.Flush(); ferr != nil {
		return ferr
	}
	var corrupt flate.CorruptInputError
	if errors.Is(err, zlib.ErrHeader) || errors.Is(err, zlib.ErrChecksum) || errors.Is(err, zlib.ErrDictionary) || errors.As(err, &corrupt) {
		return ErrInflate
	}
	return nil // io.EOF, io.ErrUnexpectedEOF: the data stop short
}

// formatSamples writes the whole samples at the start of b as text and
// returns what is left of b.
func formatSamples(w *bufio.Writer, b []byte) []byte {
	var line []byte
	for len(b) >= 32 {
		dir := binary.LittleEndian.Uint32(b[16:])
		size := sampleSize(dir&sampleOffsetBit != 0)
		if len(b) < size {
			break
		}
		line = strconv.AppendUint(line[:0], binary.LittleEndian.Uint64(b), 10)
		line = append(line, ", "...)
		line = strconv.AppendUint(line, binary.LittleEndian.Uint64(b[8:]), 10)
		line = append(line, ", "...)
		line = strconv.AppendUint(line, uint64(dir&^(sampleOffsetBit|samplePrioBit)), 10)
		line = append(line, ", "...)
		line = strconv.AppendUint(line, binary.LittleEndian.Uint64(b[24:]), 10)
		if size == 40 {
			line = append(line, ", "...)
			line = strconv.AppendUint(line, binary.LittleEndian.Uint64(b[32:]), 10)
		}
		prio := binary.LittleEndian.Uint16(b[20:])
		switch {
		case dir&samplePrioBit != 0:
			line = fmt.Appendf(line, ", 0x%04x\n", prio)
		case prio>>13 == 1:
			line = append(line, ", 1\n"...) // a realtime-class I/O
		default:
			line = append(line, ", 0\n"...)
		}
		w.Write(line)
		b = b[size:]
	}
	return b
}
