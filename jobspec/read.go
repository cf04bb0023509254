package jobspec

import (
	"fmt"
	"strings"
)

// This file reads one option value the way fio 3.33 does and collects the
// lines fio prints while it does (reference: cli-and-jobfiles.md §3 and
// §5). It decides only whether fio accepts the value; the option's setter
// stores it. Behaviour was observed with fio --debug=parse, which prints
// every piece fio reads and the number it makes of it.

// A note is one line fio prints while it reads options: on stdout (fio's
// informational log: lists of valid values, deprecation notices) or on
// stderr (errors).
type note struct {
	stdout bool
	text   string
}

// reader reads values for one job.
type reader struct {
	job *Job
	// dry is set under --parse-only and --showcmd, where fio skips the
	// checks some option handlers make (directory existence, CPU numbers,
	// error names, rw's sequential postfix).
	dry bool
	// readOnly is fio's --readonly: rw values that write or trim fail.
	readOnly bool
	notes    []note
	// got is the value as read, for the row's typed setter (store).
	got parsed
}

// parsed is a value as the reader read it: what a row's typed setter
// stores, so a value is parsed once.
type parsed struct {
	// choice is the index in the row's Choices of the word a choice
	// value selected.
	choice int
	// first is the first piece of a numeric value, the one fio's
	// integer options store; firstOK is false where fio refused it.
	first   num
	firstOK bool
	// floats are the pieces of a float list fio took, in order.
	floats []floatPiece
}

// floatPiece is one piece of a float list as read: its place in the
// list, its value and the text C's strtod read for it.
type floatPiece struct {
	i    int
	v    float64
	text string
}

func (r *reader) errf(format string, args ...any) {
	r.notes = append(r.notes, note{text: fmt.Sprintf(format, args...)})
}

func (r *reader) infof(format string, args ...any) {
	r.notes = append(r.notes, note{stdout: true, text: fmt.Sprintf(format, args...)})
}

func (r *reader) kbBase() int {
	if r.job == nil || r.job.KBBase == 0 {
		return 1024
	}
	return r.job.KBBase
}

// read reports whether fio accepts value for o; has is false for a line
// without '='.
func (r *reader) read(o *Option, value string, has bool) bool {
	r.got = parsed{}
	h := handlers[o.Name]
	if o.Engine != "" {
		h = nil // engine options have their own handlers in fio
	}
	if !has {
		switch o.Kind {
		case KindFlag:
			return true
		case KindChoice:
			r.validValues(o)
			return false
		case KindText:
			if h != nil && h.valueless != nil {
				return h.valueless(r, o)
			}
			return true
		}
		r.errf("Option %s requires an argument", o.Name)
		return false
	}
	switch o.Kind {
	case KindDeprecated, KindSoftDeprecated:
		// fio reads deprecated options piece by piece too, with a
		// notice for each.
		for range pieces(value, true) {
			r.infof("Option %s is deprecated", o.Name)
		}
		return o.Kind == KindSoftDeprecated
	case KindString:
		if value == "" {
			return false
		}
	case KindChoice:
		i, ok := r.choice(o, value)
		if !ok {
			r.validValues(o)
			return false
		}
		c := o.Choices[i]
		r.got.choice = i
		if h != nil && h.choice != nil {
			return h.choice(r, o, value, c)
		}
		return true
	case KindMultiChoice:
		ok := false
		for _, p := range pieces(value, false) {
			if _, found := r.choice(o, p.Text); found {
				ok = true
			} else {
				r.validValues(o)
			}
		}
		return ok
	case KindFloatList:
		return r.floats(o, value)
	case KindRange:
		return r.ranges(value)
	case KindText, KindSplit:
	default:
		return r.numbers(o, value, h)
	}
	if h != nil && h.text != nil {
		return h.text(r, o, value)
	}
	return true
}

// choice finds the index of the word value selects.
func (r *reader) choice(o *Option, value string) (int, bool) {
	for i, c := range o.Choices {
		if matchChoice(value, c.Word) {
			return i, true
		}
	}
	return 0, false
}

