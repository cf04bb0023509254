package runner

import "math/bits"

// taus88 is L'Ecuyer's three-component Tausworthe generator (1996), the
// generator fio uses by default for offsets. It is small, fast and has a
// period of about 2^88.
type taus88 struct{ s1, s2, s3 uint32 }

// seed sets the state from a seed, keeping each component above the
// minimum the algorithm requires.
func (t *taus88) seed(seed uint64) {
	lcg := func(x uint32) uint32 { return x*69069 + 1 }
	s := uint32(seed) ^ uint32(seed>>32)
	t.s1 = lcg(s)
	if t.s1 < 2 {
		t.s1 += 2
	}
	t.s2 = lcg(t.s1)
	if t.s2 < 8 {
		t.s2 += 8
	}
	t.s3 = lcg(t.s2)
	if t.s3 < 16 {
		t.s3 += 16
	}
	for i := 0; i < 10; i++ {
		t.next()
	}
}

// next returns the next 32 random bits.
func (t *taus88) next() uint32 {
	b := ((t.s1 << 13) ^ t.s1) >> 19
	t.s1 = ((t.s1 & 0xfffffffe) << 12) ^ b
	b = ((t.s2 << 2) ^ t.s2) >> 25
	t.s2 = ((t.s2 & 0xfffffff8) << 4) ^ b
	b = ((t.s3 << 3) ^ t.s3) >> 11
	t.s3 = ((t.s3 & 0xfffffff0) << 17) ^ b
	return t.s1 ^ t.s2 ^ t.s3
}

// below returns a random number in [0, n).
func (t *taus88) below(n uint64) uint64 {
	if n <= 1<<32 {
		return uint64(t.next()) * n >> 32
	}
	v := uint64(t.next())<<32 | uint64(t.next())
	return v % n
}

// taus258 is L'Ecuyer's five-component 64-bit combined Tausworthe
// generator (lfsr258, 1999), used for random_generator=tausworthe64.
type taus258 struct{ z [5]uint64 }

// seed sets the state from a seed, keeping each component above the
// minimum the algorithm requires.
func (t *taus258) seed(seed uint64) {
	mins := [5]uint64{2, 512, 4096, 131072, 8388608}
	x := seed ^ 0x9e3779b97f4a7c15
	for i := range t.z {
		// splitmix64 spreads the seed over the components.
		x += 0x9e3779b97f4a7c15
		v := x
		v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
		v = (v ^ v>>27) * 0x94d049bb133111eb
		v ^= v >> 31
		if v < mins[i] {
			v += mins[i]
		}
		t.z[i] = v
	}
	for i := 0; i < 10; i++ {
		t.next()
	}
}

// next returns the next 64 random bits.
func (t *taus258) next() uint64 {
	z := &t.z
	b := ((z[0] << 1) ^ z[0]) >> 53
	z[0] = ((z[0] & 0xfffffffffffffffe) << 10) ^ b
	b = ((z[1] << 24) ^ z[1]) >> 50
	z[1] = ((z[1] & 0xfffffffffffffe00) << 5) ^ b
	b = ((z[2] << 3) ^ z[2]) >> 23
	z[2] = ((z[2] & 0xfffffffffffff000) << 29) ^ b
	b = ((z[3] << 5) ^ z[3]) >> 24
	z[3] = ((z[3] & 0xfffffffffffe0000) << 23) ^ b
	b = ((z[4] << 3) ^ z[4]) >> 33
	z[4] = ((z[4] & 0xffffffffff800000) << 8) ^ b
	return z[0] ^ z[1] ^ z[2] ^ z[3] ^ z[4]
}

// below returns a random number in [0, n).
func (t *taus258) below(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	hi, _ := bits.Mul64(t.next(), n)
	return hi
}

// fullCycle visits every integer of [0, n) exactly once per cycle, in a
// scrambled order and without memory: a full-period linear congruential
// sequence modulo the next power of two (Hull–Dobell: odd increment,
// multiplier ≡ 1 mod 4), passed through an invertible mix and with the
// values ≥ n skipped. gofio uses it for random_generator=lfsr, whose
// point in fio is the same guarantee: each block once, no random map.
type fullCycle struct {
	n, mask, x, c, left uint64
	shift               uint
}

func newFullCycle(n, seed uint64) fullCycle {
	k := uint(2)
	for k < 64 && uint64(1)<<k < n {
		k++
	}
	mask := ^uint64(0)
	if k < 64 {
		mask = uint64(1)<<k - 1
	}
	return fullCycle{n: n, mask: mask, x: (seed * 0x9e3779b97f4a7c15) & mask, c: (seed<<1 | 1) & mask, left: n, shift: k/2 + 1}
}

// reset starts a new cycle.
func (f *fullCycle) reset() { f.left = f.n }

// next returns the next value of the cycle; ok is false once all n were
// returned.
func (f *fullCycle) next() (v uint64, ok bool) {
	if f.left == 0 {
		return 0, false
	}
	for {
		f.x = (f.x*6364136223846793005 + f.c) & f.mask
		// An invertible mix on k bits: xor-shift, odd multiply, xor-shift.
		y := f.x ^ f.x>>f.shift
		y = (y * 0xd6e8feb86659fd93) & f.mask
		y ^= y >> f.shift
		if y < f.n {
			f.left--
			return y, true
		}
	}
}
