package engine

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// e4defragContractDonor gives TestEngineContract a donor next to the
// contract's file (inplace=1: allocated per write); it skips where the
// temporary directory is not on ext4.
func e4defragContractDonor(t *testing.T) []string {
	dir := t.TempDir()
	requireExt4(t, dir)
	return []string{"donorname=" + filepath.Join(dir, "donor"), "inplace=1"}
}

func requireExt4(t *testing.T, dir string) {
	t.Helper()
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err != nil || fs.Type != unix.EXT4_SUPER_MAGIC {
		t.Skipf("%s is not on ext4 (EXT4_IOC_MOVE_EXT needs it)", dir)
	}
}

// A write moves the file's blocks to the donor's and back: the file
// keeps its data; with inplace=0 the donor is preallocated to filesize=
// and kept; with inplace=1 it is emptied after each write; without
// filesize= the preallocation fails (EINVAL, io_queue_init).
func TestE4defragMove(t *testing.T) {
	dir := t.TempDir()
	requireExt4(t, dir)
	path := filepath.Join(dir, "f")
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, inplace := range []string{"1", "0"} {
		syncFile(t, path)
		donor := filepath.Join(dir, "donor"+inplace)
		eng, err := newE4defrag(Config{Options: engineOpts(t, "e4defrag", "donorname="+donor, "inplace="+inplace), FileSize: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		e := eng.(*e4defragEng)
		fd, err := e.OpenFile(0, path, unix.O_WRONLY|unix.O_CLOEXEC)
		if err != nil {
			t.Fatal(err)
		}
		units := asyncTUnits(t, 1, 64<<10)
		u := units[0]
		u.Op, u.FD, u.Offset = OpWrite, fd, 128<<10
		if e.Queue(u) != Completed || u.Err != 0 || u.Result != 64<<10 {
			t.Fatalf("inplace=%s: write: Result %d, Err %v", inplace, u.Result, u.Err)
		}
		u.Op = OpFsync
		if e.Queue(u); u.Err != unix.EINVAL || u.ErrFn != "td_io_queue" {
			t.Errorf("inplace=%s: fsync: Err %v in %q; want EINVAL in td_io_queue", inplace, u.Err, u.ErrFn)
		}
		e.CloseFile(0, fd)
		e.Close()
		if got, _ := os.ReadFile(path); string(got) != string(data) {
			t.Errorf("inplace=%s: the file's data changed", inplace)
		}
		st, err := os.Stat(donor)
		want := int64(1 << 20)
		if inplace == "1" {
			want = 0
		}
		if err != nil || st.Size() != want {
			t.Errorf("inplace=%s: donor %v (%v), want %d bytes", inplace, st, err, want)
		}
	}
	_, err := newE4defrag(Config{Options: engineOpts(t, "e4defrag", "donorname="+filepath.Join(dir, "d"))})
	if qe, ok := err.(*QueueInitError); !ok || qe.Errno() != unix.EINVAL || qe.Msg != "fio: io engine e4defrag init failed." {
		t.Errorf("no filesize=: %v", err)
	}
}
