package parser

import (
	"errors"
	"fmt"
	"syscall"
)

// CmdlineFile is the Pos.File of everything that comes from argv.
const CmdlineFile = "<cmdline>"

// Pos is where an option or section was written. For job files Line is the
// 1-based line number in File (a line that fio splits because it is longer
// than 8191 bytes keeps one number). For the command line File is
// CmdlineFile and Line is the index in argv, argv[0] being the program, so
// the first argument is 1 (the zero Pos means "unknown"). Ordering the Fio
// options and the command-line sections' options by Line gives the order in
// which fio processes them.
type Pos struct {
	File string
	Line int
}

func (p Pos) String() string {
	if p.File == "" && p.Line == 0 {
		return "-"
	}
	if p.File == CmdlineFile {
		return fmt.Sprintf("%s: argument %d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// Option is one raw option.
type Option struct {
	// Name is the key as fio matches it: for job files the text before the
	// first '=' (after substitution) without trailing blanks, or the whole
	// line when there is no '='; for the command line the name of the
	// getopt table entry that matched (prefixes expanded, aliases kept:
	// "--blocksize" stays "blocksize"). Case is kept: fio's option names
	// are case-sensitive.
	Name string
	// Value is the text after the first '=' after ${VAR}, keyword and bc
	// substitution, leading blanks included.
	Value string
	// HasValue distinguishes "time_based" (false) from "time_based=" (true,
	// empty Value). On the command line, optional arguments (flag options,
	// --cmdhelp, ...) only have a value when attached with '='.
	HasValue bool
	// MathFailed is set when the value had to be computed by bc and bc
	// produced no result. fio then reports "fio: failed parsing " + Raw for
	// this option whatever the option is (even an unknown key) and drops
	// the job.
	MathFailed bool
	Pos        Pos
	// Raw is the option as written, for messages: the job-file line after
	// comment stripping and trimming but before any substitution (fio
	// prints this form in "fio: failed parsing LINE" and "Bad option
	// <LINE>"), or the argv element that named the option.
	Raw string
	// MathDiags are the lines bc would print on stderr while computing the
	// value (errors and warnings). fio prints them for all lines of a
	// section, in file order, before it parses the section's options.
	MathDiags []string
}

// Line is the option as "name" or "name=value", after substitution.
func (o Option) Line() string {
	if !o.HasValue {
		return o.Name
	}
	return o.Name + "=" + o.Value
}

// Section is one [section] of a job file, or one job (or the global part)
// of the command line.
type Section struct {
	// Name is the section name (job files: see the package comment; command
	// line: the --name value, or "global" for the options before the first
	// --name).
	Name string
	// Global is true for sections whose name starts with "global".
	Global bool
	// Options in the order written, included files inlined where the
	// include directive was. Command-line job sections start with their
	// "name" option. Sections from JobFile.Sections keep their options
	// compactly and leave Options nil: NumOptions and Option read the
	// options of every section.
	Options []Option
	// Pos is the position of the header (job files) or of the --name
	// argument (command line).
	Pos Pos
	// File is the job file the section belongs to (the name as given to
	// ParseJobFile, "-" for stdin), or CmdlineFile.
	File string
	// Notes are messages fio prints on stderr while it reads this section,
	// before it parses the section's options: failed include directives
	// ("fio: unable to open 'X' job file", "No new sections in included
	// files", "Error 1 while parsing include file X"). They are not errors:
	// the section ends at the failed include (later option lines of the
	// same section are then outside of any section, which is an error) and
	// fio goes on.
	Notes []string
	// IncludeErr is the error of an included file that could not be opened.
	// fio keeps the job but marks it failed: at the end it prints
	// "fio: file:init.c:1956, func=job file open, error=<strerror>" (on
	// stdout) and the run exits with status 1; --parse-only and --showcmd
	// still exit 0. Errno returns the errno.
	IncludeErr error

	packed *packedOptions // the options, when Options is not used
}

// Errno returns the errno of an I/O error such as Section.IncludeErr, or 0.
func Errno(err error) syscall.Errno {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return 0
}

// Error is a fatal problem in a job file. Msg is fio's message; print it on
// stderr followed by a newline. Sections parsed before the problem are
// returned along with it: fio processes those first (and stops at the first
// of them that fails), so report Error only once they have been handled.
type Error struct {
	Pos Pos
	// Option is the offending line as written, if any.
	Option string
	Msg    string
	// Err is the underlying I/O error, if any.
	Err error
}

func (e *Error) Error() string { return e.Msg }

func (e *Error) Unwrap() error { return e.Err }
