package jobspec

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

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

// Unsupported returns an error naming the first option of a job that
// gofio knows but does not honour yet, or nil.
func (p *Plan) Unsupported() error {
	for _, j := range p.Jobs {
		if len(j.Unsupported) > 0 {
			return j.Unsupported[0]
		}
	}
	return nil
}

// Error is a problem with the jobs as written. Build and the Builder have
// already printed fio's messages for it; Msg is the last of them, for
// logs and tests.
type Error struct {
	Msg  string
	Hint string
}

func (e *Error) Error() string { return e.Msg }

// ErrNoJobs is returned by Builder.Plan when no job was defined; fio then
// prints "No job(s) defined" and its usage (nothing under --parse-only or
// --showcmd).
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

// lookup finds a general option, or else a profile option, by name or
// alias.
func lookup(name string) (*Option, bool) {
	if o, ok := Lookup(name); ok {
		return o, true
	}
	return lookupProfileOption(name)
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
	if !b.cliEnded {
		if err := b.EndCmdline(); err != nil {
			return err
		}
	}
	b.files++
	if b.files > 1 {
		b.global = defaults()
		b.globalArgs = nil
	}
	shown := false
	defer func() {
		if b.cfg.ShowCmd {
			fmt.Fprint(b.stdout(), "\n")
		}
	}()
	first := true
	for _, sec := range secs {
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

// includeFailure is the line fio prints for a job whose include file
// could not be opened.
func includeFailure(sec parser.Section) string {
	if sec.IncludeErr == nil {
		return ""
	}
	msg := sec.IncludeErr.Error()
	if e := parser.Errno(sec.IncludeErr); e != 0 {
		msg = errnoText(e)
	}
	return "fio: file:init.c:1956, func=job file open, error=" + msg
}

// applied is an option that was set, for --showcmd and JSON.
type applied struct {
	def *Option
	opt parser.Option
}

// section applies a job-file section to j as fio does: notes and bc
// messages first, then the options sorted by priority, general options
// before the ioengine's private ones (which need the engine the section
// ends up with); keys that are neither are "Bad option". Every option is
// tried even after one failed; then the section is dropped.
func (b *Builder) section(j *Job, sec parser.Section) error {
	for _, n := range sec.Notes {
		b.errln(n)
	}
	for _, o := range sec.Options {
		for _, d := range o.MathDiags {
			b.errln(d)
		}
	}
	opts := append([]parser.Option(nil), sec.Options...)
	sort.SliceStable(opts, func(a, c int) bool { return priority(opts[a].Name) > priority(opts[c].Name) })

	failed := false
	var done, later []applied
	var unknown []parser.Option
	for _, o := range opts {
		if o.MathFailed {
			b.errln("fio: failed parsing " + o.Raw)
			failed = true
			continue
		}
		def, ok := lookup(o.Name)
		if !ok {
			unknown = append(unknown, o)
			continue
		}
		if !b.setOption(j, def, o, sec.Global) {
			b.errln("fio: failed parsing " + o.Raw)
			failed = true
			continue
		}
		done = append(done, applied{def, o})
	}
	if len(unknown) > 0 {
		engine, known := ResolveEngine(j.IOEngine)
		if !known {
			b.engineNotLoadable(j.IOEngine, !sec.Global)
		}
		for _, o := range unknown {
			if eo, ok := lookupEngineOption(engine, o.Name); ok && known {
				if !b.setOption(j, eo, o, sec.Global) {
					b.errln("fio: failed parsing " + o.Name)
					failed = true
					continue
				}
				later = append(later, applied{eo, o})
				continue
			}
			line := o.Raw
			if known && len(EngineOptions(engine)) > 0 {
				line = o.Line()
			}
			b.errln(fmt.Sprintf("Bad option <%s>", line))
			if s := parser.DidYouMean(o.Name, generalNames()); s != "" {
				b.errln(fmt.Sprintf("Did you mean %s?", s))
			} else if s := closeName(o.Name, hintNames(engine)); s != "" {
				// fio has no suggestion; gofio also tries the key in
				// lower case and the aliases and engine options.
				b.errln(fmt.Sprintf("gofio: did you mean %s?", s))
			}
			failed = true
		}
	}
	if failed {
		return b.fail(fmt.Sprintf("fio: job %s dropped", sec.Name))
	}
	all := append(done, later...)
	var args []string
	for _, a := range all {
		args = append(args, showArg(a.def, a.opt))
	}
	if sec.Global {
		// fio keeps one list of the global options and prints all of it
		// for every [global] section, the command line's included.
		b.globalArgs = append(b.globalArgs, args...)
		args = b.globalArgs
	}
	if b.cfg.ShowCmd {
		fmt.Fprint(b.stdout(), strings.Join(args, ""))
	}
	raw := rawOptions(all)
	if sec.Global {
		if len(sec.Options) > 0 && b.plan.GlobalOptions == nil {
			b.plan.GlobalOptions = []RawOption{}
		}
		b.plan.GlobalOptions = append(b.plan.GlobalOptions, raw...)
	} else {
		j.Options = raw
	}
	return nil
}

// showArg is one option as --showcmd prints it: "--NAME=VALUE " with the
// canonical name and the value as substituted, "--NAME " for a line
// without value; only description is quoted.
func showArg(def *Option, o parser.Option) string {
	switch {
	case !o.HasValue:
		return "--" + def.Name + " "
	case def.Name == "description" && def.Engine == "":
		return fmt.Sprintf("--%s=\"%s\" ", def.Name, o.Value)
	}
	return "--" + def.Name + "=" + o.Value + " "
}

// rawOptions lists applied options for JSON: canonical names, values as
// typed, options without a value left out.
func rawOptions(all []applied) []RawOption {
	out := []RawOption{}
	for _, a := range all {
		if !a.opt.HasValue || a.opt.Value == "" {
			continue
		}
		out = append(out, RawOption{Name: a.def.Name, Value: a.opt.Value})
	}
	return out
}

// engineNotLoadable prints what fio prints for an ioengine it cannot
// load: two lines on stderr and, for a job (not the defaults), dlopen's
// error on stdout.
func (b *Builder) engineNotLoadable(engine string, job bool) error {
	b.errln(fmt.Sprintf("fio: engine %s not loadable", engine))
	b.errln("fio: failed to load engine")
	if job {
		fmt.Fprintf(b.info(), "fio: file:ioengines.c:134, func=dlopen, error=%s: cannot open shared object file: No such file or directory\n", engine)
	}
	return &Error{Msg: "fio: failed to load engine"}
}

// setOption reads one option's value with fio's checks, prints fio's
// messages for it and, if fio accepts it, stores it in j. Options gofio
// does not honour yet are noted in j.Unsupported (unless the value leaves
// the option at its default).
func (b *Builder) setOption(j *Job, def *Option, o parser.Option, global bool) bool {
	r := reader{job: j, dry: b.cfg.DryRun, readOnly: b.cfg.ReadOnly}
	ok := r.read(def, o.Value, o.HasValue)
	b.print(r.notes)
	if !ok {
		return false
	}
	if w := misread(def, o.Name, o.Value, o.HasValue, r.kbBase()); w != "" {
		b.errln(w)
		b.plan.Warnings = append(b.plan.Warnings, w)
	}
	switch {
	case def.Engine != "":
		j.EngineOptions[def.Name] = o.Value
		return true
	case def.Profile != "":
		return true
	case def.Name == "ioengine":
		old, _ := ResolveEngine(j.IOEngine)
		if err := def.Set(j, o.Value); err != nil {
			return false
		}
		if now, _ := ResolveEngine(j.IOEngine); now != old {
			clear(j.EngineOptions) // fio drops the old engine's options
		}
		return true
	case def.Set == nil:
		if !isDefault(def, o, r.kbBase()) {
			j.Unsupported = append(j.Unsupported, &UnsupportedError{Option: def.Name})
		}
		return true
	}
	if err := def.Set(j, o.Value); err != nil {
		// fio accepted the value (read decided that, with fio's
		// messages); a setter that cannot store it marks a value gofio
		// cannot honour yet, which is an error when the job runs.
		ue := &UnsupportedError{Option: def.Name, Value: o.Value}
		errors.As(err, &ue)
		if ue.Option == "" {
			ue.Option = def.Name
		}
		if ue.Value == "" && o.HasValue {
			ue.Value = o.Value
		}
		j.Unsupported = append(j.Unsupported, ue)
	}
	return true
}

// isDefault reports whether an option is set to the value it has anyway,
// which gofio can honour without implementing the option.
func isDefault(def *Option, o parser.Option, kbBase int) bool {
	if !o.HasValue {
		return false
	}
	if o.Value == def.Default {
		return true
	}
	switch def.Kind {
	case KindBool, KindInt, KindInt64, KindSize, KindTimeSec, KindTimeUsec:
		d := def.Default
		if d == "" {
			d = "0"
		}
		a, err1 := parseSize(o.Value, kbBase)
		c, err2 := parseSize(d, kbBase)
		return err1 == nil && err2 == nil && a == c && !strings.ContainsAny(o.Value, ",:-")
	case KindFlag:
		v, _, err := parseInt(o.Value)
		return err == nil && v == 0
	}
	return false
}

var names []string

// generalNames are the names of the general options in table order (no
// aliases): fio's "Did you mean" candidates for a bad job-file key.
func generalNames() []string {
	if names == nil {
		for _, o := range options {
			names = append(names, o.Name)
		}
	}
	return names
}

// closeName is gofio's hint for an unknown key fio finds nothing for: a
// name or alias equal to the key in lower case, or less than one edit
// per eight bytes of the key away from it, so "BS" gets "bs" and
// "readwrit" gets "readwrite" while "nfs_url" gets nothing.
func closeName(key string, names []string) string {
	key = strings.ToLower(key)
	best, bestD := "", 1+len(key)/8
	for _, n := range names {
		if d := editDistance(key, n); d < bestD || d == 0 {
			best, bestD = n, d
			if d == 0 {
				break
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// hintNames are the names gofio's own hint picks from: every general
// option and alias, and the options of engine.
func hintNames(engine string) []string {
	var out []string
	for _, o := range options {
		out = append(out, o.Name)
		if o.Alias != "" {
			out = append(out, o.Alias)
		}
	}
	for _, o := range EngineOptions(engine) {
		out = append(out, o.Name)
	}
	return out
}

// addJob adds a job: outside dry runs with fio's checks, then numbers its
// reporting group and creates its numjobs clones.
func (b *Builder) addJob(j *Job, includeErr string) error {
	if includeErr != "" {
		fmt.Fprintln(b.info(), includeErr)
		if !b.cfg.DryRun {
			return &Error{Msg: includeErr}
		}
	}
	if !b.cfg.DryRun {
		if err := b.check(j); err != nil {
			return err
		}
	}
	if b.cfg.DryRun {
		// fio discards jobs added under --parse-only or --showcmd; jobs
		// added before those options appear on the command line run.
		return nil
	}
	if len(b.plan.Jobs) > 0 && (j.Stonewall || j.NewGroup) {
		b.group++
	}
	j.GroupID = b.group
	b.plan.Jobs = append(b.plan.Jobs, j)
	b.origins = append(b.origins, j)
	for k := j.NumJobs - 1; k >= 1; k-- {
		c := j.clone()
		c.JobNum = k
		c.Stonewall, c.NewGroup = false, false
		b.plan.Jobs = append(b.plan.Jobs, c)
	}
	return nil
}

// check makes the checks fio makes when it adds a job, and settles derived
// settings.
func (b *Builder) check(j *Job) error {
	if j.NumJobs <= 0 {
		b.errln(fmt.Sprintf("gofio: job %s: numjobs=%d leaves no job to run (fio 3.33 creates jobs until its job table is full)", j.Name, j.NumJobs))
		return &Error{Msg: "numjobs=0"}
	}
	if _, known := ResolveEngine(j.IOEngine); !known && !strings.HasPrefix(j.IOEngine, "external:") {
		return b.engineNotLoadable(j.IOEngine, true)
	}
	if b.cfg.ReadOnly && (j.RW.Writes() || j.RW.Trims()) {
		return b.fail("fio: trim and write operations are not allowed with the --readonly parameter.")
	}
	if j.WaitFor != "" {
		if err := b.checkWaitFor(j); err != nil {
			return err
		}
	}
	if j.IODepthBatchCompleteMax == 0 {
		j.IODepthBatchCompleteMax = j.IODepthBatchCompleteMin
	}
	if j.IODepthLow == 0 || j.IODepthLow > j.IODepth {
		j.IODepthLow = j.IODepth
	}
	if j.IODepthBatchSubmit == 0 || j.IODepthBatchSubmit > j.IODepth {
		j.IODepthBatchSubmit = j.IODepth
	}
	if j.TimeBased && j.Runtime == 0 {
		j.TimeBased = false
		msg := "fio: time_based requires a runtime/timeout setting"
		b.errln(msg)
		if b.cfg.WarningsFatal {
			return &Error{Msg: msg}
		}
	}
	return nil
}

// checkWaitFor checks wait_for against the jobs added before this one.
func (b *Builder) checkWaitFor(j *Job) error {
	if j.WaitFor == j.Name {
		return b.fail(fmt.Sprintf("%s: a job cannot wait for itself (wait_for=%s).", j.Name, j.WaitFor))
	}
	n := 0
	for _, o := range b.origins {
		if o.Name == j.WaitFor {
			n++
		}
	}
	switch {
	case n == 0:
		return b.fail(fmt.Sprintf("%s: waitee job %s unknown.", j.Name, j.WaitFor))
	case n > 1:
		return b.fail(fmt.Sprintf("%s: multiple waitees %s found,\nplease avoid duplicates when using wait_for option.", j.Name, j.WaitFor))
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

// priority is an option's place in fio's per-section ordering: kb_base,
// unit_base, lockfile and cpus_allowed_policy first, filename and
// filename_format last, everything else in file order. Aliases count as
// their option; unknown keys have priority 0.
func priority(name string) int {
	if o, ok := Lookup(name); ok {
		name = o.Name
	}
	switch name {
	case "kb_base", "unit_base", "lockfile", "cpus_allowed_policy":
		return 1
	case "filename", "filename_format":
		return -1
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
