package parser

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// Every expectation below was observed with fio 3.33 (fio --showcmd and
// fio --parse-only) unless a comment says otherwise.
func TestJobFileGrammar(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // render() of the sections
		err      string // fatal error message, if any
	}{
		// Comments and blanks.
		{"inline comments", "[a]\nbs=4k ; comment\nrw=read # hash\n", "[a]|bs=4k|rw=read", ""},
		{"comment lines", "; c\n# c\n\n   \n[a]\n  ;x\nbs=4k\n", "[a]|bs=4k", ""},
		{"value keeps leading blanks", "[a]\nbs = 4k\n  description = a b  \n", "[a]|bs= 4k|description= a b", ""},
		{"tabs", "[a]\n\tbs\t=\t4k\t\n", "[a]|bs=\t4k", ""},
		{"crlf", "[a]\r\nbs=4k\r\n", "[a]|bs=4k", ""},
		{"trailing control characters", "[a]\nbs=4k\x01\x02\n", "[a]|bs=4k", ""},
		{"leading control character kept", "[a]\nbs=\x014k\n", "[a]|bs=\x014k", ""},
		{"leading vertical tab is blank", "[a]\n\vbs=4k\n", "[a]|bs=4k", ""},
		{"NUL ends the line", "[a]\nbs=4k\x00junk\nrw=read\n", "[a]|bs=4k|rw=read", ""},
		{"control-only lines are blank", "[a]\n\x01\x02\n \x01 ;foo\nbs=4k\n", "[a]|bs=4k", ""},
		{"DEL trimmed", "[a]\nx\x7f\n", "[a]|x", ""},
		{"non-ASCII kept", "[a]\nbs=4k\xc2\xa0\n", "[a]|bs=4k\xc2\xa0", ""},
		{"no final newline", "[a]\nbs=4k", "[a]|bs=4k", ""},
		{"empty file", "", "", ""},

		// Keys.
		{"empty key", "[a]\n=4k\n  =4k\n", "[a]|=4k|=4k", ""},
		{"second = in value", "[a]\nbs==4k\n", "[a]|bs==4k", ""},
		{"key trimmed", "[a]\nbs\t\v =4k\nrw\x01=read\n", "[a]|bs=4k|rw=read", ""},
		{"inner blank kept", "[a]\nb s=4k\n", "[a]|b s=4k", ""},
		{"valueless", "[a]\ntime_based \ntime_based\t;x\nwrite_bw_log\n", "[a]|time_based|time_based|write_bw_log", ""},
		{"case kept", "[a]\nBS=8k\n", "[a]|BS=8k", ""},
		{"empty value", "[a]\nfilename=\n", "[a]|filename=", ""},

		// Section headers.
		{"missing bracket", "[job\nbs=4k\n", "[jo]|bs=4k", ""},
		{"double bracket", "[job]]\n", "[job]]", ""},
		{"text after bracket", "[job] extra ; c\n", "[job] extr]", ""},
		{"empty name", "[]\nbs=4k\n", "[]|bs=4k", ""},
		{"blanks in name", "[ a b ]\n", "[ a b ]", ""},
		{"indented header", "  [x]  \n[y]\t\n", "[x]|[y]", ""},
		{"duplicates", "[a]\nbs=1k\n[a]\nbs=2k\n", "[a]|bs=1k|[a]|bs=2k", ""},
		{"lone bracket", "[\nbs=4k\n", "", "fio: option <[> outside of [] job section"},
		{"lone bracket after a section", "[a]\nbs=4k\n[ ;x\nrw=read\n", "[a]|bs=4k", "fio: option <[> outside of [] job section"},
		{"empty section then job", "[a]\n[]\nbs=4k\n", "[a]|[]|bs=4k", ""},

		// Structure errors.
		{"option before section", "bs=4k\n[job]\n", "", "fio: option <bs=4k> outside of [] job section"},
		{"control before header", "\x01[a]\nbs=4k\n", "", "fio: option <\x01[a]> outside of [] job section"},
		{"include before section", "include inc1.fio\n[a]\n", "", "fio: option <include inc1.fio> outside of [] job section"},
		{"BOM", "\xef\xbb\xbf[a]\n", "", "fio: option <\xef\xbb\xbf[a]> outside of [] job section"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			secs, err := parseString(memFS{"inc1.fio": "rw=read\n"}.config(nil), tt.in)
			if got := render(secs); got != tt.want {
				t.Errorf("sections = %q, want %q", got, tt.want)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.err != "" && (err == nil || err.Error() != tt.err):
				t.Errorf("error = %v, want %q", err, tt.err)
			}
		})
	}
}

