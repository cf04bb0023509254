//go:build linux && (amd64 || arm64 || riscv64 || loong64 || ppc64le)

package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// The helpers below (asyncT*) are shared by the libaio and io_uring tests.

// asyncTBuf returns a page-aligned buffer of size bytes, mapped anonymously
// so that it is usable with O_DIRECT.
func asyncTBuf(tb testing.TB, size int) []byte {
	tb.Helper()
	b, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		tb.Fatalf("mmap: %v", err)
	}
	tb.Cleanup(func() { unix.Munmap(b) })
	return b
}

// asyncTFile creates a file of size random bytes and opens it with flags
// (plus O_DIRECT when direct). It returns the descriptor and the content.
func asyncTFile(tb testing.TB, size int, direct bool) (int, []byte) {
	tb.Helper()
	content := make([]byte, size)
	rng := rand.New(rand.NewPCG(uint64(size), 42))
	for i := range content {
		content[i] = byte(rng.Uint32())
	}
	path := filepath.Join(tb.TempDir(), "data")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		tb.Fatal(err)
	}
	flags := unix.O_RDWR | unix.O_CLOEXEC
	if direct {
		flags |= unix.O_DIRECT
	}
	fd, err := unix.Open(path, flags, 0)
	if err != nil {
		if direct && errors.Is(err, unix.EINVAL) {
			tb.Skipf("O_DIRECT not supported on %s", path)
		}
		tb.Fatal(err)
	}
	tb.Cleanup(func() { unix.Close(fd) })
	return fd, content
}

// asyncTUnits builds a pool of n units, each with its own aligned buffer
// of bs bytes.
func asyncTUnits(tb testing.TB, n, bs int) []*IOUnit {
	mem := asyncTBuf(tb, n*bs)
	units := make([]*IOUnit, n)
	for i := range units {
		units[i] = &IOUnit{Index: i, Buf: mem[i*bs : (i+1)*bs : (i+1)*bs]}
	}
	return units
}

type asyncTCtor func(Config) (Engine, error)

// asyncTOptions reads name=value options of the libaio engine, or of
// io_uring when one of them is not libaio's.
func asyncTOptions(tb testing.TB, opts []string) jobspec.IOEngineOptions {
	tb.Helper()
	engine := "libaio"
	for _, kv := range opts {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.ContainsFunc(jobspec.EngineOptions("libaio"), func(o jobspec.Option) bool { return o.Name == name }) {
			engine = "io_uring"
		}
	}
	return engineOpts(tb, engine, opts...)
}

// asyncTEngine builds an engine, skipping the test when the kernel refuses
// io_uring (ENOSYS, EPERM: seccomp in containers, io_uring_disabled).
func asyncTEngine(tb testing.TB, ctor asyncTCtor, cfg Config) Engine {
	tb.Helper()
	if reflect.ValueOf(cfg.Options).IsZero() {
		cfg.Options = asyncTOptions(tb, nil) // the options' defaults
	}
	eng, err := ctor(cfg)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
			tb.Skipf("engine unavailable here (seccomp or old kernel?): %v", err)
		}
		tb.Fatalf("new engine: %v", err)
	}
	tb.Cleanup(func() {
		if c, ok := eng.(io.Closer); ok {
			if err := c.Close(); err != nil {
				tb.Errorf("close: %v", err)
			}
		}
	})
	return eng
}

