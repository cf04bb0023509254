package verify

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// TestFioSHA256 checks the sha256 field against blocks fio 3.33 wrote
// (bs=512: 408 bytes of data, verify_pattern 0x00 and 0x55).
func TestFioSHA256(t *testing.T) {
	tests := []struct {
		fill  byte
		state string // the field's first 8 bytes, as fio wrote them
	}{
		{0x00, "82640aca9a921e70"},
		{0x55, "199b1648dc40d816"},
	}
	for _, tt := range tests {
		data := bytes.Repeat([]byte{tt.fill}, 408)
		want := make([]byte, 64)
		s, _ := hex.DecodeString(tt.state)
		copy(want, s)
		copy(want[8:24], data[:16]) // the last 24 bytes of data, less 8
		want[24] = 0x80
		want[56], want[57] = 0xc0, 0x0c // 408*8, little-endian
		got := make([]byte, 64)
		fioSHA256(got, data)
		if !bytes.Equal(got, want) {
			t.Errorf("fill %#x:\n got %x\nwant %x", tt.fill, got, want)
		}
	}
}

// TestFioSHA512 checks the sha512 field's layout: the data's first 128
// bytes, the first n%128 replaced by the last n%128, the rest of dst
// untouched.
func TestFioSHA512(t *testing.T) {
	for _, n := range []int{128, 200, 256, 344} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i % 251)
		}
		r := n % 128
		want := append([]byte(nil), data[:128]...)
		copy(want, data[n-r:])
		want = append(want, 0xee)
		got := bytes.Repeat([]byte{0xee}, 129)
		fioSHA512(got, data)
		if !bytes.Equal(got, want) {
			t.Errorf("n=%d:\n got %x\nwant %x", n, got, want)
		}
	}
}