func TestHeaderNames(t *testing.T) {
	n := func(k int) string { return strings.Repeat("n", k) }
	for _, tt := range []struct {
		in, want string
		global   bool
	}{
		{"[" + n(254) + "]", n(254), false},
		{"[" + n(255) + "]", n(254), false},
		{"[" + n(300) + "]", n(254), false},
		{"[global]", "global", true},
		{"[globalfoo]", "globalfoo", true},
		{"[global2]", "global2", true},
		{"[Global]", "Global", false},
		{"[ global]", " global", false},
	} {
		secs, err := parseString(&Config{}, tt.in+"\n")
		if err != nil || len(secs) != 1 || secs[0].Name != tt.want || secs[0].Global != tt.global {
			t.Errorf("%.20q: got %+v, %v", tt.in, secs, err)
		}
	}
}

func TestPositions(t *testing.T) {
	in := "; c\n[global]\nbs=4k\n\n[job]\r\n  rw=read ; x\n"
	secs, err := ParseJobFile("dir/x.fio", strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Section{
		{Name: "global", Global: true, Pos: Pos{"dir/x.fio", 2}, File: "dir/x.fio",
			Options: []Option{{Name: "bs", Value: "4k", HasValue: true, Pos: Pos{"dir/x.fio", 3}, Raw: "bs=4k"}}},
		{Name: "job", Pos: Pos{"dir/x.fio", 5}, File: "dir/x.fio",
			Options: []Option{{Name: "rw", Value: "read", HasValue: true, Pos: Pos{"dir/x.fio", 6}, Raw: "rw=read"}}},
	}
	if !reflect.DeepEqual(secs, want) {
		t.Errorf("got  %+v\nwant %+v", secs, want)
	}
	var e *Error
	_, err = ParseJobFile("y.fio", strings.NewReader("\n\nbs=4k\n"), nil)
	if !errors.As(err, &e) || e.Pos != (Pos{"y.fio", 3}) || e.Option != "bs=4k" {
		t.Errorf("error %#v", err)
	}
}

func TestLongLines(t *testing.T) {
	// fio reads lines with fgets(buf, 8192): a longer line is cut after
	// 8191 bytes and the rest is read as the next line.
	x := strings.Repeat("x", 8179)
	for _, tt := range []struct {
		in, want string
	}{
		{"[a]\ndescription=" + x + "bs=4k\n", "[a]|description=" + x + "|bs=4k"},
		{"[a]\ndescription=" + x + "\nbs=4k\n", "[a]|description=" + x + "|bs=4k"},
		{"[a]\ndescription=" + x + "\r\nbs=4k\n", "[a]|description=" + x + "|bs=4k"},
		{"[a]\ndescription=" + x[1:] + "\nbs=4k\n", "[a]|description=" + x[1:] + "|bs=4k"},
	} {
		secs, err := parseString(&Config{}, tt.in)
		if err != nil || render(secs) != tt.want {
			t.Errorf("%d bytes: got %.60q... %v", len(tt.in), render(secs), err)
		}
	}
	secs, _ := parseString(&Config{}, "[a]\ndescription="+x+"bs=4k\nrw=read\n")
	if got := secs[0].Options[1].Pos.Line; got != 2 {
		t.Errorf("continuation of a cut line: line %d, want 2", got)
	}
	if got := secs[0].Options[2].Pos.Line; got != 3 {
		t.Errorf("line after a cut line: line %d, want 3", got)
	}
}

func TestEnvironment(t *testing.T) {
	env := map[string]string{
		"K": "bs", "V": "8k", "E": "", "KV": "bs=16k", "S": "a;b", "H": "x#y",
		"SP": "  9k  ", "NEST": "${V}", "D": "$pagesize", "X": "$ncpus",
	}
	tests := []struct {
		in, want string
	}{
		{"${K}=${V}", "bs=8k"},
		{"${KV}", "bs=16k"},
		{"description=${S}", "description=a;b"},
		{"filename=${H}", "filename=x#y"},
		{"bs=${SP}", "bs=  9k  "},
		{"bs=${NEST}", "bs=${V}"},
		{"bs=${D}", "bs=4096"},
		{"bs=${UNDEF}4k${}", "bs=4k"},
		{"bs=${V", "bs=${V"},
		{"bs=$V", "bs=$V"},
		{"${E}", ""},
		{"description=${V${V}}|${NEST}|${V|${}|${V:-x}|${V }|$${V}|${${V}}", "description=}|${V}||||$8k|}"},
		{"description=${V}${V}${K}x${UNDEF}y", "description=8k8kbsxy"},
		{"description=${V}}", "description=8k}"},
		{"size=${X}*2", "size=4"},
	}
	for _, tt := range tests {
		secs, err := parseString(memFS{}.config(env), "[a]\n"+tt.in+"\n")
		if err != nil {
			t.Fatal(err)
		}
		o := secs[0].Options[0]
		if o.Line() != tt.want || o.Raw != tt.in {
			t.Errorf("%q: got %q (raw %q), want %q", tt.in, o.Line(), o.Raw, tt.want)
		}
	}
	// Not in section headers or include names.
	secs, _ := parseString(memFS{"${V}": "rw=read\n"}.config(env), "[${V}]\ninclude ${V}\n")
	if render(secs) != "[${V}]|rw=read" {
		t.Errorf("got %q", render(secs))
	}
}

func TestEnvironmentKeys(t *testing.T) {
	for _, tt := range []struct {
		val, line, want string
	}{
		{"bs;x", "${S}=4k", "bs=4k"},
		{"bs#x", "${S}=4k", "bs=4k"},
		{"bs  ", "${S}=4k", "bs=4k"},
		{" bs", "${S}=4k", " bs=4k"},
		{"time_based  ", "${S}", "time_based  "}, // no '=': the key is not trimmed
		{"time_based;", "${S}", "time_based;"},
		{"bs=4k;x", "${S}", "bs=4k;x"},
	} {
		secs, _ := parseString(memFS{}.config(map[string]string{"S": tt.val}), "[a]\n"+tt.line+"\n")
		if got := secs[0].Options[0].Line(); got != tt.want {
			t.Errorf("S=%q %s: got %q, want %q", tt.val, tt.line, got, tt.want)
		}
	}
}

func TestEnvironmentLimit(t *testing.T) {
	// The expanded line is built in an 8192-byte buffer: a value that does
	// not fit is dropped, literal text is cut.
	x := func(n int) string { return strings.Repeat("x", n) }
	for _, tt := range []struct {
		n          int
		line, want string
	}{
		{8180, "description=${L}", "description=" + x(8180)},
		{8181, "description=${L}", "description="},
		{8187, "bs=4k${L}", "bs=4k" + x(8187)},
		{8188, "bs=4k${L}", "bs=4k"},
		{8178, "description=${L}tail", "description=" + x(8178) + "ta"},
		{8181, "description=${L}tail", "description=tail"},
		{8181, "description=${L}${A}tail", "description=aaatail"},
		{8180, "description=${L}${A}tail", "description=" + x(8180)},
		{8170, "description=${L}${A}tail${A}${A}", "description=" + x(8170) + "aaatailaaa"},
	} {
		env := map[string]string{"L": x(tt.n), "A": "aaa"}
		secs, _ := parseString(memFS{}.config(env), "[a]\n"+tt.line+"\n")
		if got := secs[0].Options[0].Line(); got != tt.want {
			t.Errorf("n=%d %s: got %d bytes %.30q..., want %d bytes", tt.n, tt.line, len(got), got, len(tt.want))
		}
	}
}

func TestKeywords(t *testing.T) {
	tests := []struct {
		in, want string
		diags    []string
	}{
		{"description=$pagesize|$mb_memory|$ncpus|$ncpusx|$PAGESIZE|$$ncpus", "description=4096|24105|2|2x|$PAGESIZE|$2", nil},
		{"size=8*$mb_memory", "size=192840", nil},
		{"size=$ncpus*4k", "size=2*4k!", []string{"(standard_in) 1: syntax error"}},
		{"size=$ncpus*4", "size=8", nil},
		{"size=$ncpus/3", "size=0", nil},
		{"size=$ncpus-5", "size=-3", nil},
		{"size=$ncpus*1.5", "size=3.0", nil},
		{"description=$ncpus*3'", "description=2*3'", nil},
		{"hugepage-size=$pagesize", "hugepage-size=4096", nil},
		{"description=$ncpus+1 $ncpus", "description=2+1 2!", []string{"(standard_in) 1: syntax error"}},
		{"device-names=0$ncpus", "device-names=2", nil}, // the '-' of the key is enough
		{"description=0$ncpus", "description=02", nil},
		{"description=$ncpus^200", "description=2^200", nil}, // '^' alone does not start bc
		{"$ncpus=1", "2=1", nil},
		{"bs$ncpus=*2", "bs2=*2!", []string{"(standard_in) 1: syntax error"}},
		{"$ncpus*2", "2*2", nil}, // no value: no bc
		{"description=$ncpus/0", "description=2/0!", []string{"Runtime error (func=(main), adr=5): Divide by zero"}},
		{"description=$ncpus*2^300", "description=40740719526689721725368913768187563221029367873318725012722808987087\\\n62599526673412366794752", nil},
		{"description=$ncpus*G|", "description=2*G|!", []string{"(standard_in) 1: illegal character: |"}},
		{"description=1.25*1.5*$ncpus", "description=3.74", nil},
		{"description=$ncpus*-.5", "description=-1.0", nil},
		{"description=2.5%$ncpus", "description=2.5%2", nil},
		{"description=1A*$ncpus", "description=38", nil},
		{"description=x*$ncpus", "description=0", nil},
	}
	for _, tt := range tests {
		secs, err := parseString(memFS{}.config(nil), "[a]\n"+tt.in+"\n")
		if err != nil {
			t.Fatal(err)
		}
		o := secs[0].Options[0]
		got := o.Line()
		if o.MathFailed {
			got += "!"
		}
		if got != tt.want || !reflect.DeepEqual(o.MathDiags, tt.diags) || o.Raw != tt.in {
			t.Errorf("%q: got %q %q, want %q %q", tt.in, got, o.MathDiags, tt.want, tt.diags)
		}
	}
}

func TestKeywordMathLimits(t *testing.T) {
	// bc runs only for values of at most 100 bytes and lines shorter than
	// 128 bytes (after substitution).
	for _, tt := range []struct {
		line string
		math bool
	}{
		{"description=" + strings.Repeat("0", 97) + "$ncpus*1", true},
		{"description=" + strings.Repeat("0", 98) + "$ncpus*1", false},
		{"description" + strings.Repeat(" ", 112) + "=$ncpus*1", true},
		{"description" + strings.Repeat(" ", 113) + "=$ncpus*1", false},
	} {
		secs, _ := parseString(memFS{}.config(nil), "[a]\n"+tt.line+"\n")
		if got := secs[0].Options[0].Value == "2"; got != tt.math {
			t.Errorf("%d bytes: math %v, want %v", len(tt.line), got, tt.math)
		}
	}
}

func TestMathHook(t *testing.T) {
	c := memFS{}.config(nil)
	var seen []string
	c.Math = func(e string) (string, []string, bool) { seen = append(seen, e); return "42", nil, true }
	secs, _ := parseString(c, "[a]\nsize= $ncpus*4k\n")
	if v := secs[0].Options[0].Value; v != "42" || !reflect.DeepEqual(seen, []string{" 2*4k"}) {
		t.Errorf("value %q, bc saw %q", v, seen)
	}
}

func TestIncludes(t *testing.T) {
	fs := memFS{
		"inc1.fio":         "rw=read\n",
		"sub/inc2.fio":     "iodepth=2\ninclude inc/deep.fio\n",
		"sub/inc/deep.fio": "numjobs=3\n",
		"sec.fio":          "bs=1k\n[b]\nbs=2k\n",
		"br.fio":           "bs=1k\n[\nrw=read\n",
		"n1.fio":           "bs=1k\ninclude missing.fio\niodepth=2\n",
		"n2.fio":           "bs=1k\ninclude sec.fio\niodepth=2\n",
		"i2.fio":           "rw=read\n",
		"i1.fio":           "bs=1k\ninclude i2.fio\n[x]\n",
		"i0.fio":           "bs=1k\ninclude i1.fio\nnumjobs=2\n",
		"i3.fio":           "bs=1k\ninclude nope.fio\nnumjobs=2\n",
		"i4.fio":           "rw=write\ninclude i3.fio\nnumjobs=2\n",
		"self.fio":         "bs=1k\ninclude self.fio\n",
		" inc1.fio":        "rw=write\n",
		"\n":               "rw=trim\n",
		"x=1":              "rw=randread\n",
	}
	const unable, errOne, noNew = "fio: unable to open '%s' job file", "Error 1 while parsing include file %s", "No new sections in included files"
	tests := []struct {
		name, in, want, err string
		notes               []string
		inclErr             bool
	}{
		{"plain", "[a]\ninclude inc1.fio\nbs=4k\n", "[a]|rw=read|bs=4k", "", nil, false},
		{"any separator", "[a]\ninclude=inc1.fio\nincludeXinc1.fio ; c\n", "[a]|rw=read|rw=read", "", nil, false},
		{"two blanks", "[a]\ninclude  inc1.fio\n", "[a]|rw=write", "", nil, false},
		{"indented", "[a]\n    include inc1.fio\n", "[a]|rw=read", "", nil, false},
		{"case matters", "[a]\nINCLUDE inc1.fio\n", "[a]|INCLUDE inc1.fio", "", nil, false},
		{"prefix only", "[a]\ninclude_x=1\n", "[a]|rw=randread", "", nil, false},
		{"reads past the cleaned line", "[a]\ninclude \n", "[a]|rw=trim", "", nil, false},
		{"nothing after include", "[a]\ninclude\nbs=4k\n", "[a]", "fio: option <bs=4k> outside of [] job section",
			[]string{fmtS(unable, ""), fmtS(errOne, "")}, true},
		{"nested and relative to the includer", "[a]\ninclude sub/inc2.fio\n", "[a]|iodepth=2|numjobs=3", "", nil, false},
		{"global", "[global]\ninclude inc1.fio\n[b]\n", "[global]|rw=read|[b]", "", nil, false},
		{"missing, last line", "[a]\nbs=4k\ninclude missing.fio\n", "[a]|bs=4k", "",
			[]string{fmtS(unable, "missing.fio"), fmtS(errOne, "missing.fio")}, true},
		{"missing, then option", "[a]\nbs=4k\ninclude missing.fio\nrw=read\n", "[a]|bs=4k", "fio: option <rw=read> outside of [] job section",
			[]string{fmtS(unable, "missing.fio"), fmtS(errOne, "missing.fio")}, true},
		{"missing, then include", "[a]\ninclude missing.fio\ninclude inc1.fio\n", "[a]", "fio: option <include inc1.fio> outside of [] job section",
			[]string{fmtS(unable, "missing.fio"), fmtS(errOne, "missing.fio")}, true},
		{"missing, then lone bracket", "[a]\ninclude missing.fio\n[\n", "[a]", "fio: option <[> outside of [] job section",
			[]string{fmtS(unable, "missing.fio"), fmtS(errOne, "missing.fio")}, true},
		{"missing, then section", "[a]\ninclude missing.fio\n[b]\nbs=4k\n", "[a]|[b]|bs=4k", "",
			[]string{fmtS(unable, "missing.fio"), fmtS(errOne, "missing.fio")}, true},
		{"section in include", "[a]\ninclude sec.fio\n", "[a]", "", []string{noNew, fmtS(errOne, "sec.fio")}, false},
		{"section in include, then option", "[a]\ninclude sec.fio\nrw=write\n[c]\n", "[a]", "fio: option <rw=write> outside of [] job section",
			[]string{noNew, fmtS(errOne, "sec.fio")}, false},
		{"lone bracket in include", "[a]\ninclude br.fio\n", "[a]", "", []string{noNew, fmtS(errOne, "br.fio")}, false},
		{"nested missing keeps what came before", "[a]\ninclude n1.fio\nrw=read\n", "[a]|bs=1k", "fio: option <rw=read> outside of [] job section",
			[]string{fmtS(unable, "missing.fio"), fmtS(errOne, "missing.fio"), fmtS(errOne, "n1.fio")}, true},
		{"nested section", "[a]\ninclude n2.fio\n", "[a]|bs=1k", "", []string{noNew, fmtS(errOne, "sec.fio"), fmtS(errOne, "n2.fio")}, false},
		{"section drops the nested file's lines", "[a]\niodepth=2\ninclude i1.fio\n", "[a]|iodepth=2", "", []string{noNew, fmtS(errOne, "i1.fio")}, false},
		{"section drops only that file", "[a]\niodepth=2\ninclude i0.fio\n", "[a]|iodepth=2|bs=1k", "",
			[]string{noNew, fmtS(errOne, "i1.fio"), fmtS(errOne, "i0.fio")}, false},
		{"missing three deep", "[a]\niodepth=2\ninclude i4.fio\n", "[a]|iodepth=2|rw=write|bs=1k", "",
			[]string{fmtS(unable, "nope.fio"), fmtS(errOne, "nope.fio"), fmtS(errOne, "i3.fio"), fmtS(errOne, "i4.fio")}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			secs, err := parseString(fs.config(nil), tt.in)
			if got := render(secs); got != tt.want {
				t.Errorf("sections = %q, want %q", got, tt.want)
			}
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Errorf("error = %v, want %q", err, tt.err)
			}
			if len(secs) > 0 {
				if !reflect.DeepEqual(secs[0].Notes, tt.notes) {
					t.Errorf("notes = %q, want %q", secs[0].Notes, tt.notes)
				}
				if (secs[0].IncludeErr != nil) != tt.inclErr {
					t.Errorf("IncludeErr = %v", secs[0].IncludeErr)
				}
			}
		})
	}

	// A file that includes itself: fio recurses until it runs out of file
	// descriptors; gofio stops at the depth fio reaches under the usual
	// ulimit -n of 1024 and says why.
	secs, err := parseString(fs.config(nil), "[a]\ninclude self.fio\n")
	if err != nil || len(secs[0].Options) != DefaultMaxIncludeDepth || Errno(secs[0].IncludeErr) != syscall.EMFILE {
		t.Errorf("self include: %d options, %v, %v", len(secs[0].Options), secs[0].IncludeErr, err)
	}
	depthNote := "fio: unable to include 'self.fio': includes are nested more than 1018 levels deep"
	if n := len(secs[0].Notes); n != DefaultMaxIncludeDepth+2 || secs[0].Notes[0] != depthNote {
		t.Errorf("self include: %d notes %q", n, secs[0].Notes[:2])
	}
}

