package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/runner/engine"
)

// parseSettings are the effects of fio's own options on how jobs are
// read.
type parseSettings struct {
	showCmd  bool
	sections []string // --section values
	profile  string   // --profile
	actPrep  bool     // --profile=act --prep: ACT's prep phase, no latency table
}

// applyParse carries out the fio options that concern reading jobs and
// checks the arguments of those gofio does not carry out yet, with fio's
// messages. handled is false for the options apply handles itself.
func (s *settings) applyParse(o parser.Option, stdout, stderr io.Writer) (done bool, status int, handled bool) {
	p := &s.parse
	switch o.Name {
	case "cmdhelp":
		return true, cmdHelp(stdout, stderr, o.Value, p.profile), true
	case "enghelp":
		return true, engHelp(stdout, stderr, o.Value), true
	case "showcmd":
		p.showCmd = true
	case "section":
		if o.Value == "global" {
			fmt.Fprintln(stderr, "fio: can't use global as only section")
			return true, 1, true
		}
		p.sections = append(p.sections, o.Value)
	case "profile":
		if !slices.Contains(jobspec.Profiles, o.Value) {
			fmt.Fprintf(stderr, "fio: profile '%s' not found\n", o.Value)
			return true, 1, true
		}
		p.profile = o.Value
	case "debug":
		if debuglog.IsHelp(o.Value) {
			fmt.Fprintln(stdout, debuglog.HelpLine())
			return true, 0, true
		}
		debuglog.Set(o.Value, stdout, stderr)
	case "idle-prof":
		switch o.Value {
		case "system", "percpu", "calibrate":
		default:
			fmt.Fprintf(stderr, "fio: incorrect idle-prof option: %s\n", o.Value)
			return true, 1, true
		}
		return false, 0, false
	case "trigger-timeout":
		if _, err := jobspec.ParseSeconds(o.Value); err != nil {
			fmt.Fprintf(stderr, "fio: failed parsing time %s\n", o.Value)
			return true, 1, true
		}
		return false, 0, false
	case "crctest":
		return true, crcTest(o.Value, o.HasValue, stdout, stderr), true
	case "memcpytest":
		return true, memcpyTest(o.Value, o.HasValue, stdout, stderr), true
	default:
		return false, 0, false
	}
	return false, 0, true
}

// cmdlineItem is one of fio's own options or a job option, in argv
// order.
type cmdlineItem struct {
	opt parser.Option
	fio bool
}

