// Command bench runs real fio and gofio alternately on the same jobs and
// prints, for each job, the median IOPS of each with their ratio, CPU time
// per I/O, p99 and p99.9 completion latency and peak RSS. It is what
// `make bench` runs.
//
//	go run ./bench -gofio bin/gofio [-rounds 5] [-runtime 3] [-only null,psync]
//
// Each round runs fio then gofio (A B A B ...), so slow drifts of a noisy
// machine hit both alike, each after a sync(2), so that none pays for the
// writeback of what the run before it wrote. Results are medians over
// the rounds; the ratio column also shows the smallest and largest
// per-round ratio.
//
// CPU time is the user + system time of the process and every child it
// waited for (fio's job processes). Peak RSS is measured through GNU time
// (/usr/bin/time -f %M) when it is installed: a process Go starts
// inherits the starting process's peak RSS in its own (Linux records the
// vfork-shared memory's high-water mark at exec), so the wait4 figure is
// only an upper bound, marked with "≤". That peak is one process's: fio's
// largest when it runs one process per job. The "mem" columns are the
// peak of the summed proportional set size (Pss) of the whole process
// tree, read every 20 ms: every job of fio counted, the memory its
// processes share counted once.
//
// The fast-device jobs (zram-*, seed002-*, seed004-*) run on a RAM-backed
// block device, where the tester's own cost shows: the bench sets up
// -zram (default /dev/zram0, which must be free: disksize 0), writes the
// region the raw-device jobs read, runs them, then makes an ext4 file
// system on it for the seed command lines, and resets the device at the
// end. They need root; without it they are skipped with a note.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// job is one benchmark: the fio arguments, run in a scratch directory.
type job struct {
	name string
	args []string
	// prepare runs once in the scratch directory before the rounds.
	prepare func(dir string) error
	// startup marks jobs measured by wall time only (--parse-only).
	startup bool
	// zram places the job on the fast device: zramRaw jobs name it in
	// their arguments ("{dev}"), zramFS jobs run in a directory of the
	// ext4 file system made on it ("{dir}" in their arguments).
	zram zramUse
}

// zramUse is how a job uses the fast device.
type zramUse int

const (
	noZram  zramUse = iota
	zramRaw         // the block device itself
	zramFS          // a file system on it
)

// sample is one run's measurements.
type sample struct {
	iops      float64
	ios       float64
	cpu       time.Duration // user + system of the whole process
	p99, p999 float64       // clat percentiles, µs
	rssKiB    int64
	rssBound  bool  // rssKiB is only an upper bound (no GNU time)
	pssKiB    int64 // peak of the summed Pss of the process tree (mem.go)
	wall      time.Duration
}

