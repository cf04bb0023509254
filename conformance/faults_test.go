package conformance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Issue 11's fault injection on the data path: a full file system
// (ENOSPC), a device that fails reads (EIO), files and directories that
// change under a running job, --readonly with every writing rw= mode and
// a report that cannot be written. Each case runs fio 3.33 and gofio on
// the same job and compares exit status, the error lines, the normal
// report's skeleton (or the JSON's error counts) and the files left.
// Cases that mount a tmpfs or set up a loop device need root and skip
// without it.

// requireRoot skips t when the process is not root.
func requireRoot(t *testing.T, what string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("needs root to %s", what)
	}
}

// mountTmpfs mounts a tmpfs of size (mount's size= syntax) on dir and
// unmounts it when t ends.
func mountTmpfs(t *testing.T, dir, size string) {
	t.Helper()
	requireRoot(t, "mount a tmpfs")
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
}

// loopOver attaches a loop device to the file back and returns its path;
// it is detached when t ends.
func loopOver(t *testing.T, back string) string {
	t.Helper()
	requireRoot(t, "set up a loop device")
	out, err := exec.Command("losetup", "-f", "--show", back).CombinedOutput()
	if err != nil {
		t.Skipf("cannot set up a loop device here: %v: %s", err, out)
	}
	dev := strings.TrimSpace(string(out))
	t.Cleanup(func() {
		if out, err := exec.Command("losetup", "-d", dev).CombinedOutput(); err != nil {
			t.Errorf("losetup -d %s: %v: %s", dev, err, out)
		}
	})
	return dev
}

// fillFile writes n bytes of a pattern seeded by seed to path.
func fillFile(t *testing.T, path string, n int, seed byte) {
	t.Helper()
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i*31) ^ seed
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// midRun is an action taken while a job runs: when ready(dir) holds
// (polled every 2 ms, for at most 60 s), act(dir) runs once.
type midRun struct {
	ready func(pid int, dir string) bool
	act   func(dir string) error
}

// dirVars holds, per run directory, words to replace in the arguments
// ("{DEV}": the run's loop device), set by the cases' setup.
var dirVars sync.Map // dir -> map[string]string

// setVar makes word stand for value in the arguments of dir's run.
func setVar(dir, word, value string) {
	m, _ := dirVars.LoadOrStore(dir, map[string]string{})
	m.(map[string]string)[word] = value
}

// expand replaces {DIR} and dir's words in args.
func expand(dir string, args []string) []string {
	a := make([]string, len(args))
	for i, s := range args {
		s = strings.ReplaceAll(s, "{DIR}", dir)
		if m, ok := dirVars.Load(dir); ok {
			for k, v := range m.(map[string]string) {
				s = strings.ReplaceAll(s, k, v)
			}
		}
		a[i] = s
	}
	return a
}

// actedAt holds, per run directory, when the mid-run action was taken
// (time since the program started), for the failure messages.
var actedAt sync.Map

// runWatched runs bin in dir as runIn does and, while it runs, waits for
// m.ready and then takes m.act. It returns the result and an error when
// the program ended before it was ready or the action failed.
func runWatched(bin, dir string, args []string, m *midRun) (result, error) {
	a := expand(dir, args)
	if m == nil {
		return runIn(bin, dir, a), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, a...)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Start(); err != nil {
		return result{rc: -1, stderr: err.Error(), dir: dir}, err
	}
	started := time.Now()
	done := make(chan struct{})
	acted := make(chan error, 1)
	go func() {
		deadline := time.Now().Add(time.Minute)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				acted <- errors.New("the program ended before the action's condition held")
				return
			case <-tick.C:
			}
			if m.ready(cmd.Process.Pid, dir) {
				err := m.act(dir)
				actedAt.Store(dir, time.Since(started))
				acted <- err
				return
			}
			if time.Now().After(deadline) {
				acted <- errors.New("the action's condition did not hold within a minute")
				return
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	actErr := <-acted
	r := result{stdout: so.String(), stderr: se.String(), dir: dir}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.rc = ee.ExitCode()
	default:
		r.rc = -1
		r.stderr += "\n<could not run: " + err.Error() + ">"
	}
	return r, actErr
}

// descendants returns pid and the pids of its descendants.
func descendants(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	parent := map[int][]int{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and ')'.
		s := string(st)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		parent[pp] = append(parent[pp], p)
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, parent[out[i]]...)
	}
	return out
}

// fdPastOffset reports whether pid or one of its descendants holds a
// file whose name matches name (filepath.Match against the link's
// target) open at a file position of at least off: a job on the sync
// engine (lseek, then read/write) has moved that far into it.
func fdPastOffset(pid int, name string, off int64) bool {
	for _, p := range descendants(pid) {
		dir := fmt.Sprintf("/proc/%d/fd", p)
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			target, err := os.Readlink(filepath.Join(dir, fd.Name()))
			if err != nil {
				continue
			}
			if ok, _ := filepath.Match(name, target); !ok {
				continue
			}
			info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%s", p, fd.Name()))
			if err != nil {
				continue
			}
			for _, l := range strings.Split(string(info), "\n") {
				if v, ok := strings.CutPrefix(l, "pos:"); ok {
					if pos, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && pos >= off {
						return true
					}
				}
			}
		}
	}
	return false
}

