package parser

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"iter"
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
	// Zero means DefaultMaxIncludeDepth.
	MaxIncludeDepth int

	// maxStream, when positive, replaces maxStreamBytes (tests).
	maxStream int64
}

// DefaultMaxIncludeDepth is how deeply includes may nest. fio has no limit
// of its own: it keeps every file of the chain open and fails when it runs
// out of file descriptors, which under the usual "ulimit -n" of 1024 is
// when it opens the 1019th nested file.
const DefaultMaxIncludeDepth = 1018

// maxStreamBytes bounds what is read from a job or include file that is
// not a regular file (a device, a pipe): /dev/zero never ends.
const maxStreamBytes = 256 << 20

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
// problem the sections read before it are returned with an *Error. It
// holds the whole file in memory; JobFile.Sections reads one section at a
// time.
func (c *Config) ParseJobFile(name string, r io.Reader) ([]Section, error) {
	jf, err := c.OpenJobFile(name, r)
	if err != nil {
		return nil, err
	}
	defer jf.Close()
	var secs []Section
	for sec := range jf.Sections() {
		sec.unpack()
		secs = append(secs, sec)
	}
	return secs, jf.Err()
}

// A JobFile is a job file being read section by section, so that a big
// file need not be held in memory: fio too handles each section before it
// reads the next.
type JobFile struct {
	p      *jobParser
	r      io.Reader
	closer io.Closer
	err    error
	used   bool
}

