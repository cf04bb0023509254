package jobspec

import (
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"syscall"

	"github.com/gofio/gofio/internal/debuglog"
)

// A handler holds the checks fio makes for one option beyond what its
// kind implies (fio calls them option callbacks). Each hook returns
// whether fio accepts the value and records fio's messages on the reader.
type handler struct {
	// valueless handles a line without '=' (text options only).
	valueless func(r *reader, o *Option) bool
	// choice runs after a choice option's word matched.
	choice func(r *reader, o *Option, value string, c Choice) bool
	// text checks a string, text or split option's value.
	text func(r *reader, o *Option, value string) bool
	// number checks piece i of a numeric option.
	number func(r *reader, o *Option, i int, v num) bool
}

// handlers are the options with checks of their own, by canonical name.
var handlers = map[string]*handler{
	"rw":                   {choice: checkRW},
	"random_distribution":  {choice: checkRandomDistribution},
	"file_service_type":    {choice: checkFileServiceType},
	"steadystate":          {choice: checkSteadyState},
	"ioengine":             {text: checkIOEngine},
	"directory":            {text: checkDirectory},
	"buffer_pattern":       {valueless: refuseValueless, text: checkPattern},
	"verify_pattern":       {valueless: refuseValueless, text: checkPattern},
	"cpus_allowed":         {valueless: refuseValuelessRun, text: checkCPUList},
	"verify_async_cpus":    {valueless: refuseValuelessRun, text: checkCPUList},
	"log_compression_cpus": {text: checkCPUList},
	"ignore_error":         {text: checkIgnoreError},
	"replay_skip":          {text: checkReplaySkip},
	"numa_mem_policy":      {text: checkMemPolicy},
	"numa_cpu_nodes":       {text: checkCPUNodes},
	"bssplit":              {text: checkBSSplit},
	"io_size":              {number: checkIOSize},
	"replay_align":         {number: checkPowerOf2},
	"filename":             {text: checkMaxLen},
	"cpumask":              {number: checkCPUMask},
	"opendir":              {text: checkOpendir},
}

// refuseValueless reports a missing value. fio 3.33 crashes on a bare
// buffer_pattern or verify_pattern; gofio says what other options say.
func refuseValueless(r *reader, o *Option) bool {
	r.errf("Option %s requires an argument", o.Name)
	return false
}

// refuseValuelessRun is refuseValueless outside dry runs: fio 3.33
// accepts a bare cpus_allowed under --parse-only and --showcmd, and
// crashes on it in a run.
func refuseValuelessRun(r *reader, o *Option) bool {
	if r.dry {
		return true
	}
	return refuseValueless(r, o)
}

// postfix returns the text after the word a choice value selected, if a
// ':' follows the word.
func postfix(value, word string) (string, bool) {
	rest := value[len(word):]
	if !strings.HasPrefix(rest, ":") {
		return "", false
	}
	return rest[1:], true
}

// checkRW refuses writing patterns under --readonly and checks the
// sequential postfix (a size, possibly negative) outside dry runs; the
// random postfix is read with atoi and never fails.
func checkRW(r *reader, o *Option, value string, c Choice) bool {
	if r.readOnly && c.Word != "read" && c.Word != "randread" {
		name := ""
		if r.job != nil {
			name = r.job.Name
		}
		r.errf("fio: job <%s> has write or trim bit set, but fio is in read-only mode", name)
		r.errf("Correct format for offending option")
		for _, l := range o.HelpLines() {
			if strings.HasPrefix(l, "        valid values:") || strings.HasPrefix(l, "                    :") {
				r.infof("%s", l)
			} else {
				r.errf("%s", l)
			}
		}
		r.infof("")
		return false
	}
	suffix, ok := postfix(value, c.Word)
	if !ok || r.dry || strings.HasPrefix(c.Word, "rand") {
		return true
	}
	if _, err := parseSize(suffix, r.kbBase()); err != nil {
		r.errf("fio: rw postfix parsing failed")
		return false
	}
	return true
}