// past returns a ready condition: the job has moved off bytes into the
// file rel (a pattern, relative to the run's directory).
func past(rel string, off int64) func(pid int, dir string) bool {
	return func(pid int, dir string) bool {
		name := filepath.Join(dir, rel)
		if real, err := filepath.EvalSymlinks(name); err == nil {
			name = real // a link to a loop device
		}
		return fdPastOffset(pid, name, off)
	}
}

// faultCase is one fault-injection job.
type faultCase struct {
	name string
	args string
	// setup prepares a run's directory (before either program starts).
	setup func(t *testing.T, dir string)
	mid   *midRun
	// sizes: compare the files' sizes too (not only their names).
	sizes bool
	// random: the offsets in error lines are drawn (fio's and gofio's
	// random sequences differ) or depend on when a mid-run action
	// landed, so they are masked.
	random bool
}

// faultRun is one format's run of a fault case: fio and gofio side by
// side, each in a fresh directory prepared by the case's setup.
type faultRun struct {
	c      faultCase
	gofio  string
	args   []string
	dirs   [2]string
	res    [2]result
	files  [2][]string
	errs   [2]error
	format string
}

// prepareFault makes the run's directories and prepares them with
// c.setup; it runs on t's goroutine (a setup may skip or fail t).
func prepareFault(t *testing.T, c faultCase, format string) *faultRun {
	t.Helper()
	base := t.TempDir()
	r := &faultRun{c: c, gofio: requireGofio(t), format: format,
		args: append(args(c.args), "--output-format="+format),
		dirs: [2]string{filepath.Join(base, "fio"), filepath.Join(base, "gofio")}}
	for _, d := range r.dirs {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if c.setup != nil {
			c.setup(t, d)
		}
	}
	return r
}

// start runs both programs, each on a goroutine of its own, and adds them
// to wg.
func (r *faultRun) start(wg *sync.WaitGroup) {
	for i, bin := range []string{fioPath, r.gofio} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.res[i], r.errs[i] = runWatched(bin, r.dirs[i], r.args, r.c.mid)
			r.files[i] = tree(r.dirs[i])
		}()
	}
}

// results logs the run and returns both results with the files left; it
// fails t when a mid-run action could not be taken.
func (r *faultRun) results(t *testing.T) (fr, gr result, ff, gf []string) {
	t.Helper()
	t.Logf("args: %q", r.args)
	for i, who := range []string{"fio", "gofio"} {
		if d, ok := actedAt.Load(r.dirs[i]); ok {
			t.Logf("%s: acted %v after the start", who, d)
		}
	}
	for i, who := range []string{"fio", "gofio"} {
		if r.errs[i] != nil {
			t.Fatalf("%s, %s: %v (status %d)\nstdout:\n%s\nstderr:\n%s", r.format, who, r.errs[i], r.res[i].rc, head(r.res[i].stdout), head(r.res[i].stderr))
		}
	}
	return r.res[0], r.res[1], r.files[0], r.files[1]
}

// loopName masks loop device numbers (each program gets its own device).
var loopName = regexp.MustCompile(`loop\d+`)

// maskFault masks what differs between fio's and gofio's stderr: pids,
// fio's source locations, loop device numbers.
func maskFault(s string) []string {
	s = loopName.ReplaceAllString(s, "loopN")
	s = regexp.MustCompile(`pid=\d+`).ReplaceAllString(s, "pid=N")
	s = regexp.MustCompile(`file:[a-z_./]+(:\d+)?`).ReplaceAllString(s, "file:runner")
	return lines(s)
}

// names drops the sizes and modes of tree's entries.
func names(files []string) []string {
	var out []string
	for _, f := range files {
		out = append(out, strings.Fields(f)[0])
	}
	return out
}

