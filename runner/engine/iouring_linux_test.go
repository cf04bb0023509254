//go:build linux && (amd64 || arm64 || riscv64 || loong64 || ppc64le)

package engine

// The io_uring tests skip (with a note) when io_uring_setup fails with
// ENOSYS or EPERM, as it does under container seccomp profiles or with
// kernel.io_uring_disabled; see asyncTEngine. The shared helpers are in
// engine_libaio_linux_test.go.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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
	asyncTNowait(t, newIOUring, "io_uring")
}

func TestIOUringRejectedOptions(t *testing.T) {
	const regMsg = "fio: io_uring registered files require nr_files to be identical to open_files\n" +
		"fio: io engine io_uring init failed."
	for _, c := range []struct {
		opts             []string
		files, openFiles int
		want             string // QueueInitError.Msg, or the error's text
	}{
		{[]string{"cmdprio_percentage=10", "cmdprio_bssplit=4k/10"}, 1, 1, "x: cmdprio_percentage and cmdprio_bssplit options are mutually exclusive\nfio: io engine io_uring init failed.\n" +
			"fio: pid=0, err=22/file:filesetup.c, func=fio_ioring_init, error=Invalid argument"},
		// fio 3.33 registers every file for the whole job.
		{[]string{"registerfiles=1"}, 4, 2, regMsg},
		// sqthread_poll implies registerfiles in fio 3.33.
		{[]string{"sqthread_poll=1"}, 4, 3, regMsg},
	} {
		_, err := newIOUring(Config{IODepth: 1, Options: engineOpts(t, "io_uring", c.opts...), Job: "x", Files: c.files, OpenFiles: c.openFiles})
		var qe *QueueInitError
		switch {
		case err == nil:
			t.Errorf("options %v: no error, want %q", c.opts, c.want)
		case errors.As(err, &qe):
			if qe.Msg != c.want || qe.Errno() != unix.EPERM || qe.Where == nil || *qe.Where != "" {
				t.Errorf("options %v: %q errno %v, want %q errno EPERM and an empty where", c.opts, qe.Msg, qe.Errno(), c.want)
			}
		case err.Error() != c.want:
			t.Errorf("options %v: error %v, want %q", c.opts, err, c.want)
		}
	}
}

// asyncTReapOne submits what was queued and reaps one completion (any
// asynchronous engine).
func asyncTReapOne(t *testing.T, eng Engine) {
	t.Helper()
	if _, err := eng.(Committer).Commit(); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	done := make([]*IOUnit, 1)
	if n, err := eng.(Reaper).Reap(1, done); err != nil || n != 1 {
		t.Fatalf("Reap: %d, %v", n, err)
	}
}

// uringTLastSQE returns the SQE Queue wrote last.
func uringTLastSQE(eng Engine) *uringSQE {
	r := eng.(*uringEngine).ring
	return &r.sqes[((r.sqLocal-1)&r.sqMask)<<r.sqeShift]
}

// registerfiles: files opened through the engine go into the ring's file
// table and the SQEs name them by slot with IOSQE_FIXED_FILE; a closed
// file's slot is emptied and reused by the next file opened there.
func TestIOUringRegisterFiles(t *testing.T) {
	for _, opt := range []string{"registerfiles=1", "sqthread_poll=1"} {
		t.Run(opt, func(t *testing.T) {
			dir := t.TempDir()
			contents := make([][]byte, 3)
			paths := make([]string, 3)
			for i := range contents {
				contents[i] = bytes.Repeat([]byte{byte('a' + i)}, 16<<10)
				paths[i] = filepath.Join(dir, fmt.Sprint("f", i))
				if err := os.WriteFile(paths[i], contents[i], 0o644); err != nil {
					t.Fatal(err)
				}
			}
			units := asyncTUnits(t, 2, 4096)
			eng := asyncTEngine(t, newIOUring, Config{IODepth: 2, Units: units, Files: 2, OpenFiles: 2, Options: engineOpts(t, "io_uring", opt)})
			opener, ok := eng.(FileOpener)
			if !ok {
				t.Fatal("io_uring engine is no FileOpener")
			}
			fds := make([]int, 2)
			for i := range fds {
				fd, err := opener.OpenFile(i, paths[i], unix.O_RDONLY|unix.O_CLOEXEC)
				if err != nil {
					t.Fatalf("OpenFile(%d): %v", i, err)
				}
				fds[i] = fd
			}
			read := func(u *IOUnit, file int, want []byte) {
				t.Helper()
				u.Op, u.File, u.FD, u.Offset = OpRead, file, fds[file], 4096
				if st := eng.Queue(u); st != Queued {
					t.Fatalf("Queue: %v", st)
				}
				sqe := uringTLastSQE(eng)
				if sqe.Flags&uringSQEFixedFile == 0 || sqe.FD != int32(file) {
					t.Fatalf("file %d: SQE flags %#x fd %d, want IOSQE_FIXED_FILE and slot %d", file, sqe.Flags, sqe.FD, file)
				}
				asyncTReapOne(t, eng)
				if u.Err != 0 || u.Result != 4096 || !bytes.Equal(u.Buf, want[4096:8192]) {
					t.Fatalf("file %d: read %d, %v, data match %v", file, u.Result, u.Err, bytes.Equal(u.Buf, want[4096:8192]))
				}
			}
			read(units[0], 0, contents[0])
			read(units[1], 1, contents[1])
			if err := opener.CloseFile(1, fds[1]); err != nil {
				t.Fatalf("CloseFile: %v", err)
			}
			fd, err := opener.OpenFile(1, paths[2], unix.O_RDONLY|unix.O_CLOEXEC)
			if err != nil {
				t.Fatalf("OpenFile again: %v", err)
			}
			fds[1] = fd
			read(units[1], 1, contents[2])
		})
	}
}

