package parser

import (
	"fmt"
	"os"
	"strings"
)

// ArgKind says whether a command-line option takes an argument (getopt's
// has_arg).
type ArgKind int

const (
	// ArgNone: no argument; "--opt=x" is an error.
	ArgNone ArgKind = iota
	// ArgRequired: "--opt=x" or "--opt x" (the next argument is taken
	// whatever it looks like, even "--bs=8k").
	ArgRequired
	// ArgOptional: only "--opt=x" (or "-cX" for short options) gives a
	// value; in "--opt x" the x is a job file.
	ArgOptional
)

// LongOption is one entry of fio's getopt table.
type LongOption struct {
	Name string
	Arg  ArgKind
	// Short is the single-letter form of one of fio's own options, or 0.
	Short byte
	// Job is true for job options (general options, aliases, profile and
	// engine options) and false for fio's own options.
	Job bool
}

// FioOptions are fio 3.33's own command-line options in fio's table order
// (observed through getopt's ambiguity list for "fio --=x", which names
// every option), with their short forms and argument kinds.
var FioOptions = []LongOption{
	{Name: "output", Arg: ArgRequired, Short: 'o'},
	{Name: "latency-log", Arg: ArgRequired, Short: 'l'},
	{Name: "bandwidth-log", Arg: ArgNone, Short: 'b'},
	{Name: "minimal", Arg: ArgNone, Short: 'm'},
	{Name: "output-format", Arg: ArgRequired, Short: 'F'},
	{Name: "append-terse", Arg: ArgOptional, Short: 'f'},
	{Name: "version", Arg: ArgNone, Short: 'v'},
	{Name: "help", Arg: ArgNone, Short: 'h'},
	{Name: "cmdhelp", Arg: ArgOptional, Short: 'c'},
	{Name: "enghelp", Arg: ArgOptional, Short: 'i'},
	{Name: "showcmd", Arg: ArgNone, Short: 's'},
	{Name: "readonly", Arg: ArgNone, Short: 'r'},
	{Name: "eta", Arg: ArgRequired, Short: 'e'},
	{Name: "eta-interval", Arg: ArgRequired, Short: 'O'},
	{Name: "eta-newline", Arg: ArgRequired, Short: 'E'},
	{Name: "debug", Arg: ArgRequired, Short: 'd'},
	{Name: "parse-only", Arg: ArgNone, Short: 'P'},
	{Name: "section", Arg: ArgRequired, Short: 'x'},
	{Name: "inflate-log", Arg: ArgRequired, Short: 'X'},
	{Name: "alloc-size", Arg: ArgRequired, Short: 'a'},
	{Name: "profile", Arg: ArgRequired, Short: 'p'},
	{Name: "warnings-fatal", Arg: ArgNone, Short: 'w'},
	{Name: "max-jobs", Arg: ArgRequired, Short: 'j'},
	{Name: "terse-version", Arg: ArgRequired, Short: 'V'},
	{Name: "server", Arg: ArgOptional, Short: 'S'},
	{Name: "daemonize", Arg: ArgRequired, Short: 'D'},
	{Name: "client", Arg: ArgRequired, Short: 'C'},
	{Name: "remote-config", Arg: ArgRequired, Short: 'R'},
	{Name: "cpuclock-test", Arg: ArgNone, Short: 'T'},
	{Name: "crctest", Arg: ArgOptional, Short: 'G'},
	{Name: "memcpytest", Arg: ArgOptional, Short: 'M'},
	{Name: "idle-prof", Arg: ArgRequired, Short: 'I'},
	{Name: "status-interval", Arg: ArgRequired, Short: 'L'},
	{Name: "trigger-file", Arg: ArgRequired, Short: 'W'},
	{Name: "trigger-timeout", Arg: ArgRequired, Short: 'B'},
	{Name: "trigger", Arg: ArgRequired, Short: 'H'},
	{Name: "trigger-remote", Arg: ArgRequired, Short: 'J'},
	{Name: "aux-path", Arg: ArgRequired, Short: 'K'},
	{Name: "merge-blktrace-only", Arg: ArgNone, Short: 'A'},
}

