package parser

import (
	"bytes"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// bcCases are GNU bc 1.07 results (stdout minus the final newline, and
// stderr lines), as observed on the reference machine.
var bcCases = []struct {
	expr, out string
	diags     []string
}{
	{"2*2", "4", nil},
	{"8*24105", "192840", nil},
	{"2/3", "0", nil},
	{"2-5", "-3", nil},
	{"2*1.5", "3.0", nil},
	{"G*2", "32", nil},
	{"Z*2", "70", nil},
	{"1Z*2", "38", nil},
	{"a_b*2", "0", nil},
	{"AB.C*2", "199.8", nil},
	{"2.*3", "6", nil},
	{"1..2", "", []string{"(standard_in) 1: syntax error"}},
	{"2*3 4", "", []string{"(standard_in) 1: syntax error"}},
	{"2**3", "", []string{"(standard_in) 1: syntax error"}},
	{"--2", "", []string{"(standard_in) 1: syntax error"}},
	{"2--2", "", []string{"(standard_in) 1: syntax error"}},
	{"+2", "", []string{"(standard_in) 1: syntax error"}},
	{"2^3^2", "512", nil},
	{"-2^2", "4", nil},
	{"2^-2", "0", nil},
	{"2.7^2", "7.2", nil},
	{"(-2)^3", "-8", nil},
	{"7%-3", "1", nil},
	{"-7%3", "-1", nil},
	{"7.5%2", "1.5", nil},
	{"2/3*3", "0", nil},
	{"1/0", "", []string{"Runtime error (func=(main), adr=3): Divide by zero"}},
	{"2/0", "", []string{"Runtime error (func=(main), adr=5): Divide by zero"}},
	{"12/0", "", []string{"Runtime error (func=(main), adr=6): Divide by zero"}},
	{"2*3/0", "", []string{"Runtime error (func=(main), adr=9): Divide by zero"}},
	{"(2)/0", "", []string{"Runtime error (func=(main), adr=5): Divide by zero"}},
	{"2^-1/0", "", []string{"Runtime error (func=(main), adr=8): Divide by zero"}},
	{"5%0", "", []string{"Runtime error (func=(main), adr=5): Modulo by zero"}},
	{"abc*2", "0", nil},
	{"if*2", "", []string{"(standard_in) 1: syntax error"}},
	{"scale*2", "0", nil},
	{"ibase*2", "20", nil},
	{"last*2", "0", nil},
	{"sqrt(16)*2", "8", nil},
	{"length(123)*2", "6", nil},
	{"2*quit", "", []string{"(standard_in) 1: syntax error"}},
	{" 3 * 2 ", "6", nil},
	{"1.50*2", "3.00", nil},
	{"0.0*2", "0", nil},
	{"-0*2", "0", nil},
	{"10/4*1.0", "2.0", nil},
	{"00012*1", "12", nil},
	{".*2", "0", nil},
	{"2!", "", []string{"(standard_in) 1: syntax error"}},
	{"2\\3", "", []string{"(standard_in) 1: illegal character: \\", "(standard_in) 1: syntax error"}},
	{"2@3", "", []string{"(standard_in) 1: illegal character: @", "(standard_in) 1: syntax error"}},
	{"2&&3", "1", nil},
	{"2<3", "1", nil},
	{"2*$", "", []string{"(standard_in) 1: illegal character: $", "(standard_in) 2: syntax error"}},
	{"2*\"", "", []string{"(standard_in) 1: illegal character: \"", "(standard_in) 2: syntax error"}},
	{"-.5*1", "-.5", nil},
	{"0.5*1", ".5", nil},
	{"2*", "", []string{"(standard_in) 2: syntax error"}},
	{"(2", "", []string{"(standard_in) 2: syntax error"}},
	{"0^-1", "", []string{"Runtime error (func=(main), adr=4): divide by zero"}},
	{"0^0", "1", nil},
	{"2^0.5", "1", []string{"Runtime warning (func=(main), adr=8): non-zero scale in exponent"}},
	{"2^-0.5", "1", []string{"Runtime warning (func=(main), adr=9): non-zero scale in exponent"}},
	{"2^2.0", "4", []string{"Runtime warning (func=(main), adr=9): non-zero scale in exponent"}},
	{"1.9^4", "13.0", nil},
	{"0.5^-1", "2", nil},
	{"2.0^-1", "0", nil},
	{"-1^-3", "-1", nil},
	{"2^99999999999999999999", "", []string{"Runtime error (func=(main), adr=26): exponent too large in raise"}},
	{"7.25%0.5", ".25", nil},
	{"-7.5%2", "-1.5", nil},
	{"10.00/3", "3", nil},
	{"1.25*1.5*2", "3.74", nil},
	{"2*-.5", "-1.0", nil},
	{"2*3;4", "6\n4", nil},
	{"1/0;2", "", []string{"Runtime error (func=(main), adr=3): Divide by zero"}},
	{"2;1/0;3", "2", []string{"Runtime error (func=(main), adr=7): Divide by zero"}},
	{"2@;3", "", []string{"(standard_in) 1: illegal character: @"}},
	{"2 3;4", "", []string{"(standard_in) 1: syntax error"}},
	{";;2;", "2", nil},
	{"$", "", []string{"(standard_in) 1: illegal character: $"}},
	{"@2", "", []string{"(standard_in) 1: illegal character: @"}},
	{"2#3", "2", nil},
	{"2\x013", "", []string{"(standard_in) 1: illegal character: ^A", "(standard_in) 1: syntax error"}},
	{"2\x7f3", "", []string{"(standard_in) 1: illegal character: \\177", "(standard_in) 1: syntax error"}},
	{"2\xc33", "", []string{"(standard_in) 1: illegal character: \\303", "(standard_in) 1: syntax error"}},
	{"", "", nil},
	{"2*2^300", "40740719526689721725368913768187563221029367873318725012722808987087\\\n62599526673412366794752", nil},
	{"10^67", "10000000000000000000000000000000000000000000000000000000000000000000", nil},
	{"-(10^67)", "-1000000000000000000000000000000000000000000000000000000000000000000\\\n0", nil},
}

func TestEvalBC(t *testing.T) {
	for _, tt := range bcCases {
		out, diags, ok := EvalBC(tt.expr)
		if out != tt.out || ok != (tt.out != "") || !reflect.DeepEqual(diags, tt.diags) {
			t.Errorf("%q: got %q %q %v, want %q %q", tt.expr, out, diags, ok, tt.out, tt.diags)
		}
	}
}

// containsAnyByte reports whether s holds any byte of set (bytes, not
// runes: set may hold bytes that are not UTF-8 on their own).
func containsAnyByte(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) >= 0 {
			return true
		}
	}
	return false
}

