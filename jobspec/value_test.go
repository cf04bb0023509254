package jobspec

import (
	"math"
	"reflect"
	"testing"
)

// The expected values below were read from fio 3.33's --debug=parse
// output ("__handle_option=..., ptr=VALUE" / "ret=0, out=N").

func TestParseSize(t *testing.T) {
	tests := []struct {
		in     string
		kbBase int
		want   int64
		pct    bool
	}{
		{"4k", 1024, 4096, false},               // k is 1024 by default
		{"4KiB", 1024, 4000, false},             // the three-letter form inverts the base
		{"4kib", 1024, 4000, false},             // in any case
		{"4k", 1000, 4000, false},               // kb_base=1000 makes k decimal
		{"4KiB", 1000, 4096, false},             // and KiB binary
		{"4ki", 1024, 4096, false},              // ki is plain k
		{"4096b", 1024, 4096, false},            // b means bytes
		{"1.5g", 1024, 1, false},                // a '.' hides the unit: fio reads 1
		{"4.5k", 1024, 4, false},                // likewise
		{" 4k", 1024, 4, false},                 // a leading blank hides the unit too
		{"+4k", 1024, 4096, false},              // a sign before the digits is skipped
		{"-4k", 1024, -4096, false},             // negative sizes multiply too
		{"1e3", 1024, 1, false},                 // no exponents: "e3" is no unit
		{"4x", 1024, 4, false},                  // unknown units multiply by 1
		{"1kk", 1024, 1024, false},              // units are matched by prefix
		{"4k5", 1024, 4096, false},              // text after the unit is ignored
		{"4KB", 1024, 4096, false},              // KB is k
		{"1P", 1024, 1 << 50, false},            // peta
		{"1pib", 1024, 1000000000000000, false}, // decimal peta
		{"7mib", 1024, 7000000, false},
		{"3gib", 1024, 3000000000, false},
		{"1t", 1024, 1 << 40, false},
		{"0x1000", 1024, 4096, false}, // hexadecimal
		{"0X1F", 1024, 31, false},
		{"0x10k", 1024, 16, false},   // hex values take no multiplier
		{"10x", 1024, 16, false},     // contains "0x": read as hex
		{"00x5", 1024, 0, false},     // "00" is all strtoll reads in base 16
		{"0x", 1024, 0, false},       // "0x" without digits reads as 0
		{"0xg", 1024, 0, false},      // likewise
		{"4k/8k", 1024, 4096, false}, // the unit ends at '/'
		{"16M", 1024, 16 << 20, false},
		{"50%", 1024, 50, true}, // a percentage
		{"1%", 1024, 1, true},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in, tt.kbBase)
		if err != nil || got.N != tt.want || got.Percent != tt.pct {
			t.Errorf("parseSize(%q, %d) = %+v, %v; want %d (percent %v)", tt.in, tt.kbBase, got, err, tt.want, tt.pct)
		}
	}
	for _, bad := range []string{"", "k", "x", "abc", "99999999999999999999", "-99999999999999999999"} {
		if _, err := parseSize(bad, 1024); err == nil {
			t.Errorf("parseSize(%q) succeeded; want an error", bad)
		}
	}
	// fio stores "1%" in options without percentages as -1-1.
	if v, _ := parseSize("1%", 1024); v.plain() != -2 {
		t.Errorf("parseSize(1%%).plain() = %d; want -2", v.plain())
	}
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in      string
		defUnit int64
		want    int64
	}{
		{"10", second, 10 * second},  // default unit seconds
		{"10s", second, 10 * second}, // explicit seconds
		{"10S", second, 10 * second}, // units are lower-cased
		{"1m", second, minute},       // m is minutes for times
		{"5M", second, 5 * minute},
		{"2h", second, 2 * hour},
		{"1d", second, day},
		{"5ms", second, 5 * msec},
		{"5msec", second, 5 * msec},
		{"5us", second, 5},
		{"5usec", second, 5},
		{"10sec", second, 10},    // fio reads unknown units as µs
		{"1min", second, 1},      // even "min"
		{"5m5", second, 5},       // the whole rest must be "m"
		{"1.5", second, second},  // fractions are truncated
		{"1.5s", second, second}, // before the unit is looked at
		{" 5s", second, 5 * second},
		{" 5s", usec, 5},          // a blank hides the unit: default µs
		{"+5s", usec, 5 * second}, // a sign does not
		{"2s-3s", second, 2},      // the unit is the whole rest ("s-3s")
		{"100", usec, 100},        // a µs-default option
		{"0x10", second, 16},      // hex values are µs
		{"10x", second, 16},       // and "10x" is hex
		{"2", second, 2 * second}, // thinktime_iotime style
	}
	for _, tt := range tests {
		got, err := parseTimeInt(tt.in, tt.defUnit)
		if err != nil || got != tt.want {
			t.Errorf("parseTimeInt(%q, %d) = %d, %v; want %d", tt.in, tt.defUnit, got, err, tt.want)
		}
	}
}

