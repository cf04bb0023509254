package jobspec

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// errNoNumber is returned for a value that holds no digits.
var errNoNumber = errors.New("no number")

// parseInt reads the number at the start of s as C's strtoll does: leading
// blanks and a sign are accepted, text after the digits is ignored. The
// value is hexadecimal if s contains "0x" or "0X" anywhere.
func parseInt(s string) (v int64, hex bool, err error) {
	hex = strings.Contains(s, "0x") || strings.Contains(s, "0X")
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	base := uint64(10)
	if hex {
		base = 16
		if len(t) >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
			t = t[2:]
		}
	}
	var u uint64
	n := 0
	for ; n < len(t); n++ {
		d, ok := digitVal(t[n])
		if !ok || d >= base {
			break
		}
		if u > (math.MaxUint64-d)/base {
			return 0, hex, strconv.ErrRange
		}
		u = u*base + d
	}
	if n == 0 {
		return 0, hex, errNoNumber
	}
	if (!neg && u > math.MaxInt64) || (neg && u > 1<<63) {
		return 0, hex, strconv.ErrRange
	}
	if neg {
		return -int64(u), hex, nil
	}
	return int64(u), hex, nil
}

func digitVal(c byte) (uint64, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

// suffixOf returns the unit suffix of a number: the text after the leading
// digits (and any sign before the first digit), lower-cased, if it starts
// with a letter or '%'; "" otherwise.
func suffixOf(s string) string {
	i := 0
	digit := false
	for i < len(s) {
		c := s[i]
		if c >= '0' && c <= '9' {
			digit = true
		} else if !digit && (c == '+' || c == '-') {
		} else {
			break
		}
		i++
	}
	if i == len(s) {
		return ""
	}
	c := s[i]
	if !isLetter(c) && c != '%' {
		return ""
	}
	return strings.ToLower(s[i:])
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// sizeValue is a parsed size: a byte count or a percentage.
type sizeValue struct {
	N       int64
	Percent bool
}

// parseSize reads a size with fio's suffix rules (k, m, g, t, p by
// kbBase; the three-letter kib, mib, … forms use the other base; a
// trailing % marks a percentage).
func parseSize(s string, kbBase int) (sizeValue, error) {
	if s == "" {
		return sizeValue{}, errNoNumber
	}
	v, hex, err := parseInt(s)
	if err != nil {
		return sizeValue{}, err
	}
	if hex {
		return sizeValue{N: v}, nil
	}
	suf := suffixOf(s)
	if i := strings.IndexAny(suf, ":-,/"); i >= 0 {
		suf = suf[:i]
	}
	if strings.HasPrefix(suf, "%") {
		return sizeValue{N: v, Percent: true}, nil
	}
	return sizeValue{N: v * sizeMultiplier(suf, kbBase)}, nil
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
		// The explicit binary/decimal spellings are the inverse of kb_base.
		if kbBase == 1024 {
			base = 1000
		} else {
			base = 1024
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
)

// parseTime reads a time value and returns microseconds. A number without
// a unit is in defUnit (microseconds per unit).
func parseTime(s string, defUnit uint64) (uint64, error) {
	v, hex, err := parseInt(s)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		v = 0
	}
	n := uint64(v)
	suf := suffixOf(s)
	if hex || suf == "" {
		if hex {
			return n, nil
		}
		return n * defUnit, nil
	}
	switch {
	case strings.HasPrefix(suf, "us"):
		return n, nil
	case strings.HasPrefix(suf, "ms"):
		return n * msec, nil
	case suf == "s":
		return n * second, nil
	case suf == "m":
		return n * 60 * second, nil
	case suf == "h":
		return n * 3600 * second, nil
	case suf == "d":
		return n * 86400 * second, nil
	}
	return n, nil // fio reads any other unit as microseconds
}

// splitPieces cuts a multi-value option as fio does: one trailing comma
// dropped, then pieces at ',', else at ':', else at '-'.
func splitPieces(s string) []string {
	s = strings.TrimSuffix(s, ",")
	for _, sep := range []string{",", ":", "-"} {
		if strings.Contains(s, sep) {
			if sep == "-" && strings.HasPrefix(s, "-") && strings.Count(s, "-") == 1 {
				break // a lone negative number
			}
			return strings.Split(s, sep)
		}
	}
	return []string{s}
}

// matchChoice reports whether value selects word (fio's rule: the text up
// to the first ',' — or ':' when there is no comma — equals word).
func matchChoice(value, word string) bool {
	l := len(value)
	if i := strings.IndexByte(value, ','); i >= 0 {
		l = i
	} else if i := strings.IndexByte(value, ':'); i >= 0 {
		l = i
	}
	return value[:l] == word
}