// Spec tells ParseArgs which options exist, so that the parser stays
// independent of the option table.
type Spec interface {
	// FioOption reports whether name is one of fio's own options and how
	// it takes an argument. Only names listed in FioOptions can be
	// recognised (their order and short forms come from there).
	FioOption(name string) (arg ArgKind, ok bool)
	// JobOption reports whether name (or an alias) is a job option and
	// whether it may be given without a value (flag options, which take an
	// optional argument on the command line).
	JobOption(name string) (valueless bool, ok bool)
}

// JobTable is implemented by a Spec that can list the job options. Only
// then does ParseArgs behave exactly like fio: abbreviations ("--numj=2"),
// fio's "is ambiguous; possibilities:" lists, engine options that exist
// only once the section's ioengine provides them, and the "Did you mean"
// suggestion in ArgError. Without it job options must be written in full
// (JobOption decides) and only fio's own options may be abbreviated.
type JobTable interface {
	// JobOptions returns the job options in fio's table order: every
	// general option followed by its alias, then the profile options,
	// then the private options of the ioengine named by ioengine (the
	// value of the --ioengine option in effect for the section being
	// filled, "" if none was given). Flag options are ArgOptional, all
	// others ArgRequired.
	JobOptions(ioengine string) []LongOption
}

// CommandLine is argv split the way fio splits it.
type CommandLine struct {
	// Fio are fio's own options in order. Name is the long name also when
	// the short form was used.
	Fio []Option
	// Sections are built from job options: a global section named
	// "global" for options before the first --name (only if there are
	// any), then one section per --name, starting with its "name" option
	// (--name=global... makes a global section). Unlike job files, no
	// substitution happens on the command line.
	Sections []Section
	// JobFiles are the non-option arguments in order ("-" is stdin).
	JobFiles []string
}

// ArgError is a getopt failure: an unknown or ambiguous option, or a
// missing or unexpected argument. fio prints Lines and exits with status 1.
type ArgError struct {
	// Pos is the argument getopt was working on.
	Pos Pos
	// Getopt is glibc's message without its "PROG: " prefix, e.g.
	// "option '--rw' requires an argument".
	Getopt string
	// Arg is the argument fio echoes in "unrecognized option 'ARG'"
	// (getopt's argv[optind-1]).
	Arg string
	// Typed is Arg without its leading dashes: the text fio looks for a
	// similar option name with (see DidYouMean). Empty when Arg is argv[0]
	// (an invalid letter inside the first argument, e.g. "fio -sQv").
	Typed string
	// Suggest is fio's "Did you mean" option, if any (only known when the
	// Spec implements JobTable).
	Suggest string

	argIsProg bool     // Arg is argv[0], known only to Lines
	names     []string // the getopt table, for the suggestion on argv[0]
}

// Lines are the lines fio prints on stderr, prog being argv[0].
func (e *ArgError) Lines(prog string) []string {
	arg, suggest := e.Arg, e.Suggest
	if e.argIsProg {
		arg = prog
		suggest = DidYouMean(strings.TrimLeft(prog, "-"), e.names)
	}
	l := []string{prog + ": " + e.Getopt, fmt.Sprintf("%s: unrecognized option '%s'", prog, arg)}
	if suggest != "" {
		l = append(l, fmt.Sprintf("Did you mean %s?", suggest))
	}
	return l
}

// Error is Lines("fio") joined by newlines.
func (e *ArgError) Error() string { return strings.Join(e.Lines("fio"), "\n") }