// checkRandomDistribution reads the parameters of random_distribution.
func checkRandomDistribution(r *reader, o *Option, value string, c Choice) bool {
	params, has := postfix(value, c.Word)
	switch c.Word {
	case "random":
		return true
	case "zoned", "zoned_abs":
		if !has {
			r.errf("fio: mismatch in zoned input <%s>", value)
			return false
		}
		return checkZoned(r, params, c.Word == "zoned_abs")
	}
	if !has {
		return true
	}
	f, n := cStrtod(params)
	if n == 0 {
		r.errf("fio: random postfix parsing failed")
		return false
	}
	switch c.Word {
	case "zipf":
		if f == 1.0 {
			r.errf("fio: zipf theta must different than 1.0")
			return false
		}
	case "pareto":
		if f <= 0 || f >= 1.0 {
			r.errf("fio: pareto input out of range (0 < input < 1.0)")
			return false
		}
	case "normal":
		if f < 0 || f >= 100.0 {
			r.errf("fio: normal deviation out of range (0 <= input < 100.0)")
			return false
		}
	}
	i := strings.IndexByte(params, ':')
	if i < 0 {
		return true
	}
	center, n := cStrtod(params[i+1:])
	if n == 0 {
		r.errf("fio: random postfix parsing failed")
		return false
	}
	if center < 0 || center > 1.0 {
		r.errf("fio: distribution center out of range (0 <= center <= 1.0)")
		return false
	}
	return true
}

// checkFileServiceType reads the parameter of file_service_type: a count
// for the plain kinds, a float for the random distributions.
func checkFileServiceType(r *reader, o *Option, value string, c Choice) bool {
	params, has := postfix(value, c.Word)
	if !has {
		return true
	}
	switch c.Word {
	case "zipf", "pareto", "normal", "gauss":
	default:
		return true
	}
	f, n := cStrtod(params)
	if n == 0 {
		r.errf("fio: file service type random postfix parsing failed")
		return false
	}
	switch c.Word {
	case "zipf":
		if f == 1.0 {
			r.errf("fio: zipf theta must be different than 1.0")
			return false
		}
	case "pareto":
		if f <= 0 || f >= 1.0 {
			r.errf("fio: pareto input out of range (0 < input < 1.0)")
			return false
		}
	}
	return true
}

// checkSteadyState reads the threshold of steadystate=CRITERION:LIMIT[%].
func checkSteadyState(r *reader, o *Option, value string, c Choice) bool {
	limit, has := postfix(value, c.Word)
	if !has {
		r.errf("fio: steadystate threshold must be specified in addition to criterion")
		return false
	}
	if debuglog.On(debuglog.Parse) {
		debugSteadyState(c.Word, limit, r.kbBase())
	}
	what := "IOPS"
	if strings.HasPrefix(c.Word, "bw") {
		what = "BW"
	}
	if strings.Contains(limit, "%") {
		if _, n := cStrtod(limit); n == 0 {
			r.errf("fio: could not parse steadystate threshold percentage")
			return false
		}
		return true
	}
	if strings.HasSuffix(c.Word, "_slope") {
		if _, n := cStrtod(limit); n == 0 {
			r.errf("fio: steadystate %s threshold postfix parsing failed", what)
			return false
		}
		return true
	}
	if _, err := parseSize(limit, r.kbBase()); err != nil {
		r.errf("fio: steadystate %s threshold postfix parsing failed", what)
		return false
	}
	return true
}

// checkIOEngine checks the plugin path of ioengine=external:PATH.
func checkIOEngine(r *reader, o *Option, value string) bool {
	path, ok := strings.CutPrefix(value, "external:")
	if !ok {
		return true
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		r.errf("fio: invalid external ioengine path \"%s\"", path)
		return false
	}
	return true
}

