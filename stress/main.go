// Command stress runs gofio's timing-sensitive checks on a loaded machine.
// It is what `make stress` runs:
//
//	go run ./stress -gofio bin/gofio [-runs 20] [-only tests|seeds]
//
// It first runs each seed command line (stress/seeds/*.txt: the fio
// command lines of the seed documents, as written) once with fio and once
// with gofio on the idle machine, then starts the load — a busy-looping
// process per CPU, a disk writer rewriting a file of bounded size, a
// bounded allocation kept resident — and, under it, runs the test
// packages (the conformance suite and the packages with the timing tests)
// and then every seed command -runs times with fio and with gofio.
//
// It reports every failed test, every run whose exit status is not the one
// fio has unloaded, every hang (a run going on 10 s past its runtime is
// killed), every run whose IOPS or bandwidth (from --output-format=json)
// is more than 2× away from the same program's unloaded run, and the peak
// RSS of each program per seed command: for fio the sum over its
// processes (fio runs one per job), polled every 10 ms through /proc. A
// command is scaled to the machine where needed (sizes, runtime, the
// buffers of numjobs × iodepth × bs) and runs in a scratch directory;
// each change is printed. The exit status is 1 on a failed test, a hang,
// a wrong exit status or a gofio peak RSS above fio's; results 2× off are
// listed but do not fail the run, since the load slows fio as much.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

