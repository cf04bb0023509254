//go:build linux && (amd64 || arm64 || riscv64 || loong64 || ppc64le)

package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// The registry lists gofio's engines in fio's --enghelp order, each one
// an engine fio 3.33 knows.
func TestEngineRegistryOrder(t *testing.T) {
	fio := jobspec.Engines()
	pos := map[string]int{}
	for i, n := range fio {
		pos[n] = i
	}
	last := -1
	for _, e := range Registered() {
		p, ok := pos[e.Name]
		if !ok {
			t.Errorf("engine %s is not one of fio's", e.Name)
			continue
		}
		if p < last {
			t.Errorf("engine %s is out of fio's --enghelp order", e.Name)
		}
		last = p
		if _, err := Lookup(e.Name); err != nil {
			t.Errorf("Lookup(%q) = %v", e.Name, err)
		}
	}
	want := []string{"cpuio", "mmap", "sync", "psync", "vsync", "pvsync", "pvsync2", "null", "net", "netsplice", "ftruncate", "filecreate", "filestat", "filedelete", "exec", "posixaio", "falloc", "e4defrag", "splice", "sg", "io_uring", "io_uring_cmd", "nbd", "libaio"}
	var got []string
	for _, e := range Registered() {
		got = append(got, e.Name)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Registered() = %v; want %v", got, want)
	}
	if _, err := Lookup("rbd"); err == nil || err.Error() != "fio: engine rbd not loadable" {
		t.Errorf("Lookup(rbd) = %v; want fio's not loadable error", err)
	}
}

// syncTFile makes a file of size bytes of known content and opens it
// read-write.
func syncTFile(t *testing.T, size int) (int, string, []byte) {
	t.Helper()
	content := make([]byte, size)
	for i := range content {
		content[i] = byte(i*7 + i/251)
	}
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd, path, content
}

// Every sync-family engine reads what is there and writes where it is
// told, with its own system call.
func TestSyncFamilyReadWrite(t *testing.T) {
	ctors := []struct {
		name string
		new  func(Config) (Engine, error)
		opts []string
	}{
		{"sync", newSync, nil},                           // lseek + read/write
		{"psync", newPsync, nil},                         // pread/pwrite
		{"vsync", newVsync, nil},                         // lseek + readv/writev
		{"pvsync", newPvsync, nil},                       // preadv/pwritev
		{"pvsync2", newPvsync2, nil},                     // preadv2/pwritev2
		{"pvsync2 hipri", newPvsync2, []string{"hipri"}}, // RWF_HIPRI, ignored on buffered files
		{"pvsync2 hipri 50%", newPvsync2, []string{"hipri=1", "hipri_percentage=50"}}, // on half the units
	}
	// MayHang: the same transfers through the scheduler, as for a file
	// on a network file system.
	for _, c := range ctors {
		for _, mayHang := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/MayHang=%v", c.name, mayHang), func(t *testing.T) {
				fd, path, content := syncTFile(t, 64<<10)
				eng, err := c.new(Config{IODepth: 1, Options: engineOpts(t, "pvsync2", c.opts...), MayHang: mayHang})
				if err != nil {
					t.Fatal(err)
				}
				if se, ok := eng.(*syncEngine); !ok || se.raw == mayHang {
					t.Fatalf("engine %T raw=%v, want raw=%v", eng, ok && se.raw, !mayHang)
				}
				buf := make([]byte, 4096)
				for _, off := range []int64{0, 8192, 61440, 4096} {
					u := &IOUnit{Op: OpRead, FD: fd, Offset: off, Buf: buf}
					if st := eng.Queue(u); st != Completed || u.Err != 0 || u.Result != 4096 {
						t.Fatalf("read at %d: status %d, %d bytes, err %v", off, st, u.Result, u.Err)
					}
					if !bytes.Equal(buf, content[off:off+4096]) {
						t.Fatalf("read at %d: wrong data", off)
					}
				}
				for i := range buf {
					buf[i] = 0xa5
				}
				u := &IOUnit{Op: OpWrite, FD: fd, Offset: 12288, Buf: buf[:1000]}
				if eng.Queue(u); u.Err != 0 || u.Result != 1000 {
					t.Fatalf("write: %d bytes, err %v", u.Result, u.Err)
				}
				for _, op := range []Op{OpFsync, OpFdatasync} {
					s := &IOUnit{Op: op, FD: fd}
					if eng.Queue(s); s.Err != 0 {
						t.Fatalf("op %d: %v", op, s.Err)
					}
				}
				got, _ := os.ReadFile(path)
				want := append([]byte(nil), content...)
				copy(want[12288:], bytes.Repeat([]byte{0xa5}, 1000))
				if !bytes.Equal(got, want) {
					t.Fatalf("file content after the write differs")
				}
			})
		}
	}
}