// compareFault compares one case's runs; see the file comment.
func compareFault(t *testing.T, c faultCase, format string, fr, gr result, ff, gf []string) {
	t.Helper()
	if strings.Contains(gr.stderr, "panic:") || strings.Contains(gr.stderr, "goroutine ") {
		t.Fatalf("gofio panicked:\n%s", head(gr.stderr))
	}
	if fr.rc != gr.rc {
		t.Errorf("exit status: fio %d, gofio %d\nfio stderr:\n%s\ngofio stderr:\n%s", fr.rc, gr.rc, head(fr.stderr), head(gr.stderr))
	}
	if !c.sizes {
		ff, gf = names(ff), names(gf)
	}
	if c.random || c.mid != nil {
		off := regexp.MustCompile(`offset=\d+`)
		for _, r := range []*result{&fr, &gr} {
			r.stdout = off.ReplaceAllString(r.stdout, "offset=N")
			r.stderr = off.ReplaceAllString(r.stderr, "offset=N")
		}
	}
	if diff := cmp.Diff(ff, gf); diff != "" {
		t.Errorf("files left (-fio +gofio):\n%s", diff)
	}
	switch format {
	case "normal":
		// Sorted: I/Os in flight together fail in the kernel's order.
		fe, ge := maskFault(fr.stderr), maskFault(gr.stderr)
		slices.Sort(fe)
		slices.Sort(ge)
		if diff := cmp.Diff(fe, ge); diff != "" {
			t.Errorf("stderr (-fio +gofio):\n%s", diff)
		}
		fo := strings.Join(maskFault(fr.stdout), "\n")
		gout := strings.Join(maskFault(gr.stdout), "\n")
		fs, gs := DropSampleLines(MaskNormal(fo)), DropSampleLines(MaskNormal(gout))
		fs, gs = maskErrFile(fs), maskErrFile(gs)
		if diff := cmp.Diff(fs, gs); diff != "" {
			t.Errorf("normal report skeleton (-fio +gofio):\n%s\nfio stdout:\n%s\ngofio stdout:\n%s", diff, head(fr.stdout), head(gr.stdout))
		}
	case "json":
		// fio prints a job's error line on stdout before the JSON,
		// gofio on stderr (docs/compat.md): errLines merges both.
		fe, ge := errLines(result{stdout: loopName.ReplaceAllString(fr.stdout, "loopN"), stderr: loopName.ReplaceAllString(fr.stderr, "loopN")}),
			errLines(result{stdout: loopName.ReplaceAllString(gr.stdout, "loopN"), stderr: loopName.ReplaceAllString(gr.stderr, "loopN")})
		if diff := cmp.Diff(fe, ge); diff != "" {
			t.Errorf("messages (-fio +gofio):\n%s", diff)
		}
		if !strings.Contains(fr.stdout, "{\n") {
			if strings.Contains(gr.stdout, "{\n") {
				t.Errorf("fio printed no JSON, gofio did:\n%s", head(gr.stdout))
			}
			return
		}
		if _, err := ParseJSON([]byte(gr.stdout)); err != nil {
			t.Errorf("gofio's stdout is not one JSON document: %v\n%s", err, head(gr.stdout))
		}
		fj, gj := jsonOf(t, "fio", fr), jsonOf(t, "gofio", gr)
		if diff := cmp.Diff(errorCounts(fj), errorCounts(gj)); diff != "" {
			t.Errorf("JSON error counts (-fio +gofio):\n%s", diff)
		}
	}
}

// runFaultCases runs every case in the normal and JSON formats. The
// cases run in parallel (each in directories of its own), and a case's
// two formats side by side: four programs, most of their time spent
// waiting on a rate, a file system or a device (make test's time).
func runFaultCases(t *testing.T, cases []faultCase) {
	requireFio(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var runs []*faultRun
			for _, format := range []string{"normal", "json"} {
				runs = append(runs, prepareFault(t, c, format))
			}
			var wg sync.WaitGroup
			for _, r := range runs {
				r.start(&wg)
			}
			wg.Wait()
			for _, r := range runs {
				fr, gr, ff, gf := r.results(t)
				compareFault(t, c, r.format, fr, gr, ff, gf)
			}
		})
	}
}

// A write job larger than its file system fails with ENOSPC where the
// file system fills up (a 4 MiB tmpfs, 8 MiB to write).
func TestFaultENOSPC(t *testing.T) {
	small := func(t *testing.T, dir string) { mountTmpfs(t, dir, "4m") }
	w := "--name=w --filename=f --bs=4k --size=8m "
	cases := []faultCase{
		{name: "psync write", args: w + "--rw=write", setup: small, sizes: true},
		{name: "psync randwrite", args: w + "--rw=randwrite", setup: small, random: true},
		{name: "sync write", args: w + "--rw=write --ioengine=sync", setup: small, sizes: true},
		{name: "libaio write", args: w + "--rw=write --ioengine=libaio --iodepth=8", setup: small, sizes: true},
		{name: "io_uring write", args: w + "--rw=write --ioengine=io_uring --iodepth=8", setup: small, sizes: true},
		{name: "mmap write", args: w + "--rw=write --ioengine=mmap", setup: small, sizes: true},
		{name: "create_on_open", args: w + "--rw=write --create_on_open=1", setup: small, sizes: true},
		{name: "fallocate none", args: w + "--rw=write --fallocate=none", setup: small, sizes: true},
		{name: "fallocate posix", args: w + "--rw=write --fallocate=posix", setup: small, sizes: true},
		{name: "end_fsync", args: w + "--rw=write --end_fsync=1", setup: small, sizes: true},
		{name: "verify", args: w + "--rw=write --verify=crc32c", setup: small, sizes: true},
		{name: "two jobs", args: "--name=w --bs=4k --size=4m --rw=write --numjobs=2 --group_reporting", setup: small},
		{name: "two jobs, one file", args: w + "--rw=write --numjobs=2 --group_reporting", setup: small, sizes: true},
		{name: "two files", args: "--name=w --nrfiles=2 --bs=4k --size=8m --rw=write", setup: small, sizes: true},
		{name: "continue_on_error", args: w + "--rw=write --continue_on_error=all", setup: small, sizes: true},
		{name: "ignore ENOSPC", args: w + "--rw=write --ignore_error=,ENOSPC", setup: small, sizes: true},
		{name: "rw", args: w + "--rw=rw", setup: small},
		{name: "fill_device", args: "--name=w --filename=f --bs=4k --rw=write --fill_device=1", setup: small, sizes: true},
		{name: "fill_fs libaio", args: "--name=w --filename=f --bs=4k --rw=write --fill_fs=1 --ioengine=libaio --iodepth=8", setup: small, sizes: true},
		{name: "fill_device with size", args: w + "--rw=write --fill_device=1", setup: small, sizes: true},
		{name: "directory", args: "--name=w --directory=. --nrfiles=3 --bs=4k --size=6m --rw=write", setup: small, sizes: true},
	}
	runFaultCases(t, cases)
}