// OpenJobFile opens a job file for JobFile.Sections. name and r are as for
// ParseJobFile; the only error is the *Error for a file that cannot be
// opened.
func (c *Config) OpenJobFile(name string, r io.Reader) (*JobFile, error) {
	jf := &JobFile{r: r}
	if r == nil {
		if name == "-" {
			jf.r = os.Stdin
		} else {
			f, err := c.open(name)
			if err != nil {
				return nil, &Error{Pos: Pos{File: name}, Msg: fmt.Sprintf("fio: unable to open '%s' job file", name), Err: err}
			}
			jf.r, jf.closer = f, f
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
		p.maxDepth = DefaultMaxIncludeDepth
	}
	p.maxStream = c.maxStream
	if p.maxStream <= 0 {
		p.maxStream = maxStreamBytes
	}
	jf.p = p
	return jf, nil
}

// Sections yields the sections of the file in file order, global ones
// included, each once it is complete. It reads the file as it goes and
// stops reading when the loop ends early. A fatal problem ends the
// sequence after the sections before it; Err returns it. Sections can be
// ranged over once.
func (jf *JobFile) Sections() iter.Seq[Section] {
	return func(yield func(Section) bool) {
		if jf.used {
			return
		}
		jf.used = true
		jf.err = jf.p.run(jf.r, yield)
	}
}

// Err is the fatal problem that ended Sections, an *Error, or nil.
func (jf *JobFile) Err() error { return jf.err }

// Close closes the file if OpenJobFile opened it.
func (jf *JobFile) Close() error {
	if jf.closer == nil {
		return nil
	}
	err := jf.closer.Close()
	jf.closer = nil
	return err
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
	cfg       *Config
	file      string
	kw        Keywords
	maxDepth  int
	maxStream int64
	sec       Section // the section being read, if have
	pk        packer
	have      bool
	stopped   bool // yield returned false
	state     parseState
}

func (p *jobParser) cur() *Section { return &p.sec }

// flush hands the section read so far to yield. It reports false when
// the consumer wants no more.
func (p *jobParser) flush(yield func(Section) bool) bool {
	if !p.have {
		return true
	}
	p.pk.seal(p.sec.packed)
	sec := p.sec
	p.sec, p.have = Section{}, false
	if !yield(sec) {
		p.stopped = true
	}
	return !p.stopped
}

func (p *jobParser) run(r io.Reader, yield func(Section) bool) error {
	lim := p.limit(r)
	lr := newLineReader(lim)
	for {
		chunk, lineNo, ok := lr.next()
		if !ok {
			break
		}
		cl, ok := clean(chunk)
		if !ok {
			continue
		}
		pos := Pos{File: p.file, Line: lineNo}
		if cl.text[0] == '[' {
			if len(cl.text) > 1 {
				if !p.flush(yield) {
					return nil
				}
				p.header(string(cl.text), pos)
				continue
			}
			// "[" alone: fio's header scan fails and the line is
			// reported as an option outside of any section. Inside a
			// skipped section fio is only looking for headers.
			if p.state == skipping {
				continue
			}
			p.flush(yield)
			return outsideError(string(cl.text), pos)
		}
		switch p.state {
		case skipping:
			continue
		case outside:
			p.flush(yield)
			return outsideError(string(cl.text), pos)
		}
		if bytes.HasPrefix(cl.text, []byte("include")) {
			sec := p.cur()
			name, ok, err := p.include(sec, cl.inc, pos, 1)
			if err != nil {
				p.flush(yield)
				return err
			}
			if !ok {
				sec.Notes = append(sec.Notes, includeFailed(name))
				p.state = outside
			}
			continue
		}
		p.add(p.cur(), cl.text, pos)
	}
	if err := lim.err("job file", p.file, Pos{File: p.file}); err != nil {
		p.flush(yield)
		return err
	}
	p.flush(yield)
	return nil
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
	p.sec, p.have = Section{Name: name, Global: global, Pos: pos, File: p.file, packed: &packedOptions{}}, true
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
// resolved to; at is the include directive. It reports false (after
// adding fio's notes) when the file cannot be opened, contains a section
// header or includes a file that fails; the rest of the file is then
// ignored. It returns an *Error, which ends the job file, for a directory
// (fio crashes) and for a file that is not a regular file and does not
// end (fio reads /dev/zero forever).
func (p *jobParser) include(sec *Section, name string, at Pos, depth int) (string, bool, error) {
	name = p.resolve(name, at.File)
	if depth > p.maxDepth {
		// fio fails to open the file once it runs out of file
		// descriptors, and reports EMFILE at the end of the run.
		sec.Notes = append(sec.Notes, fmt.Sprintf("fio: unable to include '%s': includes are nested more than %d levels deep", name, p.maxDepth))
		if sec.IncludeErr == nil {
			sec.IncludeErr = &os.PathError{Op: "open", Path: name, Err: syscall.EMFILE}
		}
		return name, false, nil
	}
	f, err := p.cfg.open(name)
	if err != nil {
		sec.Notes = append(sec.Notes, fmt.Sprintf("fio: unable to open '%s' job file", name))
		if sec.IncludeErr == nil {
			sec.IncludeErr = err
		}
		return name, false, nil
	}
	defer f.Close()
	if st, ok := f.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.IsDir() {
			return name, false, &Error{Pos: at, Option: "include " + name,
				Msg: fmt.Sprintf("fio: cannot include '%s': it is a directory", name), Err: syscall.EISDIR}
		}
	}
	lim := p.limit(f)
	start := len(sec.packed.entries)
	lr := newLineReader(lim)
	for {
		chunk, lineNo, ok := lr.next()
		if !ok {
			return name, true, lim.err("include file", name, at)
		}
		cl, ok := clean(chunk)
		if !ok {
			continue
		}
		if cl.text[0] == '[' {
			// fio also forgets what this file (and the files it
			// included) added; other failures keep it.
			sec.packed.entries = sec.packed.entries[:start]
			sec.Notes = append(sec.Notes, "No new sections in included files")
			return name, false, nil
		}
		if bytes.HasPrefix(cl.text, []byte("include")) {
			sub, ok, err := p.include(sec, cl.inc, Pos{File: name, Line: lineNo}, depth+1)
			if err != nil {
				return name, false, err
			}
			if !ok {
				sec.Notes = append(sec.Notes, includeFailed(sub))
				return name, false, nil
			}
			continue
		}
		p.add(sec, cl.text, Pos{File: name, Line: lineNo})
	}
}

// limit bounds what is read from r when it is not a regular file (a
// device, a pipe): past p.maxStream bytes reading stops and lim.err
// reports it. Regular files and readers that cannot tell are read whole.
func (p *jobParser) limit(r io.Reader) *limitedReader {
	lim := &limitedReader{r: r, max: -1}
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			lim.max = p.maxStream
		}
	}
	return lim
}

// limitedReader reads at most max bytes (max < 0: no limit) and notes
// whether r had more.
type limitedReader struct {
	r    io.Reader
	max  int64
	n    int64
	over bool
}

func (l *limitedReader) Read(b []byte) (int, error) {
	if l.max < 0 {
		return l.r.Read(b)
	}
	if l.n >= l.max {
		// One more byte tells a file of exactly max bytes from a longer one.
		var one [1]byte
		if n, _ := io.ReadFull(l.r, one[:]); n > 0 {
			l.over = true
		}
		return 0, io.EOF
	}
	if left := l.max - l.n; int64(len(b)) > left {
		b = b[:left]
	}
	n, err := l.r.Read(b)
	l.n += int64(n)
	return n, err
}

// err is the *Error for a file that went past the limit, or nil.
func (l *limitedReader) err(what, name string, at Pos) error {
	if !l.over {
		return nil
	}
	return &Error{Pos: at, Msg: fmt.Sprintf("fio: %s '%s' is not a regular file and has more than %d MiB: giving up on it (does it ever end?)", what, name, l.max>>20)}
}

// add adds the option of a cleaned line to sec.
func (p *jobParser) add(sec *Section, line []byte, pos Pos) {
	if bytes.IndexByte(line, '$') < 0 {
		p.pk.add(sec.packed, line, pos)
		return
	}
	p.pk.addOption(sec.packed, p.option(string(line), pos))
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
