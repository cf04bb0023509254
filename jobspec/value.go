package jobspec

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// This file holds fio 3.33's number syntax (reference: cli-and-jobfiles.md
// §3.2-3.4), written from the manual and from fio's observed behaviour
// (fio --debug=parse prints every value it reads).

// errNoNumber is returned for a value that holds no digits.
var errNoNumber = errors.New("no number")

// cStrtoll reads an integer at the start of s as C's strtoll does: leading
// white space and one sign are skipped; in base 16 an optional "0x" or "0X"
// prefix is skipped when a hex digit follows it. n is the number of bytes
// read (0: no digits); err is strconv.ErrRange when the value does not fit
// in an int64 (v is then clamped, as strtoll clamps it).
func cStrtoll(s string, base uint64) (v int64, n int, err error) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if base == 16 && i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') {
		if _, ok := digitIn(s[i+2], 16); ok {
			i += 2
		}
	}
	start := i
	var u uint64
	over := false
	for i < len(s) {
		d, ok := digitIn(s[i], base)
		if !ok {
			break
		}
		if u > (math.MaxUint64-d)/base {
			over = true
		} else {
			u = u*base + d
		}
		i++
	}
	if i == start {
		return 0, 0, nil
	}
	switch {
	case !neg && (over || u > math.MaxInt64):
		return math.MaxInt64, i, strconv.ErrRange
	case neg && (over || u > 1<<63):
		return math.MinInt64, i, strconv.ErrRange
	case neg:
		return -int64(u), i, nil
	}
	return int64(u), i, nil
}

func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

func digitIn(c byte, base uint64) (uint64, bool) {
	var d uint64
	switch {
	case c >= '0' && c <= '9':
		d = uint64(c - '0')
	case c >= 'a' && c <= 'f':
		d = uint64(c-'a') + 10
	case c >= 'A' && c <= 'F':
		d = uint64(c-'A') + 10
	default:
		return 0, false
	}
	return d, d < base
}

// parseInt reads the number at the start of s the way fio does before it
// looks at units: the value is hexadecimal if s contains "0x" or "0X"
// anywhere (so "10x" is 16), decimal otherwise; text after the digits is
// ignored. No digits, or a value outside int64, is an error.
func parseInt(s string) (v int64, hex bool, err error) {
	hex = strings.Contains(s, "0x") || strings.Contains(s, "0X")
	base := uint64(10)
	if hex {
		base = 16
	}
	v, n, err := cStrtoll(s, base)
	if n == 0 {
		return 0, hex, errNoNumber
	}
	if err != nil {
		return 0, hex, err
	}
	return v, hex, nil
}

// plainInt reads a boolean or flag value as fio does: the number as
// parseInt reads it, but without units or percentages ("direct=8k" is 8),
// and clamped rather than refused when it is out of range.
func plainInt(s string) (int64, bool) {
	base := uint64(10)
	if strings.Contains(s, "0x") || strings.Contains(s, "0X") {
		base = 16
	}
	v, n, _ := cStrtoll(s, base)
	return v, n > 0
}

// suffixStart returns the index where a number's unit starts: fio skips
// digits, and signs before the first digit, from the very first byte (so a
// leading blank means "no unit"). It returns -1 when the next byte is not a
// letter (or '%', when pct is set).
func suffixStart(s string, pct bool) int {
	i := 0
	digit := false
	for i < len(s) {
		c := s[i]
		if c >= '0' && c <= '9' {
			digit = true
		} else if digit || (c != '+' && c != '-') {
			break
		}
		i++
	}
	if i == len(s) || !(isLetter(s[i]) || pct && s[i] == '%') {
		return -1
	}
	return i
}