// A loop device over a file that was truncated to nothing fails every
// read with EIO (the loop driver ends a read past its backing file's end
// with an I/O error); truncating it while a job reads fails the reads
// from then on.
func TestFaultEIO(t *testing.T) {
	gone := func(t *testing.T, dir string) {
		back := filepath.Join(t.TempDir(), "back")
		fillFile(t, back, 1<<20, 1)
		setVar(dir, "{DEV}", loopOver(t, back))
		if err := os.Truncate(back, 0); err != nil {
			t.Fatal(err)
		}
	}
	r := "--name=r --filename={DEV} --bs=4k --size=1m "
	cases := []faultCase{
		{name: "psync read", args: r + "--rw=read", setup: gone},
		{name: "direct read", args: r + "--rw=read --direct=1", setup: gone},
		{name: "randread", args: r + "--rw=randread --direct=1", setup: gone, random: true},
		{name: "libaio read", args: r + "--rw=read --direct=1 --ioengine=libaio --iodepth=4", setup: gone},
		{name: "io_uring read", args: r + "--rw=read --direct=1 --ioengine=io_uring --iodepth=4", setup: gone},
		{name: "continue_on_error", args: r + "--rw=read --direct=1 --continue_on_error=read --size=64k", setup: gone},
		{name: "continue_on_error libaio", args: r + "--rw=read --direct=1 --continue_on_error=read --size=64k --ioengine=libaio --iodepth=4", setup: gone},
		{name: "ignore_error EIO", args: r + "--rw=read --direct=1 --ignore_error=EIO --size=64k", setup: gone},
		{name: "verify", args: r + "--rw=read --direct=1 --verify=crc32c --do_verify=1", setup: gone},
	}
	// A device node whose driver is absent (block major 240, reserved
	// for local use): opening it fails with ENXIO.
	nodev := func(t *testing.T, dir string) {
		requireRoot(t, "make a device node")
		if out, err := exec.Command("mknod", filepath.Join(dir, "nodev"), "b", "240", "0").CombinedOutput(); err != nil {
			t.Skipf("mknod: %v: %s", err, out)
		}
	}
	cases = append(cases,
		faultCase{name: "device without driver", args: "--name=r --filename=nodev --bs=4k --size=64k --rw=read", setup: nodev},
		faultCase{name: "device without driver, write", args: "--name=r --filename=nodev --bs=4k --size=64k --rw=write", setup: nodev},
	)
	// Mid-run: the backing file is truncated once the job has read 64 KiB.
	var mu sync.Mutex
	backs := map[string]string{} // run directory -> backing file
	mid := &midRun{
		ready: func(pid int, dir string) bool {
			m, _ := dirVars.Load(dir)
			return fdPastOffset(pid, m.(map[string]string)["{DEV}"], 64<<10)
		},
		act: func(dir string) error {
			mu.Lock()
			back := backs[dir]
			mu.Unlock()
			return os.Truncate(back, 0)
		},
	}
	attach := func(t *testing.T, dir string) {
		back := filepath.Join(t.TempDir(), "back")
		fillFile(t, back, 1<<20, 1)
		dev := loopOver(t, back)
		setVar(dir, "{DEV}", dev)
		mu.Lock()
		backs[dir] = back
		mu.Unlock()
	}
	// Reads completed by the loop device (first field of its sysfs
	// stat, which counts from the device's earlier uses too): the async
	// engines do not move a file position.
	devReads := func(dir string) int {
		m, _ := dirVars.Load(dir)
		dev := filepath.Base(m.(map[string]string)["{DEV}"])
		st, err := os.ReadFile("/sys/block/" + dev + "/stat")
		if err != nil {
			return -1
		}
		n, err := strconv.Atoi(strings.Fields(string(st))[0])
		if err != nil {
			return -1
		}
		return n
	}
	base := map[string]int{} // run directory -> reads before the run
	attachCounted := func(t *testing.T, dir string) {
		attach(t, dir)
		n := devReads(dir)
		if n < 0 {
			t.Skip("no /sys/block stat for the loop device")
		}
		mu.Lock()
		base[dir] = n
		mu.Unlock()
	}
	readSome := func(pid int, dir string) bool {
		mu.Lock()
		b := base[dir]
		mu.Unlock()
		return devReads(dir) >= b+16
	}
	for _, eng := range []string{"libaio", "io_uring"} {
		cases = append(cases, faultCase{
			name:  "truncated mid-run, " + eng,
			args:  r + "--rw=read --direct=1 --rate=256k --time_based --runtime=4 --ioengine=" + eng,
			setup: attachCounted, mid: &midRun{ready: readSome, act: mid.act}, random: true,
		})
	}
	cases = append(cases, faultCase{
		name:  "truncated mid-run",
		args:  r + "--rw=read --direct=1 --ioengine=sync --rate=256k --time_based --runtime=4",
		setup: attach, mid: mid, random: true,
	})
	runFaultCases(t, cases)
}