// asyncTNowait checks nowait=1 on engine: reads of a cached file
// succeed or fail with EAGAIN only.
func asyncTNowait(t *testing.T, ctor asyncTCtor, engine string) {
	fd, content := asyncTFile(t, 1<<20, false)
	units := asyncTUnits(t, 4, 4096)
	eng := asyncTEngine(t, ctor, Config{IODepth: 4, Units: units, Options: engineOpts(t, engine, "nowait=1")})
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

// asyncTDrive runs n operations through eng, keeping as many in flight as
// the engine takes. prep sets up the unit for operation i; check is called
// with each completed unit. Busy is handled by committing and reaping.
func asyncTDrive(tb testing.TB, eng Engine, units []*IOUnit, n int, prep func(i int, u *IOUnit), check func(u *IOUnit)) {
	tb.Helper()
	c := eng.(Committer)
	r := eng.(Reaper)
	free := append([]*IOUnit(nil), units...)
	done := make([]*IOUnit, len(units))
	inflight := 0
	reap := func(min int) {
		tb.Helper()
		got, err := r.Reap(min, done)
		if err != nil {
			tb.Fatalf("reap: %v", err)
		}
		if got < min {
			tb.Fatalf("reap(%d) returned %d", min, got)
		}
		for _, u := range done[:got] {
			check(u)
			free = append(free, u)
		}
		inflight -= got
	}
	for i := 0; i < n; {
		if len(free) == 0 {
			if _, err := c.Commit(); err != nil {
				tb.Fatalf("commit: %v", err)
			}
			reap(1)
			continue
		}
		u := free[len(free)-1]
		prep(i, u)
		switch eng.Queue(u) {
		case Completed:
			check(u)
			i++
		case Queued:
			free = free[:len(free)-1]
			inflight++
			i++
		case Busy:
			if inflight == 0 {
				tb.Fatalf("Busy with nothing in flight")
			}
			if _, err := c.Commit(); err != nil {
				tb.Fatalf("commit: %v", err)
			}
			reap(1)
		}
	}
	if _, err := c.Commit(); err != nil {
		tb.Fatalf("commit: %v", err)
	}
	for inflight > 0 {
		reap(inflight)
	}
}

// asyncTReadVerify reads random blocks through the engine and checks them.
func asyncTReadVerify(t *testing.T, ctor asyncTCtor, depth int, direct bool, opts []string) {
	const size, bs, ops = 1 << 20, 4096, 300
	fd, content := asyncTFile(t, size, direct)
	units := asyncTUnits(t, depth, bs)
	eng := asyncTEngine(t, ctor, Config{IODepth: depth, Units: units, Direct: direct, Options: asyncTOptions(t, opts)})
	rng := rand.New(rand.NewPCG(uint64(depth), 7))
	asyncTDrive(t, eng, units, ops, func(i int, u *IOUnit) {
		u.Op, u.FD = OpRead, fd
		u.Offset = int64(rng.IntN(size/bs)) * bs
		if !direct && i%3 == 0 {
			// Buffered: odd offsets and lengths work too.
			u.Buf = u.Buf[:1+rng.IntN(bs)]
			u.Offset = int64(rng.IntN(size - len(u.Buf) + 1))
		} else {
			u.Buf = u.Buf[:bs]
		}
		clear(u.Buf)
	}, func(u *IOUnit) {
		if u.Err != 0 {
			t.Fatalf("read at %d: %v", u.Offset, u.Err)
		}
		if u.Result != len(u.Buf) {
			t.Fatalf("read at %d: %d bytes, want %d", u.Offset, u.Result, len(u.Buf))
		}
		if want := content[u.Offset : u.Offset+int64(len(u.Buf))]; !bytes.Equal(u.Buf, want) {
			t.Fatalf("read at %d: data mismatch", u.Offset)
		}
	})
}

// asyncTWriteRead writes random blocks through the engine, syncs, reads
// them back through the engine and checks them against pread too.
func asyncTWriteRead(t *testing.T, ctor asyncTCtor, depth int, direct bool, opts []string) {
	const size, bs = 1 << 20, 4096
	const nblocks = size / bs
	fd, content := asyncTFile(t, size, direct)
	units := asyncTUnits(t, depth, bs)
	eng := asyncTEngine(t, ctor, Config{IODepth: depth, Units: units, Direct: direct, Options: asyncTOptions(t, opts)})
	rng := rand.New(rand.NewPCG(uint64(depth), 9))
	order := rng.Perm(nblocks)[:nblocks/2]
	fresh := make([]byte, size)
	for i := range fresh {
		fresh[i] = byte(rng.Uint32())
	}
	for _, blk := range order {
		off := blk * bs
		copy(content[off:off+bs], fresh[off:off+bs])
	}
	ok := func(u *IOUnit) {
		if u.Err != 0 {
			t.Fatalf("op %d at %d: %v", u.Op, u.Offset, u.Err)
		}
		if u.Op.IsData() && u.Result != len(u.Buf) {
			t.Fatalf("op %d at %d: %d bytes, want %d", u.Op, u.Offset, u.Result, len(u.Buf))
		}
	}
	asyncTDrive(t, eng, units, len(order), func(i int, u *IOUnit) {
		u.Op, u.FD = OpWrite, fd
		u.Offset = int64(order[i] * bs)
		u.Buf = u.Buf[:bs]
		copy(u.Buf, fresh[u.Offset:u.Offset+bs])
	}, ok)
	asyncTDrive(t, eng, units, 2, func(i int, u *IOUnit) {
		u.Op, u.FD, u.Offset = OpFsync, fd, 0
		if i == 1 {
			u.Op = OpFdatasync
		}
	}, ok)
	asyncTDrive(t, eng, units, nblocks, func(i int, u *IOUnit) {
		u.Op, u.FD = OpRead, fd
		u.Offset = int64(i * bs)
		u.Buf = u.Buf[:bs]
		clear(u.Buf)
	}, func(u *IOUnit) {
		ok(u)
		if !bytes.Equal(u.Buf, content[u.Offset:u.Offset+bs]) {
			t.Fatalf("read back at %d: data mismatch", u.Offset)
		}
	})
	check := asyncTBuf(t, size)
	if n, err := unix.Pread(fd, check, 0); err != nil || n != size {
		t.Fatalf("pread: %d, %v", n, err)
	}
	if !bytes.Equal(check, content) {
		t.Fatal("file content differs after writes")
	}
}

// asyncTBusy checks that Queue says Busy once depth units are held, and
// that Commit and Reap account for them all.
func asyncTBusy(t *testing.T, ctor asyncTCtor, opts []string) {
	const depth, bs = 4, 4096
	fd, content := asyncTFile(t, 64<<10, false)
	units := asyncTUnits(t, depth+1, bs)
	eng := asyncTEngine(t, ctor, Config{IODepth: depth, Units: units, Options: asyncTOptions(t, opts)})
	for i, u := range units {
		u.Op, u.FD, u.Offset = OpRead, fd, int64(i*bs)
		st := eng.Queue(u)
		if i < depth && st != Queued {
			t.Fatalf("unit %d: status %d, want Queued", i, st)
		}
		if i == depth && st != Busy {
			t.Fatalf("unit %d: status %d, want Busy", i, st)
		}
	}
	n, err := eng.(Committer).Commit()
	if err != nil || n != depth {
		t.Fatalf("commit: %d, %v; want %d", n, err, depth)
	}
	if st := eng.Queue(units[depth]); st != Busy {
		t.Fatalf("after commit: status %d, want Busy", st)
	}
	done := make([]*IOUnit, depth+1)
	got := 0
	for got < depth {
		n, err := eng.(Reaper).Reap(depth-got, done[got:])
		if err != nil {
			t.Fatal(err)
		}
		got += n
	}
	// Nothing left: a reap asking for more must not block.
	if n, err := eng.(Reaper).Reap(1, done); n != 0 || err != nil {
		t.Fatalf("reap on empty engine: %d, %v", n, err)
	}
	seen := map[int]bool{}
	for _, u := range done[:got] {
		seen[u.Index] = true
		if u.Err != 0 || !bytes.Equal(u.Buf, content[u.Offset:u.Offset+bs]) {
			t.Fatalf("unit %d: err %v or data mismatch", u.Index, u.Err)
		}
	}
	if len(seen) != depth {
		t.Fatalf("reaped %d distinct units, want %d", len(seen), depth)
	}
	if st := eng.Queue(units[depth]); st != Queued {
		t.Fatalf("after reap: status %d, want Queued", st)
	}
	if _, err := eng.(Committer).Commit(); err != nil {
		t.Fatal(err)
	}
	if n, err := eng.(Reaper).Reap(1, done); n != 1 || err != nil {
		t.Fatalf("reap: %d, %v", n, err)
	}
}

// asyncTSmallReap reaps through a done slice shorter than what is in
// flight: each Reap returns at most len(done), and nothing is lost.
func asyncTSmallReap(t *testing.T, ctor asyncTCtor) {
	const depth, bs = 8, 4096
	fd, content := asyncTFile(t, 64<<10, false)
	units := asyncTUnits(t, depth, bs)
	eng := asyncTEngine(t, ctor, Config{IODepth: depth, Units: units})
	for i, u := range units {
		u.Op, u.FD, u.Offset = OpRead, fd, int64(i*bs)
		if eng.Queue(u) != Queued {
			t.Fatal("not queued")
		}
	}
	if n, err := eng.(Committer).Commit(); n != depth || err != nil {
		t.Fatalf("commit: %d, %v", n, err)
	}
	done := make([]*IOUnit, 3)
	seen := map[int]bool{}
	for len(seen) < depth {
		n, err := eng.(Reaper).Reap(depth, done)
		if err != nil || n == 0 || n > len(done) {
			t.Fatalf("reap: %d, %v", n, err)
		}
		for _, u := range done[:n] {
			if seen[u.Index] || u.Err != 0 || !bytes.Equal(u.Buf, content[u.Offset:u.Offset+bs]) {
				t.Fatalf("unit %d: duplicate, error %v or bad data", u.Index, u.Err)
			}
			seen[u.Index] = true
		}
	}
	if n, err := eng.(Reaper).Reap(0, done); n != 0 || err != nil {
		t.Fatalf("reap on empty engine: %d, %v", n, err)
	}
}

// asyncTErrors checks error paths: a bad descriptor comes back from Reap
// with EBADF, a trim on a regular file completes at once with ENOTTY (as
// with fio 3.33, which issues BLKDISCARD), and reading past EOF gives 0.
func asyncTErrors(t *testing.T, ctor asyncTCtor) {
	fd, _ := asyncTFile(t, 8192, false)
	units := asyncTUnits(t, 2, 4096)
	eng := asyncTEngine(t, ctor, Config{IODepth: 2, Units: units})
	trim := &IOUnit{Index: 0, Op: OpTrim, FD: fd, Buf: units[0].Buf}
	if st := eng.Queue(trim); st != Completed || trim.Err != unix.ENOTTY {
		t.Fatalf("trim: status %d err %v, want Completed ENOTTY", st, trim.Err)
	}
	const bad = -1
	units[0].Op, units[0].FD, units[0].Offset = OpRead, bad, 0
	units[1].Op, units[1].FD, units[1].Offset = OpRead, fd, 1<<20
	for _, u := range units {
		if st := eng.Queue(u); st != Queued {
			t.Fatalf("queue: %d", st)
		}
	}
	if n, err := eng.(Committer).Commit(); n != 2 || err != nil {
		t.Fatalf("commit: %d, %v", n, err)
	}
	done := make([]*IOUnit, 2)
	got := 0
	for got < 2 {
		n, err := eng.(Reaper).Reap(2-got, done[got:])
		if err != nil {
			t.Fatal(err)
		}
		got += n
	}
	if units[0].Err != unix.EBADF {
		t.Errorf("bad fd: err %v, want EBADF", units[0].Err)
	}
	if units[1].Err != 0 || units[1].Result != 0 {
		t.Errorf("read past EOF: %d, %v; want 0 bytes", units[1].Result, units[1].Err)
	}
}

// asyncTAllocs checks that a full Queue/Commit/Reap cycle allocates
// nothing.
func asyncTAllocs(t *testing.T, ctor asyncTCtor, opts []string) {
	const depth, bs = 8, 4096
	fd, _ := asyncTFile(t, 1<<20, false)
	units := asyncTUnits(t, depth, bs)
	eng := asyncTEngine(t, ctor, Config{IODepth: depth, Units: units, Options: asyncTOptions(t, opts)})
	c, r := eng.(Committer), eng.(Reaper)
	done := make([]*IOUnit, depth)
	off := int64(0)
	cycle := func() {
		queued := 0
		for i, u := range units {
			u.FD, u.Offset = fd, off
			u.Op = OpRead
			if i == depth-1 {
				u.Op = OpFdatasync // libaio: Completed at once
			}
			off = (off + bs) % (1 << 20)
			switch eng.Queue(u) {
			case Queued:
				queued++
			case Completed:
				if u.Op == OpRead || u.Err != 0 {
					t.Fatalf("op %d: Completed, err %v", u.Op, u.Err)
				}
			default:
				t.Fatal("Busy")
			}
		}
		if _, err := c.Commit(); err != nil {
			t.Fatal(err)
		}
		for got := 0; got < queued; {
			n, err := r.Reap(queued-got, done[got:])
			if err != nil {
				t.Fatal(err)
			}
			got += n
		}
	}
	cycle()
	if a := testing.AllocsPerRun(200, cycle); a != 0 {
		t.Fatalf("%v allocations per cycle, want 0", a)
	}
}

// asyncTBench does 4 KiB random reads from a page-cached file at QD32;
// one op is one I/O.
func asyncTBench(b *testing.B, ctor asyncTCtor, opts []string) {
	const depth, bs, size = 32, 4096, 64 << 20
	fd, _ := asyncTFile(b, size, false)
	units := asyncTUnits(b, depth, bs)
	eng := asyncTEngine(b, ctor, Config{IODepth: depth, Units: units, Options: asyncTOptions(b, opts)})
	c, r := eng.(Committer), eng.(Reaper)
	free := append([]*IOUnit(nil), units...)
	done := make([]*IOUnit, depth)
	rng := rand.New(rand.NewPCG(1, 2))
	inflight := 0
	b.ReportAllocs()
	b.ResetTimer()
	for issued := 0; issued < b.N || inflight > 0; {
		for len(free) > 0 && issued < b.N {
			u := free[len(free)-1]
			free = free[:len(free)-1]
			u.Op, u.FD = OpRead, fd
			u.Offset = int64(rng.IntN(size/bs)) * bs
			if eng.Queue(u) != Queued {
				b.Fatal("not queued")
			}
			issued++
			inflight++
		}
		if _, err := c.Commit(); err != nil {
			b.Fatal(err)
		}
		n, err := r.Reap(1, done)
		if err != nil {
			b.Fatal(err)
		}
		for _, u := range done[:n] {
			if u.Err != 0 || u.Result != bs {
				b.Fatalf("read: %d, %v", u.Result, u.Err)
			}
			free = append(free, u)
		}
		inflight -= n
	}
}

func TestAioABISizes(t *testing.T) {
	if s := unsafe.Sizeof(aioIocb{}); s != 64 {
		t.Errorf("iocb is %d bytes, want 64", s)
	}
	if s := unsafe.Sizeof(aioEvent{}); s != 32 {
		t.Errorf("io_event is %d bytes, want 32", s)
	}
	if s := unsafe.Sizeof(aioRingHeader{}); s != 32 {
		t.Errorf("aio_ring header is %d bytes, want 32", s)
	}
	var cb aioIocb
	for _, f := range []struct {
		name     string
		got, off uintptr
	}{
		{"aio_rw_flags", unsafe.Offsetof(cb.RWFlags), 12},
		{"aio_lio_opcode", unsafe.Offsetof(cb.LioOpcode), 16},
		{"aio_fildes", unsafe.Offsetof(cb.FD), 20},
		{"aio_buf", unsafe.Offsetof(cb.Buf), 24},
		{"aio_nbytes", unsafe.Offsetof(cb.NBytes), 32},
		{"aio_offset", unsafe.Offsetof(cb.Offset), 40},
		{"aio_flags", unsafe.Offsetof(cb.Flags), 56},
		{"aio_resfd", unsafe.Offsetof(cb.ResFD), 60},
	} {
		if f.got != f.off {
			t.Errorf("iocb.%s at %d, want %d", f.name, f.got, f.off)
		}
	}
}

func TestLibaioReadVerify(t *testing.T) {
	for _, depth := range []int{1, 8, 32} {
		for _, direct := range []bool{false, true} {
			t.Run(fmt.Sprintf("depth%d/direct%v", depth, direct), func(t *testing.T) {
				asyncTReadVerify(t, newLibaio, depth, direct, nil)
			})
		}
	}
}

func TestLibaioWriteRead(t *testing.T) {
	for _, depth := range []int{1, 8, 32} {
		for _, direct := range []bool{false, true} {
			t.Run(fmt.Sprintf("depth%d/direct%v", depth, direct), func(t *testing.T) {
				asyncTWriteRead(t, newLibaio, depth, direct, nil)
			})
		}
	}
}

func TestLibaioOptions(t *testing.T) {
	for _, opts := range [][]string{
		{"userspace_reap=1"},
		{"userspace_reap"},
		{"nowait=0", "cmdprio_percentage=0"},
		{"cmdprio_percentage=50", "cmdprio_class=2", "cmdprio=7"},
	} {
		t.Run(fmt.Sprint(opts), func(t *testing.T) {
			asyncTReadVerify(t, newLibaio, 8, false, opts)
			asyncTWriteRead(t, newLibaio, 8, true, opts)
			asyncTBusy(t, newLibaio, opts)
		})
	}
	// nowait: reads of a cached file succeed or fail with EAGAIN only.
	asyncTNowait(t, newLibaio, "libaio")
	// Values fio refuses fail in jobspec with fio's messages.
	for _, bad := range [][]string{
		{"cmdprio_class=4", "cmdprio_percentage=50"},
		{"hipri=1"},
		{"userspace_reap=maybe"},
	} {
		if _, err := jobspec.ParseEngineOptions("libaio", bad...); err == nil {
			t.Errorf("options %v accepted", bad)
		}
	}
}

func TestLibaioBusy(t *testing.T)      { asyncTBusy(t, newLibaio, nil) }
func TestLibaioErrors(t *testing.T)    { asyncTErrors(t, newLibaio) }
func TestLibaioSmallReap(t *testing.T) { asyncTSmallReap(t, newLibaio) }
func TestLibaioAllocs(t *testing.T) {
	asyncTAllocs(t, newLibaio, nil)
	asyncTAllocs(t, newLibaio, []string{"userspace_reap=1"})
}

func BenchmarkLibaioRandRead4kQD32(b *testing.B) { asyncTBench(b, newLibaio, nil) }
func BenchmarkLibaioRandRead4kQD32UserspaceReap(b *testing.B) {
	asyncTBench(b, newLibaio, []string{"userspace_reap=1"})
}
