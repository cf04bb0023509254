package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A seedCmd is one fio command line found in a seed document.
type seedCmd struct {
	source string   // the document's base name
	name   string   // its first --name, or "cmdN"
	args   []string // fio's arguments as written
}

// fioLineRE finds a command line that runs fio: "fio" at the start of the
// line or after a shell prompt ("# ", "$ "), followed by an option.
var fioLineRE = regexp.MustCompile(`(?:^|[#$]\s*)fio\s+(-.*)$`)

// extractCommands returns the fio command lines of a seed document, in
// order and without repeats. A command line is kept when it names a job
// (--name or --filename): that leaves out `fio --version` and the like.
func extractCommands(source, text string) []seedCmd {
	var out []seedCmd
	seen := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		m := fioLineRE.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		args := strings.Fields(m[1])
		name := ""
		jobs := false
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "--name="); ok {
				jobs = true
				if name == "" {
					name = v
				}
			}
			if strings.HasPrefix(a, "--filename=") {
				jobs = true
			}
		}
		key := strings.Join(args, " ")
		if !jobs || seen[key] {
			continue
		}
		seen[key] = true
		if name == "" {
			name = fmt.Sprintf("cmd%d", len(out)+1)
		}
		out = append(out, seedCmd{source: source, name: name, args: args})
	}
	return out
}

// loadSeeds reads every *.txt document matching glob and returns their
// fio command lines, named "document:job" (a number is added to a name
// seen before).
func loadSeeds(glob string) ([]seedCmd, error) {
	files, err := filepath.Glob(glob)
	if err != nil {
		return nil, fmt.Errorf("seeds %q: %w", glob, err)
	}
	sort.Strings(files)
	var out []seedCmd
	names := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading seed: %w", err)
		}
		base := strings.TrimSuffix(filepath.Base(f), ".txt")
		for _, c := range extractCommands(base, string(b)) {
			names[c.name]++
			if n := names[c.name]; n > 1 {
				c.name = fmt.Sprintf("%s#%d", c.name, n)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// limits bound what a seed command may use on the test machine.
type limits struct {
	maxSize    uint64 // per job: size, filesize, io_size
	maxRuntime int    // seconds
	maxBuffers uint64 // numjobs × iodepth × largest block size
}

// A runCmd is a seed command made ready to run: scaled to the limits,
// its directory option pointing at the scratch directory, JSON output.
type runCmd struct {
	name    string
	args    []string
	runtime int      // seconds of runtime (0: none given)
	changes []string // what scaling changed, for the report
}

// dashRE matches an option typed with a non-ASCII dash (en or em dash),
// which fio takes as a job file name.
var dashRE = regexp.MustCompile(`^[\x{2013}\x{2014}]+`)

// prepare scales c to lim and returns the command to run in dir. Options
// are kept as written except: size, filesize and io_size above
// lim.maxSize, runtime above lim.maxRuntime, iodepth where the job's
// buffers would exceed lim.maxBuffers, directory (the scratch directory)
// and output-format (json, which the judging reads).
func prepare(c seedCmd, dir string, lim limits) runCmd {
	r := runCmd{name: c.name}
	numjobs, iodepth, bs := uint64(1), uint64(1), uint64(4096)
	iodepthAt := -1
	for _, a := range c.args {
		k, v, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch k {
		case "numjobs":
			numjobs = parseNum(v, 1)
		case "iodepth":
			iodepth = parseNum(v, 1)
		case "bs", "blocksize":
			bs = max(parseNum(v, 4096), 1)
		}
	}
	for _, a := range c.args {
		dashes := a[:len(a)-len(strings.TrimLeft(a, "-"))]
		k, v, hasV := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if dashes == "" || !hasV {
			r.args = append(r.args, a)
			continue
		}
		switch k {
		case "size", "filesize", "io_size":
			if n := parseNum(v, 0); n > lim.maxSize {
				a = dashes + k + "=" + strconv.FormatUint(lim.maxSize>>20, 10) + "M"
				r.changes = append(r.changes, k+"="+v+"→"+strings.TrimPrefix(a, dashes+k+"="))
			}
		case "runtime":
			n, _ := strconv.Atoi(strings.TrimSuffix(v, "s"))
			if n > lim.maxRuntime {
				n = lim.maxRuntime
				a = dashes + "runtime=" + strconv.Itoa(n)
				r.changes = append(r.changes, "runtime="+v+"→"+strconv.Itoa(n))
			}
			r.runtime = n
		case "directory":
			a = dashes + "directory=" + dir
		case "output-format":
			continue
		case "iodepth":
			iodepthAt = len(r.args)
		}
		r.args = append(r.args, a)
	}
	if iodepthAt >= 0 && numjobs*iodepth*bs > lim.maxBuffers {
		d := max(lim.maxBuffers/(numjobs*bs), 1)
		r.args[iodepthAt] = "--iodepth=" + strconv.FormatUint(d, 10)
		r.changes = append(r.changes, fmt.Sprintf("iodepth=%d→%d (buffers)", iodepth, d))
	}
	r.args = append(r.args, "--output-format=json")
	return r
}

// fixDashes returns c with options typed with an en or em dash turned
// into "--", and whether there were any: fio takes them as job file
// names, so the command as written fails at once in fio and gofio alike.
func fixDashes(c seedCmd) (seedCmd, bool) {
	fixed := false
	args := make([]string, len(c.args))
	for i, a := range c.args {
		if dashRE.MatchString(a) {
			a = dashRE.ReplaceAllString(a, "--")
			fixed = true
		}
		args[i] = a
	}
	c.args = args
	c.name += "+dashes"
	return c, fixed
}

// parseNum reads fio's integer with an optional k/m/g/t suffix (powers of
// 1024, fio's default for sizes); def when it cannot.
func parseNum(s string, def uint64) uint64 {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "b"), "i")
	mult := uint64(1)
	if s != "" {
		switch s[len(s)-1] {
		case 'k':
			mult = 1 << 10
		case 'm':
			mult = 1 << 20
		case 'g':
			mult = 1 << 30
		case 't':
			mult = 1 << 40
		}
		if mult != 1 {
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return def
	}
	return n * mult
}
