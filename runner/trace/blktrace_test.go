package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// Actions of crafted records: a queue event of the given categories.
const (
	qRead    = blkActQueue | blkCatRead
	qWrite   = blkActQueue | blkCatWrite
	qDiscard = blkActQueue | blkCatDiscard | blkCatWrite
	qFlush   = blkActQueue | blkCatFlush
	cRead    = blkActComplete | blkCatRead
	cWrite   = blkActComplete | blkCatWrite
)

// blk builds a record on device 7:0 with no payload.
func blk(ns, sector uint64, n, action uint32) BlkEvent {
	return BlkEvent{Magic: blkMagic | blkVersion, Time: ns, Sector: sector, Bytes: n, Action: action, Device: 7 << 20}
}

// blkFile encodes records, each followed by pdu bytes of its PDULen.
func blkFile(order binary.ByteOrder, evs ...BlkEvent) []byte {
	var b []byte
	for _, e := range evs {
		var le []byte
		le = e.encode(le)
		if order == binary.BigEndian {
			d := decodeBlkEvent(le, binary.LittleEndian)
			be := make([]byte, 0, blkRecordLen)
			for _, v := range []any{d.Magic, d.Sequence, d.Time, d.Sector, d.Bytes, d.Action, d.PID, d.Device, d.CPU, d.Error, d.PDULen} {
				be, _ = binary.Append(be, binary.BigEndian, v)
			}
			le = be
		}
		b = append(b, le...)
		b = append(b, make([]byte, e.PDULen)...)
	}
	return b
}

func noDevice(uint32, uint32) (string, bool) { return "", false }

// TestBlktraceParse checks what a blktrace replays, as fio 3.33 does
// (observed with its --debug=blktrace "store" lines).
func TestBlktraceParse(t *testing.T) {
	notify := blk(3000, 0, 0, blkCatNotify)
	notify.PDULen = 8
	other := blk(1000, 0, 512, qRead)
	other.Device = 8<<20 | 16
	tests := []struct {
		name     string
		evs      []BlkEvent
		skip     jobspec.ReplaySkip
		want     []Action
		depth    int
		warn     string
		redirect string
	}{
		{"kinds, offsets and µs waits", []BlkEvent{blk(1000, 0, 4096, qRead), blk(5000, 8, 4096, blkActIssue), blk(9000, 8, 4096, qWrite),
			blk(20000, 32, 4096, qDiscard), blk(30000, 40, 0, qFlush), blk(31999, 48, 512, blkActQueue)},
			0, []Action{{Kind: Read, Len: 4096}, {TS: 8, Kind: Write, Off: 4096, Len: 4096}, {TS: 19, Kind: Trim, Off: 16384, Len: 4096},
				{TS: 29, Kind: Sync}, {TS: 30, Kind: Read, Off: 24576, Len: 512}}, 1, "", "/t"},
		{"zero length: skipped, its time kept, one message", []BlkEvent{blk(1000, 0, 4096, qRead), blk(40000, 8, 0, qWrite), blk(50000, 8, 0, qRead),
			blk(50000, 8, 0, qDiscard), notify, blk(70000, 8, 512, qRead)},
			0, []Action{{Kind: Read, Len: 4096}, {TS: 69, Kind: Read, Off: 4096, Len: 512}}, 1, "blktrace: ignoring zero byte trace: action=20001\n", "/t"},
		{"time going back waits nothing", []BlkEvent{blk(5000, 0, 512, qRead), blk(3000, 0, 512, qRead), blk(4000, 0, 512, qRead)},
			0, []Action{{Kind: Read, Len: 512}, {Kind: Read, Len: 512}, {TS: 1, Kind: Read, Len: 512}}, 1, "", "/t"},
		{"replay_skip keeps the time", []BlkEvent{blk(0, 0, 512, qRead), blk(100e6, 8, 512, qWrite), blk(300e6, 16, 512, qRead)},
			jobspec.SkipWrite, []Action{{Kind: Read, Len: 512}, {TS: 300000, Kind: Read, Off: 8192, Len: 512}}, 1, "", "/t"},
		{"cgroup-flagged and merge events are not replayed", []BlkEvent{blk(0, 0, 512, qRead), blk(1000, 0, 512, qRead|1<<8), blk(2000, 0, 512, 2|blkCatRead)},
			0, []Action{{Kind: Read, Len: 512}}, 1, "", "/t"},
		{"depth: per direction, counted between completions", []BlkEvent{blk(0, 0, 512, qWrite), blk(0, 0, 512, qWrite), blk(0, 0, 512, qWrite),
			blk(0, 0, 512, qRead), blk(0, 0, 512, cRead), blk(0, 0, 512, cWrite)},
			0, []Action{{Kind: Write, Len: 512}, {Kind: Write, Len: 512}, {Kind: Write, Len: 512}, {Kind: Read, Len: 512}}, 3, "", "/t"},
		{"depth: a completion resets its direction", []BlkEvent{blk(0, 0, 512, qRead), blk(0, 0, 512, qRead), blk(0, 0, 512, cRead),
			blk(0, 0, 512, qRead), blk(0, 0, 512, qRead), blk(0, 0, 512, cRead)},
			0, []Action{{Kind: Read, Len: 512}, {Kind: Read, Len: 512}, {Kind: Read, Len: 512}, {Kind: Read, Len: 512}}, 2, "", "/t"},
		{"two devices, one redirect", []BlkEvent{blk(0, 0, 512, qRead), other}, 0,
			[]Action{{Kind: Read, Len: 512}, {TS: 1, Kind: Read, Len: 512}}, 1, "", "/t"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
				var warn bytes.Buffer
				p, err := parseBlktrace(bytes.NewReader(blkFile(order, tc.evs...)), &warn, tc.redirect, tc.skip, noDevice)
				if err != nil {
					t.Fatalf("%v: %v", order, err)
				}
				if !reflect.DeepEqual(p.actions, tc.want) {
					t.Errorf("%v: actions\n%+v\nwant\n%+v", order, p.actions, tc.want)
				}
				if p.depth != tc.depth {
					t.Errorf("%v: depth %d, want %d", order, p.depth, tc.depth)
				}
				if warn.String() != tc.warn {
					t.Errorf("%v: messages %q, want %q", order, warn.String(), tc.warn)
				}
			}
		})
	}
}