// A trim is BLKDISCARD: a regular file refuses it with ENOTTY, which the
// job reports from td_io_queue, as fio 3.33 does.
func TestSyncTrimOnFile(t *testing.T) {
	for _, ctor := range []func(Config) (Engine, error){newSync, newPsync, newVsync, newPvsync, newPvsync2} {
		fd, _, _ := syncTFile(t, 8192)
		eng, _ := ctor(Config{})
		u := &IOUnit{Op: OpTrim, FD: fd, Buf: make([]byte, 4096)}
		if st := eng.Queue(u); st != Completed || u.Err != unix.ENOTTY || u.ErrFn != "td_io_queue" {
			t.Errorf("trim: status %d, err %v, func %q; want ENOTTY in td_io_queue", st, u.Err, u.ErrFn)
		}
	}
}

// pvsync2's flags reach the kernel: nowait on a cached read works;
// uncached is fio's 0x40, which buffered I/O refuses on current kernels
// (EOPNOTSUPP, as with fio 3.33).
func TestPvsync2Flags(t *testing.T) {
	fd, _, _ := syncTFile(t, 8192)
	eng, err := newPvsync2(Config{Options: engineOpts(t, "pvsync2", "nowait=1")})
	if err != nil {
		t.Fatal(err)
	}
	u := &IOUnit{Op: OpRead, FD: fd, Buf: make([]byte, 4096)}
	if eng.Queue(u); u.Err != 0 && u.Err != unix.EAGAIN {
		t.Errorf("nowait read: %v", u.Err)
	}
	if eng.(*syncEngine).flags != unix.RWF_NOWAIT {
		t.Errorf("nowait flags = %#x", eng.(*syncEngine).flags)
	}
	eng, _ = newPvsync2(Config{Options: engineOpts(t, "pvsync2", "uncached=1")})
	if eng.(*syncEngine).flags != rwfUncached {
		t.Errorf("uncached flags = %#x; want fio's 0x40", eng.(*syncEngine).flags)
	}
	// fio 3.33 sets it on buffered I/O only.
	eng, _ = newPvsync2(Config{Direct: true, Options: engineOpts(t, "pvsync2", "uncached=1")})
	if eng.(*syncEngine).flags != 0 {
		t.Errorf("uncached direct=1 flags = %#x; want none", eng.(*syncEngine).flags)
	}
	for _, bad := range []string{"hipri_percentage=101", "nowait=x", "bogus=1"} {
		if _, err := jobspec.ParseEngineOptions("pvsync2", bad); err == nil {
			t.Errorf("pvsync2 option %s accepted", bad)
		}
	}
}

// The sync family's I/O path allocates nothing.
func TestSyncFamilyAllocs(t *testing.T) {
	fd, _, _ := syncTFile(t, 8192)
	for _, ctor := range []func(Config) (Engine, error){newSync, newPsync, newVsync, newPvsync, newPvsync2} {
		eng, _ := ctor(Config{})
		u := &IOUnit{Op: OpRead, FD: fd, Buf: make([]byte, 4096)}
		if n := testing.AllocsPerRun(100, func() { eng.Queue(u) }); n != 0 {
			t.Errorf("%T: %v allocations per I/O", eng, n)
		}
	}
}

