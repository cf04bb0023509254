package runner

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/gofio/gofio/runner/content"
	"github.com/gofio/gofio/runner/engine"
	"golang.org/x/sys/unix"
)

// residentPages counts the pages of b that are in memory (mincore(2)):
// a page of a fresh anonymous mapping is only once something touched it.
func residentPages(t *testing.T, b []byte) int {
	t.Helper()
	page := unix.Getpagesize()
	vec := make([]byte, (len(b)+page-1)/page)
	_, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), uintptr(unsafe.Pointer(unsafe.SliceData(vec))))
	if e != 0 {
		t.Fatalf("mincore: %v", e)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// A job's buffers are filled only where fio fills them: a job that
// writes gets its contents before its I/O, one that only reads has its
// iodepth × bs left untouched (its memory is then only what its I/O
// touches), as is one whose every write fills its whole buffer anyway.
// Touched pages are counted with mincore, not timed.
func TestBufferFillTouches(t *testing.T) {
	const depth, bs = 32, 1 << 20
	tests := []struct {
		args  []string
		stop  bool // the job is stopped before it starts
		whole bool // every page touched; else none
	}{
		{args: []string{"rw=read"}},
		{args: []string{"rw=randread", "buffer_pattern=0xab"}},
		{args: []string{"rw=read", "verify=crc32c"}},
		{args: []string{"rw=write", "refill_buffers"}},
		{args: []string{"rw=write", "buffer_compress_percentage=50"}},
		{args: []string{"rw=write", "zero_buffers"}},
		{args: []string{"rw=write"}, stop: true},
		{args: []string{"rw=write"}, whole: true},
		{args: []string{"rw=randrw"}, whole: true},
		{args: []string{"rw=write", "buffer_pattern=0xdeadbeef"}, whole: true},
	}
	for _, tt := range tests {
		args := append([]string{"name=a", "ioengine=null", "size=64m", "bs=1m", "iodepth=32"}, tt.args...)
		j := planOf(t, args...).Jobs[0]
		info, _ := engine.Lookup("null")
		files, err := planFiles(j)
		if err != nil {
			t.Fatal(err)
		}
		w, err := newWorker(j, info, files, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := residentPages(t, w.mem); n != 0 {
			t.Errorf("%v: %d pages touched before the job's thread runs; want 0", tt.args, n)
		}
		stop := make(chan struct{})
		if tt.stop {
			close(stop)
		}
		if w.bufs.pending != nil {
			w.fillBuffers(stop)
		}
		want := 0
		if tt.whole {
			want = depth * bs / unix.Getpagesize()
		}
		if n := residentPages(t, w.mem); n != want {
			t.Errorf("%v: %d pages touched by the fill; want %d", tt.args, n, want)
		}
		w.release()
	}
}

// The pattern runs on across the units as if laid over the whole area,
// as before the fill moved to the job's thread.
func TestBufferPatternAcrossUnits(t *testing.T) {
	j := planOf(t, "name=a", "ioengine=null", "size=1m", "bs=5000", "iodepth=3", "rw=write", "buffer_pattern=0x0102030405").Jobs[0]
	info, _ := engine.Lookup("null")
	files, err := planFiles(j)
	if err != nil {
		t.Fatal(err)
	}
	w, err := newWorker(j, info, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.release()
	w.fillBuffers(nil)
	want := make([]byte, len(w.mem))
	content.FillPattern(want, []byte{1, 2, 3, 4, 5})
	if !bytes.Equal(w.mem, want) {
		t.Error("the units' pattern differs from the pattern laid over the whole area")
	}
}
