package runner

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/host"
)

// onJobThread runs threadStart for job j on a thread of its own, as run
// does, calls probe there, then threadEnd. The thread ends with the
// goroutine.
// The mempolicy modes of linux/mempolicy.h, as get_mempolicy(2) reports
// them.
const (
	mpolPreferred  = 1
	mpolBind       = 2
	mpolInterleave = 3
	mpolLocal      = 4
)

func onJobThread(t *testing.T, j *jobspec.Job, probe func(w *worker)) *worker {
	t.Helper()
	var errs strings.Builder
	w := &worker{job: j, ts: threadSetup{number: 1, errs: &errs}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		w.tid = unix.Gettid()
		if w.threadStart() && probe != nil {
			probe(w)
		}
		w.threadEnd()
	}()
	<-done
	if errs.Len() > 0 {
		t.Logf("%s", errs.String())
	}
	return w
}

// threadStatus returns a field of the calling thread's status file
// ("Uid", "Gid").
func threadStatus(t *testing.T, field string) string {
	b, err := os.ReadFile("/proc/thread-self/status")
	if err != nil {
		t.Error(err)
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return ""
}

// TestThreadCredentials checks that uid and gid switch the job's thread
// only, as fio's setgid and setuid switch its job process.
func TestThreadCredentials(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	var uid, gid string
	w := onJobThread(t, threadJob(t, "uid=65534", "gid=65533"), func(w *worker) {
		uid, gid = threadStatus(t, "Uid"), threadStatus(t, "Gid")
	})
	if w.err != 0 {
		t.Fatalf("job failed: %v %s", w.err, w.errFunc)
	}
	if uid != "65534 65534 65534 65534" || gid != "65533 65533 65533 65533" {
		t.Errorf("job thread: Uid %q, Gid %q; want 65534 and 65533 (real, effective, saved, fs)", uid, gid)
	}
	if os.Getuid() != 0 || os.Getgid() != 0 {
		t.Errorf("the process's ids changed: uid %d, gid %d", os.Getuid(), os.Getgid())
	}
	// A thread that is no longer root cannot become root again: fio's
	// "func=setuid" failure, with EPERM.
	w = onJobThread(t, threadJob(t, "uid=65534"), func(w *worker) {
		_, _, e := unix.RawSyscall(unix.SYS_SETUID, 0, 0, 0)
		if e != unix.EPERM {
			t.Errorf("setuid(0) after uid=65534: %v; want EPERM", e)
		}
	})
	if w.err != 0 {
		t.Errorf("job failed: %v %s", w.err, w.errFunc)
	}
}

// TestMemPolicy checks that numa_mem_policy sets the job thread's memory
// policy only.
func TestMemPolicy(t *testing.T) {
	if _, err := os.Stat("/sys/devices/system/node/node0"); err != nil {
		t.Skip("no NUMA node 0")
	}
	mempolicy := func() int {
		var mode int32
		_, _, e := unix.RawSyscall6(unix.SYS_GET_MEMPOLICY, uintptr(unsafePointer(&mode)), 0, 0, 0, 0, 0)
		if e != 0 {
			t.Skipf("get_mempolicy: %v", e)
		}
		return int(mode)
	}
	tests := []struct {
		policy string
		mode   int
	}{
		{"local", mpolLocal},
		{"bind:0", mpolBind},
		{"interleave:0", mpolInterleave},
		{"prefer:0", mpolPreferred},
		{"default", 0},
	}
	for _, tt := range tests {
		got := -1
		w := onJobThread(t, threadJob(t, "numa_mem_policy="+tt.policy, "numa_cpu_nodes=0"), func(w *worker) { got = mempolicy() })
		if w.err != 0 || got != tt.mode {
			t.Errorf("numa_mem_policy=%s: mode %d, err %v %s; want mode %d", tt.policy, got, w.err, w.errFunc, tt.mode)
		}
	}
	if m := mempolicy(); m != 0 {
		t.Errorf("the test's thread has memory policy %d", m)
	}
}

// TestCgroupMount checks how the hierarchy is found (v1 blkio first,
// else v2), and the notice without any hierarchy.
func TestCgroupMount(t *testing.T) {
	tests := []struct {
		mounts string
		blkio  string
		v2     string
		msg    string
	}{
		{"cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\ncgroup /x/blkio cgroup rw,relatime,blkio 0 0\ncgroup2 /u cgroup2 rw 0 0\n", "/x/blkio", "", ""},
		{"cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n", "", "/sys/fs/cgroup/unified", ""},
		{"proc /proc proc rw 0 0\n", "", "", "fio: cgroup blkio does not appear to be mounted\n"},
	}
	old := mountsFile
	defer func() { mountsFile = old }()
	for _, tt := range tests {
		mountsFile = filepath.Join(t.TempDir(), "mounts")
		if err := os.WriteFile(mountsFile, []byte(tt.mounts), 0o644); err != nil {
			t.Fatal(err)
		}
		blkio, v2 := host.CgroupMount(mountsFile)
		if blkio != tt.blkio || v2 != tt.v2 {
			t.Errorf("%q: %q, %q; want %q, %q", tt.mounts, blkio, v2, tt.blkio, tt.v2)
		}
		if blkio != "" || v2 != "" {
			continue // joined in TestCgroupJoin and conformance's TestCgroupV2
		}
		var errs strings.Builder
		w := &worker{job: threadJob(t, "cgroup=g"), ts: threadSetup{errs: &errs}}
		w.cgroupStart()
		if w.err != 0 || errs.String() != tt.msg {
			t.Errorf("%q: err %v, message %q; want none, %q", tt.mounts, w.err, errs.String(), tt.msg)
		}
	}
}

// TestCgroupJoin checks that a job's thread, and only it, joins its
// blkio group, leaves it after the job, and that the group gofio created
// is removed unless cgroup_nodelete.
func TestCgroupJoin(t *testing.T) {
	root, _ := host.CgroupMount(mountsFile)
	if root == "" || os.Geteuid() != 0 {
		t.Skip("needs root and a cgroup v1 blkio hierarchy")
	}
	name := "gofio-test-" + strconv.Itoa(os.Getpid())
	path := filepath.Join(root, name)
	for _, keep := range []bool{false, true} {
		var tasks string
		args := []string{"cgroup=" + name}
		if keep {
			args = append(args, "cgroup_nodelete=1")
		}
		w := onJobThread(t, threadJob(t, args...), func(w *worker) {
			b, _ := os.ReadFile(filepath.Join(path, "tasks"))
			tasks = string(b)
		})
		if w.err != 0 {
			t.Fatalf("job failed: %v %s", w.err, w.errFunc)
		}
		if tasks != strconv.Itoa(w.tid)+"\n" {
			t.Errorf("the group's tasks during the job: %q; want the job's thread %d only", tasks, w.tid)
		}
		_, err := os.Stat(path)
		if keep != (err == nil) {
			t.Errorf("cgroup_nodelete=%v: the group exists after the job: %v", keep, err == nil)
		}
	}
	if err := unix.Rmdir(path); err != nil {
		t.Error(err)
	}
	// A weight the hierarchy has no file for fails as in fio.
	w := onJobThread(t, threadJob(t, "cgroup="+name, "cgroup_weight=200"), nil)
	if _, err := os.Stat(filepath.Join(path, "blkio.weight")); err != nil && (w.err != unix.EACCES || w.errFunc != "cgroup open weight") {
		t.Errorf("cgroup_weight without blkio.weight: %v %q; want EACCES, cgroup open weight", w.err, w.errFunc)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the group is left after the job")
		unix.Rmdir(path)
	}
}

func unsafePointer(p *int32) unsafe.Pointer { return unsafe.Pointer(p) }
