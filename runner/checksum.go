package runner

import "github.com/gofio/gofio/jobspec"

// VerifyChecksum returns the checksum verify=name stores in fio's verify
// header (verify_hash.go) and its size in bytes, for --crctest; ok is
// false for a name without a data checksum.
func VerifyChecksum(name string) (sum func(dst, data []byte), size int, ok bool) {
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
