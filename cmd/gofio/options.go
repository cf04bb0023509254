package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/parser"
)

// spec tells the parser which names are fio's own options and which are
// job options, and lists the job options in fio's getopt order, so that
// abbreviations, ambiguity lists and "Did you mean" work as in fio.
type spec struct{}

var _ parser.JobTable = spec{}

func (spec) FioOption(name string) (parser.ArgKind, bool) {
	o, ok := lookupFioOption(name)
	if !ok {
		return 0, false
	}
	return o.Arg, true
}

func (spec) JobOption(name string) (valueless bool, ok bool) {
	if o, ok := jobspec.Lookup(name); ok {
		return o.Valueless(), true
	}
	for _, o := range jobspec.ProfileOptions("") {
		if o.Name == name {
			return o.Valueless(), true
		}
	}
	return false, false
}

// JobOptions is fio's getopt table after its own options: every general
// option followed by its alias, the profile options, then the private
// options of ioengine (and their aliases).
func (spec) JobOptions(ioengine string) []parser.LongOption {
	var out []parser.LongOption
	add := func(o jobspec.Option) {
		arg := parser.ArgRequired
		if o.Valueless() {
			arg = parser.ArgOptional
		}
		out = append(out, parser.LongOption{Name: o.Name, Arg: arg, Job: true})
		if o.Alias != "" {
			out = append(out, parser.LongOption{Name: o.Alias, Arg: arg, Job: true})
		}
	}
	for _, o := range jobspec.Options() {
		add(o)
	}
	for _, o := range jobspec.ProfileOptions("") {
		add(o)
	}
	for _, o := range jobspec.EngineOptions(ioengine) {
		add(o)
	}
	return out
}

// apply carries out one of fio's own options. done reports that gofio
// must exit now with status.
func (s *settings) apply(o parser.Option, stdout, stderr io.Writer) (done bool, status int) {
	def, ok := lookupFioOption(o.Name)
	if !ok {
		fmt.Fprintf(stderr, "fio: unrecognized option '--%s'\n", o.Name)
		return true, 1
	}
	if done, status, handled := s.applyParse(o, stdout, stderr); handled {
		return done, status
	}
	if !def.Implemented {
		// Every option of fio 3.33's table is carried out
		// (TestFioOptionsKnown).
		fmt.Fprintf(stderr, "gofio: internal error: option --%s has no implementation\n", o.Name)
		return true, 1
	}
	switch o.Name {
	case "version":
		fmt.Fprintln(stdout, version)
		return true, 0
	case "help":
		printHelp(stdout)
		return true, 0
	case "output":
		s.outputPath = o.Value
	case "trigger-file", "trigger-timeout", "trigger", "trigger-remote":
		s.trigger.apply(o.Name, o.Value)
	case "output-format":
		f, err := parseFormats(o.Value)
		if err != nil {
			fmt.Fprintln(stderr, err)
			fmt.Fprintln(stderr, "fio: failed parsing output-format")
			return true, 1
		}
		s.formats = f
	case "minimal":
		s.formats = formats{terse: true}
	case "append-terse":
		s.formats.terse = true
	case "terse-version":
		v, _ := strconv.Atoi(leadingDigits(o.Value))
		if v < 2 || v > 5 {
			fmt.Fprintln(stderr, "fio: bad terse version format")
			return true, 1
		}
		s.terseVersion = v
	case "bandwidth-log":
		s.aggLogs = true
	case "aux-path":
		s.auxPath = o.Value
	case "idle-prof":
		if o.Value == "calibrate" {
			return true, idleCalibrate(stdout)
		}
		s.idleProf = o.Value
	case "cpuclock-test":
		return true, cpuclockTest(stdout)
	case "inflate-log":
		return true, inflateLog(o.Value, stdout, stderr)
	case "latency-log":
		fmt.Fprintln(stderr, "fio: --latency-log is deprecated. Use per-job latency log options.")
		return true, 1
	case "parse-only":
		s.parseOnly = true
	case "merge-blktrace-only":
		s.mergeOnly = true
	case "readonly":
		s.readOnly = true
	case "warnings-fatal":
		s.warnFatal = true
	case "eta", "eta-interval", "eta-newline", "status-interval":
		if msg := s.eta.apply(o.Name, o.Value); msg != "" {
			fmt.Fprintln(stderr, msg)
			return true, 1
		}
	case "alloc-size", "max-jobs":
		// Accepted: gofio has no shared-memory pool to size, and fio
		// 3.33 ignores --max-jobs (its job table stays at
		// jobspec.MaxJobs whatever the value, observed).
	}
	return false, 0
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// parseFormats reads an --output-format list.
func parseFormats(list string) (formats, error) {
	var f formats
	for _, w := range strings.Split(list, ",") {
		switch w {
		case "normal":
			f.normal = true
		case "json":
			f.json = true
		case "json+":
			f.jsonPlus = true
		case "terse", "minimal", "csv":
			f.terse = true
		default:
			return f, fmt.Errorf("fio: invalid output format %s", w)
		}
	}
	return f, nil
}
