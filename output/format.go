package output

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// FioVersion is the version string fio 3.33 prints ("fio-3.33").
const FioVersion = "fio-3.33"

// Unit is the suffix num2str appends to a number.
type Unit int

// The num2str unit suffixes.
const (
	UnitNone       Unit = iota // ""
	UnitPerSec                 // "/s"
	UnitByte                   // "B"
	UnitBit                    // "bit" (value multiplied by 8)
	UnitBytePerSec             // "B/s"
	UnitBitPerSec              // "bit/s" (value multiplied by 8)
)

var unitText = [...]string{"", "/s", "B", "bit", "B/s", "bit/s"}

var (
	binPrefix = [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	decPrefix = [...]string{"", "k", "M", "G", "T", "P", "E"}
)

// Num2Str spells n the way fio's num2str does: at most maxlen digits
// before the unit where possible, with a binary (1024, "Ki") or decimal
// (1000, "k") prefix. base is the unit n is already expressed in (1 for
// plain values; kb_base when n is in kibibytes), which starts the prefix
// one step higher per factor it contains. The result may hold more than
// maxlen digits when a rounded fraction carries (10239 B → "10.00KiB").
func Num2Str(n uint64, maxlen int, base int, pow2 bool, unit Unit) string {
	factor := uint64(1000)
	prefix := decPrefix[:]
	if pow2 {
		factor = 1024
		prefix = binPrefix[:]
	}
	idx := 0
	for b := uint64(max(base, 0)); b > 1; b /= factor {
		idx++
	}
	if unit == UnitBit || unit == UnitBitPerSec {
		n *= 8
	}
	var rem uint64
	divided := false
	for numDigits(n) > maxlen && idx < len(prefix) {
		rem = n % factor
		n /= factor
		idx++
		divided = true
	}
	if idx >= len(prefix) {
		idx = 0
	}
	suffix := prefix[idx] + unitText[unit]
	if !divided {
		return strconv.FormatUint(n, 10) + suffix
	}
	d := numDigits(n)
	if maxlen-d <= 1 {
		if rem >= factor/2 {
			n++
		}
		return strconv.FormatUint(n, 10) + suffix
	}
	frac := strconv.FormatFloat(float64(rem)/float64(factor), 'f', maxlen-d-1, 64)
	if frac[0] == '1' {
		n++
	}
	_, digits, _ := strings.Cut(frac, ".")
	return strconv.FormatUint(n, 10) + "." + digits + suffix
}

// numDigits returns the number of decimal digits of n (1 for 0).
func numDigits(n uint64) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

// fmtF formats x as C's "%.*f" does in glibc: fixed point with prec
// decimals, "nan"/"-nan"/"inf"/"-inf" for the special values.
func fmtF(x float64, prec int) string {
	switch {
	case math.IsNaN(x):
		if math.Signbit(x) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

// fmtWF formats x as C's "%W.Pf": fmtF right-aligned in width w.
func fmtWF(x float64, w, prec int) string { return pad(fmtF(x, prec), w) }

// pad right-aligns s in a field of w characters (never truncating).
func pad(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}

// padU formats n right-aligned in w characters ("%Wllu").
func padU(n uint64, w int) string { return pad(strconv.FormatUint(n, 10), w) }

// utoa and itoa spell integers in decimal.
func utoa(n uint64) string { return strconv.FormatUint(n, 10) }
func itoa(n int) string    { return strconv.Itoa(n) }

// Ctime returns C's ctime text for t in t's location, without the
// trailing newline: "Sun Nov 29 18:40:05 2026" (day of month padded to
// two characters with a space).
func Ctime(t time.Time) string { return t.Format("Mon Jan _2 15:04:05 2006") }

// negNaN is the NaN x86 produces for 0/0, which glibc prints as "-nan".
var negNaN = math.Copysign(math.NaN(), -1)
