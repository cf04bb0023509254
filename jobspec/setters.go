package jobspec

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds the typed setters the options table refers to. Each one
// parses a raw value with fio's rules for the option's kind and stores it
// in the Job.

func failed(name, value string) error { return &ValueError{Option: name, Value: value} }

// intPiece parses the first piece of an integer option, checking [lo, hi].
func intPiece(name, value string, kbBase int, lo, hi int64) (int64, error) {
	p := splitPieces(value)[0]
	v, err := parseSize(p, kbBase)
	if err != nil || v.Percent {
		return 0, failed(name, value)
	}
	if v.N < lo {
		return 0, &ValueError{Option: name, Value: value, Detail: fmt.Sprintf("%s: min value out of range: %d (%d min)", name, v.N, lo)}
	}
	if hi >= 0 && v.N > hi {
		return 0, &ValueError{Option: name, Value: value, Detail: fmt.Sprintf("%s: max value out of range: %d (%d max)", name, v.N, hi)}
	}
	return v.N, nil
}

// setInt returns a setter for an int option with range [lo, hi] (hi < 0:
// no upper bound).
func setInt(name string, lo, hi int64, field func(*Job) *int) func(*Job, string) error {
	return func(j *Job, value string) error {
		v, err := intPiece(name, value, j.KBBase, lo, hi)
		if err != nil {
			return err
		}
		*field(j) = int(v)
		return nil
	}
}

// setBool returns a setter for a bool option (0 or 1).
func setBool(field func(*Job) *bool) func(*Job, string) error {
	return func(j *Job, value string) error {
		v, err := parseBool(value)
		if err != nil {
			return err
		}
		*field(j) = v
		return nil
	}
}

// setNotBool is setBool for an option that stores the opposite switch
// (buffered=0 is direct=1).
func setNotBool(field func(*Job) *bool) func(*Job, string) error {
	return func(j *Job, value string) error {
		v, err := parseBool(value)
		if err != nil {
			return err
		}
		*field(j) = !v
		return nil
	}
}

// setFlag returns a setter for a flag option: no value or a number.
func setFlag(field func(*Job) *bool) func(*Job, string) error {
	return func(j *Job, value string) error {
		if value == "" {
			*field(j) = true
			return nil
		}
		v, _, err := parseInt(splitPieces(value)[0])
		if err != nil {
			return errNoNumber
		}
		*field(j) = v != 0
		return nil
	}
}

func parseBool(value string) (bool, error) {
	v, _, err := parseInt(splitPieces(value)[0])
	if err != nil {
		return false, errNoNumber
	}
	if v < 0 || v > 1 {
		return false, &rangeError{v: v}
	}
	return v == 1, nil
}

// rangeError is a bool outside 0…1; Build turns it into fio's text.
type rangeError struct{ v int64 }

func (e *rangeError) Error() string { return fmt.Sprintf("max value out of range: %d (1 max)", e.v) }

// setTime returns a setter for a time option stored in µs.
func setTime(defUnit uint64, field func(*Job) *uint64) func(*Job, string) error {
	return func(j *Job, value string) error {
		v, err := parseTime(splitPieces(value)[0], defUnit)
		if err != nil {
			return err
		}
		*field(j) = v
		return nil
	}
}

// setSizeLast returns a setter for a size option whose handler runs on
// every piece, so the last piece wins.
func setSizeLast(field func(*Job) *uint64) func(*Job, string) error {
	return func(j *Job, value string) error {
		var ok bool
		for _, p := range splitPieces(value) {
			v, err := parseSize(p, j.KBBase)
			if err != nil || v.Percent {
				continue
			}
			*field(j) = uint64(v.N)
			ok = true
		}
		if !ok {
			return errNoNumber
		}
		return nil
	}
}

func setString(field func(*Job) *string) func(*Job, string) error {
	return func(j *Job, value string) error {
		*field(j) = value
		return nil
	}
}

func setName(j *Job, value string) error {
	j.Name = value
	return nil
}

// setFilename adds ':'-separated names; "\:" is a literal colon.
func setFilename(j *Job, value string) error {
	value = strings.TrimSpace(value)
	for _, f := range splitEscaped(value) {
		if f == "" {
			break
		}
		j.Filename = append(j.Filename, f)
	}
	return nil
}

func setDirectory(j *Job, value string) error {
	j.Directory = splitEscaped(value)
	return nil
}

// splitEscaped splits at ':' except where written "\:".
func splitEscaped(s string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ':':
			cur.WriteByte(':')
			i++
		case s[i] == ':':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(out, cur.String())
}

func setRW(j *Job, value string) error {
	for i, w := range rwNames {
		if matchChoice(value, w) {
			j.RW = RW(i)
			return setRWSuffix(j, value[len(w):])
		}
	}
	if matchChoice(value, "readwrite") {
		j.RW = RWReadWrite
		return setRWSuffix(j, value[len("readwrite"):])
	}
	return errChoice
}

// errChoice marks a value that is none of an option's words; Build prints
// fio's list of valid values for it.
var errChoice = fmt.Errorf("not a valid choice")

func setRWSuffix(j *Job, rest string) error {
	j.RWSuffix = 0
	if !strings.HasPrefix(rest, ":") {
		return nil
	}
	rest = rest[1:]
	if j.RW.Random() {
		n, _ := strconv.Atoi(strings.TrimSpace(rest))
		j.RWSuffix = int64(n)
		return nil
	}
	v, err := parseSize(rest, j.KBBase)
	if err != nil {
		return fmt.Errorf("fio: rw postfix parsing failed")
	}
	j.RWSuffix = v.N
	return nil
}

