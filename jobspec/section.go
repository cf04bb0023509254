package jobspec

// This file applies one job-file section (or command-line option) to a
// job as fio does, with fio's messages and --showcmd output.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/parser"
)

// lookup finds a general option, or else a profile option, by name or
// alias.
func lookup(name string) (*Option, bool) {
	if o, ok := Lookup(name); ok {
		return o, true
	}
	return lookupProfileOption(name)
}

// applied is an option that was set, for --showcmd and JSON: its
// definition and its index in the section.
type applied struct {
	def *Option
	i   int
}

// section applies a job-file section to j as fio does: notes and bc
// messages first, then the options sorted by priority, general options
// before the ioengine's private ones (which need the engine the section
// ends up with); keys that are neither are "Bad option". Every option is
// tried even after one failed; then the section is dropped. A section may
// hold millions of options: they are read in place (sec.Option), never
// copied.
func (b *Builder) section(j *Job, sec parser.Section) error {
	if debuglog.On(debuglog.Parse) {
		debugSection(sec)
	}
	for _, n := range sec.Notes {
		b.errln(n)
	}
	n := sec.NumOptions()
	prio := make([]int8, n) // the options in priority order: a stable sort
	for i := range n {
		o := sec.Option(i)
		for _, d := range o.MathDiags {
			b.errln(d)
		}
		prio[i] = int8(priority(o.Name))
	}

	failed := false
	done := make([]applied, 0, n)
	var later []applied
	var unknown []int
	for _, p := range [...]int8{1, 0, -1} {
		for i := range n {
			if prio[i] != p {
				continue
			}
			o := sec.Option(i)
			if o.MathFailed {
				b.errln("fio: failed parsing " + o.Raw)
				failed = true
				continue
			}
			def, ok := lookup(o.Name)
			if !ok {
				unknown = append(unknown, i)
				continue
			}
			if !b.setOption(j, def, o, sec.Global) {
				b.errln("fio: failed parsing " + o.Raw)
				failed = true
				continue
			}
			done = append(done, applied{def, i})
		}
	}
	if len(unknown) > 0 {
		engine, known := ResolveEngine(j.IOEngine)
		if !known {
			b.engineNotLoadable(j.IOEngine, !sec.Global)
		}
		for _, i := range unknown {
			o := sec.Option(i)
			if eo, ok := lookupEngineOption(engine, o.Name); ok && known {
				if !b.setOption(j, eo, o, sec.Global) {
					b.errln("fio: failed parsing " + o.Name)
					failed = true
					continue
				}
				later = append(later, applied{eo, i})
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
	if !failed && sec.File == "-" {
		for _, a := range done {
			if a.def.Name == "read_iolog" && sec.Option(a.i).Value == "-" {
				b.errln("fio: only one user (read_iolog_file/job file) of stdin is permitted at once but more than one was found.")
				failed = true
			}
		}
	}
	if failed {
		return b.fail(fmt.Sprintf("fio: job %s dropped", sec.Name))
	}
	all := append(done, later...)
	if b.cfg.ShowCmd {
		var args []string
		for _, a := range all {
			args = append(args, showArg(a.def, sec.Option(a.i)))
		}
		if sec.Global {
			// fio keeps one list of the global options and prints all
			// of it for every [global] section, the command line's
			// included.
			b.globalArgs = append(b.globalArgs, args...)
			args = b.globalArgs
		}
		fmt.Fprint(b.stdout(), strings.Join(args, ""))
	}
	if b.cfg.Resolve {
		own := make([]ResolvedOption, 0, len(all))
		for _, a := range all {
			own = append(own, resolveOption(a.def, sec.Option(a.i), sec.Global, j.KBBase))
		}
		if sec.Global {
			b.globalResolved = append(b.globalResolved, own...)
		} else {
			b.keepResolved(j, sec.Name, sec.Pos, own)
		}
	}
	if !sec.Global && b.cfg.DryRun {
		return nil // the job is not kept (addJob)
	}
	raw := rawOptions(&sec, all)
	if sec.Global {
		if n > 0 && b.plan.GlobalOptions == nil {
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
func rawOptions(sec *parser.Section, all []applied) []RawOption {
	out := make([]RawOption, 0, len(all))
	for _, a := range all {
		o := sec.Option(a.i)
		if !o.HasValue || o.Value == "" {
			continue
		}
		out = append(out, RawOption{Name: a.def.Name, Value: o.Value})
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
// messages for it and, if fio accepts it, stores it in j. Values gofio
// refuses on purpose (*RefusedError) are noted in j.Unsupported.
func (b *Builder) setOption(j *Job, def *Option, o parser.Option, global bool) bool {
	r := reader{job: j, dry: b.cfg.DryRun, readOnly: b.cfg.ReadOnly}
	if debuglog.On(debuglog.Parse) {
		debugOption(def, o.Value, o.HasValue, r.kbBase())
	}
	ok := r.read(def, o.Value, o.HasValue)
	b.print(r.notes)
	if !ok {
		return false
	}
	if w := misread(def, o.Name, o.Value, o.HasValue, r.kbBase()); w != "" {
		b.misreads = append(b.misreads, Misread{Pos: o.Pos, Option: def.Name, Value: o.Value, Message: w})
		if b.cfg.Lint {
			b.errln(lintLine(o.Pos, w))
		} else {
			b.errln(w)
			b.plan.Warnings = append(b.plan.Warnings, w)
		}
	}
	switch {
	case def.Engine != "":
		// The reader took the value with fio's checks, and the engine
		// setters store what fio stores; one that cannot is fio's
		// "failed parsing".
		return setEngineOption(j, def, o.Value) == nil
	case def.Profile != "":
		return true
	case def.Name == "ioengine":
		old, _ := ResolveEngine(j.IOEngine)
		if err := def.Set(j, o.Value); err != nil {
			return false
		}
		if now, _ := ResolveEngine(j.IOEngine); now != old {
			j.EngineOptions = defaultIOEngineOptions() // fio drops the old engine's options
		}
		return true
	case def.Kind == KindSoftDeprecated:
		return true // fio accepts these with a notice and ignores them
	case def.Set == nil:
		// Every row has a setter (TestEveryRowHasSetter).
		j.Unsupported = append(j.Unsupported, &RefusedError{Option: def.Name, Reason: "internal error: gofio has no setter for this option"})
		return true
	}
	var err error
	if def.store != nil {
		err = def.store.store(def, j, o.Value, r.got) // the value as read: parsed once
	} else {
		err = def.Set(j, o.Value)
	}
	if err != nil {
		// fio accepted the value (read decided that, with fio's
		// messages); a setter refuses only a value gofio refuses on
		// purpose, which is an error when the job runs.
		re := &RefusedError{Option: def.Name, Value: o.Value, Reason: "internal error: " + err.Error()}
		errors.As(err, &re)
		if re.Option == "" {
			re.Option = def.Name
		}
		if re.Value == "" && o.HasValue {
			re.Value = o.Value
		}
		j.Unsupported = append(j.Unsupported, re)
	}
	return true
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
	return parser.Closest(key, names, len(key)/8)
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