func TestPieces(t *testing.T) {
	tests := []struct {
		in        string
		colonDash bool
		want      []piece
	}{
		{"4k", true, []piece{{"4k", false}}},
		// A trailing comma is cut off, and an empty round follows it.
		{"4k,", true, []piece{{"4k", true}, {"", false}}},
		// Each round reads the rest of the value.
		{"4k,8k", true, []piece{{"4k,8k", true}, {"8k", false}}},
		{"4k:8k", true, []piece{{"4k:8k", true}, {"8k", false}}},
		{"8k-16k", true, []piece{{"8k-16k", true}, {"16k", false}}},
		// A comma anywhere wins over ':' and '-'.
		{"4k-8k,16k", true, []piece{{"4k-8k,16k", true}, {"16k", false}}},
		// The separator is looked for again in each round.
		{"1k,2k:3k", true, []piece{{"1k,2k:3k", true}, {"2k:3k", true}, {"3k", false}}},
		{",8k", true, []piece{{",8k", true}, {"8k", false}}},
		{"1k,,4k", true, []piece{{"1k,,4k", true}, {",4k", true}, {"4k", false}}},
		// A negative number is split at its own '-'.
		{"-21", true, []piece{{"-21", true}, {"21", false}}},
		// Ranges and word lists split only at ','.
		{"4k-8k,1k:2k", false, []piece{{"4k-8k,1k:2k", true}, {"1k:2k", false}}},
		{"", true, []piece{{"", false}}},
	}
	for _, tt := range tests {
		if got := pieces(tt.in, tt.colonDash); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("pieces(%q, %v) = %+v; want %+v", tt.in, tt.colonDash, got, tt.want)
		}
	}
}

func TestMatchChoice(t *testing.T) {
	tests := []struct {
		value, word string
		want        bool
	}{
		{"read", "read", true},
		{"read:8", "read", true},          // a :param follows the word
		{"read,write", "read", true},      // text after a comma is ignored
		{"readx", "read", false},          // no extensions
		{"rea", "read", false},            // no prefixes
		{"READ", "read", false},           // case-sensitive
		{"randread:8", "read", false},     // the whole word up to ':'
		{"zoned:1/2,3/4", "zoned", false}, // with a comma, L runs up to it
		{"", "read", false},
	}
	for _, tt := range tests {
		if got := matchChoice(tt.value, tt.word); got != tt.want {
			t.Errorf("matchChoice(%q, %q) = %v; want %v", tt.value, tt.word, got, tt.want)
		}
	}
}

