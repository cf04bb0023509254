package jobspec

// This file keeps, when Config.Resolve is set, every job that would run
// (numjobs clones included, dry runs too) with the options that made it:
// canonical name, value as substituted, where it was written and what it
// means (bytes, nanoseconds, percent). It also keeps each value fio would
// misread (warn.go) with its position, for gofio's lint mode.

import (
	"strings"

	"github.com/gofio/gofio/parser"
)

// ResolvedOption is one option applied to a job.
type ResolvedOption struct {
	// Name is the canonical name (fio's "job options" spelling), Value
	// the value as substituted; HasValue is false for a line without '='.
	Name     string
	Value    string
	HasValue bool
	// Global is set for an option inherited from [global] sections (or
	// the command line's options before the first --name).
	Global bool
	Pos    parser.Pos
	// Typed is what fio reads the value as, one entry per value of a
	// per-direction or low-high option; nil for text and choice options.
	Typed []TypedValue
}

// TypedValue is one value of an option in its unit.
type TypedValue struct {
	// Unit is "bytes", "ns", "percent", "count" or "bool".
	Unit  string
	Value int64
}

// ResolvedJob is one job that would run.
type ResolvedJob struct {
	Name    string // name=, or the section name
	Section string
	JobNum  int // 0 for the job, numjobs-1 down to 1 for its clones
	Pos     parser.Pos
	// Options are the global options the job inherits (in the order fio
	// prints them under --showcmd, all the [global] sections so far of
	// its file) then the job's own, each in the order fio applies them.
	Options []ResolvedOption
}

// Misread is a value fio 3.33 reads in a way users rarely mean (warn.go).
type Misread struct {
	Pos     parser.Pos
	Option  string // canonical name
	Value   string
	Message string // gofio's warning line
}

// Resolved returns the jobs kept under Config.Resolve, in run order.
func (b *Builder) Resolved() []ResolvedJob { return b.resolved }

// Misreads returns the misread values found so far.
func (b *Builder) Misreads() []Misread { return b.misreads }

// resolveOption returns the resolved form of option o read with def.
func resolveOption(def *Option, o parser.Option, global bool, kbBase int) ResolvedOption {
	r := ResolvedOption{Name: def.Name, Value: o.Value, HasValue: o.HasValue, Global: global, Pos: o.Pos}
	if o.HasValue && o.Value != "" {
		r.Typed = typedValues(def, o.Value, kbBase)
	}
	return r
}

// keepResolved records job j of section sec with its options, and its
// numjobs-1 clones.
func (b *Builder) keepResolved(j *Job, name string, pos parser.Pos, own []ResolvedOption) {
	opts := make([]ResolvedOption, 0, len(b.globalResolved)+len(own))
	opts = append(opts, b.globalResolved...)
	opts = append(opts, own...)
	n := max(j.NumJobs, 1)
	for k := range n {
		num := 0
		if k > 0 {
			num = n - k
		}
		b.resolved = append(b.resolved, ResolvedJob{Name: j.Name, Section: name, JobNum: num, Pos: pos, Options: opts})
	}
}

// typedValues reads value as fio does for an option of def's kind.
func typedValues(def *Option, value string, kbBase int) []TypedValue {
	timeUnit := def.Unit
	switch def.Kind {
	case KindTimeSec:
		timeUnit = second
	case KindTimeUsec:
		timeUnit = usec
	case KindSize, KindSizePct, KindSizeRange, KindInt, KindInt64, KindBool, KindRange:
	default:
		return nil
	}
	var out []TypedValue
	for _, part := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ':' }) {
		toks := []string{part}
		if def.LowHigh || def.Kind == KindSizeRange || def.Kind == KindRange {
			if i := strings.IndexByte(part[min(1, len(part)):], '-'); i >= 0 {
				toks = []string{part[:i+1], part[i+2:]}
			}
		}
		for _, tok := range toks {
			if strings.HasPrefix(tok, "(") {
				continue // an expression: see Value
			}
			switch {
			case timeUnit != 0:
				us, err := parseTimeInt(tok, timeUnit)
				if err != nil {
					return out
				}
				out = append(out, TypedValue{"ns", us * 1000})
			case def.Kind == KindBool:
				v, _, err := parseInt(tok)
				if err != nil {
					return out
				}
				out = append(out, TypedValue{"bool", v})
			default:
				s, err := parseSize(tok, kbBase)
				if err != nil {
					return out
				}
				unit := "bytes"
				switch {
				case s.Percent, def.Kind == KindInt && def.lim.min == 0 && def.lim.max == 100:
					unit = "percent"
				case def.Kind == KindInt:
					unit = "count"
				}
				out = append(out, TypedValue{unit, s.N})
			}
		}
	}
	return out
}

// lintLine is a misread warning as the lint's error: "FILE:LINE: error:
// ...", the command line's "<cmdline>: argument N: error: ...".
func lintLine(pos parser.Pos, warning string) string {
	return pos.String() + ": error: " + strings.TrimPrefix(warning, "gofio: ")
}
