package runner

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// threadState is what a job's thread looks like after threadStart.
type threadState struct {
	run    bool
	err    unix.Errno
	fn     string
	cpus   []int
	nice   int
	ioprio int
}

// startThread runs threadStart for job j (the number-th of its run) on a
// thread of its own, as run does, and reads the thread's settings. The
// thread ends with the goroutine.
func startThread(t *testing.T, j *jobspec.Job, number int) threadState {
	t.Helper()
	ch := make(chan threadState)
	go func() {
		runtime.LockOSThread()
		w := &worker{job: j, ts: threadSetup{number: number}}
		var s threadState
		s.run = w.threadStart()
		s.err, s.fn = w.err, w.errFunc
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(0, &set); err == nil {
			for c := 0; c < 1024; c++ {
				if set.IsSet(c) {
					s.cpus = append(s.cpus, c)
				}
			}
		}
		raw, _ := unix.Getpriority(unix.PRIO_PROCESS, 0)
		s.nice = 20 - raw
		prio, _, _ := unix.Syscall(unix.SYS_IOPRIO_GET, 1 /* IOPRIO_WHO_PROCESS */, 0, 0)
		s.ioprio = int(prio)
		w.threadEnd()
		ch <- s
	}()
	return <-ch
}

func ownCPUs(t *testing.T) []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Skip(err)
	}
	var cpus []int
	for c := 0; c < 1024; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}

func threadJob(t *testing.T, args ...string) *jobspec.Job {
	t.Helper()
	return planOf(t, append([]string{"name=a", "ioengine=null", "size=64k"}, args...)...).Jobs[0]
}

// TestThreadAffinity checks that a job's thread, and only it, gets the
// job's CPUs.
func TestThreadAffinity(t *testing.T) {
	all := ownCPUs(t)
	if len(all) < 2 {
		t.Skip("needs 2 CPUs")
	}
	a, b := all[0], all[1]
	cpus := strconv.Itoa(a) + "," + strconv.Itoa(b)
	tests := []struct {
		args   []string
		number int
		want   []int
		err    unix.Errno
		fn     string
	}{
		{[]string{"cpus_allowed=" + strconv.Itoa(b)}, 1, []int{b}, 0, ""},
		{[]string{"cpus_allowed=" + cpus}, 1, []int{a, b}, 0, ""},
		{[]string{"cpus_allowed=" + cpus, "cpus_allowed_policy=split"}, 1, []int{a}, 0, ""},
		{[]string{"cpus_allowed=" + cpus, "cpus_allowed_policy=split"}, 2, []int{b}, 0, ""},
		{[]string{"cpus_allowed=" + cpus, "cpus_allowed_policy=split"}, 3, []int{a}, 0, ""}, // round robin
		{[]string{"cpumask=" + strconv.Itoa(1<<b)}, 1, []int{b}, 0, ""},
		{[]string{"cpumask=0"}, 1, nil, unix.EINVAL, "cpu_set_affinity"},
		{[]string{"cpus_allowed=1-0", "cpus_allowed_policy=split"}, 1, nil, unix.EINVAL, "cpus_split"},
	}
	for _, tt := range tests {
		s := startThread(t, threadJob(t, tt.args...), tt.number)
		if s.err != tt.err || s.fn != tt.fn || s.run != (tt.err == 0) {
			t.Errorf("%q: err %v (%s), run %v; want %v (%s)", tt.args, s.err, s.fn, s.run, tt.err, tt.fn)
		}
		if tt.err == 0 && !slices.Equal(s.cpus, tt.want) {
			t.Errorf("%q (job %d): thread on CPUs %v; want %v", tt.args, tt.number, s.cpus, tt.want)
		}
	}
	if got := ownCPUs(t); !slices.Equal(got, all) {
		t.Errorf("the test's thread moved to CPUs %v (was on %v)", got, all)
	}
}

// TestThreadPriorities checks nice, prio and prioclass on the job's
// thread.
func TestThreadPriorities(t *testing.T) {
	base := startThread(t, threadJob(t), 1)
	tests := []struct {
		args   []string
		nice   int
		ioprio int
	}{
		{[]string{"nice=3"}, base.nice + 3, base.ioprio},
		{[]string{"prio=5"}, base.nice, 2<<13 | 5},    // class 0 is best effort
		{[]string{"prioclass=3"}, base.nice, 3 << 13}, // idle, level 0
		{[]string{"prioclass=2", "prio=7"}, base.nice, 2<<13 | 7},
		{[]string{"prioclass=0", "prio=1"}, base.nice, 2<<13 | 1},
	}
	for _, tt := range tests {
		s := startThread(t, threadJob(t, tt.args...), 1)
		if s.err != 0 || !s.run {
			t.Errorf("%q: failed: %v (%s)", tt.args, s.err, s.fn)
			continue
		}
		if s.nice != min(tt.nice, 19) || s.ioprio != tt.ioprio {
			t.Errorf("%q: nice %d, ioprio %#x; want %d, %#x", tt.args, s.nice, s.ioprio, tt.nice, tt.ioprio)
		}
	}
	if raw, _ := unix.Getpriority(unix.PRIO_PROCESS, 0); 20-raw != base.nice {
		t.Errorf("the test's thread has nice %d; want %d", 20-raw, base.nice)
	}
}