// suffixOf returns the unit suffix of a size: the text after the number,
// lower-cased and cut at the first ':', '-', ',' or '/'; "" when there is
// none.
func suffixOf(s string) string {
	i := suffixStart(s, true)
	if i < 0 {
		return ""
	}
	suf := strings.ToLower(s[i:])
	if k := strings.IndexAny(suf, ":-,/"); k >= 0 {
		suf = suf[:k]
	}
	return suf
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// sizeValue is a parsed size: a byte count, or a percentage (N is then the
// number before the '%').
type sizeValue struct {
	N       int64
	Percent bool
}

// parseSize reads a size with fio's suffix rules (a value starting with
// '(' is an arithmetic expression, expr.go): k, m, g, t and p (and any
// text starting with them) multiply by powers of kbBase; the three-letter
// forms kib, mib, gib, tib and pib use the other base (fio inverts them
// under the default kb_base=1024); a '%' marks a percentage; anything else,
// and every hexadecimal value, has no multiplier. There is no overflow
// check, as in fio.
func parseSize(s string, kbBase int) (sizeValue, error) {
	if strings.HasPrefix(s, "(") {
		v, err := evalExpr(s, false)
		return sizeValue{N: v}, err
	}
	v, hex, err := parseInt(s)
	if err != nil {
		return sizeValue{}, err
	}
	if hex {
		return sizeValue{N: v}, nil
	}
	suf := suffixOf(s)
	if strings.HasPrefix(suf, "%") {
		return sizeValue{N: v, Percent: true}, nil
	}
	return sizeValue{N: v * sizeMultiplier(suf, kbBase)}, nil
}

// plain is the value as an option without percentages stores it: fio
// turns "N%" into -1-N there.
func (s sizeValue) plain() int64 {
	if s.Percent {
		return -1 - s.N
	}
	return s.N
}

// sizeMultiplier returns the multiplier of a size suffix.
func sizeMultiplier(suf string, kbBase int) int64 {
	const units = "kmgtp"
	if suf == "" {
		return 1
	}
	i := strings.IndexByte(units, suf[0])
	if i < 0 {
		return 1
	}
	base := int64(kbBase)
	if len(suf) >= 3 && suf[1:3] == "ib" {
		if kbBase == 1000 {
			base = 1024
		} else {
			base = 1000
		}
	}
	m := int64(1)
	for ; i >= 0; i-- {
		m *= base
	}
	return m
}

// Time units in microseconds.
const (
	usec   = 1
	msec   = 1000 * usec
	second = 1000 * msec
	minute = 60 * second
	hour   = 60 * minute
	day    = 24 * hour
)

// parseTimeInt reads a time value in microseconds (a value starting with
// '(' is an arithmetic expression, expr.go). The number is read as
// parseInt reads it (hexadecimal values are microseconds, whatever the
// default unit). The unit is the whole rest of the value after the digits,
// lower-cased: "us..." is µs, "ms..." ms, exactly "s", "m", "h" or "d"
// seconds, minutes, hours or days, and any other text (fio 3.33 reads
// "10sec" this way) microseconds. Without a letter after the digits the
// default unit applies, which is how "1.5s" becomes one second.
func parseTimeInt(s string, defUnit int64) (int64, error) {
	if strings.HasPrefix(s, "(") {
		return evalExpr(s, true) // microseconds without a unit
	}
	v, hex, err := parseInt(s)
	if err != nil {
		return 0, err
	}
	if hex {
		return v, nil
	}
	i := suffixStart(s, false)
	if i < 0 {
		return v * defUnit, nil
	}
	unit := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(unit, "us"):
		return v, nil
	case strings.HasPrefix(unit, "ms"):
		return v * msec, nil
	case unit == "s":
		return v * second, nil
	case unit == "m":
		return v * minute, nil
	case unit == "h":
		return v * hour, nil
	case unit == "d":
		return v * day, nil
	}
	return v, nil
}

// parseTime is parseTimeInt for callers that store an unsigned count of
// microseconds; defUnit is the number of microseconds in the default unit.
func parseTime(s string, defUnit uint64) (uint64, error) {
	v, err := parseTimeInt(s, int64(defUnit))
	return uint64(v), err
}

// piece is one round of fio's walk over a multi-value option ("4k,8k",
// "1k:2k", "8k-16k"). Text is what fio hands to the value parser in that
// round: the rest of the value from the piece on, so the parser stops at
// the next separator itself and the unit rules see the following pieces
// too ("2s-3s" reads "s-3s" as the unit of the first piece). More reports
// that another round follows.
type piece struct {
	Text string
	More bool
}

