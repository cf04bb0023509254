// Package conformance holds differential tests that run real fio 3.33 and
// gofio on the same jobs and compare what can be compared: the JSON key
// tree, the deterministic values, the normal report's skeleton and the
// terse field layout. This file has the comparison helpers; the tests are
// in conformance_test.go (differential) and compare_test.go (helpers).
//
// Rules, in short (details on each function):
//
//   - JSON key tree (KeyTree): one entry per value in document order,
//     "PATH KIND", where PATH is the chain of object keys and [array
//     indexes] and KIND is object, array[N], string, int, float, bool or
//     null. An integer is a number literal without '.', 'e' or 'E'; fio
//     prints every float with "%f", so the distinction is observable. The
//     "percentile" and "bins" objects are not walked: their keys depend on
//     percentile_list and on the data. "percentile" becomes one entry
//     "map[N] float-keys->int" (N compared: it is the list's length) and
//     "bins" one entry "map float-keys->int" (N not compared: it is the
//     number of non-empty histogram buckets). A value that breaks the
//     shape (non-numeric key or value) is reported as "map(BAD ...)".
//   - Normal report (MaskNormal): the lines before the report's leading
//     empty line (job headers, "...", "fio-3.33", "Starting N processes",
//     "Laying out IO file" lines) are kept verbatim. In the report, the
//     title line's pid and date are masked, unit labels in parentheses
//     ("(usec)", "(  MiB/s)") become "(U)", every number token (a number
//     with its unit suffix: 37.1k, 145MiB/s, 2032msec, 99.9%, 1.00th)
//     becomes "#", runs of spaces become one space and spaces after
//     '[', '(', '=' and before ']', ')' are removed (field widths follow
//     the numbers); leading indentation is kept. Runs of percentile rows
//     ("|  1.00th=[ 1188], ...") become one line "| N percentiles" (the row
//     count depends on the value widths) and runs of latency distribution
//     lines ("lat (usec)   : 2=0.02%, ...") become one line
//     "lat (U) : <distribution>" (which buckets are non-empty is data).
//     Device lines of "Disk stats" keep the device name.
//   - bw/iops sample lines ("bw (", "iops        :") exist only when a
//     bandwidth sample was taken (every 500 ms), which is timing: use
//     DropSampleLines on both skeletons when their presence differs.
//   - Terse (SplitTerse, TerseDiskNames): lines split on ';'; field counts
//     and the deterministic fields are compared by the tests.
package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Node is a JSON value that keeps the order (and duplicates) of object
// keys.
type Node struct {
	// Kind is "object", "array", "string", "int", "float", "bool" or
	// "null".
	Kind string
	// Keys and Kids: an object's keys and values (same length), or an
	// array's elements (Kids only).
	Keys []string
	Kids []*Node
	// Text is a scalar's value: the string, the number literal,
	// "true"/"false" or "null".
	Text string
}

// ParseJSON parses data, which must hold exactly one JSON document and
// nothing else but white space.
func ParseJSON(data []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err != nil {
			return nil, fmt.Errorf("after the JSON document: %v", err)
		}
		return nil, fmt.Errorf("after the JSON document: unexpected %v", tok)
	}
	return n, nil
}