// TestIncludeDepth: a chain of includes nests as deep as fio goes under
// the default ulimit -n of 1024 (fio 3.33 fails to open the 1019th file
// of the chain), and the file past the limit is named with the reason.
func TestIncludeDepth(t *testing.T) {
	chain := func(n int) memFS {
		m := memFS{}
		for i := 1; i <= n; i++ {
			m[fmt.Sprintf("inc%d.fio", i)] = fmt.Sprintf("include inc%d.fio\n", i+1)
		}
		m[fmt.Sprintf("inc%d.fio", n+1)] = "bs=4k\n"
		return m
	}
	for _, tt := range []struct {
		depth, max int
		note       string
	}{
		{65, 0, ""},
		{1017, 0, ""},
		{1018, 0, "fio: unable to include 'inc1019.fio': includes are nested more than 1018 levels deep"},
		{1100, 0, "fio: unable to include 'inc1019.fio': includes are nested more than 1018 levels deep"},
		{10, 5, "fio: unable to include 'inc6.fio': includes are nested more than 5 levels deep"},
	} {
		c := chain(tt.depth).config(nil)
		c.MaxIncludeDepth = tt.max
		secs, err := parseString(c, "[a]\ninclude inc1.fio\n")
		if err != nil || len(secs) != 1 {
			t.Fatalf("depth %d: %v", tt.depth, err)
		}
		s := secs[0]
		if tt.note == "" {
			if render(secs) != "[a]|bs=4k" || s.Notes != nil || s.IncludeErr != nil {
				t.Errorf("depth %d: %q, notes %q, %v", tt.depth, render(secs), s.Notes, s.IncludeErr)
			}
			continue
		}
		if len(s.Notes) == 0 || s.Notes[0] != tt.note || Errno(s.IncludeErr) != syscall.EMFILE {
			t.Errorf("depth %d: notes %q, %v", tt.depth, s.Notes[:min(2, len(s.Notes))], s.IncludeErr)
		}
	}
}