// checkDirectory checks that every directory exists (not in dry runs).
func checkDirectory(r *reader, o *Option, value string) bool {
	if r.dry {
		return true
	}
	for _, d := range splitEscaped(value) {
		if d == "" {
			continue
		}
		st, err := os.Lstat(d)
		if err != nil {
			var en syscall.Errno
			if errors.As(err, &en) {
				r.infof("fio: file:options.c:1457, func=lstat, error=%s", errnoText(en))
			}
		}
		if err != nil || !st.IsDir() {
			r.errf("fio: %s is not a directory", d)
			return false
		}
	}
	return true
}

// errnoText is strerror's text for an errno ("No such file or directory").
func errnoText(e syscall.Errno) string {
	s := e.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// checkPattern reads a buffer_pattern or verify_pattern: a concatenation
// of 0x hex strings, decimal integers (strtol skips blanks before them),
// "double-quoted strings", 'file names' (the file's contents) and, for
// verify_pattern, %o (the block offset).
func checkPattern(r *reader, o *Option, value string) bool {
	s := value
	if s == "" {
		return false
	}
	for s != "" {
		switch {
		case s[0] == '"' || s[0] == '\'':
			end := strings.IndexByte(s[1:], s[0])
			if end <= 0 { // unterminated, or empty (fio 3.33 aborts on "")
				return false
			}
			if s[0] == '\'' && !patternFileReadable(s[1:end+1]) {
				return false
			}
			s = s[end+2:]
		case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
			i := 2
			for i < len(s) && isHexDigit(s[i]) {
				i++
			}
			if i == 2 {
				return false
			}
			s = s[i:]
		case o.Name == "verify_pattern" && strings.HasPrefix(s, "%o"):
			s = s[2:]
		default:
			v, n, err := cStrtoll(s, 10)
			if n == 0 || err != nil || v != int64(int32(v)) {
				return false
			}
			s = s[n:]
		}
	}
	return true
}

// patternFileReadable reports whether a pattern file has contents. Only
// its start is read: a pattern never needs more, and a device such as
// /dev/zero has no end.
func patternFileReadable(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	n, _ := f.Read(make([]byte, 1))
	return n == 1
}

// checkCPUList checks CPU numbers against this host (not in dry runs).
func checkCPUList(r *reader, o *Option, value string) bool {
	if r.dry {
		return true
	}
	if _, bad := cpuList(value, runtime.NumCPU()); bad >= 0 {
		r.errf("%s", cpuListError(bad, runtime.NumCPU()))
		return false
	}
	return true
}

// checkCPUMask checks the CPUs of a cpumask against this host (not in
// dry runs).
func checkCPUMask(r *reader, o *Option, i int, v num) bool {
	if r.dry {
		return true
	}
	mask := uint64(v.N)
	for cpu := runtime.NumCPU(); cpu < 64; cpu++ {
		if mask&(1<<cpu) != 0 {
			r.errf("fio: CPU %d too large (max=%d)", cpu, runtime.NumCPU()-1)
			return false
		}
	}
	return true
}

// checkOpendir checks that the directory can be opened (not in dry runs).
func checkOpendir(r *reader, o *Option, value string) bool {
	if r.dry {
		return true
	}
	d, err := os.Open(value)
	if err == nil {
		_, err = d.Readdirnames(1)
		d.Close()
		if err == nil || err == io.EOF {
			if files, err := OpendirFiles(value); err == nil {
				r.infof("fio: opendir added %d files", len(files))
			}
			return true
		}
	}
	var en syscall.Errno
	if errors.As(err, &en) {
		r.infof("fio: file:filesetup.c:1977, func=opendir(%s), error=%s", value, errnoText(en))
	}
	return false
}

// checkIgnoreError checks ignore_error's lists of error numbers and E
// names (not in dry runs).
func checkIgnoreError(r *reader, o *Option, value string) bool {
	if r.dry {
		return true
	}
	if _, err := parseIgnoreError(value); err != nil {
		r.errf("%s", err)
		return false
	}
	return true
}

// checkReplaySkip checks replay_skip's words (not in dry runs).
func checkReplaySkip(r *reader, o *Option, value string) bool {
	if r.dry {
		return true
	}
	for _, w := range strings.Split(value, ",") {
		switch w {
		case "read", "write", "trim", "sync":
		default:
			r.errf("Unknown skip type: %s", w)
			return false
		}
	}
	return true
}

// checkIOSize refuses percentages over 100.
func checkIOSize(r *reader, o *Option, i int, v num) bool {
	if v.Pct && v.N > 100 {
		r.errf("fio: io_size values greater than 100%% aren't supported")
		return false
	}
	return true
}

// checkMaxLen refuses file names of 4096 bytes or more.
func checkMaxLen(r *reader, o *Option, value string) bool {
	if len(value) >= 4096 {
		r.errf("value exceeds max length of 4096")
		return false
	}
	return true
}

// checkPowerOf2 refuses replay_align values that are not powers of 2.
func checkPowerOf2(r *reader, o *Option, i int, v num) bool {
	u := uint64(uint32(v.N))
	if u == 0 || u&(u-1) != 0 {
		r.errf("%s: must be a power-of-2", o.Name)
		return false
	}
	return true
}

// splitEntry is one "A/B" entry of a bssplit or zoned list; HasB is false
// when B is missing (or 0).
type splitEntry struct {
	A, B int64
	HasB bool
}

// readSplit reads a ':'-separated list of "A/B" entries. A is a size (or,
// for zoned lists, a percentage); B is an integer percentage (or, for
// zoned_abs, a size). Empty entries are skipped; fio keeps at most 64.
func readSplit(r *reader, list string, bSize bool) ([]splitEntry, bool) {
	var out []splitEntry
	for _, e := range strings.Split(list, ":") {
		if e == "" {
			continue
		}
		if len(out) == 64 {
			r.errf("fio: hit max of 64 split entries")
			break
		}
		a, b, hasB := strings.Cut(e, "/")
		av, err := parseSize(a, r.kbBase())
		if err != nil {
			r.errf("fio: split conversion failed")
			return nil, false
		}
		ent := splitEntry{A: av.plain()}
		if hasB {
			if bSize {
				if bv, err := parseSize(b, r.kbBase()); err == nil {
					ent.B = bv.plain()
				}
			} else {
				ent.B, _, _ = cStrtoll(b, 10)
			}
			ent.HasB = ent.B != 0
		}
		out = append(out, ent)
	}
	return out, true
}

// checkBSSplit reads bssplit: up to three ','-separated lists (read,
// write, trim) of "size/percent" entries.
func checkBSSplit(r *reader, o *Option, value string) bool {
	for i, list := range strings.Split(value, ",") {
		if i >= 3 {
			break
		}
		ents, ok := readSplit(r, list, false)
		if !ok {
			return false
		}
		sum, missing := int64(0), 0
		for _, e := range ents {
			if !e.HasB {
				missing++
				continue
			}
			sum += min(e.B, 100)
		}
		if sum > 100 && missing > 1 {
			r.errf("fio: bssplit percentages add to more than 100%%")
			return false
		}
	}
	return true
}

// checkZoned reads the zones of random_distribution=zoned:... (access
// percent/size percent) or zoned_abs:... (access percent/size in bytes).
func checkZoned(r *reader, list string, abs bool) bool {
	ents, ok := readSplit(r, list, abs)
	if !ok {
		return false
	}
	if len(ents) == 0 {
		return true
	}
	var access, size int64
	for _, e := range ents {
		access += e.A
		if !abs {
			size += e.B
		}
	}
	if access > 100 || size > 100 {
		r.errf("fio: zone_split percentages add to more than 100%%")
		return false
	}
	if access != 100 {
		r.errf("fio: access percentage don't add up to 100 for zoned random distribution (got=%d)", access)
		return false
	}
	return true
}
