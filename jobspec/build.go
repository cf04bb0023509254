package jobspec

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/parser"
)

// Plan is the set of jobs to run.
type Plan struct {
	Jobs []*Job
	// GlobalOptions are the options of the global sections as typed (JSON
	// "global options"); nil when there were none.
	GlobalOptions []RawOption
	// Warnings are gofio's own warnings (already printed on stderr by the
	// Builder); kept for callers that report them again.
	Warnings []string
}

// Unsupported returns the error of the first value of a job that gofio
// refuses on purpose (a *RefusedError), or nil.
func (p *Plan) Unsupported() error {
	for _, j := range p.Jobs {
		if len(j.Unsupported) > 0 {
			return j.Unsupported[0]
		}
	}
	return nil
}

// Error is a problem with the jobs as written. The Builder has already
// printed fio's messages for it; Msg is the last of them, for logs and
// tests.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

// ErrNoJobs is returned by Builder.Plan when no job was defined; fio then
// prints "No job(s) defined" and its usage (nothing under --parse-only or
// --showcmd). The text is fio's, capital letter included.
var ErrNoJobs = errors.New("No job(s) defined")

// Config says how the Builder reads jobs.
type Config struct {
	// Stdout and Stderr receive what fio prints while it reads jobs:
	// --showcmd lines, lists of valid values and notices on Stdout,
	// messages on Stderr. nil discards.
	Stdout, Stderr io.Writer
	// Info, if set, receives the notices and lists of valid values in
	// place of Stdout (gofio keeps them off stdout when that carries only
	// a JSON or terse report; docs/compat.md).
	Info io.Writer
	// ShowCmd prints each job file as a command line, as --showcmd does.
	ShowCmd bool
	// DryRun is set under --parse-only and --showcmd: fio then skips the
	// checks made when a job is added and those of some option handlers.
	DryRun bool
	// ReadOnly is --readonly: writing rw values are refused.
	ReadOnly bool
	// WarningsFatal is --warnings-fatal: fio's warnings end the run.
	WarningsFatal bool
	// Sections are the --section values; they select command-line jobs
	// here (the parser selects the sections of the first job file).
	Sections []string
	// Resolve keeps every job that would run with its options and their
	// positions (Builder.Resolved), also in dry runs.
	Resolve bool
	// Lint prints each value fio would misread as an error with its
	// file and line, in place of the warning (Builder.Misreads lists
	// them).
	Lint bool
}

// Builder turns the command line's job options and job files into jobs,
// printing what fio prints on the way. Use it in fio's order: every
// command-line job option (CmdlineOption, then EndCmdline), then each job
// file (AddFile), then Plan. A method that returns an error has printed
// fio's messages for it; fio then exits with status 1.
type Builder struct {
	cfg  *Config
	plan Plan

	global   *Job // the running defaults
	cliJob   *Job // the command-line job being filled; nil: the defaults
	cliEnded bool
	files    int
	group    int
	origins  []*Job // jobs added so far, without clones (wait_for)
	// globalArgs are the --showcmd arguments of every global option so
	// far (command line and [global] sections of the current file): fio
	// prints all of them again for each [global] section.
	globalArgs []string

	// resolved, globalResolved and cliResolved serve Config.Resolve
	// (resolved.go); misreads are the values fio would misread.
	resolved       []ResolvedJob
	globalResolved []ResolvedOption
	cliResolved    []ResolvedOption
	misreads       []Misread
}

// NewBuilder returns a Builder. cfg may change between calls (fio applies
// --readonly and --parse-only from where they appear on the command line).
func NewBuilder(cfg *Config) *Builder {
	return &Builder{cfg: cfg, global: defaults()}
}

func (b *Builder) stdout() io.Writer {
	if b.cfg.Stdout == nil {
		return io.Discard
	}
	return b.cfg.Stdout
}

func (b *Builder) stderr() io.Writer {
	if b.cfg.Stderr == nil {
		return io.Discard
	}
	return b.cfg.Stderr
}

func (b *Builder) info() io.Writer {
	if b.cfg.Info != nil {
		return b.cfg.Info
	}
	return b.stdout()
}

func (b *Builder) errln(s string) { fmt.Fprintln(b.stderr(), s) }

func (b *Builder) print(notes []note) {
	for _, n := range notes {
		if n.stdout {
			fmt.Fprintln(b.info(), n.text)
		} else {
			b.errln(n.text)
		}
	}
}

// fail prints msg on stderr and returns it as an *Error.
func (b *Builder) fail(msg string) error {
	b.errln(msg)
	return &Error{Msg: msg}
}

