package parser

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
)

// Config holds what parsing a job file depends on besides the file itself.
// The zero Config is usable: no environment variables, this host's keyword
// values, the real file system, every section, the built-in bc.
type Config struct {
	// Env looks up environment variables for ${VAR} (os.LookupEnv for
	// fio's behaviour). nil: every variable is unset.
	Env func(name string) (string, bool)
	// Keywords are the values of $pagesize, $mb_memory and $ncpus; nil
	// means HostKeywords().
	Keywords *Keywords
	// Open opens job and include files; nil means os.Open.
	Open func(name string) (io.ReadCloser, error)
	// Exists reports whether a file exists (include resolution); nil means
	// os.Stat succeeds.
	Exists func(name string) bool
	// Sections are the --section values. When set, job sections with other
	// names are skipped entirely, as fio skips them: their lines are not
	// looked at (no include, no substitution, no error) and they are left
	// out of the result. Global sections are always kept. fio applies
	// --section to the first job file only.
	Sections []string
	// Math computes a value that needs bc (see EvalBC, the default). It
	// returns bc's output, the lines bc prints on stderr, and whether bc
	// printed anything.
	Math func(expr string) (out string, diags []string, ok bool)
	// MaxIncludeDepth bounds nested includes (fio recurses until it runs
	// out of file descriptors, then fails with "Too many open files").
	// Zero means 64.
	MaxIncludeDepth int
}

// ParseJobFile reads one job file with os.LookupEnv-style env (nil: no
// variables) and otherwise default settings. See Config.ParseJobFile.
func ParseJobFile(name string, r io.Reader, env func(string) (string, bool)) ([]Section, error) {
	c := Config{Env: env}
	return c.ParseJobFile(name, r)
}

// ParseJobFile reads one job file. name is the file's name as given on the
// command line ("-" for standard input); it is used in positions and
// messages and to resolve include directives. When r is nil the file is
// opened with Config.Open (standard input for "-"); failing that the error
// reads "fio: unable to open 'NAME' job file".
//
// The sections come back in file order, including global ones. On a fatal
// problem the sections read before it are returned with an *Error.
func (c *Config) ParseJobFile(name string, r io.Reader) ([]Section, error) {
	if r == nil {
		if name == "-" {
			r = os.Stdin
		} else {
			f, err := c.open(name)
			if err != nil {
				return nil, &Error{Pos: Pos{File: name}, Msg: fmt.Sprintf("fio: unable to open '%s' job file", name), Err: err}
			}
			defer f.Close()
			r = f
		}
	}
	p := &jobParser{cfg: c, file: name}
	if c.Keywords != nil {
		p.kw = *c.Keywords
	} else {
		p.kw = HostKeywords()
	}
	p.maxDepth = c.MaxIncludeDepth
	if p.maxDepth <= 0 {
		p.maxDepth = 64
	}
	err := p.run(r)
	return p.sections, err
}

func (c *Config) open(name string) (io.ReadCloser, error) {
	if c.Open != nil {
		return c.Open(name)
	}
	return os.Open(name)
}

func (c *Config) exists(name string) bool {
	if c.Exists != nil {
		return c.Exists(name)
	}
	_, err := os.Stat(name)
	return err == nil
}

type parseState int

const (
	outside  parseState = iota // before the first header, or after a failed include
	inside                     // collecting a section's lines
	skipping                   // in a section --section did not select
)

type jobParser struct {
	cfg      *Config
	file     string
	kw       Keywords
	maxDepth int
	sections []Section
	state    parseState
}

func (p *jobParser) cur() *Section { return &p.sections[len(p.sections)-1] }

func (p *jobParser) run(r io.Reader) error {
	lr := newLineReader(r)
	for {
		chunk, lineNo, ok := lr.next()
		if !ok {
			return nil
		}
		cl, ok := clean(chunk)
		if !ok {
			continue
		}
		pos := Pos{File: p.file, Line: lineNo}
		if cl.text[0] == '[' {
			if len(cl.text) > 1 {
				p.header(cl.text, pos)
				continue
			}
			// "[" alone: fio's header scan fails and the line is
			// reported as an option outside of any section. Inside a
			// skipped section fio is only looking for headers.
			if p.state == skipping {
				continue
			}
			return outsideError(cl.text, pos)
		}
		switch p.state {
		case skipping:
			continue
		case outside:
			return outsideError(cl.text, pos)
		}
		if strings.HasPrefix(cl.text, "include") {
			sec := p.cur()
			if name, ok := p.include(sec, cl.inc, p.file, 1); !ok {
				sec.Notes = append(sec.Notes, includeFailed(name))
				p.state = outside
			}
			continue
		}
		p.cur().Options = append(p.cur().Options, p.option(cl.text, pos))
	}
}

