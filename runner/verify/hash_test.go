package verify

import (
	"encoding/hex"
	"testing"

	"github.com/gofio/gofio/internal/crc16"
	"github.com/gofio/gofio/jobspec"
)

// TestVerifyChecksums checks each hand-written checksum against the
// published check value of its catalogued CRC ("123456789"), and each
// verify type's stored form of that input.
func TestVerifyChecksums(t *testing.T) {
	check := []byte("123456789")
	if got := crc32cRaw(check); got != ^uint32(0xE3069283) { // CRC-32C, not inverted
		t.Errorf("crc32cRaw = %#x", got)
	}
	if got := crc32MSB(check); got != ^uint32(0x765E7680) { // CRC-32/POSIX without its xorout
		t.Errorf("crc32MSB = %#x", got)
	}
	if got := crc64Jones(check); got != 0xe9c6d914c4b8d9ca { // CRC-64/REDIS
		t.Errorf("crc64Jones = %#x", got)
	}
	if got := crc16.ARC(check); got != 0xBB3D { // CRC-16/ARC
		t.Errorf("crc16.ARC = %#x", got)
	}
	if got := crc7(check); got != 0x75 { // CRC-7/MMC
		t.Errorf("crc7 = %#x", got)
	}
	if got := xxh32(nil, 0); got != 0x02CC5D05 { // XXH32 of nothing
		t.Errorf("xxh32(nil, 0) = %#x", got)
	}
	if got := xxh32([]byte("Nobody inspects the spammish repetition"), 0); got != 0xe2293b2f {
		t.Errorf("xxh32(spam, 0) = %#x", got)
	}

	tests := []struct {
		t    jobspec.VerifyType
		code uint16
		want string // stored form of check, hex
	}{
		{jobspec.VerifyMD5, 2, "25f9e794323b453885f5181f1b624d0b"},
		{jobspec.VerifyCRC64, 3, "cad9b8c414d9c6e9"},
		{jobspec.VerifyCRC32, 4, "7f89a189"},
		{jobspec.VerifyCRC32C, 5, "7c6df91c"},
		{jobspec.VerifyCRC16, 7, "3dbb"},
		{jobspec.VerifyCRC7, 8, "75"},
		// sha1 "123456789" = f7c3bc1d808e04732adf679965ccc34ca7ae3441,
		// stored as little-endian 32-bit words.
		{jobspec.VerifySHA1, 16, "1dbcc3f773048e809967df2a4cc3cc654134aea7"},
		{jobspec.VerifySHA3_224, 11, "5795c3d628fd638c9835a4c79a55809f265068c88729a1a3fcdf8522"},
	}
	for _, tt := range tests {
		s, ok := sumFor(tt.t)
		if !ok || s.code != tt.code {
			t.Errorf("sumFor(%v) = code %d, %v; want %d", tt.t, s.code, ok, tt.code)
			continue
		}
		d := make([]byte, s.size)
		s.sum(d, check)
		if got := hex.EncodeToString(d); got != tt.want {
			t.Errorf("%v of %q stored as %s, want %s", tt.t, check, got, tt.want)
		}
	}
}
