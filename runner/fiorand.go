package runner

// fio's random streams. fio 3.33 repeats its random choices by default
// (randrepeat=1): each job has 21 seeds, made from randseed and the job's
// thread number, and each decision (offset, block size, read/write mix,
// file, percentage_random, ...) draws from a stream of its own, seeded
// from one of them. gofio seeds and draws the same way, so that a seeded
// job issues the same offsets, sizes and directions as fio
// (docs/compat.md lists what still differs).

import (
	"math/rand/v2"

	"github.com/gofio/gofio/jobspec"
)

// Seed slots, in fio's order.
const (
	seedBS = iota
	seedBS1
	seedBS2
	seedVerify
	seedMix
	seedFile
	seedBlock
	seedFileSize
	seedTrim
	seedBuf
	seedSeqRand
	seedSeqRandWrite
	seedSeqRandTrim
	seedStartDelay
	seedDedupe
	seedPoisson
	seedZone
	seedPoisson2
	seedPoisson3
	seedPrio
	seedDedupeWS
	nSeeds
)

// fioRandSeed is fio's fixed seed (FIO_RANDSEED): with randrepeat, the
// offset stream of job tn is seeded with it times tn.
const fioRandSeed = 0xb1899bed

// jobSeeds returns the seed slots of job j, and whether randrepeat is in
// force when the job runs (then every stream restarts at each loop).
//
// As observed in fio 3.33: randseed=N fills the slots from N (N, times
// 0x9e370001 four times, then slot i = x·tn + i with x multiplied again
// after each slot); randrepeat=0 without randseed takes them from the
// system's randomness; allrandrepeat=1 sets slot i to 0xb1899bed·tn + i.
// A job is seeded before randseed turns its randrepeat off, so with
// randrepeat on at that moment the offset slot becomes 0xb1899bed·tn —
// also for a job with randseed, whose clones (numjobs) inherit randrepeat
// off and keep the slot made from N.
func jobSeeds(j *jobspec.Job) (seeds [nSeeds]uint64, repeat bool) {
	tn := uint64(max(j.ThreadNumber, 1))
	atSeed := j.RandRepeat && !(j.RandSeedSet && j.JobNum != 0)
	if !atSeed && !j.RandSeedSet {
		for i := range seeds {
			seeds[i] = rand.Uint64()
		}
	} else {
		x := j.RandSeed
		for range 4 {
			x *= 0x9e370001
		}
		for i := range seeds {
			seeds[i] = x*tn + uint64(i)
			x *= 0x9e370001
		}
	}
	if j.AllRandRepeat {
		for i := range seeds {
			seeds[i] = fioRandSeed*tn + uint64(i)
		}
	}
	if atSeed {
		seeds[seedBlock] = fioRandSeed * tn
	}
	return seeds, j.RandRepeat && !j.RandSeedSet
}

// frand is one of fio's random streams: taus88 (32-bit) or, with use64,
// taus258.
type frand struct {
	use64 bool
	s32   taus88
	s64   taus258
}

// seed seeds the stream (a 32-bit stream takes the seed's low 32 bits).
func (f *frand) seed(seed uint64, use64 bool) {
	f.use64 = use64
	if use64 {
		f.s64.seed(seed)
	} else {
		f.s32.seed(seed)
	}
}

// next returns the next draw.
func (f *frand) next() uint64 {
	if f.use64 {
		return f.s64.next()
	}
	return uint64(f.s32.next())
}

// randMax is the largest draw.
func (f *frand) randMax() uint64 {
	if f.use64 {
		return ^uint64(0)
	}
	return 1<<32 - 1
}

// span is randMax + 1 as a double.
func (f *frand) span() float64 {
	if f.use64 {
		return 18446744073709551616.0
	}
	return 4294967296.0
}

// scale draws a value in [0, n) as fio scales a draw:
// trunc(n · (r / (rand_max + 1.0))) in double precision.
func (f *frand) scale(n uint64) uint64 {
	return uint64(float64(n) * (float64(f.next()) / f.span()))
}

// between draws a value in [a, b], both included, as fio does.
func (f *frand) between(a, b uint64) uint64 {
	e := b - a + 1
	if !f.use64 {
		e = uint64(uint32(e))
	}
	return a + f.scale(e)
}