// validValues prints fio's list of an option's words (on stdout), ended
// by an empty line.
func (r *reader) validValues(o *Option) {
	for _, l := range valueLines(o) {
		r.infof("%s", l)
	}
	r.infof("")
}

// valueLines are the "valid values" lines of --cmdhelp and of a failed
// choice: a 20-wide label, then each word padded to 10 and its help.
func valueLines(o *Option) []string {
	var out []string
	for i, c := range o.Choices {
		label := ""
		if i == 0 {
			label = "valid values"
		}
		if c.Help == "" {
			out = append(out, fmt.Sprintf("%20s: %-10s", label, c.Word))
		} else {
			out = append(out, fmt.Sprintf("%20s: %-10s %s", label, c.Word, c.Help))
		}
	}
	return out
}

// HelpLines are the lines fio's --cmdhelp=NAME prints for o (without the
// empty line that ends the block).
func (o *Option) HelpLines() []string {
	out := []string{fmt.Sprintf("%20s: %s", o.Name, o.Help)}
	if o.Alias != "" {
		out = append(out, fmt.Sprintf("%20s: %s", "alias", o.Alias))
	}
	out = append(out, fmt.Sprintf("%20s: %s", "type", o.Type))
	def := o.Default
	if def == "" && !o.EmptyDefault {
		def = "no default"
	}
	out = append(out, fmt.Sprintf("%20s: %s", "default", def))
	if o.Profile != "" {
		out = append(out, fmt.Sprintf("%20s: only for profile '%s'", "valid", o.Profile))
	}
	if o.Range != "" && o.Kind != KindChoice {
		out = append(out, fmt.Sprintf("%20s: %s", "range", o.Range))
	}
	return append(out, valueLines(o)...)
}

// numbers reads a numeric option: every piece is read (and checked), and
// the option is accepted if any piece is.
func (r *reader) numbers(o *Option, value string, h *handler) bool {
	ok := false
	for i, p := range pieces(value, true) {
		v, good := r.number(o, p.Text)
		if good && h != nil && h.number != nil {
			good = h.number(r, o, i, v)
		}
		if good {
			ok = true
		}
		if i == 0 {
			r.got.first, r.got.firstOK = v, good
		}
	}
	return ok
}

// num is one numeric piece as read.
type num struct {
	N     int64
	Pct   bool // N%: only size, io_size, offset, offset_increment, zoneskip
	Zones bool // Nz: the same options
}

// number reads one piece of a numeric option, with fio's checks and
// messages.
func (r *reader) number(o *Option, text string) (num, bool) {
	if o.Kind != KindBool && o.Kind != KindFlag && strings.HasSuffix(text, "z") {
		if o.Kind != KindSizePct {
			r.errf("%s: 'z' suffix isn't applicable", o.Name)
			return num{}, false
		}
		v, n, _ := cStrtoll(text, 10)
		if n == 0 || text[n] != 'z' {
			r.errf("%s: unexpected zone value '%s'", o.Name, text)
			return num{}, false
		}
		return num{N: v, Zones: true}, true
	}
	var v num
	switch {
	case o.Kind == KindBool || o.Kind == KindFlag:
		n, ok := plainInt(text)
		if !ok {
			return num{}, false
		}
		v.N = n
	case o.Kind == KindTimeSec || o.Kind == KindTimeUsec || o.Unit != 0:
		unit := o.Unit
		switch o.Kind {
		case KindTimeSec:
			unit = second
		case KindTimeUsec:
			unit = usec
		}
		n, err := parseTimeInt(text, unit)
		if err != nil {
			return num{}, false
		}
		v.N = n
	default:
		s, err := parseSize(text, r.kbBase())
		if err != nil {
			return num{}, false
		}
		if o.Kind == KindSizePct && s.Percent {
			v = num{N: s.N, Pct: true}
		} else {
			v.N = s.plain()
		}
	}
	return v, r.inRange(o, v)
}

// admits reports whether fio takes the plain number v for o (inRange
// without its messages), for setters that read pieces themselves.
func (o *Option) admits(v int64) bool {
	switch o.Kind {
	case KindFlag:
		return true
	case KindBool:
		return int64(int32(v)) <= 1
	case KindInt:
		t := int64(int32(v))
		return (o.lim.max == 0 || t <= o.lim.max) && (o.lim.min == 0 || t >= o.lim.min)
	}
	u := uint64(v)
	return (o.lim.max == 0 || u <= uint64(o.lim.max)) && (o.lim.min == 0 || u >= uint64(o.lim.min))
}

