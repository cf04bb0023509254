package rng

// Stream is one of fio's random streams: Taus88 (32-bit) or, with use64,
// Taus258.
type Stream struct {
	use64 bool
	s32   Taus88
	s64   Taus258
}

// Seed seeds the stream (a 32-bit stream takes the seed's low 32 bits).
func (f *Stream) Seed(seed uint64, use64 bool) {
	f.use64 = use64
	if use64 {
		f.s64.Seed(seed)
	} else {
		f.s32.Seed(seed)
	}
}

// State is the generator's state: Taus88's three words, or with use64
// Taus258's five (fio writes it in its verify state file).
func (f *Stream) State() (use64 bool, words []uint64) {
	if f.use64 {
		return true, f.s64.z[:]
	}
	return false, []uint64{uint64(f.s32.s1), uint64(f.s32.s2), uint64(f.s32.s3)}
}

// Next returns the next draw.
func (f *Stream) Next() uint64 {
	if f.use64 {
		return f.s64.Next()
	}
	return uint64(f.s32.Next())
}

// RandMax is the largest draw.
func (f *Stream) RandMax() uint64 {
	if f.use64 {
		return ^uint64(0)
	}
	return 1<<32 - 1
}

// The spans of the two generators, RandMax + 1 as a double.
const (
	span32 = 1 << 32
	span64 = 1 << 64
)

// Span is RandMax + 1 as a double.
func (f *Stream) Span() float64 {
	if f.use64 {
		return span64
	}
	return span32
}

// Scale draws a value in [0, n) as fio scales a draw:
// trunc(n · (r / (rand_max + 1.0))) in double precision.
//
// The span is a power of two, so r/span is exact as a multiplication by
// its inverse, which the compiler makes only of a constant divisor: each
// generator gets its own constant (a division costs several times a
// multiplication, on every random offset).
func (f *Stream) Scale(n uint64) uint64 {
	if f.use64 {
		return uint64(float64(n) * (float64(f.s64.Next()) / span64))
	}
	// A 32-bit draw converts exactly through int64 (one instruction; the
	// unsigned conversion tests the sign first).
	return uint64(float64(n) * (float64(int64(f.s32.Next())) / span32))
}

// Between draws a value in [a, b], both included, as fio does.
func (f *Stream) Between(a, b uint64) uint64 {
	e := b - a + 1
	if !f.use64 {
		e = uint64(uint32(e))
	}
	return a + f.Scale(e)
}

// NextSeed draws a seed for buffer contents and verify headers: the
// product of two draws.
func (f *Stream) NextSeed() uint64 {
	r1 := f.Next()
	r2 := f.Next()
	return r1 * r2
}