func fmtS(format, s string) string { return strings.Replace(format, "%s", s, 1) }

func TestIncludeResolution(t *testing.T) {
	// Real files: testdata/include/top.fio includes "inc2.fio" (found next
	// to it), "../include/sub/deep.fio" (relative to it) and "nope.fio"
	// (missing: reported with the includer's directory).
	secs, err := ParseJobFile("testdata/include/top.fio", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := render(secs), "[a]|iodepth=2|numjobs=3|bs=4k|[b]|rw=read"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	want := []string{"fio: unable to open 'testdata/include/nope.fio' job file", "Error 1 while parsing include file testdata/include/nope.fio"}
	if !reflect.DeepEqual(secs[1].Notes, want) || !errors.Is(secs[1].IncludeErr, os.ErrNotExist) {
		t.Errorf("notes %q, err %v", secs[1].Notes, secs[1].IncludeErr)
	}
	if p := secs[0].Options[1].Pos; p != (Pos{"testdata/include/sub/deep.fio", 2}) {
		t.Errorf("position in included file: %v", p)
	}

	// The name as given wins when it exists; "/x" after a directory part
	// gives "dir//x"; stdin and names without '/' are not prefixed.
	m := memFS{"a/b.fio": "bs=1k\n"}
	for _, tt := range []struct {
		from, inc, want string
	}{
		{"t.fio", "x.fio", "x.fio"},
		{"-", "x.fio", "x.fio"},
		{"./t.fio", "x.fio", "./x.fio"},
		{"/tmp/fx/t.fio", "x.fio", "/tmp/fx/x.fio"},
		{"../t.fio", "/abs/x.fio", "..//abs/x.fio"},
		{"dir/t.fio", "a/b.fio", "a/b.fio"},
		{"/t.fio", "x.fio", "/x.fio"},
		{"a//t.fio", "x.fio", "a//x.fio"},
	} {
		secs, _ := m.config(nil).ParseJobFile(tt.from, strings.NewReader("[a]\ninclude "+tt.inc+"\n"))
		want := fmtS("fio: unable to open '%s' job file", tt.want)
		if tt.want == "a/b.fio" {
			want = ""
		}
		if got := strings.Join(secs[0].Notes, ""); !strings.HasPrefix(got, want) || want == "" && got != "" {
			t.Errorf("%s includes %s: notes %q, want %q", tt.from, tt.inc, got, want)
		}
	}
}

func TestSectionFilter(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"[a]\ninclude missing.fio\nsize=$ncpus*4k\n[b]\nbs=4k\n", "[b]|bs=4k", ""},
		{"[a]\n[\nbs=4k\n[b]\nrw=read\n", "[b]|rw=read", ""},
		{"[b]\n[\nbs=4k\n", "[b]", "fio: option <[> outside of [] job section"},
		{"[a]\n  [x\n[b]\nrw=read\n", "[b]|rw=read", ""},
		{"[a]\nbs=4k\n[global]\nrw=read\n[b]\n", "[global]|rw=read|[b]", ""},
		{"bs=4k\n[a]\n", "", "fio: option <bs=4k> outside of [] job section"},
		{"[a]\n[b]\n[c]\n[B]\n", "[b]", ""},
	}
	for _, tt := range tests {
		c := memFS{}.config(nil)
		c.Sections = []string{"b"}
		secs, err := parseString(c, tt.in)
		if got := render(secs); got != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("%q: got %q %v, want %q %q", tt.in, got, err, tt.want, tt.err)
		}
	}
	c := memFS{}.config(nil)
	c.Sections = []string{"b", "a"}
	secs, _ := parseString(c, "[a]\n[b]\n[c]\n")
	if got := render(secs); got != "[a]|[b]" {
		t.Errorf("two sections: %q", got)
	}
}