// CmdlineOption applies one job option of the command line. Options are
// applied in the order written, without the priority sort of job files:
// before the first --name they set the defaults, "--name=X" starts job X
// (a name starting with "global" goes back to the defaults).
func (b *Builder) CmdlineOption(o parser.Option) error {
	if o.HasValue && o.Value == "" {
		if def, ok := lookup(o.Name); !ok || def.Kind != KindFlag {
			if eo, ok := lookupEngineOption(b.target().IOEngine, o.Name); !ok || eo.Kind != KindFlag {
				return b.fail(fmt.Sprintf("fio: option %s requires an argument", o.Name))
			}
		}
	}
	if o.Name == "name" {
		if err := b.endCmdlineJob(); err != nil {
			return err
		}
		if debuglog.On(debuglog.Parse) {
			debugOption(byName["name"], o.Value, o.HasValue, 1024)
		}
		if strings.HasPrefix(o.Value, "global") {
			b.globalArgs = append(b.globalArgs, "--name="+o.Value+" ")
			return nil
		}
		if len(b.cfg.Sections) > 0 && !contains(b.cfg.Sections, o.Value) {
			b.errln(fmt.Sprintf("gofio: --section does not select the command-line job %s; fio 3.33 would apply its options to the global defaults instead", o.Value))
			return &Error{Msg: "--section skips a command-line job"}
		}
		j := b.global.clone()
		j.Options = []RawOption{{Name: "name", Value: o.Value}}
		j.Section, j.Name = o.Value, o.Value
		b.cliJob = j
		if b.cfg.Resolve {
			b.cliResolved = []ResolvedOption{{Name: "name", Value: o.Value, HasValue: true, Pos: o.Pos}}
		}
		return nil
	}
	j := b.target()
	line := o.Name
	if o.HasValue {
		line += "=" + o.Value
	}
	def, general := lookup(o.Name)
	if !general {
		var ok bool
		if def, ok = lookupEngineOption(j.IOEngine, o.Name); !ok {
			return b.fail(fmt.Sprintf("fio: unrecognized option '--%s'", o.Name))
		}
	}
	if ok := b.setOption(j, def, o, false); !ok {
		return b.fail("fio: failed parsing " + line)
	}
	if def.Name == "ioengine" {
		if _, known := ResolveEngine(j.IOEngine); !known {
			return b.engineNotLoadable(j.IOEngine, b.cliJob != nil)
		}
	}
	if j == b.global && b.plan.GlobalOptions == nil {
		// Even valueless options (--group_reporting) make fio print an
		// empty "global options" object.
		b.plan.GlobalOptions = []RawOption{}
	}
	if j == b.global {
		b.globalArgs = append(b.globalArgs, showArg(def, o))
	}
	if b.cfg.Resolve {
		if j == b.global {
			b.globalResolved = append(b.globalResolved, resolveOption(def, o, true, j.KBBase))
		} else {
			b.cliResolved = append(b.cliResolved, resolveOption(def, o, false, j.KBBase))
		}
	}
	if o.HasValue && o.Value != "" {
		if j == b.global {
			b.plan.GlobalOptions = append(b.plan.GlobalOptions, RawOption{Name: def.Name, Value: o.Value})
		} else {
			j.Options = append(j.Options, RawOption{Name: def.Name, Value: o.Value})
		}
	}
	return nil
}

// target is the job command-line options apply to.
func (b *Builder) target() *Job {
	if b.cliJob != nil {
		return b.cliJob
	}
	return b.global
}

func (b *Builder) endCmdlineJob() error {
	j := b.cliJob
	b.cliJob = nil
	if j == nil {
		return nil
	}
	if b.cfg.Resolve && len(b.cliResolved) > 0 {
		own := b.cliResolved // starting with its --name
		b.cliResolved = nil
		b.keepResolved(j, j.Section, own[0].Pos, own)
	}
	return b.addJob(j, "")
}

// EndCmdline ends the command line: its last job is added, and its
// defaults become the defaults of the first job file.
func (b *Builder) EndCmdline() error {
	b.cliEnded = true
	return b.endCmdlineJob()
}

// AddFile adds the sections of one job file, as parser.ParseJobFile
// returned them (also when it returned an error: fio handles the sections
// before the error first). The defaults of the second and later files
// start again from fio's built-in ones, and their first job waits for
// everything before it (an implicit stonewall). Processing stops at the
// first section fio drops.
func (b *Builder) AddFile(secs []parser.Section) error {
	return b.AddFileSections(slices.Values(secs))
}

// AddFileSections is AddFile for sections read one at a time
// (parser.JobFile.Sections), so that a big job file is never held in
// memory whole. It stops ranging over secs at the first section fio drops.
func (b *Builder) AddFileSections(secs iter.Seq[parser.Section]) error {
	if !b.cliEnded {
		if err := b.EndCmdline(); err != nil {
			return err
		}
	}
	b.files++
	if b.files > 1 {
		b.global = defaults()
		b.globalArgs = nil
		b.globalResolved = nil
	}
	shown := false
	defer func() {
		if b.cfg.ShowCmd {
			fmt.Fprint(b.stdout(), "\n")
		}
	}()
	first := true
	for sec := range secs {
		if b.cfg.ShowCmd && !shown {
			fmt.Fprint(b.stdout(), "fio ")
			shown = true
		}
		if sec.Global {
			if err := b.section(b.global, sec); err != nil {
				return err
			}
			continue
		}
		j := b.global.clone()
		j.Options = nil
		j.Section, j.Name = sec.Name, sec.Name
		if b.cfg.ShowCmd {
			fmt.Fprintf(b.stdout(), "--name=%s ", sec.Name)
		}
		if err := b.section(j, sec); err != nil {
			return err
		}
		if first && b.files > 1 {
			j.Stonewall = true
		}
		first = false
		if err := b.addJob(j, includeFailure(sec)); err != nil {
			return err
		}
	}
	return nil
}

// Jobs returns the jobs added so far (fio announces each job as it adds
// it, also when a later one fails).
func (b *Builder) Jobs() []*Job { return b.plan.Jobs }

// Plan returns the jobs added (outside dry runs); ErrNoJobs when there
// are none.
func (b *Builder) Plan() (*Plan, error) {
	if !b.cliEnded {
		if err := b.EndCmdline(); err != nil {
			return nil, err
		}
	}
	if len(b.plan.Jobs) == 0 {
		return nil, ErrNoJobs
	}
	return &b.plan, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
