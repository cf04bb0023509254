// Package rng holds the random generators fio 3.33 draws from: L'Ecuyer's
// Tausworthe generators Taus88 and Taus258, fio's random streams over them
// (Stream) and the LFSR of random_generator=lfsr. Seeded alike, they give
// the same draws as fio.
package rng

import "math/bits"

// Taus88 is L'Ecuyer's three-component Tausworthe generator (1996), the
// generator fio uses by default for offsets. It is small, fast and has a
// period of about 2^88.
type Taus88 struct{ s1, s2, s3 uint32 }

// Seed sets the state from a seed as fio 3.33 does: the seed is cut to
// 32 bits, each word is a linear congruential step (×69069, xor the seed)
// from the previous one, starting from 53, raised by the word's minimum
// when below it, and six warm-up steps are discarded.
func (t *Taus88) Seed(seed uint64) {
	s := uint32(seed)
	lcg := func(x uint32) uint32 { return x*69069 ^ s }
	least := func(x, m uint32) uint32 {
		if x < m {
			return x + m
		}
		return x
	}
	t.s1 = least(lcg(53), 1)
	t.s2 = least(lcg(t.s1), 7)
	t.s3 = least(lcg(t.s2), 15)
	for i := 0; i < 6; i++ {
		t.Next()
	}
}

// Next returns the next 32 random bits.
func (t *Taus88) Next() uint32 {
	b := ((t.s1 << 13) ^ t.s1) >> 19
	t.s1 = ((t.s1 & 0xfffffffe) << 12) ^ b
	b = ((t.s2 << 2) ^ t.s2) >> 25
	t.s2 = ((t.s2 & 0xfffffff8) << 4) ^ b
	b = ((t.s3 << 3) ^ t.s3) >> 11
	t.s3 = ((t.s3 & 0xfffffff0) << 17) ^ b
	return t.s1 ^ t.s2 ^ t.s3
}

// Below returns a random number in [0, n).
func (t *Taus88) Below(n uint64) uint64 {
	if n <= 1<<32 {
		return uint64(t.Next()) * n >> 32
	}
	v := uint64(t.Next())<<32 | uint64(t.Next())
	return v % n
}

// Taus258 is L'Ecuyer's five-component 64-bit combined Tausworthe
// generator (lfsr258, 1999), used for random_generator=tausworthe64.
type Taus258 struct{ z [5]uint64 }

// Seed sets the state from a seed as fio 3.33 does: each word is a
// linear congruential step (×6906969069, xor the seed) from the previous
// one, starting from 53, raised by the word's minimum (1, 7, 15, 33, 49)
// when below it, and six warm-up steps are discarded.
func (t *Taus258) Seed(seed uint64) {
	mins := [5]uint64{1, 7, 15, 33, 49}
	x := uint64(53)
	for i := range t.z {
		x = x*6906969069 ^ seed
		if x < mins[i] {
			x += mins[i]
		}
		t.z[i] = x
	}
	for i := 0; i < 6; i++ {
		t.Next()
	}
}

// Next returns the next 64 random bits.
func (t *Taus258) Next() uint64 {
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

// Below returns a random number in [0, n).
func (t *Taus258) Below(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	hi, _ := bits.Mul64(t.Next(), n)
	return hi
}
