package engine

import (
	"slices"
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// engineOpts reads name=value options of engine as a job file gives them.
func engineOpts(tb testing.TB, engine string, opts ...string) jobspec.IOEngineOptions {
	tb.Helper()
	o, err := jobspec.ParseEngineOptions(engine, opts...)
	if err != nil {
		tb.Fatalf("%s %v: %v", engine, opts, err)
	}
	return o
}

func TestCmdPrioOptions(t *testing.T) {
	const rt0, be3, idle1 = 1 << 13, 2<<13 | 3, 3<<13 | 1
	const initFailed = "fio: pid=0, err=22/file:filesetup.c, func=fio_libaio_init, error=Invalid argument"
	for _, c := range []struct {
		opts    []string
		off     bool
		pct     [2]int
		prios   [2][]uint16
		wantErr string
	}{
		{opts: nil, off: true},
		{opts: []string{"cmdprio_percentage=0", "cmdprio=3"}, off: true},
		// The class defaults to the highest (realtime), the level to 0.
		{opts: []string{"cmdprio_percentage=50"}, pct: [2]int{50, 50}, prios: [2][]uint16{{rt0}, {rt0}}},
		{opts: []string{"cmdprio_percentage=50,0", "cmdprio_class=2", "cmdprio=3"},
			pct: [2]int{50, 0}, prios: [2][]uint16{{be3}, nil}},
		{opts: []string{"cmdprio_percentage=10,20", "cmdprio_class=2,3", "cmdprio=3,1"},
			pct: [2]int{10, 20}, prios: [2][]uint16{{be3}, {idle1}}},
		// bssplit: entries without class/level take cmdprio_class/cmdprio;
		// a 0% entry gives no priority.
		{opts: []string{"cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0"},
			prios: [2][]uint16{{1<<13 | 1, 3<<13 | 2}, {1<<13 | 1, 3<<13 | 2}}},
		{opts: []string{"cmdprio_bssplit=4k/50,8k/10/3/1", "cmdprio_class=2", "cmdprio=3"},
			prios: [2][]uint16{{be3}, {idle1}}},
		// fio 3.33 takes 150% as 100%.
		{opts: []string{"cmdprio_bssplit=4k/150"}, prios: [2][]uint16{{rt0}, {rt0}}},
		// fio 3.33's messages when the engine starts.
		{opts: []string{"cmdprio_bssplit=4k/50/1"},
			wantErr: "fio: invalid cmdprio_bssplit format\nfio: failed to parse cmdprio_bssplit entry\nfio: io engine libaio init failed.\n" + initFailed},
		{opts: []string{"cmdprio_bssplit=4k/60:4k/50"},
			wantErr: "fio: cmdprio_bssplit total percentage for bs: 4096 exceeds 100\nfio: io engine libaio init failed.\n" + initFailed},
		{opts: []string{"cmdprio_bssplit=4k/0", "cmdprio_percentage=5"},
			wantErr: "x: cmdprio_percentage and cmdprio_bssplit options are mutually exclusive\nfio: io engine libaio init failed.\n" + initFailed},
	} {
		cfg := Config{Options: engineOpts(t, "libaio", c.opts...), Seed: 1, RW: jobspec.RWRandRW, Job: "x"}
		c2, err := newCmdPrio("libaio", cfg)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%v: error %v, want %q", c.opts, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.opts, err)
			continue
		}
		if (c2 == nil) != c.off {
			t.Errorf("%v: picker %v, want off=%v", c.opts, c2, c.off)
			continue
		}
		if c.off {
			continue
		}
		prios, _ := c2.prios()
		if c2.pct != c.pct || !slices.Equal(prios[0], c.prios[0]) || !slices.Equal(prios[1], c.prios[1]) {
			t.Errorf("%v: pct %v prios %x, want %v %x", c.opts, c2.pct, prios, c.pct, c.prios)
		}
	}
}

// TestCmdPrioPick checks the proportions of I/Os given each priority, by
// direction and block size, over 20000 draws (tolerance ±2 points).
func TestCmdPrioPick(t *testing.T) {
	const n = 20000
	count := func(opts []string, op Op, bs int) map[uint16]int {
		c, err := newCmdPrio("libaio", Config{Options: engineOpts(t, "libaio", opts...), Seed: 7, RW: jobspec.RWRandRW})
		if err != nil {
			t.Fatal(err)
		}
		got := map[uint16]int{}
		u := &IOUnit{Op: op, Buf: make([]byte, bs)}
		for range n {
			got[c.pick(u)]++
		}
		return got
	}
	near := func(what string, got, wantPct int) {
		t.Helper()
		if pct := got * 100 / n; pct < wantPct-2 || pct > wantPct+2 {
			t.Errorf("%s: %d%%, want %d%%", what, pct, wantPct)
		}
	}
	got := count([]string{"cmdprio_percentage=30,0"}, OpRead, 4096)
	near("read 30%", got[1<<13], 30)
	got = count([]string{"cmdprio_percentage=30,0"}, OpWrite, 4096)
	near("write 0%", got[0], 100)
	got = count([]string{"cmdprio_percentage=30"}, OpTrim, 4096)
	near("trim", got[0], 100)
	split := []string{"cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0"}
	got = count(split, OpWrite, 64<<10)
	near("64k class 1", got[1<<13|1], 25)
	near("64k class 3", got[3<<13|2], 75)
	got = count(split, OpRead, 1<<20)
	near("1m", got[0], 100)
	got = count(split, OpRead, 4096)
	near("4k (no entry)", got[0], 100)
}
