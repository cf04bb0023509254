package main

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gofio/gofio/runner/verify"
)

// crcNames are the checksums --crctest knows, in the order fio 3.33
// tests and lists them whatever order the option names them in
// (observed).
var crcNames = []string{"md5", "crc64", "crc32", "crc32c", "crc16", "crc7", "sha1", "sha256", "sha512", "xxhash", "murmur3", "jhash", "fnv", "sha3-224", "sha3-256", "sha3-384", "sha3-512"}

// crcBufSize is the buffer each checksum runs over, and crcMinTime how
// long each one runs at least.
const (
	crcBufSize = 1 << 20
	crcMinTime = 100 * time.Millisecond
)

// checkCrcList checks a --crctest list as fio does: every name must be
// one of crcNames; empty names between commas are skipped, but an empty
// list is an unknown hash “ (observed). On a bad name it prints fio's
// message on stderr and the names on stdout and returns false.
func checkCrcList(value string, hasValue bool, stdout, stderr io.Writer) bool {
	if !hasValue {
		return true
	}
	for i, c := range strings.Split(value, ",") {
		if c == "" && (i > 0 || value != "") {
			continue
		}
		if !slices.Contains(crcNames, c) {
			fmt.Fprintf(stderr, "fio: unknown hash `%s`. Available:\n", c)
			for _, n := range crcNames {
				fmt.Fprintln(stdout, n)
			}
			return false
		}
	}
	return true
}

// crcTest carries out --crctest[=LIST]: the throughput of each checksum
// chosen (all without a list), one line each as fio prints it,
// "md5:\t\t  258.44 MiB/sec" (the name and colon padded with tabs to the
// second tab stop, the rate in 8.2f). The rates are this machine's.
func crcTest(value string, hasValue bool, stdout, stderr io.Writer) int {
	if !checkCrcList(value, hasValue, stdout, stderr) {
		return 1
	}
	want := strings.Split(value, ",")
	buf := make([]byte, crcBufSize)
	rng := rand.NewChaCha8([32]byte{'g', 'o', 'f', 'i', 'o'})
	rng.Read(buf)
	for _, name := range crcNames {
		if hasValue && !slices.Contains(want, name) {
			continue
		}
		sum := crcFunc(name)
		var n int
		start := time.Now()
		for n == 0 || time.Since(start) < crcMinTime {
			sum(buf)
			n++
		}
		secs := time.Since(start).Seconds()
		tabs := "\t\t"
		if len(name)+1 >= 8 {
			tabs = "\t"
		}
		fmt.Fprintf(stdout, "%s:%s%8.2f MiB/sec\n", name, tabs, float64(n)*crcBufSize/(1<<20)/secs)
	}
	return 0
}

// crcSink keeps the checksums' results alive.
var crcSink atomic.Uint64

// crcFunc returns the checksum called name: verify's for those verify
// knows, and otherwise the public algorithms fio's names stand for.
func crcFunc(name string) func(p []byte) {
	// fio's verify=sha256 and sha512 fields are no standard digests
	// (runner/verify_sha2.go), sha512's no hash at all; the test times
	// the hash functions themselves.
	switch name {
	case "sha256":
		return func(p []byte) { h := sha256.Sum256(p); crcSink.Add(uint64(h[0])) }
	case "sha512":
		return func(p []byte) { h := sha512.Sum512(p); crcSink.Add(uint64(h[0])) }
	}
	if sum, size, ok := verify.Checksum(name); ok {
		dst := make([]byte, size)
		return func(p []byte) { sum(dst, p); crcSink.Add(uint64(dst[0])) }
	}
	switch name {
	case "murmur3":
		return func(p []byte) { crcSink.Add(uint64(murmur3(p, 0x8989))) }
	case "jhash":
		return func(p []byte) { crcSink.Add(uint64(jhash(p, 0))) }
	case "fnv":
		return func(p []byte) {
			h := fnv.New64a()
			h.Write(p)
			crcSink.Add(h.Sum64())
		}
	}
	panic("crctest: no checksum " + name)
}

// murmur3 is Austin Appleby's MurmurHash3, x86 32-bit variant.
func murmur3(p []byte, seed uint32) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	h := seed
	n := len(p)
	for ; len(p) >= 4; p = p[4:] {
		k := binary.LittleEndian.Uint32(p)
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	var k uint32
	switch len(p) {
	case 3:
		k ^= uint32(p[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(p[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(p[0])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// jhash is Bob Jenkins' lookup3 hash of bytes (the Linux kernel's
// jhash), little-endian.
func jhash(p []byte, initval uint32) uint32 {
	a := 0xdeadbeef + uint32(len(p)) + initval
	b, c := a, a
	mix := func() {
		a -= c
		a ^= bits.RotateLeft32(c, 4)
		c += b
		b -= a
		b ^= bits.RotateLeft32(a, 6)
		a += c
		c -= b
		c ^= bits.RotateLeft32(b, 8)
		b += a
		a -= c
		a ^= bits.RotateLeft32(c, 16)
		c += b
		b -= a
		b ^= bits.RotateLeft32(a, 19)
		a += c
		c -= b
		c ^= bits.RotateLeft32(b, 4)
		b += a
	}
	for len(p) > 12 {
		a += binary.LittleEndian.Uint32(p)
		b += binary.LittleEndian.Uint32(p[4:])
		c += binary.LittleEndian.Uint32(p[8:])
		mix()
		p = p[12:]
	}
	if len(p) == 0 {
		return c
	}
	var tail [12]byte
	copy(tail[:], p)
	a += binary.LittleEndian.Uint32(tail[:])
	b += binary.LittleEndian.Uint32(tail[4:])
	c += binary.LittleEndian.Uint32(tail[8:])
	c ^= b
	c -= bits.RotateLeft32(b, 14)
	a ^= c
	a -= bits.RotateLeft32(c, 11)
	b ^= a
	b -= bits.RotateLeft32(a, 25)
	c ^= b
	c -= bits.RotateLeft32(b, 16)
	a ^= c
	a -= bits.RotateLeft32(c, 4)
	b ^= a
	b -= bits.RotateLeft32(a, 14)
	c ^= b
	c -= bits.RotateLeft32(b, 24)
	return c
}
