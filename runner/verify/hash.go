package verify

// The checksums of fio 3.33's verify header, as found by comparing
// against blocks fio wrote: each checksum covers the block's data after
// the header and is stored in the bytes right after the 40-byte common
// header, in fio's byte order:
//
//	md5       the digest
//	crc64     reflected, polynomial 0x95AC9329AC4BC9B5 ("Jones"), initial
//	          value 0, not inverted; little-endian
//	crc32c    Castagnoli, initial value ^0, not inverted at the end;
//	          little-endian (also the common header's own checksum)
//	crc32     polynomial 0x04C11DB7 MSB first, initial value 0, not
//	          inverted; little-endian
//	crc16     CRC-16/ARC (reflected 0x8005, initial value 0); little-endian
//	crc7      polynomial 0x09 MSB first, initial value 0; one byte
//	sha1      the digest with each 32-bit word byte-swapped
//	sha256,   not digests: see sha2.go
//	sha512
//	sha3-*    the digest
//	xxhash    XXH32 with seed 1; little-endian

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha3"
	"encoding/binary"
	"hash/crc32"
	"hash/crc64"
	"math/bits"

	"github.com/gofio/gofio/internal/crc16"
	"github.com/gofio/gofio/jobspec"
)

// verifySum is one checksum kind of the verify header.
type verifySum struct {
	code uint16 // fio's verify_type in the header
	size int    // bytes stored after the common header
	sum  func(dst, data []byte)
}

// sumFor returns the checksum of verify type t; ok is false for the types
// without one (meta, pattern, null).
func sumFor(t jobspec.VerifyType) (s verifySum, ok bool) {
	switch t {
	case jobspec.VerifyMD5:
		return verifySum{2, md5.Size, func(d, p []byte) { h := md5.Sum(p); copy(d, h[:]) }}, true
	case jobspec.VerifyCRC64:
		return verifySum{3, 8, func(d, p []byte) { binary.LittleEndian.PutUint64(d, crc64Jones(p)) }}, true
	case jobspec.VerifyCRC32:
		return verifySum{4, 4, func(d, p []byte) { binary.LittleEndian.PutUint32(d, crc32MSB(p)) }}, true
	case jobspec.VerifyCRC32C:
		return verifySum{5, 4, func(d, p []byte) { binary.LittleEndian.PutUint32(d, crc32cRaw(p)) }}, true
	case jobspec.VerifyCRC16:
		return verifySum{7, 2, func(d, p []byte) { binary.LittleEndian.PutUint16(d, crc16.ARC(p)) }}, true
	case jobspec.VerifyCRC7:
		return verifySum{8, 1, func(d, p []byte) { d[0] = crc7(p) }}, true
	case jobspec.VerifySHA256:
		return verifySum{9, sha256FieldLen, fioSHA256}, true
	case jobspec.VerifySHA512:
		return verifySum{10, sha512FieldLen, fioSHA512}, true
	case jobspec.VerifySHA3_224:
		return verifySum{11, 28, func(d, p []byte) { h := sha3.Sum224(p); copy(d, h[:]) }}, true
	case jobspec.VerifySHA3_256:
		return verifySum{12, 32, func(d, p []byte) { h := sha3.Sum256(p); copy(d, h[:]) }}, true
	case jobspec.VerifySHA3_384:
		return verifySum{13, 48, func(d, p []byte) { h := sha3.Sum384(p); copy(d, h[:]) }}, true
	case jobspec.VerifySHA3_512:
		return verifySum{14, 64, func(d, p []byte) { h := sha3.Sum512(p); copy(d, h[:]) }}, true
	case jobspec.VerifyXXHash:
		return verifySum{15, 4, func(d, p []byte) { binary.LittleEndian.PutUint32(d, xxh32(p, 1)) }}, true
	case jobspec.VerifySHA1:
		return verifySum{16, sha1.Size, func(d, p []byte) {
			h := sha1.Sum(p)
			for i := 0; i < sha1.Size; i += 4 {
				d[i], d[i+1], d[i+2], d[i+3] = h[i+3], h[i+2], h[i+1], h[i]
			}
		}}, true
	}
	return verifySum{}, false
}