func main() {
	gofio := flag.String("gofio", "bin/gofio", "gofio binary")
	fio := flag.String("fio", "fio", "fio binary")
	rounds := flag.Int("rounds", 5, "rounds per job (each runs fio, then gofio)")
	runtimeS := flag.Int("runtime", 3, "seconds per time-based run")
	only := flag.String("only", "", "comma-separated job names to run (default all)")
	zramDev := flag.String("zram", "/dev/zram0", "the zram device of the fast-device jobs (set up and reset by the bench)")
	zramSize := flag.Int64("zram-size", 2<<30, "disksize given to the zram device, in bytes")
	profile := flag.String("profile", "", "directory for a CPU profile and per-I/O cost breakdown of one more gofio run of each job")
	flag.Parse()

	gofioPath, err := filepath.Abs(*gofio)
	if err != nil {
		fatal(err)
	}
	if _, err := exec.LookPath(*fio); err != nil {
		fatal(fmt.Errorf("fio not found: install it with `apt-get install -y fio`"))
	}
	work, err := os.MkdirTemp(".", "bench-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(work)
	work, _ = filepath.Abs(work)
	if _, err := os.Stat(gnuTime); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s not found (apt-get install -y time): peak RSS is an upper bound\n", gnuTime)
	}
	fmt.Printf("# %s, %s/%s, %d CPUs, kernel %s, %s, rounds=%d runtime=%ds\n", time.Now().Format("2006-01-02"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), kernel(), version(*fio), *rounds, *runtimeS)

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "job\tfio IOPS\tgofio IOPS\tratio (min-max)\tfio CPU/IO\tgofio CPU/IO\tCPU ratio\tfio p99/p99.9 µs\tgofio p99/p99.9 µs\tfio RSS\tgofio RSS\tfio mem\tgofio mem\t")
	var breakdowns []string
	fast := &zramDevice{path: *zramDev, size: *zramSize}
	defer fast.teardown()
	atExit = fast.teardown
	for _, j := range jobs(*runtimeS) {
		if *only != "" && !contains(strings.Split(*only, ","), j.name) {
			continue
		}
		dir := filepath.Join(work, j.name)
		if j.zram != noZram {
			if err := fast.setup(j.zram, work); err != nil {
				if !fast.noted {
					fmt.Fprintf(os.Stderr, "bench: fast-device jobs skipped: %v\n", err)
					fmt.Fprintf(tw, "zram-*, seed*\t(skipped: %v)\t\n", err)
					fast.noted = true
				}
				continue
			}
			j.args = fast.expand(j.args)
			if j.zram == zramFS {
				dir = filepath.Join(fast.mnt, j.name)
				j.args = expandDir(j.args, dir)
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fatal(err)
		}
		if j.prepare != nil {
			if err := j.prepare(dir); err != nil {
				fatal(fmt.Errorf("%s: prepare: %w", j.name, err))
			}
		}
		if j.zram == zramFS {
			// Lay the files out once, untimed, so that no round's CPU
			// time includes it.
			if err := layout(*fio, dir, j.args); err != nil {
				fatal(fmt.Errorf("%s: laying out files: %w", j.name, err))
			}
		}
		var fs, gs []sample
		for r := 0; r < *rounds; r++ {
			s, err := runOne(*fio, dir, j)
			if err != nil {
				fatal(fmt.Errorf("%s: fio: %w", j.name, err))
			}
			fs = append(fs, s)
			s, err = runOne(gofioPath, dir, j)
			if err != nil {
				fatal(fmt.Errorf("%s: gofio: %w", j.name, err))
			}
			gs = append(gs, s)
		}
		report(tw, j, fs, gs)
		if *profile != "" && !j.startup {
			if err := os.MkdirAll(*profile, 0o755); err != nil {
				fatal(err)
			}
			text, err := profileJob(gofioPath, *profile, dir, j)
			if err != nil {
				fatal(fmt.Errorf("%s: profile: %w", j.name, err))
			}
			breakdowns = append(breakdowns, text)
		}
		fmt.Fprintf(os.Stderr, "bench: %s done\n", j.name)
		os.RemoveAll(dir)
	}
	tw.Flush()
	if len(breakdowns) > 0 {
		fmt.Printf("\n# gofio's CPU per I/O by cost (one profiled run per job; profiles in %s)\n", *profile)
		for _, b := range breakdowns {
			fmt.Print(b)
		}
	}
}

