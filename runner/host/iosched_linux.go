package host

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gofio/gofio/internal/errno"
	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/runner/diskutil"
)

// schedulerFile returns the sysfs file that selects the I/O scheduler of
// the disk holding path (<sysRoot>/block/DISK/queue/scheduler; a
// partition's disk), or "" when path is on no block device (tmpfs).
func schedulerFile(sysRoot, path string) string {
	dir := diskutil.DiskDir(sysRoot, path)
	if dir == "" {
		return ""
	}
	p := filepath.Join(dir, "queue", "scheduler")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// SwitchIOScheduler selects the I/O scheduler name (ioscheduler) on the
// disks of paths, as fio does from the job's thread: it writes the name
// to each disk's queue/scheduler and reads the file back. It returns the
// errno and fio's func= name of a failure: "fopen iosched" when the file
// cannot be opened (not root), "iosched_switch" when the kernel refuses
// the name (fio then prints "fio: unable to set io scheduler to NAME" on
// stderr, written to errs).
func SwitchIOScheduler(sysRoot, name string, paths []string, errs io.Writer) (unix.Errno, string) {
	done := map[string]bool{}
	for _, p := range paths {
		file := schedulerFile(sysRoot, p)
		if file == "" || done[file] {
			continue
		}
		done[file] = true
		fd, err := unix.Open(file, unix.O_RDWR|unix.O_CLOEXEC, 0)
		if err != nil {
			return errno.Of(err), "fopen iosched"
		}
		_, err = unix.Write(fd, []byte(name))
		if err != nil {
			unix.Close(fd)
			fmt.Fprintf(errs, "fio: unable to set io scheduler to %s\n", name)
			return errno.Of(err), "iosched_switch"
		}
		var buf [4096]byte
		n, _ := unix.Pread(fd, buf[:], 0)
		unix.Close(fd)
		got := strings.TrimSpace(string(buf[:max(n, 0)]))
		if !strings.Contains(got, "["+name+"]") {
			fmt.Fprintf(errs, "gofio: %s does not select %s after writing it: %q\n", file, name, got)
			return unix.EINVAL, "iosched_switch"
		}
	}
	return 0, ""
}
