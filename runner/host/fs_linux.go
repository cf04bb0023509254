package host

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
)

// The file system as fio sees it before a run: which block devices are
// mounted (allow_mounted_write), and the directories a job's files need.

// MountedDevices reads a mount table and returns the device numbers of
// the block devices mounted.
func MountedDevices(table string) map[uint64]bool {
	out := map[uint64]bool{}
	fh, err := os.Open(table)
	if err != nil {
		return out
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		dev, _, _ := strings.Cut(sc.Text(), " ")
		if !strings.HasPrefix(dev, "/") {
			continue
		}
		dev = strings.ReplaceAll(dev, `\040`, " ")
		var st unix.Stat_t
		if unix.Stat(dev, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFBLK {
			out[st.Rdev] = true
		}
	}
	return out
}

// MakeParents creates the missing directories above path, mode 0700,
// as fio does before laying a file out. It tries each one from the top,
// taking one that exists (EEXIST) as made, and fails with fio's message
// naming the first it cannot make ("fio: failed to create dir (a/b):
// Not a directory").
func MakeParents(path string) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return nil
	}
	for i := 1; i <= len(dir); i++ {
		if i < len(dir) && dir[i] != '/' {
			continue
		}
		sub := dir[:i]
		if sub == "/" || strings.HasSuffix(sub, "/") {
			continue
		}
		if err := unix.Mkdir(sub, 0o700); err != nil && err != unix.EEXIST {
			return fmt.Errorf("fio: failed to create dir (%s): %s", sub, errno.Text(errno.Of(err)))
		}
	}
	return nil
}