func outsideError(line string, pos Pos) *Error {
	return &Error{Pos: pos, Option: line, Msg: fmt.Sprintf("fio: option <%s> outside of [] job section", line)}
}

func includeFailed(name string) string {
	return "Error 1 while parsing include file " + name
}

// header starts a section. fio reads at most 255 bytes after the '[' and
// drops the last of them.
func (p *jobParser) header(line string, pos Pos) {
	name := line[1:]
	if len(name) > 255 {
		name = name[:255]
	}
	name = name[:len(name)-1]
	global := strings.HasPrefix(name, "global")
	if len(p.cfg.Sections) > 0 && !global && !slices.Contains(p.cfg.Sections, name) {
		p.state = skipping
		return
	}
	p.sections = append(p.sections, Section{Name: name, Global: global, Pos: pos, File: p.file})
	p.state = inside
}

// resolve finds an included file as fio does: the name as given if such a
// file exists, else the name appended to the directory part of the
// including file's name (everything up to its last '/': "a//t.fio" gives
// "a//x.fio", "../t.fio" with "/abs/x.fio" gives "..//abs/x.fio"). Names
// without a '/' (and stdin, "-") add nothing.
func (p *jobParser) resolve(name, from string) string {
	i := strings.LastIndexByte(from, '/')
	if i < 0 || p.cfg.exists(name) {
		return name
	}
	return from[:i+1] + name
}

// include inlines an included file into sec and returns the name it was
// resolved to. It reports false (after adding fio's notes) when the file
// cannot be opened, contains a section header or includes a file that
// fails; the rest of the file is then ignored.
func (p *jobParser) include(sec *Section, name, from string, depth int) (string, bool) {
	name = p.resolve(name, from)
	var f io.ReadCloser
	var err error
	if depth > p.maxDepth {
		err = &os.PathError{Op: "open", Path: name, Err: syscall.EMFILE}
	} else {
		f, err = p.cfg.open(name)
	}
	if err != nil {
		sec.Notes = append(sec.Notes, fmt.Sprintf("fio: unable to open '%s' job file", name))
		if sec.IncludeErr == nil {
			sec.IncludeErr = err
		}
		return name, false
	}
	defer f.Close()
	start := len(sec.Options)
	lr := newLineReader(f)
	for {
		chunk, lineNo, ok := lr.next()
		if !ok {
			return name, true
		}
		cl, ok := clean(chunk)
		if !ok {
			continue
		}
		if cl.text[0] == '[' {
			// fio also forgets what this file (and the files it
			// included) added; other failures keep it.
			sec.Options = sec.Options[:start]
			sec.Notes = append(sec.Notes, "No new sections in included files")
			return name, false
		}
		if strings.HasPrefix(cl.text, "include") {
			if sub, ok := p.include(sec, cl.inc, name, depth+1); !ok {
				sec.Notes = append(sec.Notes, includeFailed(sub))
				return name, false
			}
			continue
		}
		sec.Options = append(sec.Options, p.option(cl.text, Pos{File: name, Line: lineNo}))
	}
}

// option turns one cleaned option line into an Option: ${VAR} and keyword
// substitution, bc math, then the split at the first '='.
func (p *jobParser) option(line string, pos Pos) Option {
	o := Option{Pos: pos, Raw: line}
	exp := expandEnv(line, p.cfg.Env)
	exp, replaced := replaceKeywords(exp, p.kw)
	key, value, has := strings.Cut(exp, "=")
	if !has {
		o.Name = exp
		return o
	}
	if replaced && needsMath(exp, value) {
		math := p.cfg.Math
		if math == nil {
			math = EvalBC
		}
		out, diags, ok := math(value)
		o.MathDiags = diags
		if ok {
			value = out
		} else {
			o.MathFailed = true
		}
	}
	o.Name, o.Value, o.HasValue = stripEndString(key), value, true
	return o
}
