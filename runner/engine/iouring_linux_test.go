//go:build linux && (amd64 || arm64 || riscv64 || loong64 || ppc64le)

package engine

// The io_uring tests skip (with a note) when io_uring_setup fails with
// ENOSYS or EPERM, as it does under container seccomp profiles or with
// kernel.io_uring_disabled; see asyncTEngine. The shared helpers are in
// engine_libaio_linux_test.go.

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

func TestUringABISizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"io_uring_sqe", unsafe.Sizeof(uringSQE{}), 64},
		{"io_uring_cqe", unsafe.Sizeof(uringCQE{}), 16},
		{"io_sqring_offsets", unsafe.Sizeof(uringSQRingOffsets{}), 40},
		{"io_cqring_offsets", unsafe.Sizeof(uringCQRingOffsets{}), 40},
		{"io_uring_params", unsafe.Sizeof(uringParams{}), 120},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d bytes, want %d", c.name, c.got, c.want)
		}
	}
	var s uringSQE
	var p uringParams
	for _, f := range []struct {
		name     string
		got, off uintptr
	}{
		{"sqe.fd", unsafe.Offsetof(s.FD), 4},
		{"sqe.off", unsafe.Offsetof(s.Off), 8},
		{"sqe.addr", unsafe.Offsetof(s.Addr), 16},
		{"sqe.len", unsafe.Offsetof(s.Len), 24},
		{"sqe.rw_flags", unsafe.Offsetof(s.OpFlags), 28},
		{"sqe.user_data", unsafe.Offsetof(s.UserData), 32},
		{"sqe.buf_index", unsafe.Offsetof(s.BufIndex), 40},
		{"sqe.personality", unsafe.Offsetof(s.Personality), 42},
		{"sqe.splice_fd_in", unsafe.Offsetof(s.SpliceFDIn), 44},
		{"sqe.addr3", unsafe.Offsetof(s.Addr3), 48},
		{"params.features", unsafe.Offsetof(p.Features), 20},
		{"params.sq_off", unsafe.Offsetof(p.SQOff), 40},
		{"params.cq_off", unsafe.Offsetof(p.CQOff), 80},
	} {
		if f.got != f.off {
			t.Errorf("%s at %d, want %d", f.name, f.got, f.off)
		}
	}
}

// uringTOptionSets are the option combinations every test runs with.
var uringTOptionSets = [][]string{
	nil,
	{"nonvectored=0"},
	{"fixedbufs=1"},
	{"force_async=2"},
	{"sqthread_poll=1"},
	{"sqthread_poll=1", "sqthread_poll_cpu=0"},
	{"registerfiles=0", "nowait=0", "nonvectored=1"},
}

func uringTName(opts []string) string {
	if len(opts) == 0 {
		return "default"
	}
	return strings.Join(opts, ",")
}

func TestIOUringReadVerify(t *testing.T) {
	for _, opts := range uringTOptionSets {
		for _, depth := range []int{1, 8, 32} {
			for _, direct := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/depth%d/direct%v", uringTName(opts), depth, direct), func(t *testing.T) {
					asyncTReadVerify(t, newIOUring, depth, direct, opts)
				})
			}
		}
	}
}

func TestIOUringWriteRead(t *testing.T) {
	for _, opts := range uringTOptionSets {
		for _, depth := range []int{1, 8, 32} {
			for _, direct := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/depth%d/direct%v", uringTName(opts), depth, direct), func(t *testing.T) {
					asyncTWriteRead(t, newIOUring, depth, direct, opts)
				})
			}
		}
	}
}

func TestIOUringBusy(t *testing.T) {
	for _, opts := range uringTOptionSets {
		t.Run(uringTName(opts), func(t *testing.T) { asyncTBusy(t, newIOUring, opts) })
	}
}

func TestIOUringErrors(t *testing.T)    { asyncTErrors(t, newIOUring) }
func TestIOUringSmallReap(t *testing.T) { asyncTSmallReap(t, newIOUring) }

func TestIOUringAllocs(t *testing.T) {
	for _, opts := range uringTOptionSets {
		t.Run(uringTName(opts), func(t *testing.T) { asyncTAllocs(t, newIOUring, opts) })
	}
}

