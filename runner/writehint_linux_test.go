package runner

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestWriteHint checks that write_hint sets the file's write life time
// hint (as fio 3.33 does: none 1 … extreme 5, read back with
// F_GET_RW_HINT).
func TestWriteHint(t *testing.T) {
	dir := t.TempDir()
	for i, hint := range []string{"short", "extreme"} {
		name := "h" + hint
		oc, _ := runJobs(t, dir, "name="+name, "rw=write", "size=16k", "write_hint="+hint)
		if oc.Failed != 0 {
			t.Fatalf("write_hint=%s: the job failed", hint)
		}
		f, err := os.Open(filepath.Join(dir, name+".0.0"))
		if err != nil {
			t.Fatal(err)
		}
		var v uint64
		_, _, e := unix.Syscall(unix.SYS_FCNTL, f.Fd(), unix.F_SET_RW_HINT-1, uintptr(unsafe.Pointer(&v)))
		f.Close()
		if e != 0 {
			t.Skipf("F_GET_RW_HINT: %v", e)
		}
		if want := []uint64{2, 5}[i]; v != want {
			t.Errorf("write_hint=%s: the file's hint is %d; want %d", hint, v, want)
		}
	}
}
