package jobspec

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// boundRows are every row with a Range: general, profile and engine
// options.
func boundRows() []*Option {
	var out []*Option
	add := func(o *Option) {
		if o.Range != "" {
			out = append(out, o)
		}
	}
	for i := range options {
		add(&options[i])
	}
	for i := range profileOptions {
		add(&profileOptions[i])
	}
	for _, e := range fioEngines {
		for i := range e.Options {
			add(&e.Options[i])
		}
	}
	return out
}

// fioRange is one line of testdata/fio-ranges.txt: an option's range as
// fio 3.33 prints it.
type fioRange struct{ where, name, rng string }

func readFioRanges(t *testing.T) []fioRange {
	data, err := os.ReadFile("testdata/fio-ranges.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []fioRange
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Split(l, "\t"); len(f) == 3 && !strings.HasPrefix(l, "#") {
			out = append(out, fioRange{f[0], f[1], f[2]})
		}
	}
	return out
}

// rowOf finds the row of a fio-ranges.txt line.
func rowOf(r fioRange) *Option {
	switch {
	case r.where == "-":
		return byName[r.name]
	case strings.HasPrefix(r.where, "profile="):
		for i := range profileOptions {
			if o := &profileOptions[i]; o.Name == r.name && o.Profile == strings.TrimPrefix(r.where, "profile=") {
				return o
			}
		}
		return nil
	}
	o, _ := lookupEngineOption(r.where, r.name)
	return o
}

// TestRowBoundsEnforced is table-driven over fio 3.33's ranges
// (testdata/fio-ranges.txt, every option fio prints a range for): each
// row has fio's range, every row with a range is in the table, and the
// values at fio's bounds are accepted, silently, while those just past
// them are refused with fio's message as the first line printed. Changing
// a row's Range, or its reading, fails it. fio's wording, measured:
// "iodepth: min value out of range: 0 (1 min)", "nice: max value out of
// range: 20 (19 max)", for booleans "max value out of range: 2 (1 max)",
// for floats "value out of range: 101.000000 (range max: 100.000000)".
func TestRowBoundsEnforced(t *testing.T) {
	table := readFioRanges(t)
	inTable := map[*Option]bool{}
	n := 0
	for _, fr := range table {
		o := rowOf(fr)
		if o == nil {
			t.Errorf("%s %s: fio has range %q; gofio has no row", fr.where, fr.name, fr.rng)
			continue
		}
		inTable[o] = true
		if o.Range != fr.rng {
			t.Errorf("%s %s: the row's range is %q; fio's is %q", fr.where, o.Name, o.Range, fr.rng)
		}
		if o.Kind == KindRange {
			// fio 3.33 does not check bsrange's "min=1":
			// bsrange=0-0 is accepted (measured with --parse-only).
			continue
		}
		lim := parseLimits(fr.rng) // fio's bounds, not the row's
		accepts := func(v string) {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && !o.admits(n) {
				t.Errorf("%s=%s (a bound of %q): the row does not admit it", o.Name, v, fr.rng)
			}
			r := reader{job: defaults()}
			ok := r.read(o, v, true)
			// fio also reads "-20" as a range "" to "20" and
			// complains of the 20 (nice=-20 prints "nice: max value
			// out of range: 20 (19 max)", and is taken).
			if quiet := len(r.notes) == 0 || strings.HasPrefix(v, "-"); !ok || !quiet {
				t.Errorf("%s=%s (a bound of %q): refused, %v", o.Name, v, fr.rng, r.notes)
			}
		}
		refuses := func(v, want string) {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && o.admits(n) {
				t.Errorf("%s=%s (past %q): the row admits it", o.Name, v, fr.rng)
			}
			r := reader{job: defaults()}
			ok := r.read(o, v, true)
			if ok || len(r.notes) == 0 || r.notes[0].text != want || r.notes[0].stdout {
				t.Errorf("%s=%s (past %q): accepted %v, %v; want refused with %q", o.Name, v, fr.rng, ok, r.notes, want)
			}
		}
		n++
		switch {
		case o.Kind == KindBool:
			accepts("0")
			accepts("1")
			refuses("2", "max value out of range: 2 (1 max)")
		case lim.hasMinF || lim.hasMF:
			if lim.hasMinF {
				accepts(cFloat(lim.minF))
				refuses(cFloat(lim.minF-1), fmt.Sprintf("value out of range: %s (range min: %s)", cFloat(lim.minF-1), cFloat(lim.minF)))
			}
			if lim.hasMF {
				accepts(cFloat(lim.maxF))
				refuses(cFloat(lim.maxF+1), fmt.Sprintf("value out of range: %s (range max: %s)", cFloat(lim.maxF+1), cFloat(lim.maxF)))
			}
		default:
			if lim.min != 0 {
				accepts(strconv.FormatInt(lim.min, 10))
				refuses(strconv.FormatInt(lim.min-1, 10), fmt.Sprintf("%s: min value out of range: %d (%d min)", o.Name, lim.min-1, lim.min))
			}
			if lim.max != 0 {
				accepts(strconv.FormatInt(lim.max, 10))
				refuses(strconv.FormatInt(lim.max+1, 10), fmt.Sprintf("%s: max value out of range: %d (%d max)", o.Name, lim.max+1, lim.max))
			}
		}
	}
	for _, o := range boundRows() {
		if !inTable[o] {
			t.Errorf("%s (%s%s): the row has range %q; fio prints none", o.Name, o.Engine, o.Profile, o.Range)
		}
	}
	if n < 100 {
		t.Errorf("only %d rows with a range", n)
	}
}