// A buffer outside the registered range falls back to plain READ.
func TestIOUringFixedBufsMovedBuffer(t *testing.T) {
	fd, content := asyncTFile(t, 64<<10, false)
	units := asyncTUnits(t, 2, 4096)
	eng := asyncTEngine(t, newIOUring, Config{IODepth: 2, Units: units, Options: engineOpts(t, "io_uring", "fixedbufs=1")})
	units[1].Buf = asyncTBuf(t, 8192)[4096:]
	asyncTDrive(t, eng, units, 40, func(i int, u *IOUnit) {
		u.Op, u.FD, u.Offset = OpRead, fd, int64(i%16*4096)
	}, func(u *IOUnit) {
		if u.Err != 0 || !bytes.Equal(u.Buf, content[u.Offset:u.Offset+4096]) {
			t.Fatalf("read at %d: %v", u.Offset, u.Err)
		}
	})
}

// hipri sets up an IOPOLL ring; a file system file without polled queues
// may refuse the I/O (EOPNOTSUPP), which is also what fio reports.
func TestIOUringHipri(t *testing.T) {
	fd, content := asyncTFile(t, 64<<10, true)
	units := asyncTUnits(t, 4, 4096)
	eng := asyncTEngine(t, newIOUring, Config{IODepth: 4, Units: units, Direct: true, Options: engineOpts(t, "io_uring", "hipri=1")})
	asyncTDrive(t, eng, units, 16, func(i int, u *IOUnit) {
		u.Op, u.FD, u.Offset = OpRead, fd, int64(i*4096)
	}, func(u *IOUnit) {
		if u.Err != 0 {
			if u.Err != unix.EOPNOTSUPP && u.Err != unix.EINVAL {
				t.Fatalf("polled read at %d: %v", u.Offset, u.Err)
			}
			return
		}
		if !bytes.Equal(u.Buf, content[u.Offset:u.Offset+4096]) {
			t.Fatalf("polled read at %d: data mismatch", u.Offset)
		}
	})
}

func TestIOUringNowait(t *testing.T) {
	fd, content := asyncTFile(t, 1<<20, false)
	units := asyncTUnits(t, 4, 4096)
	eng := asyncTEngine(t, newIOUring, Config{IODepth: 4, Units: units, Options: engineOpts(t, "io_uring", "nowait=1")})
	asyncTDrive(t, eng, units, 100, func(i int, u *IOUnit) {
		u.Op, u.FD, u.Offset = OpRead, fd, int64(i%256)*4096
	}, func(u *IOUnit) {
		if u.Err == unix.EAGAIN {
			return
		}
		if u.Err != 0 || !bytes.Equal(u.Buf, content[u.Offset:u.Offset+4096]) {
			t.Fatalf("nowait read at %d: %v", u.Offset, u.Err)
		}
	})
}

func TestIOUringRejectedOptions(t *testing.T) {
	for _, c := range []struct {
		opts []string
		want string
	}{
		{[]string{"registerfiles=1"}, "io_uring: option registerfiles is not supported yet"},
		{[]string{"cmdprio_percentage=10", "cmdprio_bssplit=4k/10"}, "x: cmdprio_percentage and cmdprio_bssplit options are mutually exclusive\nfio: io engine io_uring init failed.\n" +
			"fio: pid=0, err=22/file:filesetup.c, func=fio_ioring_init, error=Invalid argument"},
		{[]string{"uncached=1"}, "io_uring: option uncached is not supported yet"},
		// Several: always the first in a fixed order.
		{[]string{"uncached=1", "registerfiles"}, "io_uring: option registerfiles is not supported yet"},
	} {
		_, err := newIOUring(Config{IODepth: 1, Options: engineOpts(t, "io_uring", c.opts...), Job: "x"})
		if err == nil || err.Error() != c.want {
			t.Errorf("options %v: error %v, want %q", c.opts, err, c.want)
		}
	}
}

// Two options gofio cannot honour yet, given in either order, give the
// same message every run (the engines once ranged over a map of them).
func TestIOUringUnsupportedOptionsDeterministic(t *testing.T) {
	want := "io_uring: option registerfiles is not supported yet"
	for i := range 20 {
		opts := []string{"registerfiles", "uncached=1"}
		if i%2 == 1 {
			opts[0], opts[1] = opts[1], opts[0]
		}
		_, err := newIOUring(Config{IODepth: 1, Options: engineOpts(t, "io_uring", opts...)})
		if err == nil || err.Error() != want {
			t.Fatalf("run %d %v: %v; want %q", i, opts, err, want)
		}
	}
}

func BenchmarkIOUringRandRead4kQD32(b *testing.B) { asyncTBench(b, newIOUring, nil) }
func BenchmarkIOUringRandRead4kQD32FixedBufs(b *testing.B) {
	asyncTBench(b, newIOUring, []string{"fixedbufs=1"})
}