// Files and directories that change under a running job: each job reads
// or writes at 256 KiB/s for 3 s through the sync engine, and the change
// is made once it has moved 32 KiB into its file (polled, no sleeps).
// fio keeps its open descriptors: a deleted or replaced file goes on
// being read or written; a truncated one fails a job's next read (err=5,
// "full resid") but not its writes; a job that opens its next file (two
// files, openfiles=1, one after the other) fails to once their directory
// is gone.
func TestFaultMidRun(t *testing.T) {
	one := func(t *testing.T, dir string) {
		if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
			t.Fatal(err)
		}
		fillFile(t, filepath.Join(dir, "d", "f"), 1<<20, 1)
	}
	two := func(t *testing.T, dir string) {
		if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
			t.Fatal(err)
		}
		fillFile(t, filepath.Join(dir, "d", "r.0.0"), 256<<10, 1)
		fillFile(t, filepath.Join(dir, "d", "r.0.1"), 256<<10, 2)
	}
	in := func(rel string) func(pid int, dir string) bool { return past(rel, 32<<10) }
	truncate := func(dir string) error { return os.Truncate(filepath.Join(dir, "d", "f"), 0) }
	remove := func(dir string) error { return os.Remove(filepath.Join(dir, "d", "f")) }
	replace := func(dir string) error {
		n := filepath.Join(dir, "d", "f.new")
		if err := os.WriteFile(n, make([]byte, 1<<20), 0o644); err != nil {
			return err
		}
		return os.Rename(n, filepath.Join(dir, "d", "f"))
	}
	rmdir := func(dir string) error { return os.RemoveAll(filepath.Join(dir, "d")) }
	job := "--name=r --bs=4k --ioengine=sync --rate=256k --time_based --runtime=2 "
	f := job + "--filename=d/f "
	// Size-based: gofio's time_based jobs over several files with
	// openfiles=1 wrap around the first file instead of moving on.
	// 256k per file: the first stays open past 32k for 0.875 s, time
	// enough for the poller on a loaded machine.
	next := "--name=r --bs=4k --ioengine=sync --rate=256k --directory=d --nrfiles=2 --filesize=256k --openfiles=1 --file_service_type=sequential "
	cases := []faultCase{
		{name: "read, file truncated", args: f + "--rw=read", setup: one, mid: &midRun{in("d/f"), truncate}},
		{name: "read, file deleted", args: f + "--rw=read", setup: one, mid: &midRun{in("d/f"), remove}},
		{name: "read, file replaced", args: f + "--rw=read", setup: one, mid: &midRun{in("d/f"), replace}, sizes: true},
		{name: "read, directory removed", args: f + "--rw=read", setup: one, mid: &midRun{in("d/f"), rmdir}},
		{name: "write, file truncated", args: f + "--rw=write", setup: one, mid: &midRun{in("d/f"), truncate}},
		{name: "write, file deleted", args: f + "--rw=write", setup: one, mid: &midRun{in("d/f"), remove}},
		{name: "write, file replaced", args: f + "--rw=write", setup: one, mid: &midRun{in("d/f"), replace}, sizes: true},
		{name: "write, directory removed", args: f + "--rw=write", setup: one, mid: &midRun{in("d/f"), rmdir}},
		{name: "write, directory removed, unlink=1", args: f + "--rw=write --unlink=1", setup: one, mid: &midRun{in("d/f"), rmdir}},
		{name: "randrw, file truncated", args: f + "--rw=randrw", setup: one, mid: &midRun{in("d/f"), truncate}, random: true},
		{name: "next file's open, reads", args: next + "--rw=read",
			setup: two, mid: &midRun{in("d/r.0.0"), rmdir}},
		{name: "next file's open, writes", args: next + "--rw=write",
			setup: two, mid: &midRun{in("d/r.0.0"), rmdir}},
	}
	runFaultCases(t, cases)
}

