package jobspec

import (
	"strings"
	"testing"
)

func TestVerifySetters(t *testing.T) {
	tests := []struct {
		opts    [][2]string // option, value, in order
		want    VerifyType
		pattern string
		err     string
	}{
		{[][2]string{{"verify", "crc32c-intel"}}, VerifyCRC32C, "", ""},
		{[][2]string{{"verify", "sha3-384"}}, VerifySHA3_384, "", ""},
		{[][2]string{{"verify", "0"}}, VerifyNone, "", ""},
		// verify_pattern alone selects the pattern check with fio's
		// header; an explicit verify wins (verify=pattern: no header).
		{[][2]string{{"verify_pattern", "0xdeadbeef"}}, VerifyPatternHdr, "\xde\xad\xbe\xef", ""},
		{[][2]string{{"verify_pattern", "0x12"}, {"verify", "pattern"}}, VerifyPattern, "\x12", ""},
		{[][2]string{{"verify", "pattern"}, {"verify_pattern", "0x12"}}, VerifyPattern, "\x12", ""},
		{[][2]string{{"verify_pattern", "0x12"}, {"verify", "0"}}, VerifyNone, "\x12", ""},
		{[][2]string{{"verify_pattern", "0x12"}, {"verify", "md5"}}, VerifyMD5, "\x12", ""},
		{[][2]string{{"verify", "md5"}, {"verify_pattern", "0x12"}}, VerifyMD5, "\x12", ""},
		{[][2]string{{"verify", "sha256"}}, VerifySHA256, "", ""},
		{[][2]string{{"verify", "sha512"}}, VerifySHA512, "", ""},
		{[][2]string{{"verify", "SHA512"}}, 0, "", "not a valid choice"},                                          // fio matches words case-sensitively
		{[][2]string{{"verify_pattern", "0xff%o"}}, VerifyPatternHdr, "\xff\x00\x00\x00\x00\x00\x00\x00\x00", ""}, // %o: the block's offset
		{[][2]string{{"verify", "bogus"}}, VerifyNone, "", "not a valid choice"},
	}
	for _, tt := range tests {
		j := defaults()
		var err error
		for _, o := range tt.opts {
			verify, _ := Lookup("verify")
			set := verify.Set
			if o[0] == "verify_pattern" {
				set = setVerifyPattern
			}
			if err = set(j, o[1]); err != nil {
				break
			}
		}
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: error %v, want one containing %q", tt.opts, err, tt.err)
			}
		case err != nil:
			t.Errorf("%v: %v", tt.opts, err)
		case j.Verify.Type != tt.want || string(j.Verify.Pattern) != tt.pattern:
			t.Errorf("%v: verify=%v pattern %q, want %v %q", tt.opts, j.Verify.Type, j.Verify.Pattern, tt.want, tt.pattern)
		}
	}
}