// pieces cuts value as fio does: each round looks for the first ',' in
// what is left, and when there is none and colonDash is set, for the first
// ':', then the first '-'. A ',' that ends what is left is cut off, and one
// more (empty) round follows it; so "bs=8k," sets only the read size.
// "nice=-5" reads "-5", then "5".
func pieces(value string, colonDash bool) []piece {
	var out []piece
	rest := value
	for {
		text := rest
		sep := strings.IndexByte(rest, ',')
		if sep >= 0 && sep == len(rest)-1 {
			text = rest[:sep]
		}
		if sep < 0 && colonDash {
			if sep = strings.IndexByte(rest, ':'); sep < 0 {
				sep = strings.IndexByte(rest, '-')
			}
		}
		out = append(out, piece{Text: text, More: sep >= 0})
		if sep < 0 {
			return out
		}
		rest = rest[sep+1:]
	}
}

// splitPieces returns the texts of pieces(s, true); the first one is what a
// single-valued option stores.
func splitPieces(s string) []string {
	ps := pieces(s, true)
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Text
	}
	return out
}

// matchChoice reports whether value selects word. fio compares the first
// max(len(word), L) bytes, L being the length of value up to its first ','
// (or, without a comma, its first ':'): so "read:8" and "read,x" select
// "read", while "rea", "readx" and "READ" do not.
func matchChoice(value, word string) bool {
	l := len(value)
	if i := strings.IndexByte(value, ','); i >= 0 {
		l = i
	} else if i := strings.IndexByte(value, ':'); i >= 0 {
		l = i
	}
	if l < len(word) {
		l = len(word)
	}
	if len(value) < l {
		return value == word
	}
	return value[:l] == word
}

// cStrtod reads a floating-point number at the start of s as C's strtod
// does (blanks, sign, decimal or hexadecimal digits, exponent, "inf",
// "infinity", "nan"); n is 0 when nothing was read.
func cStrtod(s string) (f float64, n int) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	start := i
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	low := strings.ToLower(s[i:])
	sign := 1.0
	if neg {
		sign = -1
	}
	switch {
	case strings.HasPrefix(low, "infinity"):
		return math.Inf(int(sign)), i + 8
	case strings.HasPrefix(low, "inf"):
		return math.Inf(int(sign)), i + 3
	case strings.HasPrefix(low, "nan"):
		i += 3
		if i < len(s) && s[i] == '(' {
			j := i + 1
			for j < len(s) && (s[j] == '_' || isLetter(s[j]) || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if j < len(s) && s[j] == ')' {
				i = j + 1
			}
		}
		return math.Copysign(math.NaN(), sign), i
	case strings.HasPrefix(low, "0x") && len(low) > 2 && (isHexDigit(low[2]) || low[2] == '.' && len(low) > 3 && isHexDigit(low[3])):
		i = scanNumber(s, i+2, true)
	default:
		j := scanNumber(s, i, false)
		if j == i {
			return 0, 0
		}
		i = j
	}
	text := s[start:i]
	if strings.Contains(strings.ToLower(text), "0x") && !strings.ContainsAny(text, "pP") {
		text += "p0" // Go wants an exponent in hexadecimal floats
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return f, i // ±Inf or 0, as strtod
		}
		return 0, 0
	}
	return f, i
}

func isHexDigit(c byte) bool { _, ok := digitIn(c, 16); return ok }

// scanNumber returns the end of the mantissa and exponent that start at i
// (digits with at most one '.', then e, or p for hexadecimal, and a signed
// exponent if digits follow), or i when there are no digits.
func scanNumber(s string, i int, hex bool) int {
	base := uint64(10)
	exp := byte('e')
	if hex {
		base, exp = 16, 'p'
	}
	start := i
	digits := 0
	dot := false
	for i < len(s) {
		if _, ok := digitIn(s[i], base); ok {
			digits++
		} else if s[i] == '.' && !dot {
			dot = true
		} else {
			break
		}
		i++
	}
	if digits == 0 {
		return start
	}
	if i < len(s) && (s[i]|0x20) == exp {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return i
}

// cFloat formats f as C's "%f" does ("inf", "-nan" and so on).
func cFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	}
	return strconv.FormatFloat(f, 'f', 6, 64)
}