// Without registerfiles the SQE carries the descriptor itself.
func TestIOUringPlainFile(t *testing.T) {
	fd, content := asyncTFile(t, 16<<10, false)
	units := asyncTUnits(t, 1, 4096)
	eng := asyncTEngine(t, newIOUring, Config{IODepth: 1, Units: units, Files: 1, Options: engineOpts(t, "io_uring")})
	u := units[0]
	u.Op, u.FD, u.Offset = OpRead, fd, 0
	if st := eng.Queue(u); st != Queued {
		t.Fatalf("Queue: %v", st)
	}
	if sqe := uringTLastSQE(eng); sqe.Flags&uringSQEFixedFile != 0 || sqe.FD != int32(fd) {
		t.Fatalf("SQE flags %#x fd %d, want no IOSQE_FIXED_FILE and fd %d", sqe.Flags, sqe.FD, fd)
	}
	asyncTReapOne(t, eng)
	if u.Err != 0 || !bytes.Equal(u.Buf, content[:4096]) {
		t.Fatalf("read: %v", u.Err)
	}
}

// uncached=1 sets fio 3.33's RWF_UNCACHED (0x40) on buffered reads and
// writes, never with direct=1. No kernel has that flag: the I/O fails
// with EOPNOTSUPP, as it does under fio 3.33 (checked on Linux 6.18:
// "fio: io_u error ... Operation not supported", err=95).
func TestIOUringUncached(t *testing.T) {
	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprint("direct=", direct), func(t *testing.T) {
			fd, content := asyncTFile(t, 16<<10, direct)
			units := asyncTUnits(t, 1, 4096)
			eng := asyncTEngine(t, newIOUring, Config{IODepth: 1, Units: units, Direct: direct, Options: engineOpts(t, "io_uring", "uncached=1")})
			for _, op := range []Op{OpRead, OpWrite} {
				u := units[0]
				u.Op, u.FD, u.Offset = op, fd, 0
				if op == OpWrite {
					copy(u.Buf, content[:4096])
				}
				if st := eng.Queue(u); st != Queued {
					t.Fatalf("Queue: %v", st)
				}
				got := uringTLastSQE(eng).OpFlags&rwfUncached != 0
				asyncTReapOne(t, eng)
				if got == direct {
					t.Fatalf("%v: RWF_UNCACHED set %v with direct=%v", op, got, direct)
				}
				switch {
				case direct && u.Err != 0:
					t.Fatalf("%v direct: %v", op, u.Err)
				case !direct && u.Err != unix.EOPNOTSUPP:
					t.Fatalf("%v buffered: error %v, want EOPNOTSUPP (fio 3.33's result)", op, u.Err)
				}
			}
		})
	}
}

func BenchmarkIOUringRandRead4kQD32(b *testing.B) { asyncTBench(b, newIOUring, nil) }
func BenchmarkIOUringRandRead4kQD32FixedBufs(b *testing.B) {
	asyncTBench(b, newIOUring, []string{"fixedbufs=1"})
}

// A ring driven from one thread (Config.ThreadBound) is set up as fio
// 3.33 sets up its rings (single issuer, deferred completion work),
// disabled until BindThread enables it on that thread. Its completions
// reach the CQ only when that thread asks, so a reap of at least 0
// must still ask the kernel.
func TestIOUringThreadBound(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	fd, content := asyncTFile(t, 64<<10, false)
	units := asyncTUnits(t, 4, 4096)
	// force_async: each read completes in a kernel worker, whose
	// completion work waits for the ring's thread.
	eng := asyncTEngine(t, newIOUring, Config{IODepth: 4, Units: units, ThreadBound: true,
		Options: engineOpts(t, "io_uring", "force_async=1")})
	e := eng.(*uringEngine)
	if !e.bound {
		t.Skip("kernel without IORING_SETUP_DEFER_TASKRUN (Linux 6.1)")
	}
	if err := e.BindThread(); err != nil {
		t.Fatal(err)
	}
	for i, u := range units {
		u.Op, u.FD, u.Offset = OpRead, fd, int64(i*4096)
		if st := eng.Queue(u); st != Queued {
			t.Fatalf("queue %d: status %v", i, st)
		}
	}
	if n, err := e.Commit(); err != nil || n != len(units) {
		t.Fatalf("commit: %d, %v", n, err)
	}
	done := make([]*IOUnit, len(units))
	got := 0
	for tries := 0; got < len(units); tries++ {
		if tries == 1e6 {
			t.Fatalf("Reap(0) found %d of %d completions after %d tries", got, len(units), tries)
		}
		n, err := e.Reap(0, done[got:])
		if err != nil {
			t.Fatal(err)
		}
		got += n
	}
	for _, u := range done {
		if u.Err != 0 || !bytes.Equal(u.Buf, content[u.Offset:u.Offset+4096]) {
			t.Fatalf("read at %d: %v", u.Offset, u.Err)
		}
	}
	if err := e.CloseOnThread(); err != nil {
		t.Fatal(err)
	}
}
