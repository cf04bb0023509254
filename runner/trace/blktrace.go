package trace

// Reading blktrace binary traces (read_iolog given the output of
// "blkparse -d"), as fio 3.33 replays them. The file is a sequence of
// records, each the kernel's struct blk_io_trace (linux/blktrace_api.h,
// 48 bytes, in the byte order of the machine that traced) followed by
// pdu_len bytes of payload:
//
//	magic   u32  0x65617400 | version (7)
//	sequence u32, time u64 (ns), sector u64, bytes u32, action u32,
//	pid u32, device u32 (major<<20 | minor), cpu u32, error u16, pdu_len u16
//
// fio 3.33, as observed:
//
//   - The trace may be in either byte order: the first magic tells.
//   - A record whose magic is wrong, or whose version is not 7, stops
//     the replay ("fio: bad magic in blktrace data: %x", "fio: bad
//     blktrace version %d"); fio 3.33 then crashes (a double free), gofio
//     fails the job. A partial record at the end is ignored.
//   - Only queue events (action & 0xffff == 1) are replayed; notify
//     events (category NOTIFY) and every other action are skipped with
//     their payload. A discard is a trim, a flush a sync at offset 0,
//     else the WRITE category makes a write and anything else a read.
//     The offset is sector × 512.
//   - Each replayed event waits the time since the queue event before it,
//     in whole µs (0 when the time goes back). Queue events left out for
//     replay_skip or for a zero length ("blktrace: ignoring zero byte
//     trace: action=%x", printed for the first only) still set the time
//     the next waits from. A zero-length discard is left out too (fio
//     3.33 keeps it and aborts on an assertion when it comes up).
//   - The device of each event is a file: the block device in /dev with
//     its major and minor numbers, or replay_redirect's file. A device
//     not found fails the job ("fio: did not find replay device(s)"), as
//     does a trace with nothing to replay ("fio: found no ios in
//     blktrace data").
//   - The trace's queue depth, unless iodepth is given, becomes the
//     job's iodepth: per direction (the WRITE category, else READ), the
//     queue events counted since that direction's last completion, the
//     largest count seen at a completion (at least 1).

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// blktrace's constants (linux/blktrace_api.h).
const (
	blkMagic      = 0x65617400
	blkMagicMask  = 0xffffff00
	blkVersion    = 7
	blkRecordLen  = 48
	blkSectorSize = 512

	blkActQueue    = 1 // __BLK_TA_QUEUE
	blkActComplete = 8 // __BLK_TA_COMPLETE

	// The categories, shifted into the action's upper half.
	blkCatRead    = 1 << (16 + 0)
	blkCatWrite   = 1 << (16 + 1)
	blkCatFlush   = 1 << (16 + 2)
	blkCatNotify  = 1 << (16 + 10)
	blkCatDiscard = 1 << (16 + 13)
)

// BlkEvent is one record of a blktrace: struct blk_io_trace.
type BlkEvent struct {
	Magic    uint32 // blkMagic | version
	Sequence uint32
	Time     uint64 // ns
	Sector   uint64
	Bytes    uint32
	Action   uint32
	PID      uint32
	Device   uint32 // major<<20 | minor
	CPU      uint32
	Error    uint16
	PDULen   uint16
}

// isBlktrace reports whether b starts with blktrace's magic, in either
// byte order, whatever the version byte.
func isBlktrace(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	return binary.LittleEndian.Uint32(b)&blkMagicMask == blkMagic ||
		binary.BigEndian.Uint32(b)&blkMagicMask == blkMagic
}

// blkReader reads a blktrace's records.
type blkReader struct {
	r     *bufio.Reader
	order binary.ByteOrder
	buf   [blkRecordLen]byte
}

// newBlkReader reads the blktrace in r, in the byte order of its first
// record.
func newBlkReader(r io.Reader) *blkReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	b := &blkReader{r: br, order: binary.LittleEndian}
	if head, _ := br.Peek(4); len(head) == 4 && binary.BigEndian.Uint32(head)&blkMagicMask == blkMagic {
		b.order = binary.BigEndian
	}
	return b
}

// next returns the next record, its payload skipped; ok is false at the
// end (a partial record there is ignored, as fio does).
func (b *blkReader) next() (e BlkEvent, ok bool, err error) {
	if _, err := io.ReadFull(b.r, b.buf[:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return e, false, nil
		}
		return e, false, fmt.Errorf("read blktrace file: %w", err)
	}
	e = decodeBlkEvent(b.buf[:], b.order)
	if e.Magic&blkMagicMask != blkMagic {
		return e, false, fmt.Errorf("fio: bad magic in blktrace data: %x", e.Magic)
	}
	if v := e.Magic & 0xff; v != blkVersion {
		return e, false, fmt.Errorf("fio: bad blktrace version %d", v)
	}
	if e.PDULen > 0 {
		if _, err := b.r.Discard(int(e.PDULen)); err != nil && err != io.EOF {
			return e, false, fmt.Errorf("read blktrace file: %w", err)
		}
	}
	return e, true, nil
}

// decodeBlkEvent decodes one 48-byte record.
func decodeBlkEvent(b []byte, o binary.ByteOrder) BlkEvent {
	return BlkEvent{
		Magic: o.Uint32(b[0:]), Sequence: o.Uint32(b[4:]), Time: o.Uint64(b[8:]), Sector: o.Uint64(b[16:]),
		Bytes: o.Uint32(b[24:]), Action: o.Uint32(b[28:]), PID: o.Uint32(b[32:]), Device: o.Uint32(b[36:]),
		CPU: o.Uint32(b[40:]), Error: o.Uint16(b[44:]), PDULen: o.Uint16(b[46:]),
	}
}

