package conformance

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// jobRuntimes runs bin in a fresh directory with a and returns each job's
// job_runtime (ms) from the JSON report, by job name.
func jobRuntimes(t *testing.T, bin string, a []string) map[string]int {
	t.Helper()
	dir := filepath.Join(t.TempDir(), filepath.Base(bin))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := runIn(bin, dir, append(a, "--output-format=json"))
	if r.rc != 0 {
		t.Fatalf("%s: exit status %d\n%s", bin, r.rc, r.stderr)
	}
	root, err := ParseJSON([]byte(jsonPart(r.stdout)))
	if err != nil {
		t.Fatalf("%s: JSON: %v\n%s", bin, err, head(r.stdout))
	}
	out := map[string]int{}
	for _, j := range root.Get("jobs").Kids {
		ms, err := strconv.Atoi(j.Get("job_runtime").Text)
		if err != nil {
			t.Fatalf("%s: job_runtime: %v", bin, err)
		}
		out[j.Get("jobname").Text] = ms
	}
	return out
}

// TestCPUIOExitOnIODone checks that a cpuio job with exit_on_io_done ends
// when the last I/O job does (here one held back by a startdelay of 1 s),
// not at its 8 s runtime: fio 3.33 ends it after about 1 s. Tolerance: up
// to 3 s, for a loaded machine; a cpuio job alone runs its runtime in both.
func TestCPUIOExitOnIODone(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	cpu := "--name=c --ioengine=cpuio --cpuload=10 --exit_on_io_done=1 --time_based "
	io := "--name=w --ioengine=psync --filename=w --size=256k --rw=write --bs=4k --startdelay=1"
	for _, bin := range []string{fioPath, gofio} {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			t.Parallel() // fio's and gofio's runs side by side (10 % CPU each)
			rt := jobRuntimes(t, bin, args(cpu+"--runtime=8 "+io))
			if ms := rt["c"]; ms < 900 || ms > 3000 {
				t.Errorf("%s: cpuio job ran %d ms, want about 1000 (the I/O job's end)", bin, ms)
			}
			alone := jobRuntimes(t, bin, args(cpu+"--runtime=1"))
			if ms := alone["c"]; ms < 900 {
				t.Errorf("%s: cpuio job alone ran %d ms, want its runtime of 1000", bin, ms)
			}
		})
	}
}

// offloadShape lists what io_submit_mode=offload changes in a job's JSON
// report: the depths at which I/Os were issued, submitted and completed
// (the non-zero buckets) and whether the direction dir has submission and
// completion latencies.
func offloadShape(t *testing.T, bin string, a []string, dir string) []string {
	t.Helper()
	d := filepath.Join(t.TempDir(), filepath.Base(bin))
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(a, "--output-format=json")...)
	cmd.Dir = d
	// A hung fio's job process would outlive its killed parent, spinning:
	// kill the whole process group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	if ctx.Err() != nil && bin == fioPath {
		t.Skip("fio 3.33 hung with io_submit_mode=offload, as it does now and then (docs/compat.md)")
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, se.String())
	}
	root, err := ParseJSON([]byte(jsonPart(so.String())))
	if err != nil {
		t.Fatalf("%s: JSON: %v\n%s", bin, err, head(so.String()))
	}
	j := root.Get("jobs").Kids[0]
	var out []string
	for _, k := range []string{"iodepth_level", "iodepth_submit", "iodepth_complete"} {
		for _, p := range j.Get(k).Pairs() {
			if !strings.HasSuffix(p, "=0") && !strings.HasSuffix(p, "=0.0") && !strings.HasSuffix(p, "=0.000000") {
				out = append(out, k+"/"+strings.SplitN(p, "=", 2)[0])
			}
		}
	}
	for _, k := range []string{"slat_ns", "clat_ns", "lat_ns"} {
		out = append(out, fmt.Sprintf("%s/%s samples: %v", dir, k, j.Get(dir, k, "N").Text != "0"))
	}
	out = append(out, dir+"/total_ios="+j.Get(dir, "total_ios").Text)
	return out
}