// sumSizes are the checksum sizes by fio's verify type code (0 for none).
var sumSizes = func() (z [32]int) {
	for t := jobspec.VerifyNone; t <= jobspec.VerifyNull; t++ {
		if s, ok := sumFor(t); ok {
			z[s.code] = s.size
		}
	}
	return z
}()

// verifyMetaCode is the header's verify_type for verify=meta (a header
// without a data checksum).
const verifyMetaCode = 1

// verifyPatternCode is the header's verify_type for verify_pattern
// without verify (a header, then the pattern).
const verifyPatternCode = 17

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crc32cRaw is CRC-32C without the final inversion, as fio stores it.
func crc32cRaw(p []byte) uint32 { return ^crc32.Checksum(p, castagnoli) }

// CRC32C is the CRC-32C fio stores in its verify headers and verify state
// files: without the final inversion.
func CRC32C(p []byte) uint32 { return crc32cRaw(p) }

// Checksum returns the checksum verify=name stores in fio's verify header
// and its size in bytes, for --crctest; ok is false for a name without a
// data checksum.
func Checksum(name string) (sum func(dst, data []byte), size int, ok bool) {
	for t := jobspec.VerifyNone; t <= jobspec.VerifyNull; t++ {
		if t.String() != name {
			continue
		}
		if s, ok := sumFor(t); ok {
			return s.sum, s.size, true
		}
	}
	return nil, 0, false
}

var jonesTable = crc64.MakeTable(0x95AC9329AC4BC9B5)

// crc64Jones is the reflected CRC-64 of the Jones polynomial, initial
// value 0, not inverted. crc64.Update inverts on the way in and out.
func crc64Jones(p []byte) uint64 { return ^crc64.Update(^uint64(0), jonesTable, p) }

var crc32MSBTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// crc32MSB is the MSB-first CRC-32 of polynomial 0x04C11DB7, initial
// value 0, not inverted.
func crc32MSB(p []byte) uint32 {
	var c uint32
	for _, b := range p {
		c = c<<8 ^ crc32MSBTable[byte(c>>24)^b]
	}
	return c
}

// crc7Table works on the CRC shifted left one bit (polynomial 0x09 << 1).
var crc7Table = func() (t [256]byte) {
	for i := range t {
		c := byte(i)
		for range 8 {
			if c&0x80 != 0 {
				c = c<<1 ^ 0x12
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// crc7 is the 7-bit CRC of polynomial 0x09 (MMC/SD), MSB first, initial
// value 0.
func crc7(p []byte) byte {
	var c byte // the CRC shifted left one bit
	for _, b := range p {
		c = crc7Table[c^b]
	}
	return c >> 1
}

// XXH32's primes.
const (
	xxP1 uint32 = 2654435761
	xxP2 uint32 = 2246822519
	xxP3 uint32 = 3266489917
	xxP4 uint32 = 668265263
	xxP5 uint32 = 374761393
)

// xxh32 is the 32-bit xxHash of p with seed.
func xxh32(p []byte, seed uint32) uint32 {
	n := len(p)
	var h uint32
	if n >= 16 {
		v1, v2, v3, v4 := seed+xxP1+xxP2, seed+xxP2, seed, seed-xxP1
		for len(p) >= 16 {
			v1 = bits.RotateLeft32(v1+binary.LittleEndian.Uint32(p)*xxP2, 13) * xxP1
			v2 = bits.RotateLeft32(v2+binary.LittleEndian.Uint32(p[4:])*xxP2, 13) * xxP1
			v3 = bits.RotateLeft32(v3+binary.LittleEndian.Uint32(p[8:])*xxP2, 13) * xxP1
			v4 = bits.RotateLeft32(v4+binary.LittleEndian.Uint32(p[12:])*xxP2, 13) * xxP1
			p = p[16:]
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) + bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = seed + xxP5
	}
	h += uint32(n)
	for len(p) >= 4 {
		h = bits.RotateLeft32(h+binary.LittleEndian.Uint32(p)*xxP3, 17) * xxP4
		p = p[4:]
	}
	for _, b := range p {
		h = bits.RotateLeft32(h+uint32(b)*xxP5, 11) * xxP1
	}
	h ^= h >> 15
	h *= xxP2
	h ^= h >> 13
	h *= xxP3
	h ^= h >> 16
	return h
}
