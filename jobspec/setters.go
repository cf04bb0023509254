package jobspec

import (
	"fmt"
	"strings"
)

// This file holds the typed setters the options table refers to. Each one
// parses a raw value with fio's rules for the option's kind and stores it
// in the Job.

func failed(name, value string) error { return &ValueError{Option: name, Value: value} }

// intPiece reads the first piece of the integer option name, checking it
// against the bounds of the option's row in the options table (so a
// setter and --cmdhelp's range cannot disagree) the way fio does: on the
// value truncated to 32 bits, and a bound of 0 is no bound.
func intPiece(name, value string, kbBase int) (int64, error) {
	s, err := parseSize(pieces(value, true)[0].Text, kbBase)
	if err != nil {
		return 0, failed(name, value)
	}
	lim := rowLimits(name)
	v := int64(int32(s.plain()))
	if lim.min != 0 && v < lim.min {
		return 0, &ValueError{Option: name, Value: value, Detail: fmt.Sprintf("%s: min value out of range: %d (%d min)", name, s.plain(), lim.min)}
	}
	if lim.max != 0 && v > lim.max {
		return 0, &ValueError{Option: name, Value: value, Detail: fmt.Sprintf("%s: max value out of range: %d (%d max)", name, s.plain(), lim.max)}
	}
	return v, nil
}

// rowLimits returns the bounds of the option row called name (general,
// profile or engine option).
func rowLimits(name string) limits {
	if o, ok := byName[name]; ok {
		return o.lim
	}
	panic("jobspec: no option row " + name)
}

// intStore is the typed setter of an int row that stores in a field.
type intStore func(*Job) *int

// storeInt returns the typed setter of an int row storing in field.
func storeInt(field func(*Job) *int) storer { return intStore(field) }

func (f intStore) store(o *Option, j *Job, value string, p parsed) error {
	v, ok, err := firstInt(o, value, p)
	if ok {
		*f(j) = v
	}
	return err
}

// firstInt returns what an int row stores for p, and whether it stores
// anything. fio stores the first piece only, and only if it is in range
// ("iodepth=-1" is accepted because its second piece "1" reads fine, but
// leaves iodepth as it was). fio's fields are unsigned where the row's
// minimum is not negative: numjobs=-1 or loops=-1 store 4294967295. A
// value past the row's gofio-only limit is an error.
func firstInt(o *Option, value string, p parsed) (int, bool, error) {
	if !p.firstOK {
		return 0, false, nil
	}
	v := int64(int32(p.first.N))
	if o.lim.min >= 0 {
		v = int64(uint32(v))
	}
	if err := honour(o, value, v); err != nil {
		return 0, false, err
	}
	return int(v), true, nil
}

// honour checks v, read from value, against the gofio-only limit of the
// row o, if it has one.
func honour(o *Option, value string, v int64) error {
	b := o.Honoured
	if b == nil || (v >= b.Min && v <= b.Max) {
		return nil
	}
	return &RefusedError{Option: o.Name, Value: value,
		Reason: fmt.Sprintf("%s; gofio takes %d to %d", b.Why, b.Min, b.Max)}
}

// anyPiece reports whether some piece of a multi-value option reads as a
// number (fio then accepts the option).
func anyPiece(value string, kbBase int) bool {
	for _, p := range pieces(value, true) {
		if _, err := parseSize(p.Text, kbBase); err == nil {
			return true
		}
	}
	return false
}

// firstNumber reads the first piece of a boolean or flag value as a
// 32-bit number (no units: "direct=8k" is 8).
func firstNumber(value string, kbBase int) (int64, bool) {
	v, ok := plainInt(pieces(value, true)[0].Text)
	return int64(int32(v)), ok
}

// boolStore is the typed setter of a bool row (0 or 1) storing in a
// field. fio stores the first piece, if it is in range: lat_percentiles=2,1
// is accepted (the 1 reads) and leaves lat_percentiles as it was.
type boolStore func(*Job) *bool

func (f boolStore) store(o *Option, j *Job, value string, p parsed) error {
	if p.firstOK {
		*f(j) = p.first.N != 0
	}
	return nil
}

