// Package jobspec knows every option of fio 3.33: one table (options.go)
// holds each option's name, alias, kind, default, help and choices, and a
// typed setter for the options gofio honours; profileopts.go and
// engineopts.go hold the options of fio's built-in profiles and the
// private options of its ioengines. The tables drive value parsing and
// validation with fio's messages (read.go, handlers.go), the help output
// and --showcmd, and turn the raw sections of the parser into typed Job
// values (build.go).
package jobspec

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is how an option's value is written. The kinds mirror fio's option
// types (reference: cli-and-jobfiles.md §3.1).
type Kind uint8

// The option kinds.
const (
	KindString         Kind = iota // free text stored as written (fio: store)
	KindChoice                     // one word of Choices, maybe with :params
	KindSize                       // integer with size suffix, 64-bit
	KindSizePct                    // size, N% or Nz
	KindSizeRange                  // size, or lo-hi sizes (filesize)
	KindTimeSec                    // time, seconds by default
	KindTimeUsec                   // time, microseconds by default
	KindInt                        // 32-bit integer (size suffixes allowed)
	KindBool                       // 0 or 1
	KindFlag                       // no value, or a number
	KindRange                      // lo-hi ranges, per direction
	KindFloatList                  // ':'-separated floats
	KindMultiChoice                // sync_file_range: ','-separated words
	KindSplit                      // bssplit-like lists
	KindDeprecated                 // refused with a notice
	KindUnsupported                // not in fio's Linux build (unused: fio does not know them)
	KindInt64                      // 64-bit unsigned integer (bs, rate…)
	KindText                       // text read by a handler (cpus_allowed, ignore_error…)
	KindSoftDeprecated             // accepted with a notice, no effect
)

// Choice is one allowed word of a choice option.
type Choice struct {
	Word, Help string
}

// Option is one row of the options table.
type Option struct {
	Name  string
	Alias string
	Kind  Kind
	// PerDir marks options taking up to three comma-separated values for
	// read, write and trim.
	PerDir bool
	// LowHigh marks options taking a low and a high value (filesize,
	// startdelay).
	LowHigh bool
	// Unit is the default time unit, in microseconds, of an integer option
	// that takes time values (thinktime); 0 for plain numbers.
	Unit int64
	// MaxLen is the most values a float list takes.
	MaxLen int
	// Type, Default and Range are the texts --cmdhelp prints; Range also
	// gives the limits values are checked against.
	Type    string
	Default string
	// EmptyDefault marks a default that is the empty string (--cmdhelp
	// prints "default: " rather than "no default").
	EmptyDefault bool
	Range        string
	Help         string
	Parent       string
	Choices      []Choice
	// Honoured, when set, is the range of an integer option gofio
	// honours where it is narrower than fio's Range (a gofio-only
	// limit): the setter refuses a value fio takes outside it with a
	// *RefusedError saying why, and stores nothing.
	Honoured *Bounds
	// Hidden options are left out of --cmdhelp=all.
	Hidden bool
	// Engine names the ioengine an engine-private option belongs to;
	// Profile the built-in profile a profile option belongs to.
	Engine  string
	Profile string
	// Set applies a value to a job; nil when gofio does not honour the
	// option yet. For a row with a typed setter (store) init makes it:
	// the value is read with the row's kind and checks, then stored.
	Set func(j *Job, value string) error
	// store is the row's typed setter: it stores a value as the reader
	// read it (so a value is parsed once), taking the bounds, choices
	// and limits from the row.
	store storer

	lim limits
}

// limits are the bounds fio checks values against. fio treats a bound of
// 0 as "none".
type limits struct {
	min, max       int64
	minF, maxF     float64
	hasMinF, hasMF bool
}

// Bounds is a range of integer values, both ends included.
type Bounds struct {
	Min, Max int64
	// Why says why gofio's range is narrower than fio's.
	Why string
}

// Valueless reports whether the option may be given without a value.
func (o *Option) Valueless() bool { return o.Kind == KindFlag }

var byName = map[string]*Option{}

func init() {
	add := func(name string, o *Option) {
		if _, dup := byName[name]; dup {
			panic("jobspec: duplicate option name " + name)
		}
		byName[name] = o
	}
	for i := range options {
		o := &options[i]
		o.lim = parseLimits(o.Range)
		add(o.Name, o)
		if o.Alias != "" {
			add(o.Alias, o)
		}
	}
	for i := range profileOptions {
		profileOptions[i].lim = parseLimits(profileOptions[i].Range)
	}
	for i := range options {
		options[i].bindStore()
	}
	for i := range profileOptions {
		profileOptions[i].bindStore()
	}
	initEngines()
	checkChoiceArity()
}

// parseLimits reads a --cmdhelp range text ("min=1, max=-1",
// "min=0.000000, max=100.000000"). "max=-1" is fio's way of printing its
// implicit 32-bit maximum, which no 32-bit value exceeds.
func parseLimits(r string) limits {
	var l limits
	for _, part := range strings.Split(r, ", ") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		if strings.Contains(v, ".") {
			f, _ := strconv.ParseFloat(v, 64)
			if k == "min" {
				l.minF, l.hasMinF = f, true
			} else {
				l.maxF, l.hasMF = f, true
			}
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		if k == "min" {
			l.min = n
		} else if n != -1 {
			l.max = n
		}
	}
	return l
}

// Lookup returns the general option named name (or one of its aliases).
// Profile and engine options are not general options; see
// LookupProfileOption and EngineOptions.
func Lookup(name string) (*Option, bool) {
	o, ok := byName[name]
	return o, ok
}

// Options returns the table in fio's order.
func Options() []Option { return options }

// ValueError is a value an option does not accept. Its text is fio's.
type ValueError struct {
	Option, Value string
	Detail        string // fio's explanation line(s), printed before
}

func (e *ValueError) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("%s\nfio: failed parsing %s=%s", e.Detail, e.Option, e.Value)
	}
	return fmt.Sprintf("fio: failed parsing %s=%s", e.Option, e.Value)
}

// RefusedError is a value fio 3.33 takes that gofio refuses on purpose:
// fio aborts, crashes, hangs or gives garbage on it, or the machine lacks
// what it needs. Reason says which, and how to get what was meant; every
// refusal has a row in docs/compat.md.
type RefusedError struct {
	Option string
	// Value is the value refused, as written ("" for the option alone).
	Value string
	// Reason says why gofio refuses it; it is never empty.
	Reason string
}

func (e *RefusedError) Error() string {
	what := e.Option
	if e.Value != "" {
		what += "=" + e.Value
	}
	reason := e.Reason
	if reason == "" {
		reason = "internal error: no reason given"
	}
	return fmt.Sprintf("gofio: %s is refused: %s", what, reason)
}
