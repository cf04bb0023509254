package rng

// LFSR is random_generator=lfsr as observed in fio 3.33: a Galois
// LFSR (XNOR form) of the smallest width n with 2^n > blocks, seeded with
// the offset seed, whose values above blocks-1 are skipped. Each block
// comes once per cycle; the call after the cycle fails. The first call
// after it is made steps twice before its first range test; a reset (a
// file opened again) restores the seed but not that double step.
type LFSR struct {
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

// NewLFSR prepares an LFSR over blocks values; ok is false where fio
// fails ("failed initializing LFSR": no width fits, or the seed's bits are
// all ones).
func NewLFSR(blocks, seed uint64) (l LFSR, ok bool) {
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

// Reset starts the cycle over (fio resets it when the file is opened).
func (l *LFSR) Reset() {
	l.state = l.seed
	l.numVals = 0
}

// step advances the register by one.
func (l *LFSR) step() {
	v := l.state
	l.state = v>>1 | l.cachedBit
	if v&1 == 0 {
		l.state ^= l.xormask
	}
}

// Next returns the next block; ok is false once the cycle is done.
func (l *LFSR) Next() (uint64, bool) {
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