// notBoolStore is boolStore for a row that stores the opposite switch
// (buffered=0 is direct=1).
type notBoolStore func(*Job) *bool

func (f notBoolStore) store(o *Option, j *Job, value string, p parsed) error {
	if p.firstOK {
		*f(j) = p.first.N == 0
	}
	return nil
}

// boolFunc is the typed setter of a bool row that does more than store
// the switch; it gets the first piece, if fio takes it.
type boolFunc func(j *Job, v bool, value string) error

func (f boolFunc) store(o *Option, j *Job, value string, p parsed) error {
	if !p.firstOK {
		return nil
	}
	return f(j, p.first.N != 0, value)
}

// setFlag returns a setter for a flag option: no value means on, a number
// is on unless it is 0. fio stores the first piece only, when it reads:
// hipri=abc,1 (the reader took the 1) leaves the flag as it was.
func setFlag(field func(*Job) *bool) func(*Job, string) error {
	return func(j *Job, value string) error {
		if value == "" {
			*field(j) = true
			return nil
		}
		if v, ok := firstNumber(value, 1024); ok {
			*field(j) = v != 0
		}
		return nil
	}
}

// setTime returns a setter for a time option stored in µs (fio stores
// the first piece, if it reads: runtime=abc,1 leaves runtime as it was).
func setTime(defUnit uint64, field func(*Job) *uint64) func(*Job, string) error {
	return func(j *Job, value string) error {
		if v, err := parseTimeInt(pieces(value, true)[0].Text, int64(defUnit)); err == nil {
			*field(j) = uint64(v)
		}
		return nil
	}
}

// firstSizeStore is the typed setter of a size option fio stores without
// a handler of its own (number_ios, verify_backlog, lockmem, zonesize,
// ...): fio 3.33 stores the first piece, if it reads, and nothing else
// (number_ios=5,10 is 5; number_ios=x,5 leaves it unset). A percentage
// is stored as fio stores it, 2^64-1-N (number_ios=50% is no limit).
// A KindInt row (offset_align) is an int field to fio's parser: it
// writes the low 32 bits of the value, keeping the high ones.
type firstSizeStore func(*Job) *uint64

// storeFirstSize returns the typed setter storing a size option's first
// piece in field.
func storeFirstSize(field func(*Job) *uint64) storer { return firstSizeStore(field) }

func (f firstSizeStore) store(o *Option, j *Job, value string, p parsed) error {
	if !p.firstOK {
		return nil
	}
	v := uint64(p.first.N)
	if o.Kind == KindInt {
		v = *f(j)&^0xffffffff | uint64(uint32(v))
	}
	*f(j) = v
	return nil
}

// setSizePctZones returns the setter of offset or io_size: a size, N% of
// the files' size (offset) or of the job's I/O region (io_size), or N
// zones of zonesize. fio's handler runs on every piece; the last wins.
func setSizePctZones(field func(*Job) (bytes *uint64, pct *int, zones *uint64)) func(*Job, string) error {
	return func(j *Job, value string) error {
		var ok bool
		b, pct, zones := field(j)
		for _, p := range pieces(value, true) {
			if n, isZ := zoneCount(p.Text); isZ {
				*b, *pct, *zones, ok = 0, 0, n, true
				continue
			}
			v, err := parseSize(p.Text, j.KBBase)
			if err != nil {
				continue
			}
			if v.Percent {
				*b, *pct, *zones = 0, int(v.N), 0
			} else {
				*b, *pct, *zones = uint64(v.N), 0, 0
			}
			ok = true
		}
		if !ok {
			return errNoNumber
		}
		return nil
	}
}

var (
	setOffset = setSizePctZones(func(j *Job) (*uint64, *int, *uint64) {
		return &j.Offset, &j.OffsetPct, &j.Zone.counts.offset
	})
	setIOSize = setSizePctZones(func(j *Job) (*uint64, *int, *uint64) {
		return &j.IOSize, &j.IOSizePct, &j.Zone.counts.ioSize
	})
)

