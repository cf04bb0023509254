// Command gofio is a drop-in replacement for fio 3.33: it reads fio's job
// files and command lines, runs the I/O natively in Go and prints fio's
// reports.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/runner"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/trace"
)

// version is what --version prints; scripts check its "fio-" prefix.
const version = output.FioVersion

func main() {
	stopProfile := startProfile(os.Stderr) // GOFIO_CPUPROFILE (profile.go)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stopProfile()
	os.Exit(code)
}

// settings are the effects of fio's own command-line options.
type settings struct {
	formats      formats
	terseVersion int
	outputPath   string
	parseOnly    bool
	mergeOnly    bool // --merge-blktrace-only
	readOnly     bool
	warnFatal    bool
	parse        parseSettings
	eta          etaSettings
	trigger      triggerSettings
	openJob      func(name string) (io.ReadCloser, error) // job and include files; nil: os.Open
	// deferJobLines: a failed load returns the jobs added before the
	// failure instead of printing their lines (the server prints them
	// before the error, in the one stream its client reads).
	deferJobLines bool
	auxPath       string        // --aux-path: where verify state files go
	aggLogs       bool          // --bandwidth-log (agglog.go)
	idleProf      string        // --idle-prof: system or percpu
	idle          *idleProfiler // running or done (idleprof.go)
	gofio         gofioOpts     // gofio's own run options (gofioopts.go)
}

// formats is the set of report formats selected.
type formats struct {
	normal, json, jsonPlus, terse bool
}

// openOutput returns where the report goes: --output's file, created as
// fio creates it, or stdout; closeOut closes the file. It reports false
// after printing fio's message when the file cannot be created.
func (s *settings) openOutput(stdout, stderr io.Writer) (out io.Writer, closeOut func(), ok bool) {
	if s.outputPath == "" {
		return stdout, func() {}, true
	}
	f, err := os.Create(s.outputPath)
	if err != nil {
		fmt.Fprintf(stderr, "fio: output file open error: %s\n", errText(err))
		return nil, nil, false
	}
	return f, func() { f.Close() }, true
}

