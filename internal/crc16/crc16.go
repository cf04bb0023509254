// Package crc16 computes CRC-16/ARC, the checksum fio uses both for its
// client/server frames and for verify=crc16 blocks.
package crc16

// table is CRC-16/ARC's byte table: polynomial 0x8005 reflected (0xA001).
var table = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0xA001
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
}()

// ARC returns the CRC-16/ARC of p: reflected polynomial 0x8005, initial
// value 0, no final XOR.
func ARC(p []byte) uint16 {
	var c uint16
	for _, b := range p {
		c = c>>8 ^ table[byte(c)^b]
	}
	return c
}
