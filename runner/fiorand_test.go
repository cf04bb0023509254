package runner

import (
	"bytes"
	"testing"

	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/content"
)

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

// Buffer and verify seeds, and the bytes a seed gives, are fio 3.33's.
func TestFioBufferSeeds(t *testing.T) {
	j := &jobspec.Job{RandRepeat: true, RandSeed: 0x89, ThreadNumber: 1}
	s, _ := jobSeeds(j)
	var buf, vfy rng.Stream
	buf.Seed(s[seedBuf], false)
	if got := buf.NextSeed(); got != 0x1699a038cc28e035 {
		t.Errorf("first buffer seed %#x, want 0x1699a038cc28e035", got)
	}
	b := make([]byte, 4096)
	content.FillRandom(b, 0x1699a038cc28e035)
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
		vfy.Seed(s[seedVerify], c.use64)
		for i, w := range c.want {
			if got := vfy.NextSeed(); got != w {
				t.Errorf("use64 %v: verify seed %d = %#x, want %#x", c.use64, i+1, got, w)
			}
		}
	}
}