// --readonly with every rw= mode that writes or trims, given before the
// job (fio refuses the option while parsing) or after it (fio refuses
// the job), and from a job file: fio's messages on both streams, its
// exit status, and the existing file byte for byte as it was, for fio
// and for gofio.
func TestFaultReadOnlyModes(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	modes := []string{"write", "randwrite", "rw", "randrw", "trim", "randtrim", "trimwrite", "readwrite"}
	for _, mode := range modes {
		job := "--name=a --filename=data --size=64k --bs=4k --rw=" + mode
		for _, c := range []struct{ name, args string }{
			{"before", "--readonly " + job},
			{"after", job + " --readonly"},
			{"job file", "--readonly job.fio"},
		} {
			t.Run(mode+" "+c.name, func(t *testing.T) {
				t.Parallel() // each run in a directory of its own
				var res [2]result
				var sums [2][2][32]byte // program, before/after
				var files [2][]string
				for i, bin := range []string{fioPath, gofio} {
					dir := t.TempDir()
					fillFile(t, filepath.Join(dir, "data"), 64<<10, byte(i+7))
					jf := "[a]\nfilename=data\nsize=64k\nbs=4k\nrw=" + mode + "\n"
					if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(jf), 0o644); err != nil {
						t.Fatal(err)
					}
					before, _ := os.ReadFile(filepath.Join(dir, "data"))
					res[i] = runIn(bin, dir, args(c.args))
					after, err := os.ReadFile(filepath.Join(dir, "data"))
					if err != nil {
						t.Fatal(err)
					}
					sums[i] = [2][32]byte{sha256.Sum256(before), sha256.Sum256(after)}
					files[i] = tree(dir)
				}
				fr, gr := res[0], res[1]
				if fr.rc != gr.rc || fr.rc == 0 {
					t.Errorf("exit status: fio %d, gofio %d (want fio's, nonzero)", fr.rc, gr.rc)
				}
				if diff := cmp.Diff(lines(fr.stdout), lines(gr.stdout)); diff != "" {
					t.Errorf("stdout (-fio +gofio):\n%s", diff)
				}
				if diff := cmp.Diff(lines(fr.stderr), lines(gr.stderr)); diff != "" {
					t.Errorf("stderr (-fio +gofio):\n%s", diff)
				}
				for i, who := range []string{"fio", "gofio"} {
					if sums[i][0] != sums[i][1] {
						t.Errorf("%s changed the file under --readonly", who)
					}
				}
				if diff := cmp.Diff(files[0], files[1]); diff != "" {
					t.Errorf("files (-fio +gofio):\n%s", diff)
				}
			})
		}
	}
}

// A report that cannot be written (--output on a full file system, or
// one with room for a page only): fio loses what does not fit without a
// word and exits 0; gofio keeps fio's exit status and writes the same
// bytes, and says on stderr that the report was cut (docs/compat.md).
func TestFaultOutputFull(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	for _, c := range []struct {
		name   string
		free   int // bytes left on the 64 KiB tmpfs; -1: /dev/full
		format string
		job    string
	}{
		{"full, normal", 0, "normal", ""},
		{"full, json", 0, "json", ""},
		{"full, terse", 0, "terse", ""},
		{"one page left, json+", 4096, "json+", ""},
		{"/dev/full, normal", -1, "normal", ""},
		{"/dev/full, json", -1, "json", ""},
		{"/dev/full, failing job", -1, "normal", " --filename=/dev/full --rw=write"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each run in a directory (and on a tmpfs) of its own
			var res [2]result
			var sizes [2]int64
			out := "full/out"
			if c.free < 0 {
				if _, err := os.Stat("/dev/full"); err != nil {
					t.Skip("no /dev/full")
				}
				out = "/dev/full"
			}
			for i, bin := range []string{fioPath, gofio} {
				dir := t.TempDir()
				if c.free < 0 {
					res[i] = runIn(bin, dir, args("--name=a --filename=f --size=64k --output=/dev/full --output-format="+c.format+c.job))
					continue
				}
				mnt := filepath.Join(dir, "full")
				if err := os.Mkdir(mnt, 0o755); err != nil {
					t.Fatal(err)
				}
				mountTmpfs(t, mnt, "64k")
				fill := make([]byte, 64<<10-c.free)
				if err := os.WriteFile(filepath.Join(mnt, "fill"), fill, 0o644); err != nil {
					t.Fatalf("filling the tmpfs: %v", err)
				}
				res[i] = runIn(bin, dir, args("--name=a --filename=f --size=64k --output=full/out --output-format="+c.format))
				st, err := os.Stat(filepath.Join(mnt, "out"))
				if err != nil {
					t.Fatalf("%s left no report file: %v", bin, err)
				}
				sizes[i] = st.Size()
			}
			fr, gr := res[0], res[1]
			if strings.Contains(gr.stderr, "panic:") {
				t.Fatalf("gofio panicked:\n%s", gr.stderr)
			}
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
			}
			if fr.stdout != gr.stdout {
				t.Errorf("stdout: fio %q, gofio %q", fr.stdout, gr.stdout)
			}
			if sizes[0] != sizes[1] && c.format != "normal" {
				t.Errorf("report file: fio wrote %d bytes, gofio %d", sizes[0], sizes[1])
			}
			want := append(lines(fr.stderr), "gofio: writing the report: write "+out+": no space left on device")
			if diff := cmp.Diff(want, lines(gr.stderr)); diff != "" {
				t.Errorf("stderr (-fio and gofio's note +gofio):\n%s", diff)
			}
		})
	}
}

