package crc16

import "testing"

func TestARC(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint16
	}{
		{"123456789", 0xBB3D}, // CRC-16/ARC check value
		{"", 0},
		{"\x00\x00\x00", 0}, // all-zero input
	} {
		if got := ARC([]byte(c.in)); got != c.want {
			t.Errorf("ARC(%q) = %#04x, want %#04x", c.in, got, c.want)
		}
	}
}