func parseValue(dec *json.Decoder) (*Node, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("no JSON document")
		}
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			n := &Node{Kind: "object"}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key %v is not a string", kt)
				}
				kid, err := parseValue(dec)
				if err != nil {
					return nil, fmt.Errorf("%q: %w", k, err)
				}
				n.Keys = append(n.Keys, k)
				n.Kids = append(n.Kids, kid)
			}
			if _, err := dec.Token(); err != nil { // '}'
				return nil, err
			}
			return n, nil
		case '[':
			n := &Node{Kind: "array"}
			for dec.More() {
				kid, err := parseValue(dec)
				if err != nil {
					return nil, fmt.Errorf("[%d]: %w", len(n.Kids), err)
				}
				n.Kids = append(n.Kids, kid)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return nil, err
			}
			return n, nil
		}
		return nil, fmt.Errorf("unexpected %v", v)
	case string:
		return &Node{Kind: "string", Text: v}, nil
	case json.Number:
		kind := "int"
		if strings.ContainsAny(string(v), ".eE") {
			kind = "float"
		}
		return &Node{Kind: kind, Text: string(v)}, nil
	case bool:
		return &Node{Kind: "bool", Text: strconv.FormatBool(v)}, nil
	case nil:
		return &Node{Kind: "null", Text: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// Get follows a path of object keys (first match) and array indexes
// ("0", "1"...); nil when a step is missing.
func (n *Node) Get(path ...string) *Node {
	for _, p := range path {
		if n == nil {
			return nil
		}
		switch n.Kind {
		case "object":
			var next *Node
			for i, k := range n.Keys {
				if k == p {
					next = n.Kids[i]
					break
				}
			}
			n = next
		case "array":
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(n.Kids) {
				return nil
			}
			n = n.Kids[i]
		default:
			return nil
		}
	}
	return n
}

// Pairs returns an object's members as "key=value" strings, in order, for
// scalar values (nested values print as their kind).
func (n *Node) Pairs() []string {
	if n == nil || n.Kind != "object" {
		return nil
	}
	out := make([]string, len(n.Keys))
	for i, k := range n.Keys {
		v := n.Kids[i]
		switch v.Kind {
		case "object", "array":
			out[i] = k + "=<" + v.Kind + ">"
		default:
			out[i] = k + "=" + v.Text
		}
	}
	return out
}

// KeyTree lists n's structure as "PATH KIND" entries in document order;
// see the package comment for the rules.
func KeyTree(n *Node) []string {
	var out []string
	walkTree(n, "", &out)
	return out
}

func walkTree(n *Node, path string, out *[]string) {
	switch n.Kind {
	case "object":
		*out = append(*out, pathOrRoot(path)+" object")
		for i, k := range n.Keys {
			p := path + "/" + k
			if k == "percentile" || k == "bins" {
				*out = append(*out, p+" "+describeMap(k, n.Kids[i]))
				continue
			}
			walkTree(n.Kids[i], p, out)
		}
	case "array":
		*out = append(*out, fmt.Sprintf("%s array[%d]", pathOrRoot(path), len(n.Kids)))
		for i, kid := range n.Kids {
			walkTree(kid, fmt.Sprintf("%s[%d]", path, i), out)
		}
	default:
		*out = append(*out, pathOrRoot(path)+" "+n.Kind)
	}
}

func pathOrRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// describeMap summarises a "percentile" or "bins" object: numeric keys
// mapping to integers; the entry count only for "percentile".
func describeMap(key string, n *Node) string {
	if n.Kind != "object" {
		return "map(BAD: " + n.Kind + ")"
	}
	for i, k := range n.Keys {
		if _, err := strconv.ParseFloat(k, 64); err != nil {
			return fmt.Sprintf("map(BAD key %q)", k)
		}
		if n.Kids[i].Kind != "int" {
			return fmt.Sprintf("map(BAD value %s for %q)", n.Kids[i].Kind, k)
		}
	}
	if key == "bins" {
		return "map float-keys->int"
	}
	return fmt.Sprintf("map[%d] float-keys->int", len(n.Keys))
}

// IOCheck says which byte and I/O counts of a job are deterministic.
type IOCheck int

// The IOCheck values.
const (
	// IONone: time-based job, no count is deterministic.
	IONone IOCheck = iota
	// IOPerDir: size-based job with one direction per run: io_bytes and
	// total_ios per direction.
	IOPerDir
	// IOTotal: size-based mixed job (the read/write split depends on the
	// random generator): only the sums over read, write and trim.
	IOTotal
)

// DeterministicJSON lists, as "path=value" strings, the values of a fio
// JSON document that do not depend on timing: "fio version", "global
// options", and per job jobname, groupid, error, "job options" and the
// io_bytes/total_ios selected by io (with "mixed" for
// unified_rw_reporting); then the disk_util device names.
// Each (old, new) pair of replace is applied to option values (scratch
// directories).
func DeterministicJSON(root *Node, io IOCheck, replace ...string) []string {
	rep := strings.NewReplacer(replace...)
	var out []string
	add := func(k string, n *Node) {
		if n == nil {
			out = append(out, k+" <missing>")
			return
		}
		out = append(out, k+"="+n.Text)
	}
	add("fio version", root.Get("fio version"))
	if g := root.Get("global options"); g != nil {
		for _, p := range g.Pairs() {
			out = append(out, "global options/"+rep.Replace(p))
		}
	}
	jobs := root.Get("jobs")
	if jobs == nil {
		return append(out, "jobs <missing>")
	}
	for i, j := range jobs.Kids {
		pre := fmt.Sprintf("jobs[%d]/", i)
		add(pre+"jobname", j.Get("jobname"))
		add(pre+"groupid", j.Get("groupid"))
		add(pre+"error", j.Get("error"))
		for _, p := range j.Get("job options").Pairs() {
			out = append(out, pre+"job options/"+rep.Replace(p))
		}
		switch io {
		case IOPerDir:
			for _, d := range []string{"read", "write", "trim", "mixed"} {
				if d == "mixed" && j.Get(d) == nil {
					continue
				}
				add(pre+d+"/io_bytes", j.Get(d, "io_bytes"))
				add(pre+d+"/total_ios", j.Get(d, "total_ios"))
			}
		case IOTotal:
			// unified_rw_reporting=both repeats the sums in "mixed":
			// only the directions count.
			// unified_rw_reporting=mixed has only "mixed".
			dirs := []string{"read", "write", "trim"}
			if j.Get("read") == nil {
				dirs = []string{"mixed"}
			}
			var bytes, ios uint64
			for _, d := range dirs {
				bytes += uintOf(j.Get(d, "io_bytes"))
				ios += uintOf(j.Get(d, "total_ios"))
			}
			out = append(out, fmt.Sprintf("%ssum of io_bytes=%d", pre, bytes),
				fmt.Sprintf("%ssum of total_ios=%d", pre, ios))
		}
	}
	if d := root.Get("disk_util"); d != nil {
		for i, x := range d.Kids {
			add(fmt.Sprintf("disk_util[%d]/name", i), x.Get("name"))
		}
	}
	return out
}

func uintOf(n *Node) uint64 {
	if n == nil {
		return 0
	}
	v, _ := strconv.ParseUint(n.Text, 10, 64)
	return v
}

var (
	// titleRE matches a job block's title line up to "pid=".
	titleRE = regexp.MustCompile(`^(\S.*: \(groupid=\d+, jobs=\d+\): err=.*: pid=)\d+: .*$`)
	// unitRE matches unit labels in parentheses: "(usec)", "(  MiB/s)".
	unitRE = regexp.MustCompile(`\(\s*(?:[KMGTPEkmgtpe]i?)?B/s\)|\((?:n|u|m)?sec\)`)
	// latDistRE matches a latency distribution line.
	latDistRE = regexp.MustCompile(`^\s*lat \((?:nsec|usec|msec)\)\s+: `)
	spaceRE   = regexp.MustCompile(`[ \t]+`)
	tightRE   = regexp.MustCompile(`([\[(=]) +| +([\])])`)
)

// MaskNormal turns a normal-format report into its skeleton; see the
// package comment for the rules.
func MaskNormal(out string) []string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if out == "" {
		return nil
	}
	var sk []string
	i := 0
	for ; i < len(lines) && lines[i] != ""; i++ {
		sk = append(sk, lines[i])
	}
	pct := 0        // percentile entries in the current run of rows
	inDist := false // inside a run of latency distribution lines
	flush := func() {
		if pct > 0 {
			sk = append(sk, fmt.Sprintf("     | %d percentiles", pct))
			pct = 0
		}
	}
	for ; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "|") && strings.Contains(t, "th=[") {
			pct += strings.Count(t, "th=[")
			continue
		}
		flush()
		if latDistRE.MatchString(l) {
			if !inDist {
				sk = append(sk, "  lat (U) : <distribution>")
				inDist = true
			}
			continue
		}
		inDist = false
		sk = append(sk, maskLine(l))
	}
	flush()
	return sk
}

