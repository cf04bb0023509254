package jobspec

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

func TestTableUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range Options() {
		for _, n := range []string{o.Name, o.Alias} {
			if n == "" {
				continue
			}
			if seen[n] {
				t.Errorf("option name %q appears twice in the table", n)
			}
			seen[n] = true
		}
	}
	// fio 3.33's table (this build) has 226 general options; 217 of them
	// are listed by --cmdhelp=all.
	if len(Options()) != 226 {
		t.Errorf("table has %d options; want fio 3.33's 226", len(Options()))
	}
}

// TestTableOrder compares the table with fio's getopt table, recorded in
// parser/testdata/jobopts.txt from fio's ambiguity messages: every general
// option followed by its alias, then the profile options; flag options
// take an optional argument there.
func TestTableOrder(t *testing.T) {
	f, err := os.Open("../parser/testdata/jobopts.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			want = append(want, l)
		}
	}
	var got []string
	add := func(o Option) {
		arg := "req"
		if o.Valueless() {
			arg = "opt"
		}
		got = append(got, o.Name+"\t"+arg)
		if o.Alias != "" {
			got = append(got, o.Alias+"\t"+arg)
		}
	}
	for _, o := range Options() {
		add(o)
	}
	for _, o := range ProfileOptions("") {
		add(o)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("entry %d: table has %q, fio has %q", i, got[i], want[i])
			}
		}
		t.Fatalf("table has %d entries, fio %d", len(got), len(want))
	}
}

// TestDefaultsRead reads every option's default through the option's own
// kind, handler and setter: the defaults are written as fio shows them.
func TestDefaultsRead(t *testing.T) {
	check := func(o *Option) {
		if o.Default == "" || o.Kind == KindString {
			return
		}
		r := reader{job: defaults(), dry: true}
		if !r.read(o, o.Default, true) {
			t.Errorf("%s: default %q is refused: %v", o.Name, o.Default, r.notes)
			return
		}
		if o.Set != nil {
			if err := o.Set(defaults(), o.Default); err != nil {
				t.Errorf("%s: setting the default %q: %v", o.Name, o.Default, err)
			}
		}
	}
	for i := range options {
		check(&options[i])
	}
	for i := range profileOptions {
		check(&profileOptions[i])
	}
	for _, e := range fioEngines {
		for i := range e.Options {
			check(&e.Options[i])
		}
	}
}

// TestKindsHaveTypeTexts keeps each kind's --cmdhelp type text as fio
// prints it.
func TestKindsHaveTypeTexts(t *testing.T) {
	want := map[Kind]string{
		KindBool:      "boolean value (opt=1)",
		KindFlag:      "empty or boolean value ([0|1])",
		KindInt:       "integer value (opt=100)",
		KindInt64:     "integer value (opt=100)",
		KindTimeSec:   "string with time postfix (opt=10s)",
		KindSizePct:   "(null)",
		KindRange:     "one to three ranges (opt=1k-4k[,4k-8k[,1k-8k]])",
		KindFloatList: "list of floating point values separated by ':' (opt=5.9:7.8)",
	}
	for _, o := range Options() {
		if w, ok := want[o.Kind]; ok && o.Type != w {
			t.Errorf("%s: type %q; want %q for its kind", o.Name, o.Type, w)
		}
		if o.Kind == KindChoice && len(o.Choices) == 0 {
			t.Errorf("%s: a choice option without choices", o.Name)
		}
	}
}

func TestEngines(t *testing.T) {
	if got := strings.Join(Engines(), " "); got != "cpuio mmap sync psync vsync pvsync pvsync2 null net netsplice ftruncate filecreate filestat filedelete exec posixaio falloc e4defrag splice gfapi gfapi_async mtd sg io_uring io_uring_cmd nbd libaio rdma rados rbd pmemblk dev-dax libpmem" {
		t.Errorf("Engines() = %s", got)
	}
	for _, tt := range []struct {
		in, want string
		known    bool
	}{
		{"libaio", "libaio", true},
		{"aio", "libaio", true}, // fio's old names
		{"linuxaio", "libaio", true},
		{"aiox", "libaio", true},
		{"http", "http", false}, // not in fio's Debian build
		{"bogus", "bogus", false},
	} {
		if got, known := ResolveEngine(tt.in); got != tt.want || known != tt.known {
			t.Errorf("ResolveEngine(%q) = %q, %v; want %q, %v", tt.in, got, known, tt.want, tt.known)
		}
	}
	for _, e := range fioEngines {
		seen := map[string]bool{}
		for _, o := range e.Options {
			if seen[o.Name] || o.Engine == "" || o.Help == "" || o.Type == "" {
				t.Errorf("engine %s: option %+v", e.Name, o)
			}
			seen[o.Name] = true
		}
	}
	if o, ok := lookupEngineOption("net", "proto"); !ok || o.Name != "protocol" {
		t.Errorf("net's alias proto = %v, %v", o, ok)
	}
}
