package jobspec

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofio/gofio/parser"
)

// exampleValues are the option lines of the 86 example job files fio
// ships (copies in parser/testdata/examples), the seeds of the fuzz
// targets.
func exampleValues(f *testing.F) [][2]string {
	files, err := filepath.Glob("../parser/testdata/examples/*.fio")
	if err != nil || len(files) != 86 {
		f.Fatalf("%d example files, %v", len(files), err)
	}
	kw := parser.Keywords{PageSize: 4096, MBMemory: 1024, NCPUs: 2}
	var out [][2]string
	for _, name := range files {
		c := parser.Config{Keywords: &kw}
		secs, _ := c.ParseJobFile(name, nil)
		for _, s := range secs {
			for _, o := range s.Options {
				out = append(out, [2]string{o.Name, o.Value})
			}
		}
	}
	return out
}

// allOptions are the general, profile and engine options in one list.
func allOptions() []*Option {
	var out []*Option
	for i := range options {
		out = append(out, &options[i])
	}
	for i := range profileOptions {
		out = append(out, &profileOptions[i])
	}
	for _, e := range fioEngines {
		for i := range e.Options {
			out = append(out, &e.Options[i])
		}
	}
	return out
}

// FuzzParseSize checks that sizes never make the parser panic, that it
// reads no further than the value, and that suffixes never turn a value
// it refuses into one it accepts.
func FuzzParseSize(f *testing.F) {
	for _, kv := range exampleValues(f) {
		f.Add(kv[1], true)
	}
	f.Add("1.5g", false)
	f.Add(" 4KiB", true)
	f.Add("(2*2048)", true)
	f.Fuzz(func(t *testing.T, s string, decimal bool) {
		kb := 1024
		if decimal {
			kb = 1000
		}
		v, err := parseSize(s, kb)
		if _, _, ierr := parseInt(s); !strings.HasPrefix(s, "(") && (err == nil) != (ierr == nil) {
			t.Fatalf("parseSize(%q) = %v, %v but parseInt says %v", s, v, err, ierr)
		}
		for _, p := range pieces(s, true) {
			if !strings.HasSuffix(s, p.Text) && !strings.HasSuffix(s, p.Text+",") {
				t.Fatalf("pieces(%q): %q is not the rest of the value", s, p.Text)
			}
			parseSize(p.Text, kb)
		}
	})
}

// FuzzParseTime checks time values: no panic, and a value without a unit
// reads as its number in the default unit.
func FuzzParseTime(f *testing.F) {
	for _, kv := range exampleValues(f) {
		f.Add(kv[1])
	}
	f.Add("10sec")
	f.Add("(1+2)*3s")
	f.Add("2s-3s")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseTimeInt(s, second)
		if err != nil {
			return
		}
		n, hex, _ := parseInt(s)
		if !strings.HasPrefix(s, "(") && !hex && suffixStart(s, false) < 0 && v != n*second {
			t.Fatalf("parseTimeInt(%q) = %d; want %d s", s, v, n)
		}
	})
}

// FuzzReadValue reads any value for any option as fio would: no panic,
// the same answer twice, and a value fio accepts can be stored. Options
// are picked by name (seeds: every option line of the examples) or, for
// names that are no option, by index.
func FuzzReadValue(f *testing.F) {
	for _, kv := range exampleValues(f) {
		f.Add(kv[0], kv[1], true)
	}
	f.Add("bs", "4k,8kz", false)
	f.Add("random_distribution", "zoned:50/5:50/", false)
	opts := allOptions()
	f.Fuzz(func(t *testing.T, name, value string, has bool) {
		o, ok := lookup(name)
		if !ok {
			sum := 0
			for _, c := range []byte(name) {
				sum += int(c)
			}
			o = opts[sum%len(opts)]
		}
		if strings.ContainsAny(value, "'") && (o.Name == "buffer_pattern" || o.Name == "verify_pattern") {
			return // pattern files are read from the disk
		}
		if o.Name == "ioengine" && strings.HasPrefix(value, "external:") {
			return
		}
		r1 := reader{job: defaults(), dry: true}
		r2 := reader{job: defaults(), dry: true}
		ok1, ok2 := r1.read(o, value, has), r2.read(o, value, has)
		if ok1 != ok2 || len(r1.notes) != len(r2.notes) {
			t.Fatalf("%s=%q read twice differently", o.Name, value)
		}
		misread(o, o.Name, value, has, 1024)
		if ok1 && o.Set != nil {
			o.Set(defaults(), value)
		}
	})
}
