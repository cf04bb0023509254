package verify

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// TestEveryChecksumType: every verify type that writes a checksum has
// one, so New's "no checksum" branch is an internal error only.
func TestEveryChecksumType(t *testing.T) {
	for typ := jobspec.VerifyMD5; typ <= jobspec.VerifyXXHash; typ++ {
		if _, ok := sumFor(typ); !ok {
			t.Errorf("verify=%s: no checksum", typ)
		}
	}
}