func TestCStrtod(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		n    int
	}{
		{"1.5", 1.5, 3},
		{"50,99", 50, 2}, // stops at the comma
		{" 5", 5, 2},     // leading blanks
		{"1e1", 10, 3},   // exponent
		{"1e", 1, 1},     // an exponent needs digits
		{"0x10", 16, 4},  // hexadecimal
		{"0x", 0, 1},     // just the 0
		{".5", 0.5, 2},   // no digit before the point
		{"inf", math.Inf(1), 3},
		{"-Infinity", math.Inf(-1), 9},
		{"abc", 0, 0},
		{"", 0, 0},
		{".", 0, 0},
	}
	for _, tt := range tests {
		f, n := cStrtod(tt.in)
		if f != tt.want || n != tt.n {
			t.Errorf("cStrtod(%q) = %v, %d; want %v, %d", tt.in, f, n, tt.want, tt.n)
		}
	}
	if f, n := cStrtod("nan"); !math.IsNaN(f) || n != 3 {
		t.Errorf("cStrtod(nan) = %v, %d; want NaN, 3", f, n)
	}
}

func TestCFloat(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{{101, "101.000000"}, {-1, "-1.000000"}, {math.Inf(1), "inf"}, {math.NaN(), "nan"}} {
		if got := cFloat(tt.f); got != tt.want {
			t.Errorf("cFloat(%v) = %q; want %q", tt.f, got, tt.want)
		}
	}
}

func TestSetBS(t *testing.T) {
	// Observed with fio's job line "bs=(R) ..., (W) ..., (T) ...".
	tests := []struct {
		in   string
		want [3]uint64
	}{
		{"4k", [3]uint64{4096, 4096, 4096}},
		{"4k,8k", [3]uint64{4096, 8192, 8192}}, // the last piece fills the rest
		{",8k", [3]uint64{4096, 8192, 8192}},   // empty piece keeps the read size
		{",,16k", [3]uint64{4096, 4096, 16384}},
		{"8k-16k", [3]uint64{8192, 16384, 16384}}, // '-' splits too
		{"4k:8k", [3]uint64{4096, 8192, 8192}},
		{"1k,2k,4k,8k", [3]uint64{1024, 2048, 4096}}, // a fourth piece is ignored
		{"4k-8k,16k", [3]uint64{4096, 16384, 16384}}, // ',' first: 8k is skipped
		{"2k,,4k", [3]uint64{2048, 4096, 4096}},
		{"8k,", [3]uint64{8192, 4096, 4096}}, // a trailing comma: read only
		{"8k:", [3]uint64{8192, 4096, 4096}},
		{"0x800", [3]uint64{2048, 2048, 2048}},
	}
	for _, tt := range tests {
		j := defaults()
		if err := setBS(j, tt.in); err != nil || j.BS != tt.want {
			t.Errorf("bs=%s: BS = %v, %v; want %v", tt.in, j.BS, err, tt.want)
		}
	}
}

func TestSetFileSize(t *testing.T) {
	tests := []struct {
		in   string
		want [2]uint64
	}{
		{"1k", [2]uint64{1024, 1024}},
		{"1k-2k", [2]uint64{1024, 2048}},
		{"1k:2k", [2]uint64{1024, 2048}},
		{"1k,2k", [2]uint64{1024, 2048}},
		{"0-2k", [2]uint64{0, 2048}}, // 0 is under filesize's minimum of 1
	}
	for _, tt := range tests {
		j := defaults()
		if err := setFileSize(j, tt.in); err != nil || j.FileSize != tt.want {
			t.Errorf("filesize=%s: FileSize = %v, %v; want %v", tt.in, j.FileSize, err, tt.want)
		}
	}
}

func TestSetIntKeepsOutOfRangeFirstPiece(t *testing.T) {
	// iodepth=-1: fio complains about -1, accepts the option because the
	// second piece "1" reads, and leaves iodepth as it was.
	j := defaults()
	j.IODepth = 8
	o, _ := Lookup("iodepth")
	if err := o.Set(j, "-1"); err != nil || j.IODepth != 8 {
		t.Errorf("iodepth=-1: IODepth = %d, %v; want 8, nil", j.IODepth, err)
	}
	// nice=-5 stores -5 (the first piece).
	o, _ = Lookup("nice")
	if err := o.Set(j, "-5"); err != nil || j.Nice != -5 {
		t.Errorf("nice=-5: got %d, %v; want -5", j.Nice, err)
	}
}