func TestVerifyProblems(t *testing.T) {
	tests := []struct {
		name string
		set  func(j *Job)
		want string // "" for none
	}{
		{"crc32c", func(j *Job) { j.Verify.Type = VerifyCRC32C }, ""},
		{"pattern without pattern", func(j *Job) { j.Verify.Type = VerifyPattern }, "verify=pattern needs verify_pattern"},
		{"verify_only time_based", func(j *Job) { j.Verify.Type, j.Verify.Only, j.TimeBased = VerifyMD5, true, true }, "time_based"},
		{"backlog at depth 4", func(j *Job) { j.Verify.Type, j.Verify.Backlog, j.IODepth = VerifyMD5, 8, 4 }, ""},
		{"interval too small", func(j *Job) {
			j.Verify.Type, j.Verify.Interval, j.BS = VerifySHA3_512, 100, [3]uint64{8000, 8000, 8000}
		}, "smaller than the 104-byte"},
		{"interval not dividing reads", func(j *Job) { j.Verify.Type, j.Verify.Interval, j.BS = VerifyMD5, 8192, [3]uint64{4096, 8192, 8192} }, ""},
		{"interval not dividing reads (rw=rw)", func(j *Job) {
			j.Verify.Type, j.Verify.Interval, j.BS, j.RW = VerifyMD5, 8192, [3]uint64{4096, 8192, 8192}, RWReadWrite
		}, "multiple of verify_interval"},
		{"interval not dividing writes", func(j *Job) { j.Verify.Type, j.Verify.Interval = VerifyMD5, 1000 }, ""},
		{"interval over the block size", func(j *Job) { j.Verify.Type, j.Verify.Interval, j.BS = VerifyMD5, 1<<20, [3]uint64{512, 512, 512} }, ""},
		{"offset overlapping", func(j *Job) { j.Verify.Type, j.Verify.Offset = VerifyMD5, 50 }, "overlaps the 56-byte"},
		{"offset past the end", func(j *Job) { j.Verify.Type, j.Verify.Offset = VerifyMD5, 4050 }, "does not fit"},
		{"offset fits", func(j *Job) { j.Verify.Type, j.Verify.Offset = VerifyMD5, 4040 }, ""},
		{"block too small", func(j *Job) { j.Verify.Type, j.BS = VerifySHA3_512, [3]uint64{64, 64, 64} }, "block size 64"},
		{"sha512 296", func(j *Job) { j.Verify.Type, j.BS = VerifySHA512, [3]uint64{296, 296, 296} }, ""},
		{"sha512 295", func(j *Job) { j.Verify.Type, j.BS = VerifySHA512, [3]uint64{295, 295, 295} }, "at least 296 bytes, not 295"},
		{"sha512 interval", func(j *Job) { j.Verify.Type, j.Verify.Interval = VerifySHA512, 256 }, "at least 296 bytes, not 256"},
		{"sha256 105", func(j *Job) { j.Verify.Type, j.BS = VerifySHA256, [3]uint64{105, 105, 105} }, ""},
		{"trim without backlog", func(j *Job) { j.Verify.Type, j.Verify.Trim.Percentage = VerifyMD5, 50 }, ""},
		{"trim backlog, no trims", func(j *Job) { j.Verify.Type, j.Verify.Trim.Percentage, j.Verify.Trim.Backlog = VerifyMD5, 50, 4 }, "aborts on an assertion"},
		{"trim backlog, no do_verify", func(j *Job) {
			j.Verify.Type, j.Verify.Trim.Percentage, j.Verify.Trim.Backlog, j.Verify.Do = VerifyMD5, 50, 4, false
		}, ""},
		{"trim backlog, trimwrite", func(j *Job) {
			j.Verify.Type, j.Verify.Trim.Percentage, j.Verify.Trim.Backlog, j.RW = VerifyMD5, 50, 4, RWTrimWrite
		}, ""},
	}
	for _, tt := range tests {
		j := defaults()
		j.Name, j.RW = "a", RWWrite
		tt.set(j)
		j.Verify.fitInterval(j)
		got := j.Verify.problem(j)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestVerifyIntervalFit keeps the verify_interval fio 3.33 writes headers
// at: one that does not divide the smallest write block size becomes it.
func TestVerifyIntervalFit(t *testing.T) {
	tests := []struct {
		bs       [3]uint64
		interval int
		want     int
	}{
		{[3]uint64{512, 512, 512}, 1 << 20, 512}, // fio's t0004
		{[3]uint64{8192, 8192, 8192}, 3000, 8192},
		{[3]uint64{12288, 12288, 12288}, 8192, 12288},
		{[3]uint64{4096, 4096, 4096}, 1024, 1024},
		{[3]uint64{1 << 20, 1 << 20, 1 << 20}, 512, 512},
		{[3]uint64{8192, 4096, 4096}, 8192, 4096}, // the write size counts
		{[3]uint64{4096, 8192, 8192}, 8192, 8192},
		{[3]uint64{4096, 4096, 4096}, 0, 0},
	}
	for _, tt := range tests {
		j := defaults()
		j.BS, j.Verify.Type, j.Verify.Interval = tt.bs, VerifyMD5, tt.interval
		j.Verify.fitInterval(j)
		if j.Verify.Interval != tt.want {
			t.Errorf("bs %v verify_interval=%d: %d, want %d", tt.bs, tt.interval, j.Verify.Interval, tt.want)
		}
	}
}

// TestVerifyIntervalSeveralSizes keeps fio 3.33's header per smallest
// write block with bsrange or bssplit and no verify_interval (observed
// in the files it writes); bs_unaligned keeps one header per I/O.
func TestVerifyIntervalSeveralSizes(t *testing.T) {
	tests := []struct {
		name string
		set  func(j *Job)
		want int
	}{
		{"bsrange", func(j *Job) { j.BS, j.BSMax = [3]uint64{4096, 4096, 4096}, [3]uint64{32768, 32768, 32768} }, 4096},
		{"bssplit", func(j *Job) {
			j.BS, j.BSMax = [3]uint64{4096, 4096, 4096}, [3]uint64{16384, 16384, 16384}
			j.BSSplit[1] = []BSSplit{{Size: 4096, Percent: 50}, {Size: 16384, Percent: 50}}
		}, 4096},
		{"interval given", func(j *Job) {
			j.BS, j.BSMax, j.Verify.Interval = [3]uint64{8192, 8192, 8192}, [3]uint64{32768, 32768, 32768}, 2048
		}, 2048},
		{"unaligned", func(j *Job) {
			j.BS, j.BSMax, j.BSUnaligned = [3]uint64{1000, 1000, 1000}, [3]uint64{5000, 5000, 5000}, true
		}, 0},
		{"one size", func(j *Job) { j.BS, j.BSMax = [3]uint64{4096, 4096, 4096}, [3]uint64{4096, 4096, 4096} }, 0},
	}
	for _, tt := range tests {
		j := defaults()
		j.Verify.Type = VerifyCRC32C
		tt.set(j)
		j.Verify.fitInterval(j)
		if j.Verify.Interval != tt.want {
			t.Errorf("%s: verify_interval %d, want %d", tt.name, j.Verify.Interval, tt.want)
		}
	}
}
