package jobspec

import (
	"errors"
	"strings"
	"testing"
)

// TestChoiceSetters sets every word of every choice row (general and
// profile options gofio honours) through the row's setter: each word is
// taken (clocksource=cpu may be refused, where the kernel's clock is not
// the CPU's counter), and a word the row does not list is refused. The setters map the row's words
// to values by position; init checks they give one value per word.
func TestChoiceSetters(t *testing.T) {
	check := func(o *Option) {
		if len(o.Choices) == 0 || o.Set == nil || o.Kind == KindString {
			return
		}
		for _, c := range o.Choices {
			// Words that need parameters, as fio does.
			value := c.Word + map[string]string{"random_distribution=zoned": ":50/50:50/50",
				"random_distribution=zoned_abs": ":50/1m:50/1m"}[o.Name+"="+c.Word]
			if o.Name == "steadystate" {
				value += ":1%"
			}
			err := o.Set(defaults(), value)
			var re *RefusedError
			if err != nil && !(errors.As(err, &re) && o.Name == "clocksource" && c.Word == "cpu") {
				t.Errorf("%s=%s (a word of its row): %v", o.Name, value, err)
			}
		}
		if err := o.Set(defaults(), "no-such-word"); err == nil {
			t.Errorf("%s=no-such-word: taken", o.Name)
		}
	}
	for i := range options {
		check(&options[i])
	}
	for i := range profileOptions {
		check(&profileOptions[i])
	}
}

// TestVerifyTypeNames keeps VerifyType.String, which reads the verify
// row, on the names fio prints.
func TestVerifyTypeNames(t *testing.T) {
	for _, tt := range []struct {
		t    VerifyType
		want string
	}{
		{VerifyNone, "0"}, {VerifyMD5, "md5"}, {VerifyCRC32C, "crc32c"}, {VerifyCRC32, "crc32"},
		{VerifySHA3_512, "sha3-512"}, {VerifyPatternHdr, "pattern"}, {VerifyNull, "null"},
	} {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("%d: %q, want %q", tt.t, got, tt.want)
		}
	}
}

// TestBoolStoresFirstPiece keeps fio 3.33's reading of a bool with
// several pieces (measured on its output): the first piece is stored if
// it is in range, else the option keeps its value; a later piece that
// reads makes the option accepted. lat_percentiles=2,1 prints "max value
// out of range: 2 (1 max)" and leaves lat_percentiles off;
// clat_percentiles=2,0 leaves it on; clat_percentiles=1,0 turns it on.
func TestBoolStoresFirstPiece(t *testing.T) {
	for _, tt := range []struct {
		opt        string
		lat, clat  bool
		wantStderr string
	}{
		{"lat_percentiles=2,1", false, true, "max value out of range: 2 (1 max)\n"},
		{"clat_percentiles=2,0", false, true, "max value out of range: 2 (1 max)\n"},
		{"clat_percentiles=0,1", false, false, ""},
		{"lat_percentiles=1,0", true, true, ""},
	} {
		s := &session{cmdline: []string{"name=a", tt.opt}}
		p, err := s.run(t)
		if err != nil {
			t.Errorf("%s: %v", tt.opt, err)
			continue
		}
		j := p.Jobs[0]
		if j.LatPercentiles != tt.lat || j.ClatPercentiles != tt.clat || s.stderr.String() != tt.wantStderr || p.Unsupported() != nil {
			t.Errorf("%s: lat %v clat %v, stderr %q, %v; want %v %v, %q, nil", tt.opt, j.LatPercentiles, j.ClatPercentiles,
				s.stderr.String(), p.Unsupported(), tt.lat, tt.clat, tt.wantStderr)
		}
	}
}

// TestFloatsReadOnce stores the floats the reader read (C's strtod, as
// fio reads them): latency_percentile=50abc and =50,60 are taken by fio
// 3.33 (measured: no error, the job runs) and store 50.
func TestFloatsReadOnce(t *testing.T) {
	for _, tt := range []struct {
		opt  string
		want float64
	}{
		{"latency_percentile=50abc", 50},
		{"latency_percentile=50,60", 50},
		{"latency_percentile=1e1", 10},
		{"zone_reset_threshold=0.5x", 0},
	} {
		s := &session{cmdline: []string{"name=a", tt.opt}}
		p, err := s.run(t)
		if err != nil || p.Unsupported() != nil {
			t.Errorf("%s: %v, %v", tt.opt, err, p.Unsupported())
			continue
		}
		j := p.Jobs[0]
		got := j.LatencyPercentile
		if strings.HasPrefix(tt.opt, "zone_") {
			got, tt.want = j.Zone.ResetThreshold, 0.5
		}
		if got != tt.want {
			t.Errorf("%s stored %v; want %v", tt.opt, got, tt.want)
		}
	}
}

// TestRWNames keeps RW.String, which reads the rw row, on the words fio
// prints.
func TestRWNames(t *testing.T) {
	want := []string{"read", "write", "trim", "randread", "randwrite", "randtrim", "rw", "randrw", "trimwrite", "randtrimwrite"}
	for rw := RWRead; rw <= RWRandTrimWrite; rw++ {
		if got := rw.String(); got != want[rw] {
			t.Errorf("RW(%d) = %q, want %q", rw, got, want[rw])
		}
	}
}
