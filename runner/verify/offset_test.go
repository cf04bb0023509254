package verify

import (
	"strings"
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// TestVerifyPatternOffset: verify_pattern's %o puts each block's offset,
// 8 bytes little-endian, in the pattern (fio 3.33 writes 0xff%o at
// offset 8192 as ff 00 20 00 00 00 00 00 00, repeated); a block read back
// at another offset fails the check.
func TestVerifyPatternOffset(t *testing.T) {
	v, buf := newTestVerifier(t, jobspec.VerifyPattern, 0, []byte{0xff, 0, 0, 0, 0, 0, 0, 0, 0})
	v.patOffs = []int{1}
	stamp(v, buf, 8192)
	want := []byte{0xff, 0, 0x20, 0, 0, 0, 0, 0, 0, 0xff, 0, 0x20}
	if string(buf[:12]) != string(want) || buf[4095] != 0xff {
		t.Fatalf("block at 8192 filled with % x; want % x…", buf[:12], want)
	}
	if msg, bad := v.Check(buf, len(buf), 8192, "f"); bad {
		t.Fatalf("good block reported bad: %s", msg)
	}
	wantMsg := "fio: got pattern '20', wanted '10'. Bad bits 2\nfio: bad pattern block offset 2\n"
	if msg, bad := v.Check(buf, len(buf), 4096, "f"); !bad || !strings.HasPrefix(msg, wantMsg) {
		t.Errorf("block checked at 4096: bad=%v, report %q; want prefix %q", bad, msg, wantMsg)
	}
}