// maskLine masks one report line.
func maskLine(l string) string {
	if m := titleRE.FindStringSubmatch(l); m != nil {
		l = m[1] + "#: <date>"
	}
	l = unitRE.ReplaceAllString(l, "(U)")
	l = maskNumbers(l)
	indent := len(l) - len(strings.TrimLeft(l, " "))
	body := strings.TrimRight(l[indent:], " \t")
	body = spaceRE.ReplaceAllString(body, " ")
	body = tightRE.ReplaceAllString(body, "$1$2")
	return l[:indent] + body
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// maskNumbers replaces each number token with '#'. A token starts at a
// digit that does not continue a word (so "nvme0n1" and "dm-0"'s letters
// stay), optionally with a '-' sign right after '='; it runs over digits
// and '.', then a unit suffix of letters or '%', then "/s".
func maskNumbers(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); {
		c := l[i]
		start := i
		if c == '-' && i+1 < len(l) && isDigit(l[i+1]) && i > 0 && l[i-1] == '=' {
			i++
			c = l[i]
		}
		if !isDigit(c) || (start > 0 && isWordByte(l[start-1])) {
			b.WriteByte(l[start])
			i = start + 1
			continue
		}
		for i < len(l) && (isDigit(l[i]) || l[i] == '.') {
			i++
		}
		for i < len(l) && (isLetter(l[i]) || l[i] == '%') {
			i++
		}
		if strings.HasPrefix(l[i:], "/s") && (i+2 == len(l) || !isLetter(l[i+2])) {
			i += 2
		}
		b.WriteByte('#')
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsSampleLine reports whether a skeleton line is a bw or iops sample
// line, which fio prints only when a bandwidth sample was taken.
func IsSampleLine(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "bw (") || strings.HasPrefix(t, "iops :") || strings.HasPrefix(t, "iops  ")
}

// DropSampleLines returns the skeleton without bw/iops sample lines.
func DropSampleLines(sk []string) []string {
	var out []string
	for _, l := range sk {
		if !IsSampleLine(l) {
			out = append(out, l)
		}
	}
	return out
}

// SplitTerse splits terse output into lines of ';'-separated fields.
func SplitTerse(out string) [][]string {
	out = strings.TrimSuffix(out, "\n")
	if out == "" {
		return nil
	}
	var rows [][]string
	for _, l := range strings.Split(out, "\n") {
		rows = append(rows, strings.Split(l, ";"))
	}
	return rows
}

// Terse version 3 positions (0-based indexes of the 1-based fields of
// output-terse.md §4).
const (
	TerseReadKB    = 5   // field 6
	TerseWriteKB   = 46  // field 47
	TerseFirstDisk = 121 // field 122
	TerseV3Fields  = 121 // fields without disks, errors or description
)

// TerseDiskNames returns the device names of a version 3 terse line's disk
// trailer: 9 fields per device, 9 more (starting with "slaves") for a
// device with slaves.
func TerseDiskNames(f []string) []string {
	var names []string
	for i := TerseFirstDisk; i+9 <= len(f); {
		names = append(names, f[i])
		i += 9
		if i < len(f) && f[i] == "slaves" {
			i += 9
		}
	}
	return names
}

// DeterministicTerse lists the fields of version 3 terse lines that do not
// depend on timing: terse version, fio version, job name, group id, error,
// the read and write KiB per io, the field count and the disk names.
func DeterministicTerse(rows [][]string, io IOCheck) []string {
	var out []string
	for i, f := range rows {
		pre := fmt.Sprintf("line %d: ", i)
		out = append(out, fmt.Sprintf("%sfields=%d", pre, len(f)))
		get := func(k int) string {
			if k < len(f) {
				return f[k]
			}
			return "<missing>"
		}
		out = append(out,
			pre+"terse version="+get(0),
			pre+"fio version="+get(1),
			pre+"jobname="+get(2),
			pre+"groupid="+get(3),
			pre+"error="+get(4))
		switch io {
		case IOPerDir:
			out = append(out, pre+"read KiB="+get(TerseReadKB), pre+"write KiB="+get(TerseWriteKB))
		case IOTotal:
			r, _ := strconv.ParseUint(get(TerseReadKB), 10, 64)
			w, _ := strconv.ParseUint(get(TerseWriteKB), 10, 64)
			out = append(out, fmt.Sprintf("%sread+write KiB=%d", pre, r+w))
		}
		out = append(out, pre+"disks="+strings.Join(TerseDiskNames(f), ","))
	}
	return out
}

// Checks selects the values of a run that are deterministic, for
// ExtraJSON and TerseValues.
type Checks struct {
	IO IOCheck
	// Unified is the unified_rw_reporting mode: 0 none, 1 mixed, 2 both
	// (it sets the terse layout).
	Unified int
	// Depth: the IO depth, submit and complete distributions do not
	// depend on timing (size-based jobs of psync, null, or of libaio and
	// io_uring with the default batch settings: one reap per completion,
	// one reap for whatever is in flight when the job runs out of I/O).
	Depth bool
}

// latencyKeys are the latency objects of a direction.
var latencyKeys = []string{"slat_ns", "clat_ns", "lat_ns"}

// ExtraJSON lists, as "path=value" strings, deterministic values of a fio
// JSON document beyond DeterministicJSON's: per job, the direction
// objects present (read, write, trim, mixed); for IOCheck IOPerDir each
// direction's short_ios and drop_ios and the sample count N of slat, clat
// and lat (for IOTotal the sums over the directions); the keys of every
// "percentile" object; sync total_ios; the latency_depth,
// latency_target, latency_percentile and latency_window values; and with
// c.Depth the iodepth_level, iodepth_submit and iodepth_complete
// distributions.
func ExtraJSON(root *Node, c Checks) []string {
	var out []string
	jobs := root.Get("jobs")
	if jobs == nil {
		return []string{"jobs <missing>"}
	}
	for i, j := range jobs.Kids {
		pre := fmt.Sprintf("jobs[%d]/", i)
		var dirs []string
		for _, d := range []string{"read", "write", "trim", "mixed"} {
			if j.Get(d) != nil {
				dirs = append(dirs, d)
			}
		}
		out = append(out, pre+"directions="+strings.Join(dirs, ","))
		sums := map[string]uint64{}
		for _, d := range dirs {
			dn := j.Get(d)
			sum := func(k string, v uint64) {
				// unified_rw_reporting=both repeats the directions in
				// "mixed".
				if d != "mixed" || len(dirs) == 1 {
					sums[k] += v
				}
			}
			for _, k := range []string{"short_ios", "drop_ios"} {
				sum(k, uintOf(dn.Get(k)))
				if c.IO == IOPerDir {
					out = append(out, pre+d+"/"+k+"="+text(dn.Get(k)))
				}
			}
			for _, k := range latencyKeys {
				sum(k, uintOf(dn.Get(k, "N")))
				if c.IO == IOPerDir {
					out = append(out, pre+d+"/"+k+"/N="+text(dn.Get(k, "N")))
				}
				if p := dn.Get(k, "percentile"); p != nil {
					out = append(out, pre+d+"/"+k+"/percentile keys="+strings.Join(p.Keys, ","))
				}
			}
		}
		if c.IO == IOTotal {
			for _, k := range []string{"short_ios", "drop_ios", "slat_ns", "clat_ns", "lat_ns"} {
				out = append(out, fmt.Sprintf("%ssum of %s=%d", pre, k, sums[k]))
			}
		}
		if c.IO != IONone {
			out = append(out, pre+"sync/total_ios="+text(j.Get("sync", "total_ios")))
		}
		for _, k := range []string{"latency_depth", "latency_target", "latency_percentile", "latency_window"} {
			out = append(out, pre+k+"="+text(j.Get(k)))
		}
		if c.Depth {
			for _, k := range []string{"iodepth_level", "iodepth_submit", "iodepth_complete"} {
				out = append(out, pre+k+": "+strings.Join(j.Get(k).Pairs(), ", "))
			}
		}
	}
	return out
}

// text is a scalar node's text, or "<missing>".
func text(n *Node) string {
	if n == nil {
		return "<missing>"
	}
	if n.Kind == "object" || n.Kind == "array" {
		return "<" + n.Kind + ">"
	}
	return n.Text
}

// terseBlock is the number of fields of a direction block of a version 3
// terse line, and terseTail the CPU, depth and latency fields after the
// blocks.
const (
	terseBlock = 41
	terseTail  = 34
)

// TerseValues lists the deterministic fields of version 3 terse lines,
// whatever their unified_rw_reporting layout (c.Unified: 2 blocks, 1 for
// mixed, 3 for both): per line the field count, terse version, fio
// version, job name, group id, error; each block's I/O KiB (IOPerDir; for
// IOTotal the sum over the direction blocks, without the merged block of
// "both") and the percentile labels of its 20 slots (the text before
// '='); with c.Depth the IO depth distribution; and the disk names.
func TerseValues(rows [][]string, c Checks) []string {
	blocks := []int{2, 1, 3}[c.Unified]
	var out []string
	for i, f := range rows {
		pre := fmt.Sprintf("line %d: ", i)
		get := func(k int) string {
			if k < len(f) {
				return f[k]
			}
			return "<missing>"
		}
		out = append(out, fmt.Sprintf("%sfields=%d", pre, len(f)),
			pre+"terse version="+get(0), pre+"fio version="+get(1), pre+"jobname="+get(2),
			pre+"groupid="+get(3), pre+"error="+get(4))
		var kib uint64
		for b := range blocks {
			at := 5 + b*terseBlock
			switch {
			case c.IO == IOPerDir:
				out = append(out, fmt.Sprintf("%sblock %d KiB=%s", pre, b, get(at)))
			case c.IO == IOTotal && (c.Unified != 2 || b < 2):
				v, _ := strconv.ParseUint(get(at), 10, 64)
				kib += v
			}
			var ls []string
			for k := range 20 {
				l, _, _ := strings.Cut(get(at+12+k), "=")
				ls = append(ls, l)
			}
			out = append(out, fmt.Sprintf("%sblock %d percentile labels=%s", pre, b, strings.Join(ls, ";")))
		}
		if c.IO == IOTotal {
			out = append(out, fmt.Sprintf("%sblocks KiB=%d", pre, kib))
		}
		tail := 5 + blocks*terseBlock
		if c.Depth {
			var d []string
			for k := range 7 {
				d = append(d, get(tail+5+k))
			}
			out = append(out, pre+"IO depths="+strings.Join(d, ";"))
		}
		var disks []string
		for k := tail + terseTail; k+9 <= len(f); {
			disks = append(disks, f[k])
			k += 9
			if k < len(f) && f[k] == "slaves" {
				k += 9
			}
		}
		out = append(out, pre+"disks="+strings.Join(disks, ","))
	}
	return out
}

// Formats is one run's stdout with several --output-formats, split as
// fio prints it: the normal preamble (job lines, version, "Starting",
// layout lines and notices), the terse lines, the JSON document and the
// normal report.
type Formats struct {
	Pre, Terse, JSON, Normal string
}

// SplitFormats splits the stdout of a run with --output-format=normal,
// json (or json+) and terse. The terse part starts at the first line that
// begins with a digit and ';', the JSON part at the line "{" and ends
// with the line "}"; the rest is the normal report.
func SplitFormats(out string) Formats {
	var f Formats
	var parts [4]strings.Builder
	state := 0
	for _, l := range strings.SplitAfter(out, "\n") {
		if l == "" {
			continue
		}
		line := strings.TrimSuffix(l, "\n")
		if state == 0 && len(line) > 1 && isDigit(line[0]) && line[1] == ';' {
			state = 1
		}
		if state <= 1 && line == "{" {
			state = 2
		}
		parts[state].WriteString(l)
		if state == 2 && line == "}" {
			state = 3
		}
	}
	f.Pre, f.Terse, f.JSON, f.Normal = parts[0].String(), parts[1].String(), parts[2].String(), parts[3].String()
	return f
}