// ParseArgs splits argv (without argv[0]) as fio 3.33 does with glibc's
// getopt_long_only: options may start with one or two dashes, long names
// may be abbreviated to a unique prefix, "-x" is a short option when x is
// one of fio's short letters, non-option arguments anywhere are job files
// (unless POSIXLY_CORRECT is set in the environment, which stops option
// processing at the first of them, as it stops glibc), and "--" ends the
// options.
//
// On error the returned CommandLine holds everything before the failing
// argument. fio handles options strictly from left to right and stops at
// the first one that fails or exits (fio --version --foo prints the
// version), so process those (merging Fio and Sections by Pos.Line) before
// reporting the error.
func ParseArgs(args []string, spec Spec) (*CommandLine, error) {
	_, posixly := os.LookupEnv("POSIXLY_CORRECT")
	a := &argParser{args: args, spec: spec, cl: &CommandLine{}, posixly: posixly, tables: map[string][]LongOption{}, cur: -1}
	a.jobTable, _ = spec.(JobTable)
	for _, o := range FioOptions {
		if kind, ok := spec.FioOption(o.Name); ok {
			o.Arg = kind
			a.fio = append(a.fio, o)
		}
	}
	err := a.run()
	if err != nil {
		return a.cl, err
	}
	return a.cl, nil
}

type argParser struct {
	args     []string
	spec     Spec
	jobTable JobTable
	posixly  bool
	cl       *CommandLine
	fio      []LongOption
	tables   map[string][]LongOption

	cur          int    // index of the section being filled, -1 before the first job option
	globalEngine string // ioengine of the global defaults
	curEngine    string // ioengine of cur
}

// table is getopt's long-option table for the current section.
func (a *argParser) table() []LongOption {
	if a.jobTable == nil {
		return a.fio
	}
	t, ok := a.tables[a.curEngine]
	if !ok {
		t = append(append([]LongOption(nil), a.fio...), a.jobTable.JobOptions(a.curEngine)...)
		a.tables[a.curEngine] = t
	}
	return t
}

func (a *argParser) run() error {
	for i := 0; i < len(a.args); {
		arg := a.args[i]
		if arg == "--" {
			a.cl.JobFiles = append(a.cl.JobFiles, a.args[i+1:]...)
			return nil
		}
		if len(arg) < 2 || arg[0] != '-' {
			if a.posixly {
				a.cl.JobFiles = append(a.cl.JobFiles, a.args[i:]...)
				return nil
			}
			a.cl.JobFiles = append(a.cl.JobFiles, arg)
			i++
			continue
		}
		var next int
		var err *ArgError
		switch {
		case arg[1] == '-':
			next, err = a.long(i, arg[2:], "--")
		case len(arg) > 2 || a.short(arg[1]) == nil:
			next, err = a.long(i, arg[1:], "-")
			if next < 0 { // no such long option, but a valid short one
				next, err = a.shorts(i)
			}
		default:
			next, err = a.shorts(i)
		}
		if err != nil {
			a.finish(err)
			return err
		}
		i = next
	}
	return nil
}

func (a *argParser) short(c byte) *LongOption {
	for i := range a.fio {
		if a.fio[i].Short == c && c != 0 {
			return &a.fio[i]
		}
	}
	return nil
}

// finish fills in what fio adds to a getopt error.
func (a *argParser) finish(e *ArgError) {
	e.Typed = strings.TrimLeft(e.Arg, "-")
	if a.jobTable == nil {
		return
	}
	names := make([]string, 0, len(a.table()))
	for _, o := range a.table() {
		names = append(names, o.Name)
	}
	if e.argIsProg {
		e.Typed, e.names = "", names
		return
	}
	e.Suggest = DidYouMean(e.Typed, names)
}

