package jobspec

import (
	"testing"
)

// TestBlockSizeRanges keeps what fio 3.33 makes of bsrange (its job
// header's "bs=(R) lo-hi, (W) lo-hi, (T) lo-hi"): ':' separates a range
// as '-' does, a bound is read as far as it is a number (so a
// bssplit-like list is the range of its first two sizes), an empty or
// unreadable piece leaves its direction alone, and bsrange or bssplit
// override bs whatever the order.
func TestBlockSizeRanges(t *testing.T) {
	type r = [2]uint64
	tests := []struct {
		opts []string
		want [3]r
	}{
		{[]string{"bsrange=512:1M"}, [3]r{{512, 1 << 20}, {512, 1 << 20}, {512, 1 << 20}}},
		{[]string{"bsrange=512/25:1k:25:2k:25:4k/25"}, [3]r{{512, 1024}, {512, 1024}, {512, 1024}}},
		{[]string{"bsrange=1k:4k,2k:8k"}, [3]r{{1024, 4096}, {2048, 8192}, {2048, 8192}}},
		{[]string{"bsrange=0x200:0x400"}, [3]r{{512, 1024}, {512, 1024}, {512, 1024}}},
		{[]string{"bsrange=4k:1k"}, [3]r{{1024, 4096}, {1024, 4096}, {1024, 4096}}},
		{[]string{"bsrange=1k:4k/8k-32k"}, [3]r{{1024, 32768}, {1024, 32768}, {1024, 32768}}}, // '-' first
		{[]string{"bsrange=1k-4k:8k"}, [3]r{{1024, 4096}, {1024, 4096}, {1024, 4096}}},
		{[]string{"bs=8k", "bsrange=1k-4k,,2k-8k"}, [3]r{{1024, 4096}, {8192, 8192}, {2048, 8192}}},
		{[]string{"bsrange=1k-4k,2k-8k,"}, [3]r{{1024, 4096}, {2048, 8192}, {4096, 4096}}},
		{[]string{"bsrange=1k-4k,zz"}, [3]r{{1024, 4096}, {4096, 4096}, {4096, 4096}}},
		{[]string{"bsrange=zz,1k-4k"}, [3]r{{4096, 4096}, {1024, 4096}, {1024, 4096}}},
		{[]string{"bsrange=1k-4k", "bs=16k"}, [3]r{{1024, 4096}, {1024, 4096}, {1024, 4096}}},
		{[]string{"bs=8k,16k", "bsrange=1k-4k"}, [3]r{{1024, 4096}, {1024, 4096}, {1024, 4096}}},
		{[]string{"bsrange=1k-4k,,", "bs=16k"}, [3]r{{1024, 4096}, {16384, 16384}, {16384, 16384}}},
		{[]string{"bssplit=8k/50:16k/50", "bs=2k"}, [3]r{{8192, 16384}, {8192, 16384}, {8192, 16384}}},
		{[]string{"bsrange=1k-4k", "bssplit=8k/50:16k/50"}, [3]r{{8192, 16384}, {8192, 16384}, {8192, 16384}}},
		{[]string{"bssplit=4k/50:8k/50", "bsrange=4k-8k"}, [3]r{{4096, 8192}, {4096, 8192}, {4096, 8192}}},
	}
	for _, tt := range tests {
		s := &session{cmdline: append([]string{"name=a", "ioengine=null", "size=1M"}, tt.opts...)}
		p, err := s.run(t)
		if err != nil {
			t.Errorf("%v: %v %s", tt.opts, err, s.stderr.String())
			continue
		}
		j := p.Jobs[0]
		if len(j.Unsupported) > 0 {
			t.Errorf("%v: refused: %v", tt.opts, j.Unsupported[0])
			continue
		}
		mx := j.MaxBS()
		var got [3]r
		for d := range got {
			got[d] = r{j.BS[d], mx[d]}
		}
		if got != tt.want {
			t.Errorf("%v: block sizes %v; want %v", tt.opts, got, tt.want)
		}
	}
}

// TestBSRangeAfterBSSplit refuses a bsrange that narrows or widens a
// bssplit given before it: fio 3.33 spins or issues no I/O there (see
// docs/compat.md); gofio panicked on a buffer sized for the range.
func TestBSRangeAfterBSSplit(t *testing.T) {
	for _, opts := range [][]string{
		{"bssplit=8k/50:16k/50", "bsrange=1k-4k"},
		{"bssplit=4k/50:8k/50", "bsrange=1k-16k"},
		{"bssplit=,8k/50:16k/50", "bsrange=1k-4k"},
	} {
		s := &session{cmdline: append([]string{"name=a", "ioengine=null", "size=1M"}, opts...)}
		p, err := s.run(t)
		if err == nil && (len(p.Jobs) == 0 || len(p.Jobs[0].Unsupported) == 0) {
			t.Errorf("%v: accepted", opts)
		}
	}
}