func setIOEngine(j *Job, value string) error {
	switch {
	case strings.HasPrefix(value, "aio"), strings.HasPrefix(value, "linuxaio"):
		value = "libaio"
	}
	j.IOEngine = value
	return nil
}

// setBS sets the per-direction block sizes: piece i is direction i, later
// directions take the last piece, empty pieces leave a direction as it is.
func setBS(j *Job, value string) error {
	pieces := splitPieces(value)
	var last uint64
	var ok bool
	for d := 0; d < 3; d++ {
		if d < len(pieces) {
			if pieces[d] == "" {
				continue
			}
			v, err := parseSize(pieces[d], j.KBBase)
			if err != nil || v.Percent || v.N < 1 {
				if d == 0 && len(pieces) == 1 {
					return errNoNumber
				}
				continue
			}
			last = uint64(v.N)
			ok = true
		}
		if ok {
			j.BS[d] = last
		}
	}
	if !ok {
		return errNoNumber
	}
	return nil
}

func setSize(j *Job, value string) error {
	var ok bool
	for _, p := range splitPieces(value) {
		v, err := parseSize(p, j.KBBase)
		if err != nil {
			continue
		}
		if v.Percent {
			j.SizePercent, j.Size = int(v.N), 0
		} else {
			j.Size, j.SizePercent = uint64(v.N), 0
		}
		ok = true
	}
	if !ok {
		return errNoNumber
	}
	return nil
}

// setFileSize reads lo-hi (or one value for both).
func setFileSize(j *Job, value string) error {
	pieces := splitPieces(value)
	var vals []uint64
	for _, p := range pieces {
		v, err := parseSize(p, j.KBBase)
		if err != nil || v.Percent {
			continue
		}
		vals = append(vals, uint64(v.N))
	}
	switch len(vals) {
	case 0:
		return errNoNumber
	case 1:
		j.FileSize = [2]uint64{vals[0], vals[0]}
	default:
		j.FileSize = [2]uint64{vals[0], vals[1]}
	}
	return nil
}

func setRWMixRead(j *Job, value string) error {
	v, err := intPiece("rwmixread", value, j.KBBase, 0, 100)
	if err != nil {
		return err
	}
	j.RWMixRead = int(v)
	return nil
}

func setRWMixWrite(j *Job, value string) error {
	v, err := intPiece("rwmixwrite", value, j.KBBase, 0, 100)
	if err != nil {
		return err
	}
	j.RWMixRead = 100 - int(v)
	return nil
}

func setRandSeed(j *Job, value string) error {
	v, err := parseSize(splitPieces(value)[0], j.KBBase)
	if err != nil {
		return err
	}
	j.RandSeed = uint64(v.N)
	j.RandRepeat = true
	return nil
}

// setGtodReduce turns off every per-I/O time measurement.
func setGtodReduce(j *Job, value string) error {
	v, err := parseBool(value)
	if err != nil {
		return err
	}
	j.GtodReduce = v
	if v {
		j.DisableLat, j.DisableClat, j.DisableSlat, j.DisableBWMeasurement = true, true, true, true
		j.ClatPercentiles = false
	}
	return nil
}

// setPercentileList reads ':'-separated floats in [0, 100], at most 20,
// and remembers the most decimals typed (the label precision).
func setPercentileList(j *Job, value string) error {
	var list []float64
	prec := 0
	for _, p := range strings.Split(value, ":") {
		num := leadingFloat(p)
		f, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return &ValueError{Option: "percentile_list", Value: value, Detail: "not a floating point value: " + p}
		}
		if f < 0 || f > 100 {
			return &ValueError{Option: "percentile_list", Value: value, Detail: fmt.Sprintf("value out of range: %f (range max: 100.000000)", f)}
		}
		if i := strings.IndexByte(num, '.'); i >= 0 {
			prec = max(prec, len(num)-i-1)
		}
		list = append(list, f)
	}
	if len(list) > 20 {
		return &ValueError{Option: "percentile_list", Value: value, Detail: "the list exceeding max length 20"}
	}
	j.PercentileList, j.PercentilePrecision = list, prec
	return nil
}

// leadingFloat returns the longest prefix of s that reads as a decimal
// float (as C's strtod would consume it).
func leadingFloat(s string) string {
	s = strings.TrimLeft(s, " \t")
	end := 0
	seenDigit, seenDot := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
			end = i + 1
		case c == '.' && !seenDot:
			seenDot = true
		case (c == '+' || c == '-') && i == 0:
		default:
			if seenDigit {
				return s[:end]
			}
			return s[:i]
		}
	}
	return s[:end]
}

func setKBBase(j *Job, value string) error {
	v, _, err := parseInt(value)
	if err != nil || (v != 1024 && v != 1000) {
		return failed("kb_base", value)
	}
	j.KBBase = int(v)
	return nil
}

func setUnitBase(j *Job, value string) error {
	v, _, err := parseInt(value)
	if err != nil || (v != 0 && v != 1 && v != 8) {
		return errChoice
	}
	j.UnitBase = int(v)
	return nil
}

func setUnified(j *Job, value string) error {
	for i, w := range []string{"none", "mixed", "both"} {
		if matchChoice(value, w) || matchChoice(value, strconv.Itoa(i)) {
			j.UnifiedRWReporting = i
			return nil
		}
	}
	return errChoice
}