// long handles "--body" or "-body" at args[i]. It returns the index of
// the next argument, or -1 when a single-dash argument matches no long
// option but starts with a short option letter.
func (a *argParser) long(i int, body, prefix string) (int, *ArgError) {
	pos := Pos{File: CmdlineFile, Line: i + 1}
	name, val, hasEq := strings.Cut(body, "=")
	table := a.table()
	var found *LongOption
	for k := range table {
		if table[k].Name == name {
			found = &table[k]
			break
		}
	}
	if found == nil && a.jobTable == nil {
		if valueless, ok := a.spec.JobOption(name); ok {
			o := LongOption{Name: name, Arg: ArgRequired, Job: true}
			if valueless {
				o.Arg = ArgOptional
			}
			found = &o
		}
	}
	if found == nil {
		var matches []int
		for k := range table {
			if strings.HasPrefix(table[k].Name, name) {
				matches = append(matches, k)
			}
		}
		switch {
		case len(matches) == 0:
			if prefix == "-" && a.short(body[0]) != nil {
				return -1, nil
			}
			return 0, &ArgError{Pos: pos, Getopt: fmt.Sprintf("unrecognized option '%s%s'", prefix, body), Arg: a.args[i]}
		case len(matches) > 1:
			var b strings.Builder
			fmt.Fprintf(&b, "option '%s%s' is ambiguous; possibilities:", prefix, body)
			for _, k := range matches {
				fmt.Fprintf(&b, " '%s%s'", prefix, table[k].Name)
			}
			return 0, &ArgError{Pos: pos, Getopt: b.String(), Arg: a.args[i]}
		}
		found = &table[matches[0]]
	}
	o := Option{Name: found.Name, Pos: pos, Raw: a.args[i]}
	next := i + 1
	switch {
	case hasEq && found.Arg == ArgNone:
		return 0, &ArgError{Pos: pos, Getopt: fmt.Sprintf("option '%s%s' doesn't allow an argument", prefix, found.Name), Arg: a.args[i]}
	case hasEq:
		o.Value, o.HasValue = val, true
	case found.Arg == ArgRequired:
		if next >= len(a.args) {
			return 0, &ArgError{Pos: pos, Getopt: fmt.Sprintf("option '%s%s' requires an argument", prefix, found.Name), Arg: a.args[i]}
		}
		o.Value, o.HasValue = a.args[next], true
		next++
	}
	a.add(*found, o)
	return next, nil
}

// shorts handles a cluster of short options ("-sP", "-cbs", "-ofile").
func (a *argParser) shorts(i int) (int, *ArgError) {
	arg := a.args[i]
	pos := Pos{File: CmdlineFile, Line: i + 1}
	for j := 1; j < len(arg); j++ {
		c := arg[j]
		last := j == len(arg)-1
		opt := a.short(c)
		if opt == nil {
			e := &ArgError{Pos: pos, Getopt: fmt.Sprintf("invalid option -- '%c'", c), Arg: arg}
			if !last { // getopt has not moved past this argument yet
				if i == 0 {
					e.argIsProg = true
				} else {
					e.Arg = a.args[i-1]
				}
			}
			return 0, e
		}
		o := Option{Name: opt.Name, Pos: pos, Raw: arg}
		switch opt.Arg {
		case ArgNone:
			a.add(*opt, o)
			continue
		case ArgOptional:
			if !last {
				o.Value, o.HasValue = arg[j+1:], true
			}
			a.add(*opt, o)
			return i + 1, nil
		default:
			switch {
			case !last:
				o.Value, o.HasValue = arg[j+1:], true
			case i+1 < len(a.args):
				o.Value, o.HasValue = a.args[i+1], true
				a.add(*opt, o)
				return i + 2, nil
			default:
				return 0, &ArgError{Pos: pos, Getopt: fmt.Sprintf("option requires an argument -- '%c'", c), Arg: arg}
			}
			a.add(*opt, o)
			return i + 1, nil
		}
	}
	return i + 1, nil
}

// add files a recognised option: fio's own, or a job option for the
// current section (--name starts a new one).
func (a *argParser) add(def LongOption, o Option) {
	if !def.Job {
		a.cl.Fio = append(a.cl.Fio, o)
		return
	}
	if def.Name == "name" {
		a.cl.Sections = append(a.cl.Sections, Section{
			Name: o.Value, Global: strings.HasPrefix(o.Value, "global"),
			Pos: o.Pos, File: CmdlineFile, Options: []Option{o},
		})
		a.cur = len(a.cl.Sections) - 1
		a.curEngine = a.globalEngine
		return
	}
	if a.cur < 0 {
		a.cl.Sections = append(a.cl.Sections, Section{Name: "global", Global: true, Pos: o.Pos, File: CmdlineFile})
		a.cur = len(a.cl.Sections) - 1
	}
	sec := &a.cl.Sections[a.cur]
	sec.Options = append(sec.Options, o)
	if def.Name == "ioengine" {
		a.curEngine = o.Value
		if sec.Global {
			a.globalEngine = o.Value
		}
	}
}