// blkActIssue is __BLK_TA_ISSUE, an event fio does not replay.
const blkActIssue = 7

// TestBlktraceDevices checks that each device is a file, found by its
// numbers, and that a device not found fails as in fio.
func TestBlktraceDevices(t *testing.T) {
	a, b := blk(0, 0, 512, qRead), blk(0, 8, 512, qRead)
	b.Device = 8<<20 | 1
	lookup := func(major, minor uint32) (string, bool) {
		if major == 7 && minor == 0 {
			return "/dev/loop0", true
		}
		if major == 8 && minor == 1 {
			return "/dev/sda1", true
		}
		return "", false
	}
	p, err := parseBlktrace(bytes.NewReader(blkFile(binary.LittleEndian, a, b, a)), &bytes.Buffer{}, "", 0, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/dev/loop0", "/dev/sda1"}; !reflect.DeepEqual(p.names, want) {
		t.Errorf("files %q, want %q", p.names, want)
	}
	if got := []int{p.actions[0].File, p.actions[1].File, p.actions[2].File}; !reflect.DeepEqual(got, []int{0, 1, 0}) {
		t.Errorf("file indexes %v", got)
	}
	var warn bytes.Buffer
	if _, err := parseBlktrace(bytes.NewReader(blkFile(binary.LittleEndian, a)), &warn, "", 0, noDevice); !errors.Is(err, ErrNoIO) {
		t.Errorf("unknown device: error %v, want ErrNoIO", err)
	}
	if warn.String() != "fio: did not find replay device(s)\n" {
		t.Errorf("unknown device: message %q", warn.String())
	}
}

// TestBlktraceBadInput checks that bad records give fio's messages as
// errors, and that a partial record or payload at the end is ignored.
func TestBlktraceBadInput(t *testing.T) {
	good := blkFile(binary.LittleEndian, blk(0, 0, 4096, qRead))
	withPDU := blk(1000, 8, 4096, qRead)
	withPDU.PDULen = 8
	tests := []struct {
		name  string
		data  []byte
		err   string
		count int
	}{
		{"bad magic", append(append([]byte{}, good...), make([]byte, blkRecordLen)...), "fio: bad magic in blktrace data: 0", 0},
		{"bad version", blkFile(binary.LittleEndian, BlkEvent{Magic: blkMagic | 6, Bytes: 512, Action: qRead}), "fio: bad blktrace version 6", 0},
		{"partial record", append(append([]byte{}, good...), good[:20]...), "", 1},
		{"partial payload", append(append([]byte{}, good...), blkFile(binary.LittleEndian, withPDU)[:52]...), "", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parseBlktrace(bytes.NewReader(tc.data), &bytes.Buffer{}, "/t", 0, noDevice)
			switch {
			case tc.err != "":
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case len(p.actions) != tc.count:
				t.Errorf("%d actions, want %d", len(p.actions), tc.count)
			}
		})
	}
}