// jobs lists the benchmarks (issue 6): framework overhead, page cache,
// device-bound async engines, sequential write, many jobs, start-up.
func jobs(runtime int) []job {
	rt := fmt.Sprintf("--runtime=%d", runtime)
	timed := []string{"--time_based", rt}
	cached := func(dir string) error { return makeFile(filepath.Join(dir, "data"), 256<<20) }
	list := []job{
		{name: "null", args: append([]string{"--name=null", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=1g", "--norandommap"}, timed...)},
		{name: "psync-cached", prepare: cached, args: append([]string{"--name=cached", "--filename=data", "--ioengine=psync", "--rw=randread", "--bs=4k", "--size=256m", "--invalidate=0"}, timed...)},
		{name: "libaio-qd32", prepare: cached, args: append([]string{"--name=aio", "--filename=data", "--ioengine=libaio", "--direct=1", "--iodepth=32", "--rw=randread", "--bs=4k", "--size=256m"}, timed...)},
		{name: "io_uring-qd32", prepare: cached, args: append([]string{"--name=uring", "--filename=data", "--ioengine=io_uring", "--direct=1", "--iodepth=32", "--rw=randread", "--bs=4k", "--size=256m"}, timed...)},
		{name: "psync-seqwrite", args: []string{"--name=seqw", "--filename=w", "--ioengine=psync", "--rw=write", "--bs=1m", "--size=256m", "--end_fsync=1"}},
		{name: "libaio-8x1024", args: append([]string{"--name=seed", "--ioengine=libaio", "--direct=1", "--bs=4k", "--rw=randread", "--filesize=32M", "--numjobs=8", "--iodepth=1024", "--group_reporting"}, timed...)},
		{name: "psync-64jobs", args: append([]string{"--name=many", "--ioengine=psync", "--rw=randread", "--bs=4k", "--filesize=4m", "--numjobs=64", "--invalidate=0", "--group_reporting"}, timed...)},
		{name: "parse-only", startup: true, prepare: bigJobFile, args: []string{"--parse-only", "big.fio"}},
	}
	return append(list, fastJobs(runtime)...)
}

// zramRegion is the part of the fast device the raw-device jobs use; the
// bench writes it before they run, so reads find data to decompress.
const zramRegion = 1 << 30

// fastJobs lists the fast-device jobs (issue 18): 4k random reads with
// direct=1 through io_uring (plain, registerfiles+fixedbufs,
// sqthread_poll), libaio and psync at queue depths 1, 32 and 128; 4k
// random writes through io_uring at QD32; two io_uring jobs at QD32; and
// the fio command lines of seed documents 002 and 004 as written, on a
// file system on the device, with the sizes scaled to it (filesize 10G →
// 96M for 002's eight jobs, size 512M → 64M, 4G → 256M for 004's), the
// runtime to the bench's, their en dashes typed as "--" (fio takes
// "–group_reporting" for a job file name) and 002's 1 MiB jobs at
// iodepth 32 instead of 1024 (8 jobs × 1024 × 1 MiB of buffers is more
// memory than the machine has).
func fastJobs(runtime int) []job {
	rt := fmt.Sprintf("--runtime=%d", runtime)
	raw := func(name string, args ...string) job {
		a := append([]string{"--name=" + name, "--filename={dev}", "--direct=1", "--bs=4k",
			fmt.Sprintf("--size=%d", zramRegion), "--norandommap", "--randrepeat=0", "--time_based", rt}, args...)
		return job{name: name, zram: zramRaw, args: a}
	}
	var list []job
	for _, qd := range []int{1, 32, 128} {
		d := fmt.Sprintf("--iodepth=%d", qd)
		list = append(list,
			raw(fmt.Sprintf("zram-uring-qd%d", qd), "--ioengine=io_uring", "--rw=randread", d),
			raw(fmt.Sprintf("zram-uring-reg-qd%d", qd), "--ioengine=io_uring", "--registerfiles", "--fixedbufs", "--rw=randread", d),
			raw(fmt.Sprintf("zram-uring-sqpoll-qd%d", qd), "--ioengine=io_uring", "--sqthread_poll", "--rw=randread", d),
			raw(fmt.Sprintf("zram-libaio-qd%d", qd), "--ioengine=libaio", "--rw=randread", d))
	}
	list = append(list,
		raw("zram-psync-qd1", "--ioengine=psync", "--rw=randread"),
		raw("zram-uring-randwrite-qd32", "--ioengine=io_uring", "--rw=randwrite", "--iodepth=32"),
		raw("zram-uring-2jobs-qd32", "--ioengine=io_uring", "--rw=randread", "--iodepth=32", "--numjobs=2", "--group_reporting"))
	seed := func(name, cmd string) job {
		return job{name: name, zram: zramFS, args: strings.Fields(cmd)}
	}
	const s002 = "--ioengine=libaio --directory={dir} --direct=1 --filesize=96M --end_fsync=1 --numjobs=8 --group_reporting --time_based=1 "
	list = append(list,
		seed("seed002-seq_read_bw", "--name=seq_read_bw "+s002+"--blocksize=1M --readwrite=read --iodepth=32 "+rt),
		seed("seed002-seq_write_bw", "--name=seq_write_bw "+s002+"--blocksize=1M --readwrite=write --iodepth=32 "+rt),
		seed("seed002-seq_read_iops", "--name=seq_read_iops "+s002+"--blocksize=4K --readwrite=read --iodepth=1024 "+rt),
		seed("seed002-seq_write_iops", "--name=seq_write_iops "+s002+"--blocksize=4K --readwrite=write --iodepth=1024 "+rt),
		seed("seed002-rnd_read_iops", "--name=rnd_read_iops "+s002+"--blocksize=4K --readwrite=randread --iodepth=1024 "+rt),
		seed("seed002-rnd_write_iops", "--name=rnd_write_iops "+s002+"--blocksize=4K --readwrite=randwrite --iodepth=1024 "+rt),
		seed("seed004-randread", "--name=randread --ioengine=libaio --iodepth=16 --rw=randread --bs=4k --direct=0 --size=64M --numjobs=4 "+rt+" --group_reporting"),
		seed("seed004-randwrite", "--name=randwrite --ioengine=libaio --iodepth=1 --rw=randwrite --bs=4k --direct=0 --size=64M --numjobs=2 "+rt+" --group_reporting"),
		seed("seed004-randrw", "--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=test --filename=random_read_write.fio --bs=4k --iodepth=64 --size=256M --readwrite=randrw --rwmixread=75"))
	return list
}

// runOne runs binary with the job's arguments in dir and measures it.
func runOne(binary, dir string, j job) (sample, error) {
	args := append([]string{}, j.args...)
	if !j.startup {
		args = append(args, "--output-format=json")
	}
	var rssFile string
	if _, err := os.Stat(gnuTime); err == nil {
		f, err := os.CreateTemp("", "bench-rss-")
		if err != nil {
			return sample{}, err
		}
		f.Close()
		rssFile = f.Name()
		defer os.Remove(rssFile)
		args = append([]string{"-f", "%M", "-o", rssFile, binary}, args...)
		binary = gnuTime
	}
	// Write back what the run before left dirty, so that no run pays
	// for its predecessor's writeback: on the fast device a buffered
	// writer's leftover 64 MiB took the next run's first open
	// (invalidate=1's fadvise) 100-150 ms to write back.
	syscall.Sync()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	var stdout strings.Builder
	cmd.Stdout = &stdout
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	done := make(chan struct{})
	peak := watchPSS(cmd, rssFile != "", done)
	err := cmd.Wait()
	wall := time.Since(start)
	close(done)
	pssKiB := <-peak
	if err != nil {
		return sample{}, err
	}
	out := []byte(stdout.String())
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	s := sample{
		cpu:      time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		pssKiB:   pssKiB,
		rssKiB:   ru.Maxrss,
		rssBound: true,
		wall:     wall,
	}
	if rssFile != "" {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			return sample{}, fmt.Errorf("reading peak RSS: %w", err)
		}
		if s.rssKiB, err = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err != nil {
			return sample{}, fmt.Errorf("reading peak RSS %q: %w", b, err)
		}
		s.rssBound = false
	}
	if j.startup {
		return s, nil
	}
	js, err := parseSample(out)
	if err != nil {
		return sample{}, err
	}
	s.iops, s.ios, s.p99, s.p999 = js.iops, js.ios, js.p99, js.p999
	return s, nil
}

// parseSample reads the IOPS, I/O count and clat percentiles of a run from
// its JSON report.
func parseSample(out []byte) (sample, error) {
	var s sample
	var r struct {
		Jobs []struct {
			Read struct {
				IOPS     float64 `json:"iops"`
				TotalIOs float64 `json:"total_ios"`
				Clat     struct {
					Percentile map[string]float64 `json:"percentile"`
				} `json:"clat_ns"`
			} `json:"read"`
			Write struct {
				IOPS     float64 `json:"iops"`
				TotalIOs float64 `json:"total_ios"`
				Clat     struct {
					Percentile map[string]float64 `json:"percentile"`
				} `json:"clat_ns"`
			} `json:"write"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return sample{}, fmt.Errorf("reading JSON: %w", err)
	}
	for _, jr := range r.Jobs {
		s.iops += jr.Read.IOPS + jr.Write.IOPS
		s.ios += jr.Read.TotalIOs + jr.Write.TotalIOs
		p := jr.Read.Clat.Percentile
		if jr.Write.TotalIOs > jr.Read.TotalIOs {
			p = jr.Write.Clat.Percentile
		}
		s.p99 = max(s.p99, p["99.000000"]/1000)
		s.p999 = max(s.p999, p["99.900000"]/1000)
	}
	return s, nil
}

// report prints one job's line.
func report(w io.Writer, j job, fs, gs []sample) {
	if j.startup {
		fw := median(fs, func(s sample) float64 { return float64(s.wall.Microseconds()) / 1000 })
		gw := median(gs, func(s sample) float64 { return float64(s.wall.Microseconds()) / 1000 })
		fmt.Fprintf(w, "%s (wall ms)\t%.1f\t%.1f\t%.2f\t\t\t\t\t\t%s\t%s\t%s\t%s\t\n", j.name, fw, gw, fw/gw, kib(fs), kib(gs), pssMiB(fs), pssMiB(gs))
		return
	}
	iops := func(s sample) float64 { return s.iops }
	cpuPerIO := func(s sample) float64 {
		if s.ios == 0 {
			return 0
		}
		return float64(s.cpu.Nanoseconds()) / s.ios
	}
	var ratios []float64
	for i := range fs {
		if fs[i].iops > 0 {
			ratios = append(ratios, gs[i].iops/fs[i].iops)
		}
	}
	sort.Float64s(ratios)
	fi, gi := median(fs, iops), median(gs, iops)
	fc, gc := median(fs, cpuPerIO), median(gs, cpuPerIO)
	p99 := func(s sample) float64 { return s.p99 }
	p999 := func(s sample) float64 { return s.p999 }
	fmt.Fprintf(w, "%s\t%.0f\t%.0f\t%.2f (%.2f-%.2f)\t%.0f ns\t%.0f ns\t%.2f\t%s/%s\t%s/%s\t%s\t%s\t%s\t%s\t\n",
		j.name, fi, gi, gi/fi, ratios[0], ratios[len(ratios)-1], fc, gc, gc/fc,
		usec(median(fs, p99)), usec(median(fs, p999)), usec(median(gs, p99)), usec(median(gs, p999)),
		kib(fs), kib(gs), pssMiB(fs), pssMiB(gs))
}

// pssMiB is the median peak of the process tree's summed Pss in MiB: all
// of fio's processes (one per job), the memory they share counted once.
func pssMiB(ss []sample) string {
	m := median(ss, func(s sample) float64 { return float64(s.pssKiB) })
	if m == 0 {
		return "-" // the run ended before the first reading
	}
	return fmt.Sprintf("%.1f MiB", m/1024)
}

// usec formats a latency in µs: two decimals below 10 µs (the null
// engine's latencies are a fraction of one).
func usec(v float64) string {
	if v < 10 {
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// kib is the median peak RSS in MiB, "≤" when it is only an upper bound.
func kib(ss []sample) string {
	m := median(ss, func(s sample) float64 { return float64(s.rssKiB) }) / 1024
	if len(ss) > 0 && ss[0].rssBound {
		return fmt.Sprintf("≤%.1f MiB", m)
	}
	return fmt.Sprintf("%.1f MiB", m)
}

// gnuTime measures a child's peak RSS without the bench's own.
const gnuTime = "/usr/bin/time"

// kernel is the running kernel's release.
func kernel() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// version is what fio --version prints.
func version(fio string) string {
	out, err := exec.Command(fio, "--version").Output()
	if err != nil {
		return "fio ?"
	}
	return strings.TrimSpace(string(out))
}

func median(ss []sample, f func(sample) float64) float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	sort.Float64s(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// makeFile writes size bytes of non-zero data to path and reads it back
// so it sits in the page cache (in chunks: the bench's own memory stays
// small).
func makeFile(path string, size int) error {
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i*7 + 1)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	for n := 0; n < size; n += len(buf) {
		if _, err := f.Write(buf); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if f, err = os.Open(path); err != nil {
		return err
	}
	defer f.Close()
	for {
		if _, err := f.Read(buf); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// bigJobFile writes a job file of 2000 jobs for the start-up benchmark.
func bigJobFile(dir string) error {
	var b strings.Builder
	b.WriteString("[global]\nioengine=null\nsize=1m\nbs=4k\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "\n[job%d]\nrw=randread\nrwmixread=70\niodepth=%d\nnumjobs=1\n", i, 1+i%32)
	}
	return os.WriteFile(filepath.Join(dir, "big.fio"), []byte(b.String()), 0o644)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// atExit undoes the bench's setup when it fails.
var atExit = func() {}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	atExit()
	os.Exit(1)
}