// inRange checks a number against the option's limits as fio does: 32-bit
// options compare the value truncated to 32 bits (so iodepth=5000000000
// passes), others compare unsigned; a limit of 0 is no limit; booleans
// are checked against 1 only, and their message names no option and
// shows the truncated value.
func (r *reader) inRange(o *Option, v num) bool {
	if v.Pct || v.Zones {
		return true
	}
	switch o.Kind {
	case KindFlag:
		return true
	case KindBool:
		if t := int64(int32(v.N)); t > 1 {
			r.errf("max value out of range: %d (1 max)", t)
			return false
		}
		return true
	case KindInt:
		t := int64(int32(v.N))
		if o.lim.max != 0 && t > o.lim.max {
			r.errf("%s: max value out of range: %d (%d max)", o.Name, v.N, o.lim.max)
			return false
		}
		if o.lim.min != 0 && t < o.lim.min {
			r.errf("%s: min value out of range: %d (%d min)", o.Name, v.N, o.lim.min)
			return false
		}
		return true
	}
	u := uint64(v.N)
	if o.lim.max != 0 && u > uint64(o.lim.max) {
		r.errf("%s: max value out of range: %d (%d max)", o.Name, u, o.lim.max)
		return false
	}
	if o.lim.min != 0 && u < uint64(o.lim.min) {
		r.errf("%s: min value out of range: %d (%d min)", o.Name, u, o.lim.min)
		return false
	}
	return true
}

// floats reads a ':'-separated float list: each piece is what C's strtod
// reads from the rest of the value, checked against the option's range;
// pieces past MaxLen are refused one by one. Accepted if any piece is.
func (r *reader) floats(o *Option, value string) bool {
	ok := false
	rest := value
	for i := 0; ; i++ {
		sep := strings.IndexByte(rest, ':')
		if f, n, good := r.float(o, i, rest); good {
			ok = true
			r.got.floats = append(r.got.floats, floatPiece{i, f, rest[:n]})
		}
		if sep < 0 {
			return ok
		}
		rest = rest[sep+1:]
	}
}

// float reads piece i of a float list: the value, the bytes read and
// whether fio takes it.
func (r *reader) float(o *Option, i int, text string) (float64, int, bool) {
	if i >= o.MaxLen {
		r.errf("the list exceeding max length %d", o.MaxLen)
		return 0, 0, false
	}
	f, n := cStrtod(text)
	if n == 0 {
		r.errf("not a floating point value: %s", text)
		return 0, 0, false
	}
	if o.lim.hasMF && f > o.lim.maxF {
		r.errf("value out of range: %s (range max: %s)", cFloat(f), cFloat(o.lim.maxF))
		return 0, 0, false
	}
	if o.lim.hasMinF && f < o.lim.minF {
		r.errf("value out of range: %s (range min: %s)", cFloat(f), cFloat(o.lim.minF))
		return 0, 0, false
	}
	return f, n, true
}

// ranges reads bsrange: ','-separated "lo-hi" (or "lo:hi") pieces.
func (r *reader) ranges(value string) bool {
	ok := false
	for _, p := range pieces(value, false) {
		if _, _, good := readRange(p.Text, r.kbBase()); good {
			ok = true
		}
	}
	return ok
}

// readRange reads one "lo-hi" or "lo:hi" piece (swapped if lo > hi).
func readRange(text string, kbBase int) (lo, hi int64, ok bool) {
	sep := strings.IndexByte(text, '-')
	if sep < 0 {
		sep = strings.IndexByte(text, ':')
	}
	if sep < 0 {
		return 0, 0, false
	}
	a, err1 := parseSize(text[:sep], kbBase)
	b, err2 := parseSize(text[sep+1:], kbBase)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	lo, hi = a.plain(), b.plain()
	if uint64(lo) > uint64(hi) {
		lo, hi = hi, lo
	}
	return lo, hi, true
}
