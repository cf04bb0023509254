package jobspec

import (
	"fmt"
	"strconv"
	"strings"
)

// This file finds values that fio 3.33 reads in a way users rarely mean
// (reference: cli-and-jobfiles.md §3.2, §3.3, App. B): a fraction drops
// the unit ("size=1.5g" is 1 byte), an unknown time unit means
// microseconds ("runtime=10sec" is 10 µs), and a blank before the number
// hides the unit ("bs = 4k" in a job file is 4 bytes). gofio reads them
// as fio does, for compatibility, and prints one warning line saying what
// was understood (docs/compat.md lists them).

// misread returns gofio's warning for a value fio misreads, or "".
func misread(o *Option, key, value string, has bool, kbBase int) string {
	if !has || value == "" {
		return ""
	}
	timeKind := o.Kind == KindTimeSec || o.Kind == KindTimeUsec || o.Unit != 0
	switch o.Kind {
	case KindSize, KindSizePct, KindSizeRange, KindInt, KindInt64, KindTimeSec, KindTimeUsec:
	default:
		return ""
	}
	tok := value
	if i := strings.IndexAny(tok, ",:"); i >= 0 {
		tok = tok[:i]
	}
	if i := strings.IndexByte(tok[min(1, len(tok)):], '-'); i >= 0 {
		tok = tok[:i+1]
	}
	if strings.Contains(tok, "0x") || strings.Contains(tok, "0X") {
		return ""
	}
	head := fmt.Sprintf("gofio: %s=%s was read as ", key, value)
	tail := ", as fio 3.33 reads it"
	if timeKind {
		unit := o.Unit
		switch o.Kind {
		case KindTimeSec:
			unit = second
		case KindTimeUsec:
			unit = usec
		}
		got, err := parseTimeInt(tok, unit)
		if err != nil {
			return ""
		}
		want, ok := meantTime(strings.TrimLeft(tok, " \t"), unit)
		if !ok || want == float64(got) {
			return ""
		}
		return head + fmtMicros(got) + tail + timeAdvice(want)
	}
	s, err := parseSize(tok, kbBase)
	if err != nil || s.Percent {
		return ""
	}
	want, ok := meantSize(strings.TrimLeft(tok, " \t"), kbBase)
	if !ok || want == float64(s.N) {
		return ""
	}
	bytes := o.Kind != KindInt
	return head + fmtCount(s.N, bytes) + tail + sizeAdvice(want, kbBase, bytes)
}

// splitNumber cuts "1.5g" into 1.5 and "g": a decimal number, maybe with
// a fraction, and the letters after it.
func splitNumber(s string) (f float64, unit string, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, "", false
	}
	return f, strings.ToLower(s[i:]), true
}

// meantSize is the size a reader of the value would expect, in bytes.
func meantSize(s string, kbBase int) (float64, bool) {
	f, unit, ok := splitNumber(s)
	// fio stops at a blank between the number and the unit: "1 g" is
	// 1 byte (fio 3.33's --debug=parse shows out=1).
	unit = strings.TrimLeft(unit, " \t")
	if !ok || unit == "" || !isLetter(unit[0]) {
		return f, ok
	}
	return f * float64(sizeMultiplier(unit, kbBase)), true
}

// timeWords are unit words fio 3.33 does not know, and what they mean.
var timeWords = map[string]int64{
	"sec": second, "secs": second, "second": second, "seconds": second,
	"min": minute, "mins": minute, "minute": minute, "minutes": minute,
	"hr": hour, "hrs": hour, "hour": hour, "hours": hour,
	"day": day, "days": day,
}

// meantTime is the time a reader of the value would expect, in µs.
func meantTime(s string, defUnit int64) (float64, bool) {
	f, unit, ok := splitNumber(s)
	if !ok {
		return 0, false
	}
	switch {
	case unit == "":
		return f * float64(defUnit), true
	case strings.HasPrefix(unit, "us"):
		return f, true
	case strings.HasPrefix(unit, "ms"):
		return f * msec, true
	case unit == "s":
		return f * second, true
	case unit == "m":
		return f * minute, true
	case unit == "h":
		return f * hour, true
	case unit == "d":
		return f * day, true
	}
	if u, ok := timeWords[unit]; ok {
		return f * float64(u), true
	}
	return 0, false
}

func fmtCount(n int64, bytes bool) string {
	switch {
	case !bytes:
		return strconv.FormatInt(n, 10)
	case n == 1:
		return "1 byte"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// sizeAdvice suggests a spelling fio reads as want bytes.
func sizeAdvice(want float64, kbBase int, bytes bool) string {
	if want != float64(int64(want)) || want < 0 {
		return ""
	}
	n := int64(want)
	units := []string{"p", "t", "g", "m", "k"}
	names := []string{"PiB", "TiB", "GiB", "MiB", "KiB"}
	if kbBase == 1000 {
		names = []string{"PB", "TB", "GB", "MB", "kB"}
	}
	spelled := strconv.FormatInt(n, 10)
	for _, u := range units {
		m := sizeMultiplier(u, kbBase)
		if n != 0 && n%m == 0 {
			spelled = strconv.FormatInt(n/m, 10) + u
			break
		}
	}
	meaning := strconv.FormatInt(n, 10)
	if bytes {
		meaning = fmtCount(n, true)
		for i, u := range units {
			m := float64(sizeMultiplier(u, kbBase))
			if want >= m {
				meaning = strconv.FormatFloat(want/m, 'f', -1, 64) + " " + names[i]
				break
			}
		}
	}
	return fmt.Sprintf("; write %s for %s", spelled, meaning)
}

// timeUnits are fio's time units, largest first.
var timeUnits = []struct {
	suffix string
	us     int64
	name   string
}{{"d", day, "days"}, {"h", hour, "hours"}, {"m", minute, "minutes"}, {"s", second, "seconds"}, {"ms", msec, "milliseconds"}, {"us", usec, "microseconds"}}

// timeAdvice suggests a spelling fio reads as want microseconds.
func timeAdvice(want float64) string {
	if want != float64(int64(want)) || want <= 0 {
		return ""
	}
	n := int64(want)
	for _, u := range timeUnits {
		if n%u.us == 0 {
			meaning := ""
			for _, v := range timeUnits {
				if want >= float64(v.us) {
					meaning = strconv.FormatFloat(want/float64(v.us), 'f', -1, 64) + " " + v.name
					break
				}
			}
			return fmt.Sprintf("; write %d%s for %s", n/u.us, u.suffix, meaning)
		}
	}
	return ""
}

// fmtMicros spells a time in its largest exact unit ("10 µs", "1 s").
func fmtMicros(us int64) string {
	for _, u := range []struct {
		us   int64
		name string
	}{{day, "d"}, {hour, "h"}, {minute, "min"}, {second, "s"}, {msec, "ms"}} {
		if us != 0 && us%u.us == 0 {
			return fmt.Sprintf("%d %s", us/u.us, u.name)
		}
	}
	return fmt.Sprintf("%d µs", us)
}