// TestRowBoundsInJobs sets the general options past their rows' bounds
// in a job: the Builder prints fio's message and "fio: failed parsing",
// and fails.
func TestRowBoundsInJobs(t *testing.T) {
	for _, o := range boundRows() {
		if o.Engine != "" || o.Profile != "" || o.Kind == KindRange || o.lim.min == 0 || o.Kind == KindBool {
			continue
		}
		v := strconv.FormatInt(o.lim.min-1, 10)
		s := &session{cmdline: []string{"name=a", o.Name + "=" + v}}
		_, err := s.run(t)
		first := fmt.Sprintf("%s: min value out of range: %s (%d min)\n", o.Name, v, o.lim.min)
		last := fmt.Sprintf("fio: failed parsing %s=%s\n", o.Name, v)
		if got := s.stderr.String(); err == nil || !strings.HasPrefix(got, first) || !strings.Contains(got, last) {
			t.Errorf("%s=%s: err %v, stderr %q; want %q, then %q", o.Name, v, err, s.stderr.String(), first, last)
		}
	}
}

// TestHonouredLimits sets the rows with a gofio-only limit (Honoured) at
// and past its ends: the ends are stored, values past them are refused
// with an error naming the limit, and nothing is stored for them.
func TestHonouredLimits(t *testing.T) {
	n := 0
	for i := range options {
		o := &options[i]
		b := o.Honoured
		if b == nil {
			continue
		}
		n++
		for _, v := range []int64{b.Min, b.Max} {
			if err := o.Set(defaults(), strconv.FormatInt(v, 10)); err != nil {
				t.Errorf("%s=%d (an end of gofio's limit): %v", o.Name, v, err)
			}
		}
		for _, v := range []int64{b.Min - 1, b.Max + 1} {
			j := defaults()
			err := o.Set(j, strconv.FormatInt(v, 10))
			var re *RefusedError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), fmt.Sprintf("gofio takes %d to %d", b.Min, b.Max)) {
				t.Errorf("%s=%d (past gofio's limit): %v", o.Name, v, err)
			}
			forgetGiven(j)
			if fieldDiff(valueOf(j), valueOf(defaults()), "") != "" {
				t.Errorf("%s=%d (past gofio's limit) stored something", o.Name, v)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d rows with a gofio-only limit; want nrfiles", n)
	}
}