// TestThreadLockMem checks that lockmem maps and locks its region for the
// job's duration.
func TestThreadLockMem(t *testing.T) {
	b, err := lockMem(64 << 10)
	if err != nil {
		t.Skip(err) // RLIMIT_MEMLOCK too small here
	}
	defer unix.Munmap(b)
	if len(b) != 64<<10 {
		t.Errorf("locked %d bytes; want %d", len(b), 64<<10)
	}
	if err := unix.Munlock(b); err != nil {
		t.Error(err)
	}
	if _, err := lockMem(1 << 62); err == nil || !strings.HasPrefix(err.Error(), "malloc locked mem: ") && !strings.HasPrefix(err.Error(), "mlock: ") {
		t.Errorf("lockMem(2^62) = %v; want fio's perror line", err)
	}
	// lockmem=50% is 2^64-51 bytes to fio 3.33, which prints this.
	if _, err := lockMem(1<<64 - 51); err == nil || err.Error() != "malloc locked mem: Cannot allocate memory" {
		t.Errorf("lockMem(2^64-51) = %v; want fio's \"malloc locked mem: Cannot allocate memory\"", err)
	}
}

// TestExecPrerunPostrun runs jobs with exec_prerun and exec_postrun: the
// commands run on the job's thread (its CPUs and nice value), their last
// part writes NAME.prerun.txt, and a failing prerun leaves the job with
// nothing done, no error and no postrun.
func TestExecPrerunPostrun(t *testing.T) {
	all := ownCPUs(t)
	dir := t.TempDir()
	t.Chdir(dir)
	cpu := strconv.Itoa(all[len(all)-1])
	oc, info := runJobs(t, dir, "name=a", "ioengine=null", "size=64k", "cpus_allowed="+cpu, "nice=2",
		"exec_prerun=true; grep Cpus_allowed_list /proc/self/status", "exec_postrun=cut -d' ' -f19 /proc/self/stat")
	if oc.Failed != 0 || oc.Result.Jobs[0].Stats.Dir[0].IOBytes != 64<<10 {
		t.Fatalf("job failed or did no I/O: %+v\n%s", oc, info)
	}
	want := "a : Saving output of prerun in a.prerun.txt\na : Saving output of postrun in a.postrun.txt\n"
	if info != want {
		t.Errorf("info stream %q; want %q", info, want)
	}
	pre, _ := os.ReadFile(filepath.Join(dir, "a.prerun.txt"))
	if got := strings.Join(strings.Fields(string(pre)), " "); got != "Cpus_allowed_list: "+cpu {
		t.Errorf("a.prerun.txt = %q; want the job's CPU %s", pre, cpu)
	}
	post, _ := os.ReadFile(filepath.Join(dir, "a.postrun.txt"))
	raw, _ := unix.Getpriority(unix.PRIO_PROCESS, 0)
	if got, want := strings.TrimSpace(string(post)), strconv.Itoa(min(20-raw+2, 19)); got != want {
		t.Errorf("a.postrun.txt = %q; want the job's nice value %s", got, want)
	}

	oc, info = runJobs(t, dir, "name=b", "ioengine=null", "size=64k", "exec_prerun=exit 4", "exec_postrun=touch post")
	j := oc.Result.Jobs
	if oc.Failed != 0 || len(j) != 1 || j[0].Error != 0 || j[0].Stats.Dir[0].IOBytes != 0 {
		t.Errorf("failed prerun: %+v; want the job reported with nothing done", oc)
	}
	if info != "b : Saving output of prerun in b.prerun.txt\n" {
		t.Errorf("failed prerun: info stream %q", info)
	}
	if _, err := os.Stat(filepath.Join(dir, "post")); err == nil {
		t.Error("exec_postrun ran after a failed exec_prerun")
	}
}

// TestCreateOnlyAndFileAppend checks create_only (files laid out, no
// I/O) and file_append (writes start at the end of the file).
func TestCreateOnlyAndFileAppend(t *testing.T) {
	dir := t.TempDir()
	oc, _ := runJobs(t, dir, "name=c", "rw=write", "size=64k", "create_only=1")
	st, err := os.Stat(filepath.Join(dir, "c.0.0"))
	if err != nil || st.Size() != 64<<10 {
		t.Errorf("create_only: file %v, %v; want 64 KiB laid out", st, err)
	}
	if j := oc.Result.Jobs; oc.Failed != 0 || len(j) != 1 || j[0].Stats.Dir[1].IOBytes != 0 {
		t.Errorf("create_only: %+v; want the job reported with no I/O", oc)
	}

	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, make([]byte, 64<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	oc, _ = runJobs(t, dir, "name=f", "filename=f", "rw=write", "size=16k", "offset=8k", "file_append=1")
	if oc.Failed != 0 || oc.Result.Jobs[0].Stats.Dir[1].IOBytes != 16<<10 {
		t.Fatalf("file_append: %+v", oc)
	}
	data, _ := os.ReadFile(path)
	if len(data) != 80<<10 {
		t.Fatalf("file_append: file is %d bytes; want 80 KiB", len(data))
	}
	for i, c := range data[:64<<10] {
		if c != 0 {
			t.Fatalf("file_append: byte %d of the old contents written", i)
		}
	}
	// Clones append one after the other, each where the one before it
	// left the file.
	oc, _ = runJobs(t, dir, "name=f", "filename=f", "rw=write", "size=8k", "file_append=1", "numjobs=2")
	if st, err := os.Stat(path); oc.Failed != 0 || err != nil || st.Size() != 96<<10 {
		t.Errorf("file_append, numjobs=2: file %v, %v; want 96 KiB", st, err)
	}
}