// fallocate=none leaves a written file's size alone (the job writes
// 64 KiB of a 1 MiB file: 64 KiB), fallocate=truncate sizes it; the
// other modes allocate. No fault here, but the layout code the faults
// above go through.
func TestFaultLayoutSizes(t *testing.T) {
	requireFio(t)
	for _, mode := range []string{"none", "truncate", "native", "keep", "posix"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel() // each run in a directory of its own
			a := args("--name=w --filename=f --rw=write --bs=4k --filesize=1m --io_size=64k --fallocate=" + mode)
			fr, gr, ff, gf := run2(t, a, nil)
			if fr.rc != 0 || gr.rc != 0 {
				t.Fatalf("exit status: fio %d, gofio %d\n%s", fr.rc, gr.rc, gr.stderr)
			}
			if diff := cmp.Diff(ff, gf); diff != "" {
				t.Errorf("files (-fio +gofio):\n%s", diff)
			}
			// Three jobs on one file: each lays it out again while it
			// is short (none, keep), as in fio.
			a = args("--name=w --filename=f --rw=write --bs=4k --filesize=256k --numjobs=3 --fallocate=" + mode)
			fr, gr, _, _ = run2(t, a, nil)
			laying := func(s string) []string {
				var out []string
				for _, l := range lines(s) {
					if strings.Contains(l, ": Laying out IO file") {
						out = append(out, l)
					}
				}
				return out
			}
			if diff := cmp.Diff(laying(fr.stdout), laying(gr.stdout)); diff != "" {
				t.Errorf("layout lines of three jobs on one file (-fio +gofio):\n%s", diff)
			}
		})
	}
}

// The first I/O of a job refused by the kernel: direct I/O of blocks the
// file system or device cannot take (EINVAL) prints fio's hint about
// direct I/O on the synchronous engines, none on libaio and io_uring.
// (Only the first: TestFaultEIO's "truncated mid-run" fails later reads
// of a block device with EIO, and fio gives no hint there.)
func TestFaultFirstIO(t *testing.T) {
	file := func(t *testing.T, dir string) { fillFile(t, filepath.Join(dir, "f"), 1<<20, 3) }
	dev4k := func(t *testing.T, dir string) {
		back := filepath.Join(t.TempDir(), "back")
		fillFile(t, back, 1<<20, 4)
		requireRoot(t, "set up a loop device")
		out, err := exec.Command("losetup", "-f", "--show", "-b", "4096", back).CombinedOutput()
		if err != nil {
			t.Skipf("cannot set up a loop device here: %v: %s", err, out)
		}
		dev := strings.TrimSpace(string(out))
		t.Cleanup(func() {
			if out, err := exec.Command("losetup", "-d", dev).CombinedOutput(); err != nil {
				t.Errorf("losetup -d %s: %v: %s", dev, err, out)
			}
		})
		setVar(dir, "{DEV}", dev)
	}
	odd := "--name=r --filename=f --bs=1000 --size=64k --direct=1 "
	cases := []faultCase{
		{name: "psync read", args: odd + "--rw=read", setup: file},
		{name: "sync write", args: odd + "--rw=write --ioengine=sync", setup: file},
		{name: "pvsync2 read", args: odd + "--rw=read --ioengine=pvsync2", setup: file},
		{name: "libaio read", args: odd + "--rw=read --ioengine=libaio", setup: file},
		{name: "io_uring read", args: odd + "--rw=read --ioengine=io_uring", setup: file},
		{name: "4k device, 512 B reads", args: "--name=r --filename={DEV} --bs=512 --size=64k --direct=1 --rw=read", setup: dev4k},
		{name: "4k device, 512 B writes", args: "--name=r --filename={DEV} --bs=512 --size=64k --direct=1 --rw=write", setup: dev4k},
	}
	runFaultCases(t, cases)
}

