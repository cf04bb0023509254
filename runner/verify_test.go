package runner

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// TestVerifyAllocs: stamping a block through the worker (seed, fill,
// header) and checking it allocate nothing.
func TestVerifyAllocs(t *testing.T) {
	for _, typ := range []jobspec.VerifyType{jobspec.VerifyCRC32C, jobspec.VerifyMD5, jobspec.VerifySHA1, jobspec.VerifySHA3_256, jobspec.VerifyXXHash, jobspec.VerifyPatternHdr} {
		j := &jobspec.Job{RW: jobspec.RWWrite, BS: [3]uint64{4096, 4096, 4096}}
		j.Verify = jobspec.VerifyOptions{Type: typ, Do: true, Interval: 1024}
		if typ == jobspec.VerifyPatternHdr {
			j.Verify.Pattern = []byte{0xde, 0xad, 0xbe, 0xef}
		}
		v, err := newVerifier(j, 1000)
		if err != nil {
			t.Fatal(err)
		}
		w := &worker{job: j, vfy: v}
		u := &engine.IOUnit{Offset: 8192, Buf: make([]byte, 4096)}
		n := testing.AllocsPerRun(100, func() {
			u.Op = engine.OpWrite
			w.stampVerify(u)
			u.Op, u.Result = engine.OpRead, len(u.Buf)
			if _, bad := v.Check(u.Buf, u.Result, u.Offset, "f"); bad {
				t.Fatal("good block reported bad")
			}
		})
		if n != 0 {
			t.Errorf("%v: %v allocations per block", typ, n)
		}
	}
}