// TestEvalBCAgainstBC compares with the bc program when GNU bc 1.07 is
// installed (the version fio 3.33 ran with on the reference machine).
func TestEvalBCAgainstBC(t *testing.T) {
	path, err := exec.LookPath("bc")
	if err != nil {
		t.Skip("bc not installed")
	}
	if v, err := exec.Command(path, "--version").Output(); err != nil || !bytes.HasPrefix(v, []byte("bc 1.07")) {
		t.Skip("not GNU bc 1.07")
	}
	exprs := []string{"4096*4", "24105/2", "24105/3*3", "2-24105", "-24105%7", "3.14159*2", "2/3.0", "(1+2)*(3-4)/5",
		"1000000*1000000*1000000*1000000", "2^64", "-2^63", "2^10*1.5", "1.5^3", "0.1^5", "99.99%7.5", "9.0000*9.00",
		"2>1&&3<2||1", "!0+1", "1<2<3", "sqrt(2)*2", "sqrt(2.00)*1", "length(0.001)", "scale(1.250)*2",
		// Negative zero, short-circuits, byte-code addresses.
		"-.25^5", "(-.25^5)-0", "(-.25^5)+0", "(-.25^5)%1", "(-.25^5)^1", "-(-.25^5)<0", "1&&(-.25^5)", "(-.25^5)&&1",
		"0||(-.25^5)", "(-0.05)^3", "sqrt(-.25^5)", "sqrt(1.00)", "sqrt(0.00)", "-1||(A)-sqrt((-.25))", "(0||0)/0", "(0&&0)/0",
		"(!0)/0", "1.50/x", "sqrt(-ibase)", "-0.0+(0.0)==-.25^5==7/-F", "-sqrt(1+1A*0.0%0.5)"}
	for _, tt := range bcCases {
		if !containsAnyByte(tt.expr, "\x01\x7f\xc3;#") {
			exprs = append(exprs, tt.expr)
		}
	}
	for _, e := range exprs {
		cmd := exec.Command(path)
		cmd.Stdin = strings.NewReader(e + "\n")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run()
		want := strings.TrimSuffix(stdout.String(), "\n")
		var wantDiags []string
		if s := strings.TrimSuffix(stderr.String(), "\n"); s != "" {
			wantDiags = strings.Split(s, "\n")
		}
		out, diags, _ := EvalBC(e)
		if out != want || !reflect.DeepEqual(diags, wantDiags) {
			t.Errorf("%q: got %q %q, bc says %q %q", e, out, diags, want, wantDiags)
		}
	}
}