// run is gofio's whole life: parse, run, report. It returns the exit
// status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	debuglog.Reset() // the classes of --debug, once per life
	orig := args
	args, gx, err := takeGofioArgs(args) // --lint, --exit-status, --metrics (gofioopts.go)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	args, ro, err := takeReportArgs(args) // --html, --interval-json, --report (htmlreport.go)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return gx.usageStatus(1)
	}
	if ro.from != "" {
		return renderReport(ro, args, stderr)
	}
	cl, argErr := parser.ParseArgs(args, spec{})
	if code, ok := resultsMode(args, argErr, stdout, stderr); ok {
		return code // --compare or --merge (results.go)
	}
	if gx.any() {
		restoreArgPositions(cl, orig, args)
	}
	if gx.any() && remoteCmdline(cl) {
		fmt.Fprintln(stderr, "gofio: --lint, --exit-status and --metrics apply to local runs only (not --client or --server)")
		return 1
	}
	if ro.remote(cl) {
		fmt.Fprintln(stderr, "gofio: --html and --interval-json report local runs only (not --client or --server)")
		return gx.usageStatus(1)
	}
	if code, ok := remoteMode(cl, argErr, args, stdout, stderr); ok {
		return code // --server or --client (remote.go)
	}
	s := settings{formats: formats{normal: true}, terseVersion: 3, eta: defaultETA(), gofio: gx}
	plan, code, done := s.loadJobs(cl, argErr, stdin, stdout, stderr)
	if done {
		return gx.usageStatus(code)
	}
	if s.mergeOnly {
		return mergeBlktraces(plan, s.formats.normal, stdout, stderr)
	}

	out, closeOut, ok := s.openOutput(stdout, stderr)
	if !ok {
		return gx.usageStatus(1)
	}
	defer closeOut()
	bw := bufio.NewWriter(out)
	defer bw.Flush()
	con := &console{out: bw, term: stdout}

	// fio catches SIGINT, SIGTERM and SIGUSR1 from here on, just before
	// it prints the job lines; before (reading the job files), they kill
	// it, as they kill gofio until these calls. A signal caught here
	// waits in the channel until watchInterrupts reads it.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	defer signal.Stop(usr1)

	var log io.Writer // progress lines: only in normal mode, as fio
	if s.formats.normal {
		printHeaders(bw, plan, s.parse.profile == "")
		bw.Flush()
		log = con
	}
	// Error lines go to stderr and, with --output, into the file too.
	// Runtime messages go to the info stream in normal mode, else to
	// stderr, so that stdout carries only the report (docs/compat.md).
	errs := stderr
	if s.outputPath != "" {
		errs = io.MultiWriter(stderr, con)
	}
	var info io.Writer
	msgs := errs
	if s.formats.normal {
		info, msgs = con, con
	}
	// A job run as a process prints its own lines (verify failures, the
	// "fio: pid=N, err=..." line, "Saving output of prerun"); with
	// --output fio 3.33 never gets them into the file: the errors reach
	// stderr only and the rest is lost. Only thread=1 jobs write there.
	var procInfo, procErrs io.Writer
	if s.outputPath != "" {
		procInfo, procErrs = io.Discard, stderr
	}

	debuglog.SetOutput(msgs) // --debug's lines, from here on
	intr := watchInterrupts(sigs, msgs, stderr, os.Exit)

	prog := runner.NewProgress(plan)
	mon := &monitor{con: con, prog: prog, interval: s.eta.interval, every: s.eta.every, report: s.report, usr1: usr1, jobs: len(plan.Jobs)}
	if s.lineWanted(stdout) {
		mon.line = newStatusLine(plan, s.eta.newline)
	}
	live, err := startLive(ro, prog, plan, s.eta.every, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return gx.usageStatus(1)
	}
	metrics, err := startMetrics(gx.metrics, prog) // --metrics (metrics.go)
	if err != nil {
		live.finish(nil)
		fmt.Fprintln(stderr, err)
		return gx.usageStatus(1)
	}
	mon.start()
	var acts *actSlices
	act := s.parse.profile == "act" && !s.parse.actPrep
	if act && len(plan.Jobs) > 0 {
		acts = startActSlices(prog, time.Duration(plan.Jobs[0].Runtime)*time.Microsecond)
	}
	if s.idleProf != "" {
		s.idle = calibrateIdle(s.idleProf == "percpu")
		s.idle.run()
	}
	stop, endTrigger := s.localTrigger(intr.stop, prog, jobNames(plan), con, stdout, stderr) // trigger.go
	oc, err := runner.Run(plan, runner.Config{Log: log, Info: info, Errors: errs, ProcessInfo: procInfo, ProcessErrors: procErrs, Stop: stop, ReadOnly: s.readOnly, Progress: prog, AuxPath: s.auxPath})
	endTrigger()
	if s.idle != nil {
		s.idle.stop()
	}
	mon.close()
	intr.finish()
	if s.aggLogs && err == nil {
		writeAggLogs(stderr)
	}
	if err != nil {
		live.finish(nil)
		metrics.finish(nil)
		fmt.Fprintln(stderr, err)
		return 1
	}
	metrics.finish(oc.Result)
	if err := live.finish(oc.Result); err != nil {
		fmt.Fprintln(stderr, err)
	}
	if act {
		// ACT's table comes before the report, on the informational
		// stream (fio prints it on stdout).
		rows := acts.finish(oc.Result)
		if s.formats.normal {
			con.print(func(w io.Writer) error { actReport(w, rows); return nil })
		} else {
			actReport(msgs, rows)
		}
	}
	if err := con.print(func(w io.Writer) error { return s.report(w, oc.Result) }); err != nil {
		// fio 3.33 loses a report it cannot write (--output on a full
		// disk) without a word and exits as its jobs did; gofio keeps
		// that exit status and says so (docs/compat.md).
		fmt.Fprintln(stderr, "gofio: writing the report:", err)
	}
	if gx.detailed {
		return detailedStatus(oc, intr.interrupted())
	}
	status := oc.Failed
	if intr.interrupted() {
		status += 128
	}
	return status % 256
}

