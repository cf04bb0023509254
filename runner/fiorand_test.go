package runner

import (
	"bytes"
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// The generators, seeded with fio's fixed seed, give fio 3.33's first
// draws.
func TestFioStreams(t *testing.T) {
	var f frand
	f.seed(fioRandSeed, false)
	if s := f.s32; s.s1 != 0xccb9ad3d || s.s2 != 0x05a327f8 || s.s3 != 0x137e67c8 {
		t.Errorf("taus88 state after seeding = %#x %#x %#x, want 0xccb9ad3d 0x05a327f8 0x137e67c8", s.s1, s.s2, s.s3)
	}
	for i, want := range []uint64{259043585, 3179521932, 3621444214, 2018697059, 1726199243} {
		if got := f.next(); got != want {
			t.Errorf("taus88 draw %d = %d, want %d", i+1, got, want)
		}
	}
	f.seed(fioRandSeed, true)
	for i, want := range []uint64{17311067694306724737, 485009114434689783, 1488059811897507987} {
		if got := f.next(); got != want {
			t.Errorf("taus258 draw %d = %d, want %d", i+1, got, want)
		}
	}
}

// The seed slots follow randseed, randrepeat, allrandrepeat and the
// thread number as in fio 3.33.
func TestJobSeeds(t *testing.T) {
	j := &jobspec.Job{RandRepeat: true, RandSeed: 0x89}
	j.ThreadNumber = 1
	s, repeat := jobSeeds(j)
	want := map[int]uint64{0: 0x52780a68adbc0089, 1: 0x2a2f6621592b008a, 3: 0x7baf221db009008c,
		4: 0x22b582615b78008d, 5: 0x3c14397e06e7008e, 9: 0xdd6e7a6ab4a30092,
		10: 0x05d7e3c460120093, 16: 0x138e7bab64ac0099, seedBlock: fioRandSeed}
	for i, w := range want {
		if s[i] != w {
			t.Errorf("default slot %d = %#x, want %#x", i, s[i], w)
		}
	}
	if !repeat {
		t.Error("default: randrepeat not in force")
	}
	j.RandSeed, j.RandSeedSet = 1234, true
	if s, repeat = jobSeeds(j); s[seedBlock] != fioRandSeed || repeat {
		t.Errorf("randseed=1234: offset slot %#x (repeat %v), want %#x, no repeat", s[seedBlock], repeat, fioRandSeed)
	}
	j.JobNum, j.ThreadNumber = 1, 2
	if s, _ = jobSeeds(j); s[seedBlock] == 2*fioRandSeed {
		t.Errorf("randseed=1234 clone: offset slot is fio's fixed seed")
	}
	j.JobNum, j.ThreadNumber, j.RandSeedSet, j.RandRepeat, j.AllRandRepeat = 0, 1, false, false, true
	if s, _ = jobSeeds(j); s[seedBlock] != fioRandSeed+6 || s[seedMix] != fioRandSeed+4 {
		t.Errorf("allrandrepeat=1 randrepeat=0: slots %#x %#x", s[seedBlock], s[seedMix])
	}
}

// The LFSR gives fio 3.33's block sequence for 256 blocks, each block
// once per cycle, and a reset restarts it with a single step.
func TestFioLFSR(t *testing.T) {
	l, ok := newFioLFSR(256, fioRandSeed)
	if !ok {
		t.Fatal("newFioLFSR(256) failed")
	}
	want := []uint64{962560, 839680, 667648, 802816, 466944, 167936, 630784, 380928, 552960, 1015808}
	seen := make(map[uint64]bool)
	for i := 0; i < 256; i++ {
		b, ok := l.next()
		if !ok || b >= 256 || seen[b] {
			t.Fatalf("call %d: block %d ok %v", i, b, ok)
		}
		seen[b] = true
		if i < len(want) && b*4096 != want[i] {
			t.Errorf("call %d: offset %d, want %d", i, b*4096, want[i])
		}
	}
	if _, ok := l.next(); ok {
		t.Error("a 257th value")
	}
	l, _ = newFioLFSR(510, fioRandSeed)
	var first []uint64
	for range 510 {
		b, _ := l.next()
		first = append(first, b)
	}
	if first[0] != 235 || first[1] != 373 || first[508] != 493 || first[509] != 502 {
		t.Errorf("510 blocks: %v ... %v", first[:2], first[508:])
	}
	l.reset()
	if b, _ := l.next(); b != 502 {
		t.Errorf("after reset: %d, want 502", b)
	}
	if b, _ := l.next(); b != 235 {
		t.Errorf("after reset, second: %d, want 235", b)
	}
}

// fio's file name hash, with its single-byte quirk for names over 12
// bytes.
func TestFioJhash(t *testing.T) {
	for name, want := range map[string]uint32{"a.0.0": 0xa0275764, "rngfile": 0x203a271d,
		"abcdefghijkl": 0xd855beeb, "abcdefghijklm": 0x59536a0b} {
		if got := fioJhash([]byte(name)); got != want {
			t.Errorf("jhash(%q) = %#x, want %#x", name, got, want)
		}
	}
}

// Buffer and verify seeds, and the bytes a seed gives, are fio 3.33's.
func TestFioBufferSeeds(t *testing.T) {
	j := &jobspec.Job{RandRepeat: true, RandSeed: 0x89, ThreadNumber: 1}
	s, _ := jobSeeds(j)
	var buf, vfy frand
	buf.seed(s[seedBuf], false)
	if got := buf.nextSeed(); got != 0x1699a038cc28e035 {
		t.Errorf("first buffer seed %#x, want 0x1699a038cc28e035", got)
	}
	b := make([]byte, 4096)
	fioFillRandom(b, 0x1699a038cc28e035)
	want := []byte{0x35, 0xe0, 0x28, 0xcc, 0x38, 0xa0, 0x99, 0x16, 0x6a, 0xc0, 0x51, 0x98, 0x71, 0x40, 0x33, 0x2d}
	if !bytes.Equal(b[:16], want) {
		t.Errorf("buffer starts % x, want % x", b[:16], want)
	}
	for _, c := range []struct {
		use64 bool
		want  []uint64
	}{
		{false, []uint64{0x00a4cc01c509543c, 0x88bb0a8cf6db562e, 0x419814f3ac0492d0, 0x187a339a93949434}},
		{true, []uint64{0x131a7e28a61c4b7a, 0xf4a8c4db4b342411}},
	} {
		vfy.seed(s[seedVerify], c.use64)
		for i, w := range c.want {
			if got := vfy.nextSeed(); got != w {
				t.Errorf("use64 %v: verify seed %d = %#x, want %#x", c.use64, i+1, got, w)
			}
		}
	}
}
