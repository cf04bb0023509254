package host

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
)

// The control-group files a job's thread setup reads and writes (the
// cgroup option; runner/cgroup_linux.go moves the thread).

// CgroupMount returns, from the mount table at mounts (/proc/mounts),
// the mount point of the cgroup v1 blkio hierarchy and, when there is
// none, the cgroup v2 hierarchy's ("" if none).
func CgroupMount(mounts string) (blkio string, v2 string) {
	b, err := os.ReadFile(mounts)
	if err != nil {
		return "", ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		switch f[2] {
		case "cgroup":
			for _, o := range strings.Split(f[3], ",") {
				if o == "blkio" {
					return f[1], ""
				}
			}
		case "cgroup2":
			if v2 == "" {
				v2 = f[1]
			}
		}
	}
	return "", v2
}

// ThreadCgroup2 returns the calling thread's cgroup v2 group ("/" for
// the root), from /proc/thread-self/cgroup.
func ThreadCgroup2() (string, error) {
	b, err := os.ReadFile("/proc/thread-self/cgroup")
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(l, "0::"); ok {
			return p, nil
		}
	}
	return "", fmt.Errorf("no cgroup v2 group in /proc/thread-self/cgroup")
}

// WriteCgroupFile writes the number v to a cgroup file, as fio opens it
// (O_CREAT|O_TRUNC: a missing file in a cgroup fs is EACCES). It returns
// the errno and fio's func= name of a failure ("cgroup open weight").
func WriteCgroupFile(path string, v int, what string) (unix.Errno, string) {
	return WriteCgroupText(path, strconv.Itoa(v), what)
}

// WriteCgroupText is WriteCgroupFile for a text.
func WriteCgroupText(path, v string, what string) (unix.Errno, string) {
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o666)
	if err != nil {
		return errno.Of(err), "cgroup open " + what
	}
	defer unix.Close(fd)
	if _, err := unix.Write(fd, []byte(v)); err != nil {
		return errno.Of(err), "cgroup write " + what
	}
	return 0, ""
}
