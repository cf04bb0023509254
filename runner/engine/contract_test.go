//go:build linux && (amd64 || arm64 || riscv64 || loong64 || ppc64le)

package engine

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// contractSpec is what the contract test needs to know of an engine
// beyond its registry entry. The zero value asks for the full contract: a
// write and a read of one block each complete with the whole block and no
// error, and the read returns the bytes written.
type contractSpec struct {
	opts []string // options the engine cannot be built without (name=value)
	// noData, when set, says why the engine's units move no bytes: the
	// file's and the buffer's contents are then not compared.
	noData string
	// readErr and readErrFn are the outcome of the read when the engine
	// refuses reads (with the reason in noData).
	readErr   unix.Errno
	readErrFn string
	// setup, when set, prepares the engine's target and returns more
	// options (nbd: a server and its uri).
	setup func(t *testing.T) []string
	// remote, when set, says why the job's file does not receive the
	// data: the read is still compared with the write.
	remote string
	// skip, when set, says why the contract cannot be checked here.
	skip string
}

// contractSpecs lists the engines that depart from the full contract,
// each with the reason. A newly registered engine is held to the full
// contract until it is listed here.
var contractSpecs = map[string]contractSpec{
	"cpuio":      {opts: []string{"cpuload=50", "cpuchunks=100"}, noData: "it burns CPU time (Info.NoIO)"},
	"null":       {noData: "it discards its units"},
	"falloc":     {noData: "it allocates the block's space"},
	"ftruncate":  {noData: "a write truncates the file at its offset; reads are refused as in fio 3.33", readErr: unix.EINVAL, readErrFn: "td_io_queue"},
	"filecreate": {noData: "its work is the open (FileOpener)"},
	"filestat":   {noData: "its work is the open (FileOpener)"},
	"filedelete": {noData: "its work is the open (FileOpener)"},
	"e4defrag": {setup: e4defragContractDonor, noData: "a write moves the block's extents to a donor file; reads are refused as in fio 3.33",
		readErr: unix.EINVAL, readErrFn: "td_io_queue"},
	"sg":           {skip: "it needs a SCSI device (CDB encoding: TestSGEncode)"},
	"io_uring_cmd": {skip: "it needs an NVMe generic character device, /dev/ngXnY (encoding: TestURingCmdEncode)"},
	"nbd":          {setup: nbdContractServer, remote: "the data is the NBD export's (Info.NoFiles)"},
	"exec":         {opts: []string{"program=/bin/true", "grace_time=0"}, noData: "it runs a program (Info.NoIO)"},
	"net":          {skip: "its files are connections to a peer: TestNetEngines runs a writer and a reader"},
	"netsplice":    {skip: "its files are connections to a peer: TestNetEngines runs a writer and a reader"},
}