// nextSeed draws a seed for buffer contents and verify headers: the
// product of two draws.
func (f *frand) nextSeed() uint64 {
	r1 := f.next()
	r2 := f.next()
	return r1 * r2
}

// fioLFSR is random_generator=lfsr as observed in fio 3.33: a Galois
// LFSR (XNOR form) of the smallest width n with 2^n > blocks, seeded with
// the offset seed, whose values above blocks-1 are skipped. Each block
// comes once per cycle; the call after the cycle fails. The first call
// after it is made steps twice before its first range test; a reset (a
// file opened again) restores the seed but not that double step.
type fioLFSR struct {
	xormask, cachedBit, maxVal, numVals, state, seed uint64
	spin                                             int
}

// lfsrTaps are the taps of each width, 3..63.
var lfsrTaps = [64][]uint8{
	3: {3, 2}, 4: {4, 3}, 5: {5, 3}, 6: {6, 5}, 7: {7, 6}, 8: {8, 6, 5, 4}, 9: {9, 5},
	10: {10, 7}, 11: {11, 9}, 12: {12, 6, 4, 1}, 13: {13, 4, 3, 1}, 14: {14, 5, 3, 1},
	15: {15, 14}, 16: {16, 15, 13, 4}, 17: {17, 14}, 18: {18, 11}, 19: {19, 6, 2, 1},
	20: {20, 17}, 21: {21, 19}, 22: {22, 21}, 23: {23, 18}, 24: {24, 23, 22, 17},
	25: {25, 22}, 26: {26, 6, 2, 1}, 27: {27, 5, 2, 1}, 28: {28, 25}, 29: {29, 27},
	30: {30, 6, 4, 1}, 31: {31, 28}, 32: {32, 31, 29, 1}, 33: {33, 20},
	34: {34, 27, 2, 1}, 35: {35, 33}, 36: {36, 25}, 37: {37, 5, 4, 3, 2, 1},
	38: {38, 6, 5, 1}, 39: {39, 35}, 40: {40, 38, 21, 19}, 41: {41, 38},
	42: {42, 41, 20, 19}, 43: {43, 42, 38, 37}, 44: {44, 43, 18, 17},
	45: {45, 44, 42, 41}, 46: {46, 45, 26, 25}, 47: {47, 42}, 48: {48, 47, 21, 20},
	49: {49, 40}, 50: {50, 49, 24, 23}, 51: {51, 50, 36, 35}, 52: {52, 49},
	53: {53, 52, 38, 37}, 54: {54, 53, 18, 17}, 55: {55, 31}, 56: {56, 55, 35, 34},
	57: {57, 50}, 58: {58, 39}, 59: {59, 58, 38, 37}, 60: {60, 59},
	61: {61, 60, 46, 45}, 62: {62, 61, 6, 5}, 63: {63, 62},
}

// newFioLFSR prepares an LFSR over blocks values; ok is false where fio
// fails ("failed initializing LFSR": no width fits, or the seed's bits are
// all ones).
func newFioLFSR(blocks, seed uint64) (l fioLFSR, ok bool) {
	n := 3
	for n < 64 && uint64(1)<<n <= blocks {
		n++
	}
	if n > 63 || blocks == 0 {
		return l, false
	}
	for _, t := range lfsrTaps[n] {
		l.xormask |= 1 << (t - 1)
	}
	l.cachedBit = 1 << (n - 1)
	l.maxVal = blocks - 1
	l.seed = seed & (1<<n - 1)
	if l.seed == 1<<n-1 {
		return l, false
	}
	l.state = l.seed
	l.spin = 2
	return l, true
}

// reset starts the cycle over (fio resets it when the file is opened).
func (l *fioLFSR) reset() {
	l.state = l.seed
	l.numVals = 0
}

func (l *fioLFSR) step() {
	v := l.state
	l.state = v>>1 | l.cachedBit
	if v&1 == 0 {
		l.state ^= l.xormask
	}
}

// next returns the next block; ok is false once the cycle is done.
func (l *fioLFSR) next() (uint64, bool) {
	n := l.numVals
	l.numVals++
	if n > l.maxVal {
		return 0, false
	}
	for i := 1; i < l.spin; i++ {
		l.step()
	}
	l.spin = 1
	for {
		l.step()
		if l.state <= l.maxVal {
			return l.state, true
		}
	}
}