func main() {
	gofio := flag.String("gofio", "bin/gofio", "gofio binary")
	fio := flag.String("fio", "fio", "fio binary")
	runs := flag.Int("runs", 20, "loaded runs of each seed command per program")
	only := flag.String("only", "", `"tests" or "seeds" to run only that part`)
	seeds := flag.String("seeds", "stress/seeds/*.txt", "glob of the documents holding the fio command lines")
	pkgs := flag.String("tests", "./conformance ./cmd/gofio ./runner/...", "test packages run under load")
	testRun := flag.String("run", "", "go test -run pattern for the test packages")
	testTimeout := flag.String("test-timeout", "30m", "go test -timeout")
	base := flag.String("dir", "", "where the scratch directories go (default: the system's temp directory)")
	maxSize := flag.String("max-size", "32M", "largest size, filesize or io_size of a seed job")
	maxRuntime := flag.Int("max-runtime", 5, "longest runtime of a seed command, seconds")
	maxBuffers := flag.String("max-buffers", "256M", "largest numjobs × iodepth × bs of a seed command (iodepth is lowered)")
	slack := flag.Duration("hang", 10*time.Second, "how long past its runtime a run is killed as hung")
	cpuHogs := flag.Int("cpu-hogs", runtime.NumCPU(), "busy-looping processes")
	diskMB := flag.Int("disk-mb", 256, "size of the disk writer's file, MiB (0: none)")
	memMB := flag.Int("mem-mb", 256, "memory held resident, MiB (0: none)")
	hogKind := flag.String("hog", "", "internal: run as a load process (cpu, disk, mem)")
	hogMB := flag.Int("hog-mb", 0, "internal: the load process's MiB")
	hogDir := flag.String("hog-dir", "", "internal: the disk writer's directory")
	flag.Parse()

	if *hogKind != "" {
		fatal(hog(*hogKind, *hogMB, *hogDir)) // returns on errors only
		return
	}
	if *runs < 1 || (*only != "" && *only != "tests" && *only != "seeds") {
		flag.Usage()
		os.Exit(2)
	}
	lim := limits{maxSize: parseNum(*maxSize, 32<<20), maxRuntime: *maxRuntime, maxBuffers: parseNum(*maxBuffers, 256<<20)}
	gofioPath, err := filepath.Abs(*gofio)
	if err != nil {
		fatal(err)
	}
	fioPath, err := exec.LookPath(*fio)
	if err != nil {
		fatal(fmt.Errorf("fio not found: install it with `apt-get install -y fio`"))
	}
	work, err := scratchDir(*base, "gofio-stress-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(work)

	var rep report
	var cmds []*seedRuns
	if *only != "tests" {
		cmds, err = seedCommands(*seeds, work, lim)
		if err != nil {
			fatal(err)
		}
		fmt.Printf("== %d seed commands, unloaded\n", len(cmds))
		for _, c := range cmds {
			c.baseline(fioPath, gofioPath, &rep)
		}
	}

	lc := loadConfig{cpuHogs: *cpuHogs, diskMB: *diskMB, memMB: *memMB, dir: work}
	l, err := startLoad(lc)
	if err != nil {
		fatal(err)
	}
	fmt.Printf("== load: %d CPU hogs, disk writer over %d MiB, %d MiB resident\n", lc.cpuHogs, lc.diskMB, lc.memMB)
	if *only != "seeds" {
		runTests(strings.Fields(*pkgs), *testRun, *testTimeout, &rep)
	}
	if *only != "tests" {
		fmt.Printf("== seed commands under load, %d runs each\n", *runs)
		for i := 1; i <= *runs; i++ {
			for _, c := range cmds {
				c.loaded(i, fioPath, gofioPath, *slack, &rep)
			}
		}
	}
	l.stop()

	if len(cmds) > 0 {
		fmt.Println("\n== seed commands: peak RSS (fio: summed over its processes) and median IOPS")
		printSeedTable(os.Stdout, cmds, &rep)
	}
	fmt.Println()
	if len(rep.farOff) > 0 {
		// Under a load both programs slow down, often by more than 2×;
		// these are listed to compare fio's and gofio's sensitivity, and
		// do not make the run fail.
		fmt.Printf("stress: %d results more than %g× away from their unloaded run\n", len(rep.farOff), farOff)
		for _, p := range rep.farOff {
			fmt.Println("  " + p)
		}
	}
	if len(rep.problems) == 0 {
		fmt.Println("stress: 0 failures, 0 hangs")
		return
	}
	fmt.Printf("stress: %d problems (failures, hangs, wrong exit statuses, RSS above fio's)\n", len(rep.problems))
	for _, p := range rep.problems {
		fmt.Println("  " + p)
	}
	os.RemoveAll(work) // os.Exit skips the deferred removal
	os.Exit(1)
}

// report collects what the runs found: problems fail the run, farOff
// results are only listed.
type report struct {
	problems []string
	farOff   []string
}

func (r *report) addFarOff(format string, args ...any) {
	p := fmt.Sprintf(format, args...)
	r.farOff = append(r.farOff, p)
	fmt.Println("FAR OFF: " + p)
}

func (r *report) add(format string, args ...any) {
	p := fmt.Sprintf(format, args...)
	r.problems = append(r.problems, p)
	fmt.Println("PROBLEM: " + p)
}

// runTests runs the test packages under the load with `go test -json` and
// reports each failed test with its output.
func runTests(pkgs []string, run, timeout string, rep *report) {
	args := []string{"test", "-count=1", "-json", "-timeout=" + timeout}
	if run != "" {
		args = append(args, "-run="+run)
	}
	args = append(args, pkgs...)
	fmt.Printf("== go %s\n", strings.Join(args, " "))
	start := time.Now()
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	sum, perr := readTestEvents(bytes.NewReader(out))
	fmt.Printf("   %d passed, %d failed, %d skipped in %v\n", sum.passed, sum.failed, sum.skipped, time.Since(start).Round(time.Second))
	if perr != nil {
		rep.add("go test: %v", perr)
	}
	for _, f := range sum.failures {
		name := f.pkg
		if f.test != "" {
			name += " " + f.test
		}
		rep.add("test failed under load: %s\n%s", name, indent(tail(f.output, 40)))
	}
	if err != nil && len(sum.failures) == 0 {
		rep.add("go test: %v", err)
	}
}

// seedRuns is one seed command and what its runs gave, per program.
type seedRuns struct {
	cmd  runCmd
	dir  string
	prog [2]progRuns // fio, gofio
}

// progRuns is one program's runs of a seed command.
type progRuns struct {
	name     string
	base     outcome
	baseM    metrics
	baseOK   bool // the unloaded run gave a report
	loadedM  []metrics
	peakRSS  uint64 // KiB, over every run
	problems int
	farOff   int // loaded results more than farOff× away from the unloaded one
}

// seedCommands reads the seed documents and prepares their commands, each
// in a scratch directory of its own under work. A command typed with en
// dashes is run as written and also with them turned into "--".
func seedCommands(glob, work string, lim limits) ([]*seedRuns, error) {
	seeds, err := loadSeeds(glob)
	if err != nil {
		return nil, err
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("no fio command lines in %s", glob)
	}
	var all []seedCmd
	for _, s := range seeds {
		all = append(all, s)
		if f, ok := fixDashes(s); ok {
			all = append(all, f)
		}
	}
	var out []*seedRuns
	for i, s := range all {
		dir := filepath.Join(work, fmt.Sprintf("seed%02d", i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		c := prepare(s, dir, lim)
		sr := &seedRuns{cmd: c, dir: dir}
		sr.prog[0].name, sr.prog[1].name = "fio", "gofio"
		fmt.Printf("%s: fio %s\n", c.name, strings.Join(c.args, " "))
		if len(c.changes) > 0 {
			fmt.Printf("   scaled: %s\n", strings.Join(c.changes, ", "))
		}
		out = append(out, sr)
	}
	return out, nil
}

// baseline runs the command once per program on the idle machine.
func (s *seedRuns) baseline(fio, gofio string, rep *report) {
	for i, bin := range []string{fio, gofio} {
		p := &s.prog[i]
		limit := time.Duration(s.cmd.runtime)*time.Second + 2*time.Minute
		o, err := runMeasured(s.dir, bin, s.cmd.args, limit)
		if err != nil {
			fatal(err)
		}
		p.base = o
		p.peakRSS = max(p.peakRSS, o.peakRSS)
		if o.hung {
			rep.add("%s %s: unloaded run hung (killed after %v)", s.cmd.name, p.name, limit)
			continue
		}
		if m, err := parseMetrics(o.stdout); err == nil {
			p.baseM, p.baseOK = m, true
		}
		fmt.Printf("   %-22s %-5s exit %d, %5.1fs, IOPS %.4g, RSS %s\n", s.cmd.name, p.name, o.status, o.wall.Seconds(), p.baseM.iops, kib(o.peakRSS))
	}
	if f, g := s.prog[0].base, s.prog[1].base; f.status != g.status {
		rep.add("%s: unloaded exit status gofio %d, fio %d\n%s", s.cmd.name, g.status, f.status, indent(tail(string(g.stderr), 10)))
	}
}

// loaded runs the command once per program under the load and judges the
// runs against fio's unloaded exit status and each program's unloaded
// IOPS and bandwidth.
func (s *seedRuns) loaded(run int, fio, gofio string, slack time.Duration, rep *report) {
	want := s.prog[0].base.status
	var line []string
	for i, bin := range []string{fio, gofio} {
		p := &s.prog[i]
		rt := time.Duration(s.cmd.runtime) * time.Second
		if rt == 0 {
			rt = p.base.wall.Round(time.Second)
		}
		o, err := runMeasured(s.dir, bin, s.cmd.args, rt+slack)
		if err != nil {
			fatal(err)
		}
		p.peakRSS = max(p.peakRSS, o.peakRSS)
		what := fmt.Sprintf("%s %s, run %d", s.cmd.name, p.name, run)
		switch {
		case o.hung:
			p.problems++
			rep.add("%s: hang: killed after %v (runtime %v + %v)", what, rt+slack, rt, slack)
			line = append(line, p.name+" HANG")
			continue
		case o.status != want:
			p.problems++
			rep.add("%s: exit status %d, fio's unloaded %d\n%s", what, o.status, want, indent(tail(string(o.stderr)+string(o.stdout), 10)))
			line = append(line, fmt.Sprintf("%s exit %d", p.name, o.status))
			continue
		}
		if o.status != 0 {
			line = append(line, fmt.Sprintf("%s exit %d as fio", p.name, o.status))
			continue
		}
		m, err := parseMetrics(o.stdout)
		if err != nil {
			p.problems++
			rep.add("%s: %v", what, err)
			continue
		}
		p.loadedM = append(p.loadedM, m)
		if p.baseOK {
			if d := judge(p.baseM, m); d != "" {
				p.farOff++
				rep.addFarOff("%s: more than %g× away from unloaded: %s", what, farOff, d)
			}
		}
		line = append(line, fmt.Sprintf("%s IOPS %.4g %.1fs", p.name, m.iops, o.wall.Seconds()))
	}
	fmt.Printf("   %2d %-22s %s\n", run, s.cmd.name, strings.Join(line, "; "))
}

// printSeedTable prints per command and program the peak RSS and the
// median IOPS unloaded and loaded, and reports a gofio peak RSS above
// fio's summed one.
func printSeedTable(w io.Writer, cmds []*seedRuns, rep *report) {
	fmt.Fprintf(w, "%-22s %12s %12s %7s %14s %14s %14s %14s %6s %6s\n", "command", "fio RSS", "gofio RSS", "ratio", "fio IOPS idle", "fio loaded", "gofio idle", "gofio loaded", "probl.", "2×off")
	for _, c := range cmds {
		f, g := &c.prog[0], &c.prog[1]
		ratio := "-"
		if f.peakRSS > 0 {
			r := float64(g.peakRSS) / float64(f.peakRSS)
			ratio = fmt.Sprintf("%.2f", r)
			if r > 1 && f.baseOK {
				rep.add("%s: gofio's peak RSS %s is above fio's %s (summed over its processes)", c.cmd.name, kib(g.peakRSS), kib(f.peakRSS))
			}
		}
		fmt.Fprintf(w, "%-22s %12s %12s %7s %14.4g %14.4g %14.4g %14.4g %6d %6d\n", c.cmd.name, kib(f.peakRSS), kib(g.peakRSS), ratio,
			f.baseM.iops, medianIOPS(f.loadedM), g.baseM.iops, medianIOPS(g.loadedM), f.problems+g.problems, f.farOff+g.farOff)
	}
}

func medianIOPS(ms []metrics) float64 {
	if len(ms) == 0 {
		return 0
	}
	v := make([]float64, len(ms))
	for i, m := range ms {
		v[i] = m.iops
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

func kib(k uint64) string { return fmt.Sprintf("%.1f MiB", float64(k)/1024) }

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "      " + strings.ReplaceAll(s, "\n", "\n      ")
}

func fatal(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "stress:", err)
		os.Exit(1)
	}
}