// Every registered engine keeps the contract: built for a job of one
// file, it takes a write and then a read of one block through Queue (and
// Commit and Reap when it queues them), sets Result and Err, and closes.
// A synchronous engine (Info.Sync) completes every unit in Queue.
func TestEngineContract(t *testing.T) {
	const bs, off, fileSize = 4096, 4096, 64 << 10
	if len(Registered()) == 0 {
		t.Fatal("no engine registered")
	}
	for _, info := range Registered() {
		t.Run(info.Name, func(t *testing.T) {
			spec := contractSpecs[info.Name]
			if spec.skip != "" {
				t.Skip(spec.skip)
			}
			depth := 2
			if info.Sync {
				depth = 1 // the runner caps a synchronous engine's depth at 1
			}
			units := asyncTUnits(t, 2, bs)
			opts := spec.opts
			if spec.setup != nil {
				opts = append(opts[:len(opts):len(opts)], spec.setup(t)...)
			}
			eng, err := info.New(Config{IODepth: depth, Units: units[:depth], Options: engineOpts(t, info.Name, opts...), Files: 1, Seed: 1, RW: jobspec.RWReadWrite})
			if err != nil {
				if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
					t.Skipf("%s unavailable here (seccomp or old kernel?): %v", info.Name, err)
				}
				t.Fatalf("New: %v", err)
			}

			path := filepath.Join(t.TempDir(), "data")
			if err := os.WriteFile(path, make([]byte, fileSize), 0o600); err != nil {
				t.Fatal(err)
			}
			syncFile(t, path) // on disk, as a laid-out file is (e4defrag moves allocated blocks only)
			fd := -1
			opener, _ := eng.(FileOpener)
			switch {
			case info.NoFiles:
			case opener != nil:
				if fd, err = opener.OpenFile(0, path, unix.O_RDWR|unix.O_CLOEXEC); err != nil {
					t.Fatalf("OpenFile: %v", err)
				}
			default:
				if fd, err = unix.Open(path, unix.O_RDWR|unix.O_CLOEXEC, 0); err != nil {
					t.Fatal(err)
				}
			}

			data := bytes.Repeat([]byte("gofio contract\n"), bs/15+1)[:bs]
			w := units[0]
			w.Op, w.FD, w.File, w.Offset = OpWrite, fd, 0, off
			copy(w.Buf, data)
			contractDo(t, "write", info, eng, w)
			if w.Result != bs || w.Err != 0 {
				t.Errorf("write: Result %d, Err %v; want %d, 0", w.Result, w.Err, bs)
			}

			r := units[depth-1]
			r.Op, r.FD, r.File, r.Offset = OpRead, fd, 0, off
			clear(r.Buf)
			contractDo(t, "read", info, eng, r)
			wantRes := bs
			if spec.readErr != 0 {
				wantRes = 0
			}
			if r.Result != wantRes || r.Err != spec.readErr || r.ErrFn != spec.readErrFn {
				t.Errorf("read: Result %d, Err %v, ErrFn %q; want %d, %v, %q", r.Result, r.Err, r.ErrFn, wantRes, spec.readErr, spec.readErrFn)
			}
			if spec.noData == "" {
				if !bytes.Equal(r.Buf, data) {
					t.Errorf("read returned %q..., want the block written", r.Buf[:16])
				}
			}
			if spec.noData == "" && spec.remote == "" {
				got := make([]byte, bs)
				if _, err := unix.Pread(contractFD(t, path), got, off); err != nil || !bytes.Equal(got, data) {
					t.Errorf("file at %d holds %q... (%v), want the block written", off, got[:16], err)
				}
			}

			if opener != nil && !info.NoFiles {
				if err := opener.CloseFile(0, fd); err != nil {
					t.Errorf("CloseFile: %v", err)
				}
			} else if fd >= 0 {
				unix.Close(fd)
			}
			if c, ok := eng.(io.Closer); ok {
				if err := c.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			}
		})
	}
}

// contractDo takes u (the write or the read) through eng as the runner does: Queue, then, for a
// queued unit, Commit (when the engine has the step) and Reap until u
// comes back.
func contractDo(t *testing.T, what string, info Info, eng Engine, u *IOUnit) {
	t.Helper()
	switch st := eng.Queue(u); st {
	case Completed:
		return
	case Queued:
		if info.Sync {
			t.Fatalf("%s: Queue returned Queued from a synchronous engine (Info.Sync)", what)
		}
	default:
		t.Fatalf("%s: Queue returned status %d with nothing in flight", what, st)
	}
	reaper, ok := eng.(Reaper)
	if !ok {
		t.Fatalf("%s: Queue returned Queued, but the engine is no Reaper", what)
	}
	if c, ok := eng.(Committer); ok {
		if n, err := c.Commit(); err != nil || n != 1 {
			t.Fatalf("%s: Commit = %d, %v; want 1, nil", what, n, err)
		}
	}
	done := make([]*IOUnit, 2)
	n, err := reaper.Reap(1, done)
	if err != nil || n != 1 || done[0] != u {
		t.Fatalf("%s: Reap(1) = %d, %v (unit %p, want %p)", what, n, err, done[0], u)
	}
}

// contractFD opens path for reading, apart from the engine.
func contractFD(t *testing.T, path string) int {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}

// syncFile flushes path's data to its file system and drops it from the
// page cache.
func syncFile(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	// Drop the cached pages: ext4 refuses to move the extents of pages
	// whose buffers the journal still holds (EBUSY).
	unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}