// TestLoadBlktrace checks Load on blktrace files: fio's messages for a
// trace with nothing to replay and for writes dropped by --readonly.
func TestLoadBlktrace(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, evs ...BlkEvent) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, blkFile(binary.LittleEndian, evs...), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	job := func(path string) *jobspec.Job {
		return &jobspec.Job{Name: "j", ReplayOptions: jobspec.ReplayOptions{ReadIolog: []string{path}, ReplayRedirect: "/t", ReplayScale: 1}}
	}
	var warn bytes.Buffer
	l, err := Load(job(write("mixed", blk(0, 0, 4096, qRead), blk(1000, 8, 8192, qWrite), blk(2000, 16, 512, qDiscard))), &warn, true)
	if err != nil {
		t.Fatal(err)
	}
	if warn.String() != "fio: j skips replay of 2 writes due to read-only\n" || len(l.actions) != 1 || l.Writes {
		t.Errorf("readonly: messages %q, %d actions, writes %v", warn.String(), len(l.actions), l.Writes)
	}
	warn.Reset()
	if _, err := Load(job(write("zero", blk(0, 0, 0, qRead))), &warn, false); !errors.Is(err, ErrNoIO) ||
		!strings.HasSuffix(warn.String(), "fio: found no ios in blktrace data\n") {
		t.Errorf("no I/O: error %v, messages %q", err, warn.String())
	}
	l, err = Load(job(write("flush", blk(0, 0, 0, qFlush), blk(0, 0, 512, cRead))), &bytes.Buffer{}, false)
	if err != nil || len(l.actions) != 0 {
		t.Errorf("flushes only: %v, %d actions, want none issued", err, len(l.actions))
	}
	l, err = Load(job(write("depth", blk(0, 0, 512, qRead), blk(0, 0, 512, qRead), blk(0, 0, 512, cRead))), &bytes.Buffer{}, false)
	if err != nil || l.Depth != 2 || l.MaxLen != 512 || !reflect.DeepEqual(l.Names, []string{"/t"}) {
		t.Errorf("depth trace: %v, depth %d, max %d, names %q", err, l.Depth, l.MaxLen, l.Names)
	}
	r := NewReplayer(l, job(""))
	if r.LastOffset() != 0 {
		t.Errorf("blktrace sync offset %d, want 0", r.LastOffset())
	}
}

// TestFindBlockDevice checks the lookup of a traced device: a block
// device (not a character device) with the numbers, in a directory under
// the one searched. Making the nodes needs root.
func TestFindBlockDevice(t *testing.T) {
	dir := t.TempDir()
	if _, ok := findBlockDevice(dir, 7, 9); ok {
		t.Error("found a device in an empty directory")
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mknod(filepath.Join(dir, "chr"), unix.S_IFCHR|0o600, int(unix.Mkdev(7, 9))); err != nil {
		t.Skipf("mknod: %v (needs root)", err)
	}
	if err := unix.Mknod(filepath.Join(sub, "blk"), unix.S_IFBLK|0o600, int(unix.Mkdev(7, 9))); err != nil {
		t.Fatal(err)
	}
	if p, ok := findBlockDevice(dir, 7, 9); !ok || p != filepath.Join(sub, "blk") {
		t.Errorf("found %q, %v; want %s", p, ok, filepath.Join(sub, "blk"))
	}
	if p, ok := findBlockDevice(dir, 7, 10); ok {
		t.Errorf("found %q for 7:10", p)
	}
}

func FuzzBlktrace(f *testing.F) {
	f.Add(blkFile(binary.LittleEndian, blk(0, 0, 4096, qRead), blk(1000, 8, 0, qWrite), blk(0, 0, 512, cRead)))
	f.Add(blkFile(binary.BigEndian, blk(0, 0, 4096, qDiscard), blk(1000, 8, 0, qFlush)))
	f.Add([]byte{0x07, 't', 'a', 'e', 1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		readMergeEvents(bytes.NewReader(data), "fuzz") // must not panic
		p, err := parseBlktrace(bytes.NewReader(data), &bytes.Buffer{}, "/t", 0, noDevice)
		if err != nil {
			return
		}
		for _, a := range p.actions {
			if a.File != 0 || a.Kind > Sync {
				t.Fatalf("bad action %+v", a)
			}
		}
	})
}

func TestIsBlktrace(t *testing.T) {
	for _, tc := range []struct {
		head string
		want bool
	}{
		{"\x07tae", true}, {"eat\x07", true}, {"\x06tae", true}, {"\x00ta", false}, {"fio version 2 iolog\n", false}, {"", false},
	} {
		if got := isBlktrace([]byte(tc.head)); got != tc.want {
			t.Errorf("isBlktrace(%q) = %v, want %v", tc.head, got, tc.want)
		}
	}
}