// encode appends the record to b, little-endian.
func (e *BlkEvent) encode(b []byte) []byte {
	o := binary.LittleEndian
	b = o.AppendUint32(b, e.Magic)
	b = o.AppendUint32(b, e.Sequence)
	b = o.AppendUint64(b, e.Time)
	b = o.AppendUint64(b, e.Sector)
	b = o.AppendUint32(b, e.Bytes)
	b = o.AppendUint32(b, e.Action)
	b = o.AppendUint32(b, e.PID)
	b = o.AppendUint32(b, e.Device)
	b = o.AppendUint32(b, e.CPU)
	b = o.AppendUint16(b, e.Error)
	return o.AppendUint16(b, e.PDULen)
}

// isQueue reports whether e is a queue event, the events fio replays.
func (e *BlkEvent) isQueue() bool {
	return e.Action&blkCatNotify == 0 && e.Action&0xffff == blkActQueue
}

// kind is what a queue event replays as.
func (e *BlkEvent) kind() Kind {
	switch {
	case e.Action&blkCatDiscard != 0:
		return Trim
	case e.Action&blkCatFlush != 0:
		return Sync
	case e.Action&blkCatWrite != 0:
		return Write
	}
	return Read
}

// depthDir is the direction e counts in for the queue depth: 0 read, 1
// write, -1 neither.
func (e *BlkEvent) depthDir() int {
	switch {
	case e.Action&blkCatWrite != 0:
		return 1
	case e.Action&blkCatRead != 0:
		return 0
	}
	return -1
}

// skipped reports whether replay_skip leaves out actions of kind k.
func skipped(s jobspec.ReplaySkip, k Kind) bool {
	switch k {
	case Read:
		return s&jobspec.SkipRead != 0
	case Write:
		return s&jobspec.SkipWrite != 0
	case Trim:
		return s&jobspec.SkipTrim != 0
	case Sync:
		return s&jobspec.SkipSync != 0
	}
	return false
}

// blkParse is the result of reading a blktrace.
type blkParse struct {
	names   []string
	actions []Action
	depth   int
}

// parseBlktrace reads the blktrace in r into actions. redirect, if not
// "", is the one file of every event; else lookup finds the file of a
// device. Messages go to warn.
func parseBlktrace(r io.Reader, warn io.Writer, redirect string, skip jobspec.ReplaySkip,
	lookup func(major, minor uint32) (string, bool)) (*blkParse, error) {
	br := newBlkReader(r)
	p := &blkParse{depth: 1}
	index := map[string]int{}
	var (
		last     uint64 // the time of the last queue event
		ts       uint64 // the replay time of the last, µs
		lastDev  uint32
		haveDev  bool
		file     int
		inflight [2]int
		first    = true
		warned   bool // the zero byte message is printed
	)
	for {
		e, ok, err := br.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if e.Action&blkCatNotify != 0 {
			continue
		}
		switch e.Action & 0xffff {
		case blkActComplete:
			if d := e.depthDir(); d >= 0 {
				p.depth = max(p.depth, inflight[d])
				inflight[d] = 0
			}
			continue
		case blkActQueue:
		default:
			continue
		}
		if d := e.depthDir(); d >= 0 {
			inflight[d]++
		}
		if !haveDev || e.Device != lastDev {
			haveDev, lastDev = true, e.Device
			name := redirect
			if name == "" {
				n, found := lookup(e.Device>>20, e.Device&(1<<20-1))
				if !found {
					fmt.Fprintln(warn, "fio: did not find replay device(s)")
					return nil, ErrNoIO
				}
				name = n
			}
			i, seen := index[name]
			if !seen {
				i = len(p.names)
				index[name] = i
				p.names = append(p.names, name)
			}
			file = i
		}
		if !first && e.Time > last {
			ts += (e.Time - last) / 1000
		}
		first, last = false, e.Time
		k := e.kind()
		if k != Sync && e.Bytes == 0 {
			if !warned {
				// fio says it once per trace.
				warned = true
				fmt.Fprintf(warn, "blktrace: ignoring zero byte trace: action=%x\n", e.Action)
			}
			continue
		}
		if skipped(skip, k) {
			continue
		}
		a := Action{TS: ts, File: file, Kind: k}
		if k != Sync {
			a.Off, a.Len = e.Sector*blkSectorSize, uint64(e.Bytes)
		}
		p.actions = append(p.actions, a)
	}
	return p, nil
}

// FindBlockDevice returns the block device under /dev with the given
// major and minor numbers, as fio looks a traced device up.
func FindBlockDevice(major, minor uint32) (string, bool) {
	return findBlockDevice("/dev", major, minor)
}

// findBlockDevice searches dir and the directories under it (links not
// followed) for the block device major:minor.
func findBlockDevice(dir string, major, minor uint32) (string, bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	var subdirs []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&os.ModeDevice != 0 && e.Type()&os.ModeCharDevice == 0:
			var st unix.Stat_t
			if unix.Lstat(p, &st) == nil && unix.Major(st.Rdev) == major && unix.Minor(st.Rdev) == minor {
				return p, true
			}
		case e.IsDir():
			subdirs = append(subdirs, p)
		}
	}
	for _, d := range subdirs {
		if p, ok := findBlockDevice(d, major, minor); ok {
			return p, true
		}
	}
	return "", false
}
