// Package jobspec knows every option of fio 3.33: one table (options.go)
// holds each option's name, alias, kind, default, help and choices, and a
// typed setter for the options gofio honours. The table drives value
// parsing, validation and the help output, and turns the raw sections of
// the parser into typed Job values.
package jobspec

import (
	"fmt"
	"strings"
)

// Kind is how an option's value is written.
type Kind uint8

// The option kinds (reference: cli-and-jobfiles.md §3.1).
const (
	KindString      Kind = iota // free text
	KindChoice                  // one word of Choices, maybe with :params
	KindSize                    // integer with size suffix
	KindSizePct                 // size, N% or Nz
	KindSizeRange               // lo-hi sizes
	KindTimeSec                 // time, seconds by default
	KindTimeUsec                // time, microseconds by default
	KindInt                     // integer (size suffixes allowed)
	KindBool                    // 0 or 1
	KindFlag                    // no value, or a number
	KindRange                   // lo-hi ranges, per direction
	KindFloatList               // ':'-separated floats
	KindMultiChoice             // sync_file_range
	KindSplit                   // bssplit-like lists
	KindDeprecated              // accepted or rejected with a notice
	KindUnsupported             // not in fio's Linux build
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
	// Type, Default and Range are the texts --cmdhelp prints.
	Type    string
	Default string
	Range   string
	Help    string
	Parent  string
	Choices []Choice
	// Hidden options are left out of --cmdhelp=all.
	Hidden bool
	// Engine names the ioengine an engine-private option belongs to.
	Engine string
	// Set applies a value to a job; nil when gofio does not honour the
	// option yet.
	Set func(j *Job, value string) error
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
		add(o.Name, o)
		if o.Alias != "" {
			add(o.Alias, o)
		}
	}
}

// Lookup returns the option named name (or one of its aliases).
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

// UnsupportedError is an option fio knows that gofio does not honour yet.
type UnsupportedError struct {
	Option string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("gofio: option %s is not supported yet", e.Option)
}

// closest returns the known option name nearest to name (for hints), or "".
func closest(name string) string {
	best, bestD := "", 3
	for n := range byName {
		if d := editDistance(strings.ToLower(name), n); d < bestD || d == bestD && n < best {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