// TestSubmitOffload compares io_submit_mode=offload with fio 3.33: the
// same I/O, every I/O at depth 1 whatever iodepth says, and, with an
// asynchronous engine, submission latencies. fio 3.33 hangs now and then
// with an asynchronous engine offloaded (its manual warns it "cannot
// reliably be used with async IO engines"; 2 runs in 4 here with libaio
// on a new file; and once in some runs with psync at iodepth=4), so those
// cases compare with what fio reported when it did not hang, instead of
// running it; a run of fio that hangs all the same (30 s) skips the test.
func TestSubmitOffload(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	base := "--name=o --filename=o --size=256k --bs=4k --io_submit_mode=offload "
	cases := []struct {
		name, args, dir string
		fio             []string // fio 3.33's, observed; nil: run fio
	}{
		{"psync", base + "--rw=randwrite", "write", nil},
		{"psync depth", base + "--rw=randread --iodepth=4", "read", []string{
			"iodepth_level/1", "iodepth_submit/4", "iodepth_complete/4",
			"read/slat_ns samples: false", "read/clat_ns samples: true", "read/lat_ns samples: true",
			"read/total_ios=64",
		}},
		{"libaio", base + "--rw=randread --ioengine=libaio --iodepth=4", "read", []string{
			"iodepth_level/1", "iodepth_submit/4", "iodepth_complete/4",
			"read/slat_ns samples: true", "read/clat_ns samples: true", "read/lat_ns samples: true",
			"read/total_ios=64",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := c.fio
			if f == nil {
				f = offloadShape(t, fioPath, args(c.args), c.dir)
			}
			g := offloadShape(t, gofio, args(c.args), c.dir)
			if diff := cmp.Diff(f, g); diff != "" {
				t.Errorf("offload report (-fio +gofio):\n%s", diff)
			}
		})
	}
}

// cgroupMounts returns the cgroup v1 blkio and the cgroup v2 mount
// points of /proc/mounts ("" for none).
func cgroupMounts(t *testing.T) (blkio, v2 string) {
	b, err := os.ReadFile("/proc/mounts")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 4 {
			continue
		}
		if f[2] == "cgroup" && strings.Contains(","+f[3]+",", ",blkio,") {
			blkio = f[1]
		}
		if f[2] == "cgroup2" && v2 == "" {
			v2 = f[1]
		}
	}
	return blkio, v2
}

// TestCgroupV2 compares cgroup= on a cgroup v2 hierarchy with fio 3.33:
// each program runs in a mount namespace of its own where the v1 blkio
// hierarchy, if any, is unmounted, so both use the v2 one. The job's
// exec_prerun, forked from it, shows the group the job is in; the group
// is removed after the run unless cgroup_nodelete; cgroup_weight is
// refused with fio's message and the job does nothing. Needs root.
func TestCgroupV2(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	if os.Geteuid() != 0 {
		t.Skip("cgroup v2: needs root (mount namespace, cgroup creation)")
	}
	blkio, v2 := cgroupMounts(t)
	if v2 == "" {
		t.Skip("no cgroup v2 hierarchy mounted")
	}
	name := fmt.Sprintf("gofio-cgv2-%d", os.Getpid())
	group := filepath.Join(v2, name)
	t.Cleanup(func() { os.Remove(group) })
	job := "--name=c --filename=c --size=64k --bs=4k --rw=read --cgroup=" + name + " "
	prerun := "--exec_prerun=grep 0:: /proc/self/cgroup"
	cases := []struct {
		name string
		args []string
		kept bool // the group is left after the run
	}{
		{"join", append(args(job), prerun), false},
		{"nodelete", append(args(job+"--cgroup_nodelete=1"), prerun), true},
		{"weight", args(job + "--cgroup_weight=100 --name=d --filename=d --size=64k --rw=write"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got [2][]string
			for i, bin := range []string{fioPath, gofio} {
				os.Remove(group)
				dir := filepath.Join(t.TempDir(), filepath.Base(bin))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				script := `exec "$0" "$@"`
				if blkio != "" {
					script = "umount " + blkio + " && " + script
				}
				r := runIn("unshare", dir, append([]string{"-m", "sh", "-c", script, bin}, c.args...))
				pre, _ := os.ReadFile(filepath.Join(dir, "c.prerun.txt"))
				_, err := os.Stat(group)
				got[i] = append([]string{fmt.Sprintf("exit status %d", r.rc), "group left: " + strconv.FormatBool(err == nil),
					"prerun: " + strings.TrimSpace(string(pre))}, lines(maskPid(r.stderr))...)
				got[i] = append(got[i], DropSampleLines(MaskNormal(r.stdout))...)
				if err == nil != c.kept {
					t.Errorf("%s: group left %v, want %v", bin, err == nil, c.kept)
				}
			}
			if diff := cmp.Diff(got[0], got[1]); diff != "" {
				t.Errorf("(-fio +gofio):\n%s", diff)
			}
		})
	}
}