// The file-operation engines do their work at open and complete units
// at once.
func TestFileOpEngines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x")

	eng, _ := newFileCreate(Config{})
	fo := eng.(FileOpener)
	fd, err := fo.OpenFile(0, path, 0)
	if err != nil || fd < 0 {
		t.Fatalf("filecreate: fd %d, %v", fd, err)
	}
	fo.CloseFile(0, fd)
	st, err := os.Stat(path)
	if err != nil || st.Size() != 0 || st.Mode().Perm() != 0o600 {
		t.Fatalf("filecreate made %v, %v; want an empty 0600 file", st, err)
	}
	u := &IOUnit{Op: OpWrite, Buf: make([]byte, 512)}
	if s := eng.Queue(u); s != Completed || u.Result != 512 {
		t.Errorf("filecreate Queue: %d, %d bytes", s, u.Result)
	}

	for _, kind := range []string{"stat", "lstat", "statx"} {
		eng, err := newFileStat(Config{Options: engineOpts(t, "filestat", "stat_type="+kind)})
		if err != nil {
			t.Fatal(err)
		}
		if fd, err := eng.(FileOpener).OpenFile(0, path, 0); fd != -1 || err != nil {
			t.Errorf("filestat %s: %d, %v", kind, fd, err)
		}
		if _, err := eng.(FileOpener).OpenFile(0, path+".missing", 0); err != unix.ENOENT {
			t.Errorf("filestat %s of a missing file: %v; want ENOENT", kind, err)
		}
	}
	if _, err := jobspec.ParseEngineOptions("filestat", "stat_type=fstat"); err == nil {
		t.Errorf("stat_type=fstat accepted")
	}

	eng, _ = newFileDelete(Config{})
	if fd, err := eng.(FileOpener).OpenFile(0, path, 0); fd != -1 || err != nil {
		t.Fatalf("filedelete: %d, %v", fd, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("filedelete left the file: %v", err)
	}
}

// falloc allocates, keeps the size or punches holes by direction;
// ftruncate sets the size to the offset of each write and refuses reads.
func TestFallocAndFtruncate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	fa, _ := newFalloc(Config{})
	buf := make([]byte, 65536)
	for _, c := range []struct {
		op        Op
		size      int64 // file size after
		allocated bool  // blocks after
		desc      string
	}{
		{OpRead, 0, true, "read: KEEP_SIZE allocation"},
		{OpWrite, 65536, true, "write: allocation that grows the file"},
		{OpTrim, 65536, false, "trim: hole punched, size kept"},
	} {
		u := &IOUnit{Op: c.op, FD: fd, Buf: buf}
		if fa.Queue(u); u.Err != 0 || u.Result != len(buf) {
			t.Fatalf("%s: %d bytes, %v", c.desc, u.Result, u.Err)
		}
		var st unix.Stat_t
		unix.Fstat(fd, &st)
		if st.Size != c.size || (st.Blocks > 0) != c.allocated {
			t.Errorf("%s: size %d blocks %d", c.desc, st.Size, st.Blocks)
		}
	}

	ft, _ := newFtruncate(Config{})
	u := &IOUnit{Op: OpWrite, FD: fd, Offset: 12288, Buf: buf[:4096]}
	if ft.Queue(u); u.Err != 0 || u.Result != 4096 {
		t.Fatalf("ftruncate write: %v", u.Err)
	}
	if st, _ := os.Stat(path); st.Size() != 12288 {
		t.Errorf("after ftruncate at 12288 the size is %d", st.Size())
	}
	r := &IOUnit{Op: OpRead, FD: fd, Buf: buf[:4096]}
	if ft.Queue(r); r.Err != unix.EINVAL || r.ErrFn != "td_io_queue" {
		t.Errorf("ftruncate read: %v %q; want EINVAL in td_io_queue", r.Err, r.ErrFn)
	}
}

// mmap copies through a mapping, moves its window as needed, msyncs and
// reports EFAULT instead of crashing past the end of a shrunk file.
func TestMmapEngine(t *testing.T) {
	_, path, content := syncTFile(t, 64<<10)
	eng, err := newMmap(Config{Files: 1, RW: jobspec.RWReadWrite})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.(*mmapEngine).Close()
	fo := eng.(FileOpener)
	fd, err := fo.OpenFile(0, path, unix.O_RDWR)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	u := &IOUnit{Op: OpRead, FD: fd, Offset: 8192, Buf: buf}
	if eng.Queue(u); u.Err != 0 || !bytes.Equal(buf, content[8192:12288]) {
		t.Fatalf("mmap read: %v", u.Err)
	}
	for i := range buf {
		buf[i] = 0x3c
	}
	u = &IOUnit{Op: OpWrite, FD: fd, Offset: 4096, Buf: buf}
	if eng.Queue(u); u.Err != 0 || u.Result != 4096 {
		t.Fatalf("mmap write: %v", u.Err)
	}
	if s := (&IOUnit{Op: OpFsync, FD: fd}); eng.Queue(s) != Completed || s.Err != 0 {
		t.Fatalf("mmap msync: %v", s.Err)
	}
	if tr := (&IOUnit{Op: OpTrim, FD: fd, Buf: buf}); eng.Queue(tr) != Completed || tr.Err != unix.ENOTTY || tr.ErrFn != "trim" {
		t.Errorf("mmap trim: %v %q; want ENOTTY in trim", tr.Err, tr.ErrFn)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got[4096:8192], buf) {
		t.Errorf("the write did not reach the file")
	}
	// Shrink the file under the mapping: the copy faults.
	if err := unix.Ftruncate(fd, 4096); err != nil {
		t.Fatal(err)
	}
	u = &IOUnit{Op: OpRead, FD: fd, Offset: 32768, Buf: buf}
	if eng.Queue(u); u.Err != unix.EFAULT {
		t.Errorf("read past the end of a shrunk file: %v; want EFAULT", u.Err)
	}
	fo.CloseFile(0, fd)
}

