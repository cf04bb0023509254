package jobspec

import "testing"

func TestParseSize(t *testing.T) {
	tests := []struct {
		in     string
		kbBase int
		want   int64
		pct    bool
	}{
		{"4k", 1024, 4096, false},      // k is 1024 by default
		{"4KiB", 1024, 4000, false},    // the three-letter form inverts the base
		{"4k", 1000, 4000, false},      // kb_base=1000 makes k decimal
		{"4KiB", 1000, 4096, false},    // and KiB binary
		{"4096b", 1024, 4096, false},   // b means bytes
		{"1.5g", 1024, 1, false},       // a '.' hides the unit: fio reads 1
		{"0x1000", 1024, 4096, false},  // hexadecimal
		{"0x10k", 1024, 16, false},     // hex values take no multiplier
		{"10x", 1024, 16, false},       // contains 0x: read as hex
		{"16M", 1024, 16 << 20, false}, // M is MiB
		{"1kk", 1024, 1024, false},     // suffix matched by its prefix
		{"4ki", 1024, 4096, false},     // ki is plain k
		{"50%", 1024, 50, true},        // a percentage
		{"2g", 1024, 2 << 30, false},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in, tt.kbBase)
		if err != nil || got.N != tt.want || got.Percent != tt.pct {
			t.Errorf("parseSize(%q, %d) = %+v, %v; want %d (percent %v)", tt.in, tt.kbBase, got, err, tt.want, tt.pct)
		}
	}
	for _, bad := range []string{"", "k", "abc", "99999999999999999999"} {
		if _, err := parseSize(bad, 1024); err == nil {
			t.Errorf("parseSize(%q) succeeded; want an error", bad)
		}
	}
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in      string
		defUnit uint64
		want    uint64
	}{
		{"10", second, 10 * second},   // default unit seconds
		{"10s", second, 10 * second},  // explicit seconds
		{"10m", second, 600 * second}, // minutes
		{"2h", second, 7200 * second},
		{"500ms", second, 500 * msec},
		{"500msec", second, 500 * msec},
		{"100us", second, 100},
		{"10sec", second, 10},    // fio reads unknown units as µs
		{"1.5s", second, second}, // fractions are truncated
		{"100", usec, 100},       // a µs-default option
		{"0x10", second, 16},     // hex values are µs
	}
	for _, tt := range tests {
		got, err := parseTime(tt.in, tt.defUnit)
		if err != nil || got != tt.want {
			t.Errorf("parseTime(%q, %d) = %d, %v; want %d", tt.in, tt.defUnit, got, err, tt.want)
		}
	}
}

func TestSplitPieces(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"4k", []string{"4k"}},
		{"4k,", []string{"4k"}},           // one trailing comma dropped
		{"4k,8k", []string{"4k", "8k"}},   // comma first
		{"4k:8k", []string{"4k", "8k"}},   // then colon
		{"8k-16k", []string{"8k", "16k"}}, // then dash
		{",8k", []string{"", "8k"}},
	}
	for _, tt := range tests {
		got := splitPieces(tt.in)
		if len(got) != len(tt.want) {
			t.Errorf("splitPieces(%q) = %q; want %q", tt.in, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("splitPieces(%q) = %q; want %q", tt.in, got, tt.want)
			}
		}
	}
}

func TestMatchChoice(t *testing.T) {
	tests := []struct {
		value, word string
		want        bool
	}{
		{"read", "read", true},
		{"read:8", "read", true},     // a :param follows the word
		{"read,write", "read", true}, // text after a comma is ignored
		{"readx", "read", false},     // no extensions
		{"rea", "read", false},       // no prefixes
		{"READ", "read", false},      // case-sensitive
	}
	for _, tt := range tests {
		if got := matchChoice(tt.value, tt.word); got != tt.want {
			t.Errorf("matchChoice(%q, %q) = %v; want %v", tt.value, tt.word, got, tt.want)
		}
	}
}

func TestSetBS(t *testing.T) {
	tests := []struct {
		in   string
		want [3]uint64
	}{
		{"4k", [3]uint64{4096, 4096, 4096}},
		{"4k,8k", [3]uint64{4096, 8192, 8192}}, // later slots copy the last piece
		{",8k", [3]uint64{4096, 8192, 8192}},   // empty piece keeps the read size
		{"4k,8k,1536", [3]uint64{4096, 8192, 1536}},
	}
	for _, tt := range tests {
		j := defaults()
		if err := setBS(j, tt.in); err != nil || j.BS != tt.want {
			t.Errorf("bs=%s: BS = %v, %v; want %v", tt.in, j.BS, err, tt.want)
		}
	}
}

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
	if len(Options()) < 217 {
		t.Errorf("table has %d options; fio 3.33 lists 217 in --cmdhelp=all", len(Options()))
	}
}