// maskPid masks the pids of fio's error lines.
func maskPid(s string) string {
	return regexp.MustCompile(`pid=\d+`).ReplaceAllString(s, "pid=N")
}

// TestClocksourceGettimeofday checks that with clocksource=gettimeofday
// latencies are whole microseconds, as fio 3.33's are (gettimeofday's
// resolution): the min and max of clat and lat, for fio and gofio.
func TestClocksourceGettimeofday(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	a := args("--name=g --filename=g --size=256k --bs=4k --rw=randwrite --clocksource=gettimeofday --output-format=json")
	for _, bin := range []string{fioPath, gofio} {
		dir := filepath.Join(t.TempDir(), filepath.Base(bin))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		r := runIn(bin, dir, a)
		if r.rc != 0 {
			t.Fatalf("%s: exit status %d\n%s", bin, r.rc, r.stderr)
		}
		root, err := ParseJSON([]byte(jsonPart(r.stdout)))
		if err != nil {
			t.Fatalf("%s: JSON: %v", bin, err)
		}
		j := root.Get("jobs").Kids[0]
		for _, k := range []string{"clat_ns", "lat_ns"} {
			for _, m := range []string{"min", "max"} {
				v, err := strconv.ParseUint(j.Get("write", k, m).Text, 10, 64)
				if err != nil || v%1000 != 0 {
					t.Errorf("%s: write %s %s = %s; want whole microseconds", bin, k, m, j.Get("write", k, m).Text)
				}
			}
		}
	}
}

// TestGtodCPUUnpinnable compares gtod_cpu with a CPU the time-keeping
// thread cannot be pinned to (-1, fio's unsigned 4294967295, and one past
// the last CPU): fio 3.33 says "gtod: setaffinity failed" and runs the
// job, as gofio does (fio's clock then stands still, docs/compat.md; the
// I/O issued is the same). fio sometimes crashes on exit with gtod_cpu
// (SIGSEGV): such a run is retried, twice at most.
func TestGtodCPUUnpinnable(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	for _, cpu := range []string{"-1", strconv.Itoa(runtime.NumCPU())} {
		a := args("--name=g --filename=g --size=16k --bs=4k --rw=read --output-format=json --gtod_cpu=" + cpu)
		var out [2][]string
		for i, bin := range []string{fioPath, gofio} {
			var r result
			for try := 0; try < 3; try++ {
				dir := filepath.Join(t.TempDir(), filepath.Base(bin))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if r = runIn(bin, dir, a); r.rc == 0 || bin == gofio {
					break
				}
			}
			out[i] = append([]string{fmt.Sprintf("exit status %d", r.rc)}, lines(r.stderr)...)
			if root, err := ParseJSON([]byte(jsonPart(r.stdout))); err == nil {
				out[i] = append(out[i], "read/total_ios="+root.Get("jobs").Kids[0].Get("read", "total_ios").Text)
			}
		}
		if diff := cmp.Diff(out[0], out[1]); diff != "" {
			t.Errorf("gtod_cpu=%s (-fio +gofio):\n%s", cpu, diff)
		}
	}
}