// loadJobs does what fio does before it starts any I/O: it carries out
// fio's own options and the command line's job options in the order
// written, then reads the job files (the first one with --section
// applied). It prints what fio prints on the way, including --showcmd's
// command lines. done reports that gofio must exit with status now.
func (s *settings) loadJobs(cl *parser.CommandLine, argErr error, stdin io.Reader, stdout, stderr io.Writer) (plan *jobspec.Plan, status int, done bool) {
	cfg := &jobspec.Config{Stdout: stdout, Stderr: stderr}
	// The resolved-job dump (resolved.go) is made when --parse-only
	// comes before every job option: no job then runs. Jobs added
	// before it run, as in fio, and there is no dump.
	resolve, decided := false, false
	update := func() {
		if !decided {
			// Only the JSON dump keeps every job: a plain --parse-only
			// holds one section at a time, as fio does.
			resolve, decided = s.wantResolved(), true
		}
		cfg.ShowCmd = s.parse.showCmd
		cfg.DryRun = s.parseOnly || s.parse.showCmd
		cfg.ReadOnly = s.readOnly
		cfg.WarningsFatal = s.warnFatal
		cfg.Sections = s.parse.sections
		cfg.Resolve = resolve
		cfg.Lint = s.gofio.lint
		// With only json/terse reports, what fio prints on stdout while
		// it reads jobs (lists of valid values, notices) goes to stderr:
		// stdout carries only the report (docs/compat.md). Dry runs print
		// no report, and fio's stdout.
		cfg.Info = nil
		if !s.formats.normal && !cfg.DryRun {
			cfg.Info = stderr
		}
		// --debug's lines go with the other informational lines.
		if cfg.Info != nil {
			debuglog.SetOutput(cfg.Info)
		} else {
			debuglog.SetOutput(stdout)
		}
	}
	b := jobspec.NewBuilder(cfg)

	var items []cmdlineItem
	for _, o := range cl.Fio {
		items = append(items, cmdlineItem{o, true})
	}
	for _, sec := range cl.Sections {
		for _, o := range sec.Options {
			items = append(items, cmdlineItem{o, false})
		}
	}
	slices.SortStableFunc(items, func(a, b cmdlineItem) int { return a.opt.Pos.Line - b.opt.Pos.Line })
	// fio handles its options left to right and stops at the first that
	// exits or fails, so "--version --foo" prints the version.
	for _, it := range items {
		if it.fio {
			if done, status := s.apply(it.opt, stdout, stderr); done {
				return nil, status, true
			}
			continue
		}
		update()
		if err := b.CmdlineOption(it.opt); err != nil {
			return s.failed(b, stdout)
		}
	}
	if argErr != nil {
		printArgError(stderr, argErr)
		return s.failed(b, stdout)
	}
	update()
	if s.parse.profile != "" {
		if err := s.addProfile(b, cl, stderr); err != nil {
			return s.failed(b, stdout)
		}
	}
	if err := b.EndCmdline(); err != nil {
		return s.failed(b, stdout)
	}

	for i, name := range cl.JobFiles {
		if debuglog.On(debuglog.Parse) {
			debuglog.Printf(debuglog.Parse, debuglog.Pid, "Parsing ini file %s", name)
		}
		pc := parser.Config{Env: os.LookupEnv, Open: s.openJob}
		if i == 0 {
			pc.Sections = s.parse.sections
		}
		var r io.Reader
		if name == "-" {
			r = stdin
		}
		jf, perr := pc.OpenJobFile(name, r)
		if perr != nil {
			fmt.Fprintln(stderr, perr)
			if hint, ok := parser.LooksLikeDashTypo(name); ok {
				fmt.Fprintf(stderr, "gofio: '%s' starts with a non-ASCII dash; did you mean %s?\n", name, hint)
			}
			return s.failed(b, stdout)
		}
		// Section by section, as fio reads: a big job file is never
		// held whole.
		err := b.AddFileSections(jf.Sections())
		jf.Close()
		if err != nil {
			return s.failed(b, stdout)
		}
		if perr := jf.Err(); perr != nil {
			fmt.Fprintln(stderr, perr)
			return s.failed(b, stdout)
		}
	}

	if s.gofio.lint && len(b.Misreads()) > 0 {
		fmt.Fprintf(stderr, "gofio: --lint: %d value(s) fio 3.33 would misread\n", len(b.Misreads()))
		return nil, 1, true
	}
	if resolve && s.wantResolved() {
		return nil, s.printResolved(b, stdout, stderr), true
	}
	plan, err := b.Plan()
	dry := s.parseOnly || s.parse.showCmd
	switch {
	case errors.Is(err, jobspec.ErrNoJobs):
		if dry {
			return nil, 0, true
		}
		fmt.Fprint(stderr, "No job(s) defined\n\n")
		printUsage(stdout)
		return s.failed(b, stdout)
	case err != nil:
		return s.failed(b, stdout)
	}
	// Jobs added before --parse-only or --showcmd on the command line
	// run, as in fio.
	if err := plan.Unsupported(); err != nil {
		fmt.Fprintln(stderr, err)
		return s.failed(b, stdout)
	}
	for _, j := range plan.Jobs {
		name, _ := jobspec.ResolveEngine(j.IOEngine)
		if _, err := engine.Lookup(name); err != nil {
			if why, ok := engine.Unavailable(name); ok {
				fmt.Fprintf(stderr, "gofio: ioengine %s is not supported: %s (job %s)\n", j.IOEngine, why, j.Name)
				return s.failed(b, stdout)
			}
			// Every engine of fio 3.33's build is registered or listed
			// as unavailable (TestEveryEngineRunsOrIsUnavailable).
			fmt.Fprintf(stderr, "gofio: internal error: ioengine %s is neither registered nor unavailable (job %s)\n", j.IOEngine, j.Name)
			return s.failed(b, stdout)
		}
	}
	return plan, 0, false
}

// failed ends loadJobs with status 1. fio prints each job's line as it
// adds the job, so the jobs added before the failure are announced.
func (s *settings) failed(b *jobspec.Builder, stdout io.Writer) (*jobspec.Plan, int, bool) {
	if s.deferJobLines {
		return &jobspec.Plan{Jobs: b.Jobs()}, 1, true
	}
	if jobs := b.Jobs(); len(jobs) > 0 && s.formats.normal {
		printJobLines(stdout, &jobspec.Plan{Jobs: jobs})
	}
	return nil, 1, true
}

// printArgError prints a command-line error as fio does, then gofio's
// hint when fio has none: the option closest to what was typed.
func printArgError(stderr io.Writer, err error) {
	var ae *parser.ArgError
	if !errors.As(err, &ae) {
		fmt.Fprintln(stderr, err)
		return
	}
	for _, l := range ae.Lines(progName()) {
		fmt.Fprintln(stderr, l)
	}
	if ae.Suggest != "" || !strings.HasPrefix(ae.Getopt, "unrecognized option") {
		return
	}
	typed, _, _ := strings.Cut(ae.Typed, "=")
	if typed == "" {
		return
	}
	var names []string
	for _, o := range parser.FioOptions {
		names = append(names, o.Name)
	}
	for _, o := range (spec{}).JobOptions("") {
		names = append(names, o.Name)
	}
	if hint := parser.DidYouMean(strings.ToLower(typed), names); hint != "" {
		fmt.Fprintf(stderr, "gofio: did you mean --%s?\n", hint)
	}
}