// cpuio reads its options, announces itself as fio does, pauses enough
// for its load and burns about cpuchunks per unit (noop), or sorts a
// fixed amount per unit whatever cpuchunks says and pauses for what that
// took (qsort, as fio 3.33: its qsort units take tens of ms with
// cpuchunks=1000 as with 100000).
func TestCPUIO(t *testing.T) {
	if _, err := newCPUIO(Config{}); err != errCPULoad {
		t.Errorf("no cpuload: %v", err)
	}
	eng, err := newCPUIO(Config{Options: engineOpts(t, "cpuio", "cpuload=25", "cpuchunks=2000")})
	if err != nil {
		t.Fatal(err)
	}
	c := eng.(*cpuEngine)
	if got := c.Notice("burn"); got != "burn (noop): ioengine=cpuio, cpuload=25, cpucycle=2000" {
		t.Errorf("Notice = %q", got)
	}
	if got := c.ThinkTime(); got != 6000*1000 {
		t.Errorf("ThinkTime = %d ns; want 6 ms (75/25 of 2 ms)", got)
	}
	start := time.Now()
	u := &IOUnit{Buf: make([]byte, 4096)}
	eng.Queue(u)
	if d := time.Since(start); d < 2*time.Millisecond {
		t.Errorf("a unit took %v; want at least cpuchunks (2 ms)", d)
	}
	if u.Err != 0 {
		t.Errorf("cpuio unit failed: %v", u.Err)
	}
	eng, err = newCPUIO(Config{Options: engineOpts(t, "cpuio", "cpuload=25", "cpuchunks=1", "cpumode=qsort")})
	if err != nil {
		t.Fatal(err)
	}
	c = eng.(*cpuEngine)
	if got := c.Notice("burn"); got != "burn (qsort): ioengine=cpuio, cpuload=25, cpucycle=1" {
		t.Errorf("Notice = %q", got)
	}
	start = time.Now()
	eng.Queue(u)
	d := time.Since(start)
	// Tolerance: two sorts of 2^18 numbers take tens of ms here, some
	// ms on the fastest machine; far more than cpuchunks' 1 µs.
	if d < time.Millisecond {
		t.Errorf("a qsort unit took %v; want a full sort, far over cpuchunks (1 µs)", d)
	}
	if got := time.Duration(c.ThinkTime()); got < 3*time.Millisecond || got > 3*d {
		t.Errorf("qsort ThinkTime = %v; want 75/25 of the unit's duration (%v)", got, d)
	}
	if _, err := jobspec.ParseEngineOptions("cpuio", "cpuload=50", "cpumode=spin"); err == nil {
		t.Errorf("cpumode=spin accepted")
	}
	_, err = newCPUIO(Config{Options: engineOpts(t, "cpuio", "cpuload=50", "exit_on_io_done=1")})
	if err != nil {
		t.Errorf("exit_on_io_done=1 (the runner stops the job): %v", err)
	}
	// fio 3.33 takes cpuload=101 as 100.
	if eng, err := newCPUIO(Config{Options: engineOpts(t, "cpuio", "cpuload=101")}); err != nil || eng.(*cpuEngine).load != 100 {
		t.Errorf("cpuload=101: %v", err)
	}
	sorted := c.arr
	c.sortRound()
	for i := 1; i < len(sorted); i++ {
		if sorted[i-1] > sorted[i] {
			t.Fatalf("qsort mode left the array unsorted at %d", i)
		}
	}
}

// posixaio keeps units in flight on its helpers and hands them back.
func TestPosixaioReadVerify(t *testing.T) { asyncTReadVerify(t, newPosixaio, 8, false, nil) }
func TestPosixaioWriteRead(t *testing.T)  { asyncTWriteRead(t, newPosixaio, 4, false, nil) }
func TestPosixaioErrors(t *testing.T)     { asyncTErrors(t, newPosixaio) }
func TestPosixaioSmallReap(t *testing.T)  { asyncTSmallReap(t, newPosixaio) }
