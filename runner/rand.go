package runner

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
