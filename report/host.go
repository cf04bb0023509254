package report

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// Host describes the machine a run was made on, so that a report can be
// shared as it is.
type Host struct {
	Hostname, Kernel, OS string
	CPU                  string
	CPUs                 int
	MemoryKiB            uint64
	Targets              []Target
	// Note qualifies the host, e.g. that it is where the report was made
	// rather than where the result file came from.
	Note string
}

// Target is one file or device the jobs used.
type Target struct {
	Path      string
	Device    string // block device name (sda, nvme0n1p2), "" if none
	Model     string // the disk's model
	FS        string // file system type and mount point
	Scheduler string // the disk's I/O scheduler
}

// CollectHost reads the host's description from the kernel: uname,
// /proc and /sys. targets are the files, directories or devices the jobs
// named; each is described by the block device beneath it.
func CollectHost(targets []string) Host {
	var h Host
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		h.Hostname = unix.ByteSliceToString(u.Nodename[:])
		h.Kernel = unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:]) + " " + unix.ByteSliceToString(u.Version[:]) + " " + unix.ByteSliceToString(u.Machine[:])
	}
	h.OS = osRelease()
	h.CPU = cpuModel()
	h.CPUs = runtime.NumCPU()
	h.MemoryKiB = memTotal()
	seen := map[string]bool{}
	for _, t := range targets {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		h.Targets = append(h.Targets, describe(t))
	}
	return h
}

func osRelease() string {
	b, err := os.ReadFile("/etc/os-release")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func memTotal() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	var kib uint64
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "MemTotal:") {
			fmt.Sscanf(strings.TrimPrefix(l, "MemTotal:"), "%d", &kib)
		}
	}
	return kib
}

// describe finds the block device under path (the device itself for a
// device node, else the file system's) and reads its model, file system
// and scheduler. A path that does not exist yet is described by its
// directory.
func describe(path string) Target {
	t := Target{Path: path}
	var st unix.Stat_t
	p := path
	for unix.Stat(p, &st) != nil {
		parent := filepath.Dir(p)
		if parent == p {
			return t
		}
		p = parent
	}
	dev := st.Dev
	if st.Mode&unix.S_IFMT == unix.S_IFBLK {
		dev = st.Rdev
	}
	maj, min := unix.Major(dev), unix.Minor(dev)
	sys := fmt.Sprintf("/sys/dev/block/%d:%d", maj, min)
	if real, err := filepath.EvalSymlinks(sys); err == nil {
		t.Device = filepath.Base(real)
		disk := real
		if _, err := os.Stat(filepath.Join(real, "partition")); err == nil {
			disk = filepath.Dir(real)
		}
		t.Model = readTrim(filepath.Join(disk, "device", "model"))
		if t.Model == "" {
			t.Model = readTrim(filepath.Join(disk, "device", "name"))
		}
		if s := readTrim(filepath.Join(disk, "queue", "scheduler")); s != "" {
			if i := strings.IndexByte(s, '['); i >= 0 {
				if j := strings.IndexByte(s[i:], ']'); j > 0 {
					s = s[i+1 : i+j]
				}
			}
			t.Scheduler = s
		}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFBLK {
		t.FS = mountOf(maj, min)
	}
	return t
}

// mountOf returns "TYPE on MOUNTPOINT" of the mount of device maj:min.
func mountOf(maj, min uint32) string {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	want := fmt.Sprintf("%d:%d", maj, min)
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 10 || f[2] != want {
			continue
		}
		for i := 6; i < len(f)-1; i++ {
			if f[i] == "-" {
				return f[i+1] + " on " + f[4]
			}
		}
	}
	return ""
}

func readTrim(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
