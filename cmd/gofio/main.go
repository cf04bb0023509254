// Command gofio is a drop-in replacement for fio 3.33: it reads fio's job
// files and command lines, runs the I/O natively in Go and prints fio's
// reports.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/runner"
)

// version is what --version prints; scripts check its "fio-" prefix.
const version = "fio-3.33"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// settings are the effects of fio's own command-line options.
type settings struct {
	formats      formats
	terseVersion int
	outputPath   string
	parseOnly    bool
	readOnly     bool
	warnFatal    bool
}

// formats is the set of report formats selected.
type formats struct {
	normal, json, jsonPlus, terse bool
}

// run is gofio's whole life: parse, run, report. It returns the exit
// status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cl, argErr := parser.ParseArgs(args, spec{})
	s := settings{formats: formats{normal: true}, terseVersion: 3}
	// fio handles its options left to right and stops at the first that
	// exits, so "--version --foo" prints the version: apply the options
	// read before a bad argument, then report it.
	for _, o := range cl.Fio {
		done, status := s.apply(o, stdout, stderr)
		if done {
			return status
		}
	}
	if argErr != nil {
		var ae *parser.ArgError
		if errors.As(argErr, &ae) {
			for _, l := range ae.Lines(progName()) {
				fmt.Fprintln(stderr, l)
			}
		} else {
			fmt.Fprintln(stderr, argErr)
		}
		return 1
	}

	sources := []jobspec.Source{{Sections: cl.Sections, CommandLine: true}}
	for _, name := range cl.JobFiles {
		secs, err := readJobFile(name, stdin)
		if err != nil {
			// fio prints each job's line as it adds the job, so the jobs
			// read before the bad file are announced before the error.
			if plan, perr := jobspec.Build(sources); perr == nil && s.formats.normal {
				printJobLines(stdout, plan)
			}
			fmt.Fprintln(stderr, err)
			if hint, ok := parser.LooksLikeDashTypo(name); ok {
				fmt.Fprintf(stderr, "gofio: '%s' starts with a non-ASCII dash; did you mean %s?\n", name, hint)
			}
			return 1
		}
		sources = append(sources, jobspec.Source{Sections: secs})
	}
	plan, err := jobspec.Build(sources)
	if err != nil {
		printBuildError(stderr, stdout, err)
		if errors.As(err, new(*jobspec.Error)) && err.Error() == "No job(s) defined" {
			printUsage(stdout)
		}
		return 1
	}
	for _, w := range plan.Warnings {
		fmt.Fprintln(stderr, w)
		if s.warnFatal {
			return 1
		}
	}
	if s.parseOnly {
		return 0
	}

	out := stdout
	if s.outputPath != "" {
		f, err := os.Create(s.outputPath)
		if err != nil {
			fmt.Fprintf(stderr, "fio: output file open error: %s\n", errText(err))
			return 1
		}
		defer f.Close()
		out = f
	}
	bw := bufio.NewWriter(out)
	defer bw.Flush()

	var log io.Writer // progress lines: only in normal mode, as fio
	if s.formats.normal {
		printHeaders(bw, plan)
		bw.Flush()
		log = flushing{bw}
	}

	stop := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	interrupted := make(chan os.Signal, 1)
	go func() {
		sig, ok := <-sigs
		if !ok {
			return
		}
		fmt.Fprintf(stderr, "fio: terminating on signal %d\n", sig.(syscall.Signal))
		interrupted <- sig
		close(stop)
		if _, ok := <-sigs; ok {
			os.Exit(130) // a second signal ends gofio at once
		}
	}()

	oc, err := runner.Run(plan, runner.Config{Log: log, Errors: stderr, Stop: stop, ReadOnly: s.readOnly})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := s.report(bw, oc.Result); err != nil {
		fmt.Fprintln(stderr, "gofio: writing the report:", err)
		return 1
	}
	status := oc.Failed
	select {
	case <-interrupted:
		status += 128
	default:
	}
	return status % 256
}

// flushing writes through a buffered writer and flushes after each write,
// so progress lines appear as they happen.
type flushing struct{ w *bufio.Writer }

func (f flushing) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil {
		err = f.w.Flush()
	}
	return n, err
}

// report prints the final report in each selected format, in fio's fixed
// order: terse, then JSON, then normal.
func (s *settings) report(w io.Writer, r *output.Result) error {
	if s.formats.terse {
		if err := output.Terse(w, r, s.terseVersion); err != nil {
			return err
		}
	}
	if s.formats.json || s.formats.jsonPlus {
		if err := output.JSON(w, r, s.formats.jsonPlus); err != nil {
			return err
		}
	}
	if s.formats.normal {
		return output.Normal(w, r)
	}
	return nil
}

// printHeaders prints what fio prints before the jobs start: the job
// lines, the version, and the Starting line.
func printHeaders(w io.Writer, plan *jobspec.Plan) {
	threads, procs := 0, 0
	for _, j := range plan.Jobs {
		if j.Thread {
			threads++
		} else {
			procs++
		}
	}
	printJobLines(w, plan)
	output.Version(w)
	output.Starting(w, threads, procs)
}

// printJobLines prints one line per job, with "..." for its clones.
func printJobLines(w io.Writer, plan *jobspec.Plan) {
	for _, j := range plan.Jobs {
		if j.JobNum != 0 {
			continue
		}
		var h output.Header
		h.Name, h.GroupID, h.RW = j.Name, j.GroupID, j.RW.String()
		h.BSMin, h.BSMax = j.BS, j.BS
		h.IOEngine, h.IODepth, h.Clones = j.IOEngine, j.IODepth, j.NumJobs
		h.KBBase, h.SigFigs = j.KBBase, j.SignificantFigures
		output.JobHeader(w, h)
	}
}

// readJobFile parses one job file ("-" is standard input).
func readJobFile(name string, stdin io.Reader) ([]parser.Section, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("fio: unable to open '%s' job file", name)
		}
		defer f.Close()
		r = f
	}
	return parser.ParseJobFile(name, r, os.LookupEnv)
}

// printBuildError prints a job error as fio does, and gofio's hint.
func printBuildError(stderr, stdout io.Writer, err error) {
	var je *jobspec.Error
	if errors.As(err, &je) {
		msg := je.Msg
		// fio prints a choice option's list of valid values on stdout.
		if i := strings.LastIndex(msg, "\nfio: failed parsing"); i >= 0 && strings.Contains(msg[:i], "valid values") {
			fmt.Fprintln(stdout, msg[:i])
			msg = msg[i+1:]
		}
		fmt.Fprintln(stderr, msg)
		if je.Hint != "" {
			fmt.Fprintln(stderr, je.Hint)
		}
		return
	}
	fmt.Fprintln(stderr, err)
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "%s\n%s%s", version, progName(), usageText)
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