func TestOpenErrors(t *testing.T) {
	_, err := (&Config{}).ParseJobFile("testdata/does-not-exist.fio", nil)
	if err == nil || err.Error() != "fio: unable to open 'testdata/does-not-exist.fio' job file" || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v", err)
	}
	// A directory as the job file opens but reads as empty, as in fio.
	secs, err := (&Config{}).ParseJobFile("testdata", nil)
	if err != nil || len(secs) != 0 {
		t.Errorf("directory: %v %v", secs, err)
	}
	// fio 3.33 crashes on an included directory; gofio stops with a
	// message, after the sections before it.
	secs, err = parseString(&Config{}, "[a]\nbs=1k\n[b]\ninclude testdata\nbs=4k\n[c]\n")
	var pe *Error
	if !errors.As(err, &pe) || err.Error() != "fio: cannot include 'testdata': it is a directory" ||
		pe.Pos != (Pos{"t.fio", 4}) || render(secs) != "[a]|bs=1k|[b]" {
		t.Errorf("directory include: %q %v", render(secs), err)
	}
}

// TestEndlessFiles: fio reads an included /dev/zero forever (it is all
// blank lines); gofio reads at most maxStream bytes from a file that is
// not a regular file. /dev/null and short pipes are read as usual.
func TestEndlessFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	c := &Config{maxStream: 1 << 20}
	secs, err := parseString(c, "[a]\nbs=1k\ninclude /dev/zero\nrw=read\n")
	want := "fio: include file '/dev/zero' is not a regular file and has more than 1 MiB: giving up on it (does it ever end?)"
	if err == nil || err.Error() != want || render(secs) != "[a]|bs=1k" {
		t.Errorf("include /dev/zero: %q %v", render(secs), err)
	}
	secs, err = c.ParseJobFile("/dev/zero", nil)
	if err == nil || !strings.Contains(err.Error(), "job file '/dev/zero' is not a regular file") || len(secs) != 0 {
		t.Errorf("job file /dev/zero: %v %v", secs, err)
	}
	secs, err = parseString(c, "[a]\ninclude /dev/null\nrw=read\n")
	if err != nil || render(secs) != "[a]|rw=read" {
		t.Errorf("include /dev/null: %q %v", render(secs), err)
	}

	// A pipe: exactly the limit is fine, one byte more is not.
	for _, tt := range []struct {
		size int
		ok   bool
	}{{1 << 20, true}, {1<<20 + 1, false}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			body := "[a]\n" + strings.Repeat("#", tt.size-len("[a]\nbs=4k\n")) + "\nbs=4k\n"
			io.WriteString(w, body[:tt.size])
			w.Close()
		}()
		secs, err := c.ParseJobFile("-", r)
		r.Close()
		if tt.ok && (err != nil || render(secs) != "[a]|bs=4k") || !tt.ok && err == nil {
			t.Errorf("pipe of %d bytes: %q %v", tt.size, render(secs), err)
		}
	}
}

func TestHostKeywords(t *testing.T) {
	kw := HostKeywords()
	if kw.PageSize <= 0 || kw.NCPUs <= 0 || kw.MBMemory <= 0 {
		t.Errorf("HostKeywords() = %+v", kw)
	}
}
