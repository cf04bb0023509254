package jobspec

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gofio/gofio/parser"
)

// Source is one origin of sections: the command line or one job file.
type Source struct {
	Sections []parser.Section
	// CommandLine marks the sections built from argv: their options apply
	// in the order written, without job-file priority sorting.
	CommandLine bool
}

// Plan is the set of jobs to run.
type Plan struct {
	Jobs []*Job
	// GlobalOptions are the options of the global sections as typed (JSON
	// "global options"); nil when there were none.
	GlobalOptions []RawOption
	// Warnings are lines fio prints on stderr while adding the jobs.
	Warnings []string
}

// Error is a problem with the jobs as written. Its text is what fio
// prints (without a trailing newline); Hint, if set, is one more line of
// advice that gofio adds.
type Error struct {
	Msg  string
	Hint string
}

func (e *Error) Error() string { return e.Msg }

// Build turns parsed sections into jobs, as fio does: global sections set
// the running defaults, each job section starts from a copy of them,
// numjobs clones jobs, stonewall and new_group number the groups. The
// command line's globals carry into the first job file only; later files
// start from fio's defaults and with an implicit stonewall.
func Build(sources []Source) (*Plan, error) {
	p := &Plan{}
	var cliGlobals *Job
	group := 0
	for si, src := range sources {
		global := defaults()
		switch {
		case src.CommandLine:
		case si == 0 || (si == 1 && sources[0].CommandLine):
			if cliGlobals != nil {
				global = cliGlobals.clone()
			}
		}
		firstOfFile := true
		for _, sec := range src.Sections {
			isGlobal := sec.Global || strings.HasPrefix(sec.Name, "global")
			if isGlobal {
				if err := apply(global, sec, src.CommandLine, true); err != nil {
					return nil, err
				}
				if p.GlobalOptions == nil && len(sec.Options) > 0 {
					p.GlobalOptions = []RawOption{}
				}
				p.GlobalOptions = append(p.GlobalOptions, rawOptions(sec, src.CommandLine)...)
				continue
			}
			j := global.clone()
			j.Options = nil
			j.Section, j.Name = sec.Name, sec.Name
			if err := apply(j, sec, src.CommandLine, false); err != nil {
				return nil, err
			}
			j.Options = rawOptions(sec, src.CommandLine)
			if src.CommandLine && (len(j.Options) == 0 || j.Options[0].Name != "name") {
				j.Options = append([]RawOption{{Name: "name", Value: sec.Name}}, j.Options...)
			}
			if firstOfFile && si > 0 && !(si == 1 && sources[0].CommandLine) {
				j.Stonewall = true
			}
			firstOfFile = false
			if len(p.Jobs) > 0 && (j.Stonewall || j.NewGroup) {
				group++
			}
			j.GroupID = group
			p.Warnings = append(p.Warnings, validate(j)...)
			p.Jobs = append(p.Jobs, j)
			for k := j.NumJobs - 1; k >= 1; k-- {
				c := j.clone()
				c.JobNum = k
				c.Stonewall, c.NewGroup = false, false
				p.Jobs = append(p.Jobs, c)
			}
		}
		if src.CommandLine {
			cliGlobals = global
		}
	}
	if len(p.Jobs) == 0 {
		return nil, &Error{Msg: "No job(s) defined"}
	}
	return p, nil
}

// apply sets the options of one section on j. Job-file sections are
// applied in fio's priority order; command-line ones as written.
func apply(j *Job, sec parser.Section, cmdline, global bool) error {
	opts := sec.Options
	if !cmdline {
		opts = append([]parser.Option(nil), opts...)
		sort.SliceStable(opts, func(a, b int) bool { return priority(opts[a].Name) > priority(opts[b].Name) })
	}
	var engineOpts []parser.Option
	for _, o := range opts {
		def, ok := Lookup(o.Name)
		if !ok {
			if isEngineOption(j.IOEngine, o.Name) {
				engineOpts = append(engineOpts, o)
				continue
			}
			return badOption(o, cmdline)
		}
		if err := set(j, def, o); err != nil {
			return err
		}
	}
	for _, o := range engineOpts {
		j.EngineOptions[o.Name] = o.Value
	}
	return nil
}

// set applies one option, turning setter errors into fio's messages.
func set(j *Job, def *Option, o parser.Option) error {
	if def.Kind == KindDeprecated {
		return &Error{Msg: fmt.Sprintf("Option %s is deprecated\nfio: failed parsing %s=%s", def.Name, def.Name, o.Value)}
	}
	if !o.HasValue && !def.Valueless() && def.Kind != KindString {
		return &Error{Msg: fmt.Sprintf("fio: failed parsing %s", def.Name)}
	}
	if def.Set == nil {
		return &UnsupportedError{Option: def.Name}
	}
	err := def.Set(j, o.Value)
	if err == nil {
		return nil
	}
	var ve *ValueError
	var re *rangeError
	switch {
	case errors.As(err, &ve):
		return &Error{Msg: ve.Error()}
	case errors.As(err, &re):
		return &Error{Msg: fmt.Sprintf("%s: %s\nfio: failed parsing %s=%s", def.Name, re, def.Name, o.Value)}
	case errors.Is(err, errChoice):
		var b strings.Builder
		for i, c := range def.Choices {
			label := ""
			if i == 0 {
				label = "valid values"
			}
			fmt.Fprintf(&b, "%20s: %-10s %s\n", label, c.Word, c.Help)
		}
		return &Error{Msg: fmt.Sprintf("%s\nfio: failed parsing %s=%s", b.String(), def.Name, o.Value)}
	}
	return &Error{Msg: fmt.Sprintf("fio: failed parsing %s=%s", def.Name, o.Value)}
}

// badOption is fio's message for an unknown key, plus a hint.
func badOption(o parser.Option, cmdline bool) error {
	e := &Error{}
	if cmdline {
		e.Msg = fmt.Sprintf("fio: unrecognized option '--%s'", o.Name)
	} else {
		line := o.Name
		if o.HasValue {
			line += "=" + o.Value
		}
		e.Msg = fmt.Sprintf("Bad option <%s>", line)
	}
	if c := closest(o.Name); c != "" {
		e.Hint = fmt.Sprintf("Did you mean %s?", c)
	}
	return e
}

// priority is an option's place in fio's per-section ordering.
func priority(name string) int {
	switch name {
	case "kb_base", "unit_base", "lockfile", "cpus_allowed_policy":
		return 1
	case "filename", "filename_format":
		return -1
	}
	return 0
}

// rawOptions lists a section's options for JSON: canonical names, values
// as typed, valueless options left out, in application order.
func rawOptions(sec parser.Section, cmdline bool) []RawOption {
	opts := sec.Options
	if !cmdline {
		opts = append([]parser.Option(nil), opts...)
		sort.SliceStable(opts, func(a, b int) bool {
			pa, pb := priority(opts[a].Name), priority(opts[b].Name)
			_, ka := Lookup(opts[a].Name)
			_, kb := Lookup(opts[b].Name)
			if ka != kb {
				return ka // engine options after all general ones
			}
			return pa > pb
		})
	}
	out := []RawOption{}
	for _, o := range opts {
		if !o.HasValue || o.Value == "" {
			continue
		}
		name := o.Name
		if def, ok := Lookup(name); ok {
			name = def.Name
		}
		out = append(out, RawOption{Name: name, Value: o.Value})
	}
	return out
}

// validate settles derived settings as fio does when it adds a job, and
// returns the warnings fio prints.
func validate(j *Job) (warnings []string) {
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
		warnings = append(warnings, "fio: time_based requires a runtime/timeout setting")
	}
	return warnings
}