// isZones reports a zone count ("4z").
func isZones(text string) bool {
	if !strings.HasSuffix(text, "z") {
		return false
	}
	_, n, _ := cStrtoll(text, 10)
	return n > 0 && text[n] == 'z'
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

// rwValues are rw's patterns, one per word of its row (readwrite is rw).
var rwValues = choiceValues("rw", RWRead, RWWrite, RWTrim, RWRandRead, RWRandWrite, RWRandTrim,
	RWReadWrite, RWReadWrite, RWRandRW, RWTrimWrite, RWRandTrimWrite)

func setRW(j *Job, i int, word, value string) error {
	j.RW = rwValues[i]
	return setRWSuffix(j, value[len(word):])
}

// errChoice marks a value that is none of an option's words; Build prints
// fio's list of valid values for it.
var errChoice = fmt.Errorf("not a valid choice")

// setRWSuffix reads the postfix of rw=MODE:N: for random modes the number
// of I/Os per random offset (C's atoi), for sequential ones a size added
// to the offset after each I/O. A bad sequential postfix is refused
// before (not in dry runs, where fio accepts it too); it is stored as 0.
func setRWSuffix(j *Job, rest string) error {
	j.RWSuffix = 0
	if !strings.HasPrefix(rest, ":") {
		return nil
	}
	rest = rest[1:]
	if j.RW.Random() {
		v, _, _ := cStrtoll(rest, 10)
		j.RWSuffix = int64(int32(v))
		return nil
	}
	if v, err := parseSize(rest, j.KBBase); err == nil {
		j.RWSuffix = v.plain()
	}
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

// setBS sets the per-direction block sizes as fio does: piece i (of at
// most three) sets direction i if it reads and is at least 1; the last
// piece also sets the directions after it. A piece that does not read
// (empty, say) leaves its direction as it was: "bs=,8k" keeps the read
// size, and "bs=8k," sets only the read size.
func setBS(j *Job, value string) error {
	v, set := slots(value, j.KBBase, 3, row("bs").admits)
	if !set[0] && !set[1] && !set[2] {
		return errNoNumber
	}
	for d := range 3 {
		// bsrange and bssplit override bs in fio 3.33 whatever the order.
		if set[d] && !j.bsRanged[d] {
			j.BS[d] = uint64(v[d])
		}
	}
	return nil
}

// slots reads a value into n per-piece slots the way fio fills R,W,T (or
// low,high) options: piece i fills slot i, the last piece also the slots
// after it; pieces that do not read, or fail ok, fill nothing.
func slots(value string, kbBase, n int, ok func(int64) bool) (v [3]int64, set [3]bool) {
	for i, p := range pieces(value, true) {
		if i >= n {
			break
		}
		s, err := parseSize(p.Text, kbBase)
		if err != nil || !ok(s.plain()) {
			continue
		}
		for k := i; k < n && (k == i || !p.More); k++ {
			v[k], set[k] = s.plain(), true
		}
	}
	return v, set
}

// setSize sets size: every piece runs fio's handler, so the last one wins;
// N% sets a percentage of the file size, Nz a number of zones.
func setSize(j *Job, value string) error {
	var ok bool
	for _, p := range pieces(value, true) {
		if n, isZ := zoneCount(p.Text); isZ {
			j.Size, j.SizePercent, j.Zone.counts.size, ok = 0, 0, n, true
			continue
		}
		v, err := parseSize(p.Text, j.KBBase)
		if err != nil {
			continue
		}
		if v.Percent {
			j.SizePercent, j.Size = int(v.N), 0
		} else {
			j.Size, j.SizePercent = uint64(v.N), 0
		}
		j.Zone.counts.size = 0
		ok = true
	}
	if !ok {
		return errNoNumber
	}
	return nil
}

// setFileSize reads filesize: a size, or low and high sizes ("lo-hi",
// "lo:hi", "lo,hi"); values its row refuses (under 1) are not stored.
func setFileSize(j *Job, value string) error {
	v, set := slots(value, j.KBBase, 2, row("filesize").admits)
	if !set[0] && !set[1] {
		return errNoNumber
	}
	for i := range 2 {
		if set[i] {
			j.FileSize[i] = uint64(v[i])
		}
	}
	return nil
}

// setRWMix returns the setter of rwmixread (read=true) or rwmixwrite: its
// handler runs on every piece that reads, the last one wins, and it sets
// the other direction to the rest of 100. fio keeps both in 32 unsigned
// bits, and the reader let through what fio takes: a negative number or
// a percentage (2^64-1-N) is above 100, and so is the rest of 100 from
// it, so every I/O reads (observed: rwmixread=50% and rwmixwrite=50% only
// read), which RWMixRead 100 does.
func setRWMix(read bool) func(*Job, string) error {
	return func(j *Job, value string) error {
		for _, p := range pieces(value, true) {
			s, err := parseSize(p.Text, j.KBBase)
			if err != nil {
				continue
			}
			switch v := int32(s.plain()); {
			case v > 100:
				continue // fio refuses it (the reader did)
			case v < 0:
				j.RWMixRead = 100
			case read:
				j.RWMixRead = int(v)
			default:
				j.RWMixRead = 100 - int(v)
			}
		}
		return nil
	}
}

var (
	setRWMixRead  = setRWMix(true)
	setRWMixWrite = setRWMix(false)
)

func setRandSeed(j *Job, value string) error {
	v, err := parseSize(pieces(value, true)[0].Text, j.KBBase)
	if err != nil {
		if anyPiece(value, j.KBBase) {
			return nil
		}
		return err
	}
	j.RandSeed = uint64(v.plain())
	j.RandSeedSet = true
	return nil
}

// setGtodReduce turns off every per-I/O time measurement.
func setGtodReduce(j *Job, v bool, _ string) error {
	j.GtodReduce = v
	if v {
		j.DisableLat, j.DisableClat, j.DisableSlat, j.DisableBWMeasurement = true, true, true, true
		j.ClatPercentiles = false
	}
	return nil
}

// percentileListStore stores percentile_list: the floats fio took (C's
// strtod, in [0, 100], at most 20) replace the default list. It remembers
// the most decimals typed (the label precision).
type percentileListStore struct{}

func (percentileListStore) store(o *Option, j *Job, value string, p parsed) error {
	list := make([]float64, 0, len(p.floats))
	prec := 0
	for _, f := range p.floats {
		list = append(list, f.v)
		num := strings.TrimLeft(f.text, " \t\n\v\f\r")
		if k := strings.IndexByte(num, '.'); k >= 0 {
			prec = max(prec, len(num)-k-1)
		}
	}
	j.PercentileList, j.PercentilePrecision = list, prec
	return nil
}

// floatStore is the typed setter of a one-float row (MaxLen 1) storing
// in a field: the value, if fio took it.
type floatStore func(*Job) *float64

func (f floatStore) store(o *Option, j *Job, value string, p parsed) error {
	if len(p.floats) > 0 && p.floats[0].i == 0 {
		*f(j) = p.floats[0].v
	}
	return nil
}

var storeKBBase = storeChoice(func(j *Job) *int { return &j.KBBase }, 1024, 1000)

var storeUnitBase = storeChoice(func(j *Job) *int { return &j.UnitBase }, 0, 8, 1)

var storeUnified = storeChoice(func(j *Job) *int { return &j.UnifiedRWReporting }, 0, 1, 2, 0, 1, 2)

var storeExitWhat = storeChoice(func(j *Job) *ExitWhat { return &j.ExitWhat }, ExitGroup, ExitStonewall, ExitEverything)

// continue_on_error=0 is none, 1 is all.
var storeContinueOnError = storeChoice(func(j *Job) *ContinueOnError { return &j.ContinueOnError },
	ContinueNone, ContinueRead, ContinueWrite, ContinueIO, ContinueVerify, ContinueAll, ContinueNone, ContinueAll)

// ParseSeconds reads a time value the way fio's own time options
// (--eta-interval, --eta-newline, --status-interval) do: a number with an
// optional unit suffix, seconds when there is none. It returns
// microseconds.
func ParseSeconds(s string) (uint64, error) { return parseTime(s, second) }
