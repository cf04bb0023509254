package content

import (
	"bytes"
	"testing"
)

// FillRandom gives fio 3.33's bytes for a seed (observed) in whole
// 32-byte rounds; a partial last word takes the leading bytes of the
// next value.
func TestFillRandom(t *testing.T) {
	const seed = 0x1699a038cc28e035
	want := []byte{0x35, 0xe0, 0x28, 0xcc, 0x38, 0xa0, 0x99, 0x16, 0x6a, 0xc0, 0x51, 0x98, 0x71, 0x40, 0x33, 0x2d}
	for _, n := range []int{32, 4096, 4099} {
		b := make([]byte, n)
		FillRandom(b, seed)
		if !bytes.Equal(b[:16], want) {
			t.Errorf("%d bytes start % x, want % x", n, b[:16], want)
		}
	}
	long, short := make([]byte, 4104), make([]byte, 4099)
	FillRandom(long, seed)
	FillRandom(short, seed)
	if !bytes.Equal(short, long[:len(short)]) {
		t.Error("a partial last word is not the leading bytes of the next value")
	}
}

// FillPatternAt continues the pattern as laid over a larger area.
func TestFillPatternAt(t *testing.T) {
	p := []byte{1, 2, 3, 4, 5}
	whole := make([]byte, 64)
	FillPattern(whole, p)
	for _, off := range []uint64{0, 1, 4, 5, 13} {
		b := make([]byte, 20)
		FillPatternAt(b, p, off)
		if !bytes.Equal(b, whole[off:off+20]) {
			t.Errorf("at %d: % x, want % x", off, b, whole[off:off+20])
		}
	}
}