// report prints the final report in each selected format, in fio's fixed
// order: terse, then JSON, then normal.
func (s *settings) report(w io.Writer, r *output.Result) error {
	if s.formats.terse {
		if err := output.Terse(w, r, s.terseVersion); err != nil {
			return err
		}
	}
	// --idle-prof's results come last, in the final report only.
	idle := s.idle != nil && s.idle.took > 0
	if s.formats.json || s.formats.jsonPlus {
		if !idle {
			if err := output.JSON(w, r, s.formats.jsonPlus); err != nil {
				return err
			}
		} else {
			var b bytes.Buffer
			if err := output.JSON(&b, r, s.formats.jsonPlus); err != nil {
				return err
			}
			if _, err := w.Write(s.idle.addJSON(b.Bytes())); err != nil {
				return err
			}
		}
	}
	if s.formats.normal {
		if err := output.Normal(w, r); err != nil {
			return err
		}
		if idle {
			s.idle.normal(w)
		}
	}
	return nil
}

// mergeBlktraces does --merge-blktrace-only: each job's blktraces are
// merged into its merge_blktrace_file, and no job runs. fio 3.33 prints
// the job lines (normal output only) and exits 0.
func mergeBlktraces(plan *jobspec.Plan, normal bool, stdout, stderr io.Writer) int {
	if normal {
		printJobLines(stdout, plan)
	}
	for _, j := range plan.Jobs {
		if err := trace.MergeFor(j, stderr); err != nil {
			fmt.Fprintln(stderr, err)
		}
	}
	return 0
}

// printHeaders prints what fio prints before the jobs start: the job
// lines, the version, and the Starting line.
// fio 3.33 prints no version line before a profile's jobs (observed).
func printHeaders(w io.Writer, plan *jobspec.Plan, versionLine bool) {
	threads, procs := 0, 0
	for _, j := range plan.Jobs {
		if j.Thread {
			threads++
		} else {
			procs++
		}
	}
	printJobLines(w, plan)
	if versionLine {
		output.Version(w)
	}
	output.Starting(w, threads, procs)
}

// printJobLines prints one line per job, with "..." for its clones.
func printJobLines(w io.Writer, plan *jobspec.Plan) {
	for _, j := range plan.Jobs {
		if j.JobNum != 0 {
			continue
		}
		if e, err := engine.Lookup(j.IOEngine); err == nil && e.NoIO {
			continue // fio prints no line for a cpuio job
		}
		var h output.Header
		h.Name, h.GroupID, h.RW = j.Name, j.GroupID, j.RW.String()
		h.BSMin, h.BSMax = j.BS, j.MaxBS()
		h.IOEngine, h.IODepth, h.Clones = j.IOEngine, j.IODepth, j.NumJobs
		h.KBBase, h.SigFigs = j.KBBase, j.SignificantFigures
		output.JobHeader(w, h)
	}
}

// printUsage prints fio's usage text, as fio prints it after "No job(s)
// defined": scripts compare it.
func printUsage(w io.Writer) {
	fmt.Fprintf(w, "%s\n%s%s", version, progName(), usageText)
}

// printHelp is --help: fio's usage text, then gofio's own options
// (docs/compat.md).
func printHelp(w io.Writer) {
	printUsage(w)
	fmt.Fprint(w, resultsUsage+reportUsage+gofioUsage)
}

func progName() string {
	if len(os.Args) > 0 {
		return os.Args[0]
	}
	return "fio"
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	s := err.Error()
	return strings.ToUpper(s[:1]) + s[1:]
}
