package output

import (
	"math"
	"testing"
	"time"
)

// TestNum2Str checks the verified examples of output-normal.md §2.1.
func TestNum2Str(t *testing.T) {
	tests := []struct {
		n                                   uint64
		binB, decB, binBs, decBs, bits, iop string
		lat6                                string
	}{
		{999, "999B", "999B", "999B/s", "999B/s", "7992bit/s", "999", "999"},
		{1000, "1000B", "1000B", "1000B/s", "1000B/s", "8000bit/s", "1000", "1000"},
		{9999, "9999B", "9999B", "9999B/s", "9999B/s", "78.1Kibit/s", "9999", "9999"},
		{10000, "9.77KiB", "10.0kB", "9.77KiB/s", "10.0kB/s", "78.1Kibit/s", "10.0k", "10000"},
		{10239, "10.00KiB", "10.2kB", "10.00KiB/s", "10.2kB/s", "80.0Kibit/s", "10.2k", "10239"},
		{12345, "12.1KiB", "12.3kB", "12.1KiB/s", "12.3kB/s", "96.4Kibit/s", "12.3k", "12345"},
		{99999, "97.7KiB", "100.0kB", "97.7KiB/s", "100.0kB/s", "781Kibit/s", "100.0k", "99999"},
		{100000, "97.7KiB", "100kB", "97.7KiB/s", "100kB/s", "781Kibit/s", "100k", "100000"},
		{999999, "977KiB", "1000kB", "977KiB/s", "1000kB/s", "7812Kibit/s", "1000k", "999999"},
		{1048575, "1024KiB", "1049kB", "1024KiB/s", "1049kB/s", "8192Kibit/s", "1049k", "1048.6k"},
		{16651493, "15.9MiB", "16.7MB", "15.9MiB/s", "16.7MB/s", "127Mibit/s", "16.7M", "16651k"},
		{174666702, "167MiB", "175MB", "167MiB/s", "175MB/s", "1333Mibit/s", "175M", "174667k"},
		{524349440, "500MiB", "524MB", "500MiB/s", "524MB/s", "4000Mibit/s", "524M", "524349k"},
		{2147483648, "2048MiB", "2147MB", "2048MiB/s", "2147MB/s", "16.0Gibit/s", "2147M", "2147.5M"},
	}
	for _, tc := range tests {
		got := []string{
			Num2Str(tc.n, 4, 1, true, UnitByte),
			Num2Str(tc.n, 4, 1, false, UnitByte),
			Num2Str(tc.n, 4, 1, true, UnitBytePerSec),
			Num2Str(tc.n, 4, 1, false, UnitBytePerSec),
			Num2Str(tc.n, 4, 1, true, UnitBitPerSec),
			Num2Str(tc.n, 4, 1, false, UnitNone),
			Num2Str(tc.n, 6, 1, false, UnitNone),
		}
		want := []string{tc.binB, tc.decB, tc.binBs, tc.decBs, tc.bits, tc.iop, tc.lat6}
		for k := range got {
			if got[k] != want[k] {
				t.Errorf("%d column %d: got %q, want %q", tc.n, k, got[k], want[k])
			}
		}
	}
}

func TestNum2StrCorners(t *testing.T) {
	tests := []struct {
		n      uint64
		maxlen int
		base   int
		pow2   bool
		unit   Unit
		want   string
	}{
		{0, 0, 1, false, UnitNone, "0"}, // the "both" mixed line
		{69582897, 0, 1, true, UnitNone, "0"},
		{69652480, 0, 1, false, UnitByte, "0B"},
		{0, 4, 1, true, UnitByte, "0B"},
		{8004, 4, 1024, true, UnitBytePerSec, "8004KiB/s"}, // steady-state form
		{8004, 4, 1024, false, UnitBytePerSec, "8004kB/s"},
		{3145728, 4, 1, false, UnitByte, "3146kB"},
		{1, 4, 1, true, UnitPerSec, "1/s"},
		{10, 4, 1, true, UnitBit, "80bit"},
	}
	for _, tc := range tests {
		if got := Num2Str(tc.n, tc.maxlen, tc.base, tc.pow2, tc.unit); got != tc.want {
			t.Errorf("Num2Str(%d, %d, %d, %v, %d) = %q, want %q", tc.n, tc.maxlen, tc.base, tc.pow2, tc.unit, got, tc.want)
		}
	}
}

func TestFmtF(t *testing.T) {
	tests := []struct {
		x    float64
		w, p int
		want string
	}{
		{3.54, 5, 2, " 3.54"},
		{0, 5, 2, " 0.00"},
		{177016, 5, 2, "177016.00"},
		{-0.006112, 0, 6, "-0.006112"},
		{0.125, 0, 2, "0.12"}, // ties to even on the exact binary value
		{0.375, 0, 2, "0.38"},
		{math.NaN(), 0, 2, "nan"},
		{negNaN, 0, 2, "-nan"},
		{math.Inf(1), 0, 6, "inf"},
		{math.Inf(-1), 0, 6, "-inf"},
	}
	for _, tc := range tests {
		if got := fmtWF(tc.x, tc.w, tc.p); got != tc.want {
			t.Errorf("fmtWF(%v, %d, %d) = %q, want %q", tc.x, tc.w, tc.p, got, tc.want)
		}
	}
}

func TestCtime(t *testing.T) {
	tests := []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 11, 29, 18, 40, 5, 0, time.UTC), "Sun Nov 29 18:40:05 2026"},
		{time.Date(2026, 11, 5, 8, 4, 9, 0, time.UTC), "Thu Nov  5 08:04:09 2026"},
	}
	for _, tc := range tests {
		if got := Ctime(tc.t); got != tc.want {
			t.Errorf("Ctime = %q, want %q", got, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`My "quoted" desc\x`, `"My \"quoted\" desc\\x"`},
		{"tab\there/é", "\"tab\there/é\""},
	}
	for _, tc := range tests {
		if got := quote(tc.in); got != tc.want {
			t.Errorf("quote(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSettingDefaults checks the defaults of kb_base and
// significant_figures that reports (and netio's encoded reports) use.
func TestSettingDefaults(t *testing.T) {
	for _, tt := range []struct{ in, kb, sig int }{
		{0, 1024, 4}, {-1, 1024, 4}, {1024, 1024, 1024}, {1000, 1000, 1000}, {3, 1024, 3}, {10, 1024, 10},
	} {
		if got := KBBase(tt.in); got != tt.kb {
			t.Errorf("KBBase(%d) = %d, want %d", tt.in, got, tt.kb)
		}
		if got := SigFigs(tt.in); got != tt.sig {
			t.Errorf("SigFigs(%d) = %d, want %d", tt.in, got, tt.sig)
		}
	}
}