// Syncs that fail: a loop device over a sparse 4 MiB file on a 1 MiB
// tmpfs takes buffered writes into its page cache, and their writeback
// fails once the tmpfs is full, so fsync (fsync=N, end_fsync) returns
// EIO. fio's messages differ by engine: a synchronous one prints the
// io_u error line with the last write's offset, libaio fails the job in
// td_io_queue; end_fsync adds "end_fsync failed for file". (fio 3.33
// loses the error with io_uring, posixaio and mmap; gofio reports it,
// docs/compat.md.)
func TestFaultSyncEIO(t *testing.T) {
	overfull := func(t *testing.T, dir string) {
		mnt := t.TempDir()
		mountTmpfs(t, mnt, "1m")
		back := filepath.Join(mnt, "back")
		f, err := os.Create(back)
		if err != nil {
			t.Fatal(err)
		}
		err = f.Truncate(4 << 20)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		setVar(dir, "{DEV}", loopOver(t, back))
	}
	w := "--name=w --filename={DEV} --rw=write --bs=4k --size=2m --offset=1m "
	cases := []faultCase{
		{name: "end_fsync psync", args: w + "--end_fsync=1", setup: overfull},
		{name: "end_fsync sync", args: w + "--end_fsync=1 --ioengine=sync", setup: overfull},
		{name: "end_fsync libaio", args: w + "--end_fsync=1 --ioengine=libaio --iodepth=4", setup: overfull},
		{name: "end_fsync randwrite", args: w + "--end_fsync=1 --rw=randwrite", setup: overfull, random: true},
		{name: "fsync=128 psync", args: w + "--fsync=128", setup: overfull},
		{name: "fdatasync=128 psync", args: w + "--fdatasync=128", setup: overfull},
		{name: "fsync=128 libaio", args: w + "--fsync=128 --ioengine=libaio --iodepth=4", setup: overfull},
	}
	runFaultCases(t, cases)
}

// Logs on a full file system: fio writes what fits and loses the rest
// without a word; gofio does the same and says so for each log it could
// not write ("gofio: writing log ...", docs/compat.md). Neither fails
// the job.
func TestFaultLogsFull(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	for _, c := range []struct{ name, args string }{
		{"lat logs", "--write_lat_log=full/lat"},
		{"iops log, one file", "--write_iops_log=full/iops --per_job_logs=0"},
		{"bw log", "--write_bw_log=full/bw"},
		{"iolog", "--write_iolog=full/io.log"},
		{"hist log", "--write_hist_log=full/h --log_hist_msec=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each run in a directory and on a tmpfs of its own
			var res [2]result
			var files [2][]string
			for i, bin := range []string{fioPath, gofio} {
				dir := t.TempDir()
				mnt := filepath.Join(dir, "full")
				if err := os.Mkdir(mnt, 0o755); err != nil {
					t.Fatal(err)
				}
				mountTmpfs(t, mnt, "64k")
				if err := os.WriteFile(filepath.Join(mnt, "fill"), make([]byte, 64<<10), 0o644); err != nil {
					t.Fatalf("filling the tmpfs: %v", err)
				}
				res[i] = runIn(bin, dir, args("--name=a --filename=f --size=256k --rw=randwrite --output-format=json "+c.args))
				files[i] = names(tree(mnt))
			}
			fr, gr := res[0], res[1]
			if strings.Contains(gr.stderr, "panic:") {
				t.Fatalf("gofio panicked:\n%s", gr.stderr)
			}
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
			}
			if diff := cmp.Diff(errorCounts(jsonOf(t, "fio", fr)), errorCounts(jsonOf(t, "gofio", gr))); diff != "" {
				t.Errorf("job errors (-fio +gofio):\n%s", diff)
			}
			if diff := cmp.Diff(files[0], files[1]); diff != "" {
				t.Errorf("files (-fio +gofio):\n%s", diff)
			}
			ge := dropPrefixed(gr.stderr, "gofio: writing log full/")
			if diff := cmp.Diff(lines(fr.stderr), lines(ge)); diff != "" {
				t.Errorf("stderr besides gofio's notes (-fio +gofio):\n%s", diff)
			}
			for _, l := range lines(gr.stderr) {
				if strings.HasPrefix(l, "gofio: writing log ") && !strings.HasSuffix(l, ": no space left on device") {
					t.Errorf("gofio's note: %q", l)
				}
			}
		})
	}
}

// Files too small for their job: fio lays them out anew, unlinking them
// first (a new file, mode 0644: a hard link keeps the old one), and fails
// the job ("func=unlink") where that is refused: a directory, a file of
// /proc or /sys.
func TestFaultRelayout(t *testing.T) {
	small := func(t *testing.T, dir string) {
		p := filepath.Join(dir, "small")
		fillFile(t, p, 8192, 5)
		if err := os.Chmod(p, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(p, filepath.Join(dir, "small.link")); err != nil {
			t.Fatal(err)
		}
	}
	adir := func(t *testing.T, dir string) {
		if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	job := "--bs=4k --size=16k --name=a "
	cases := []faultCase{
		{name: "small file, read", args: job + "--filename=small --rw=read", setup: small, sizes: true},
		{name: "small file, write", args: job + "--filename=small --rw=write", setup: small, sizes: true},
		{name: "directory, read", args: job + "--filename=adir --rw=read", setup: adir},
		{name: "directory, write", args: job + "--filename=adir --rw=write", setup: adir},
		{name: "/proc file", args: job + "--filename=/proc/self/mem --rw=read"},
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil && os.Geteuid() == 0 {
		cases = append(cases, faultCase{name: "/sys file", args: job + "--filename=/sys/kernel/mm/transparent_hugepage/enabled --rw=write"})
	}
	runFaultCases(t, cases)
}
