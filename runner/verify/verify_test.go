package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// newTestVerifier sets up the verify state of a job that writes and
// checks blocks of 4096 bytes, and a block of random bytes.
func newTestVerifier(t *testing.T, typ jobspec.VerifyType, interval int, pattern []byte) (*Verifier, []byte) {
	t.Helper()
	j := &jobspec.Job{RW: jobspec.RWWrite, BS: [3]uint64{4096, 4096, 4096}}
	j.Verify = jobspec.VerifyOptions{Type: typ, Do: true, Interval: interval, Pattern: pattern}
	v, err := New(j, 16, false)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	rand.NewChaCha8([32]byte{7}).Read(buf)
	return v, buf
}

// stamp prepares buf for the write at off as the runner does: records
// it, fills it with the pattern, writes the headers (seed 1, time 0).
func stamp(v *Verifier, buf []byte, off int64) {
	v.Wrote(off, len(buf), 0)
	if v.Only {
		return
	}
	if v.Pattern != nil {
		p := v.PatternAt(off)
		for i := range buf {
			buf[i] = p[i%len(p)]
		}
	}
	if v.Header {
		v.Stamp(buf, off, 1, 0)
	}
}

// TestVerifyRoundTrip stamps a block, checks it, then changes one byte
// of it and checks that the change is caught with the right report.
func TestVerifyRoundTrip(t *testing.T) {
	types := []jobspec.VerifyType{jobspec.VerifyMD5, jobspec.VerifyCRC64, jobspec.VerifyCRC32C,
		jobspec.VerifyCRC32, jobspec.VerifyCRC16, jobspec.VerifyCRC7, jobspec.VerifySHA1,
		jobspec.VerifySHA3_224, jobspec.VerifySHA3_256, jobspec.VerifySHA3_384, jobspec.VerifySHA3_512,
		jobspec.VerifyXXHash, jobspec.VerifyMeta}
	for _, typ := range types {
		for _, c := range []struct {
			at   int
			want string // start of the report; "" for none
		}{
			{-1, ""},
			{0, "verify: bad magic header"},
			{5, "verify: bad header length"},
			{17, "verify: bad header offset"},
			{30, "verify: bad header crc"},
			{3000, typ.String() + ": verify failed at file f offset 8192, length 4096 (requested block: offset=8192, length=4096, flags=88)\n       Expected CRC: "},
		} {
			v, buf := newTestVerifier(t, typ, 0, nil)
			stamp(v, buf, 8192)
			if c.at >= 0 {
				buf[c.at] ^= 0x10
			}
			v.Reading = true
			msg, bad := v.Check(buf, len(buf), 8192, "f")
			if typ == jobspec.VerifyMeta && c.at == 3000 {
				c.want = "" // meta has no data checksum
			}
			if bad != (c.want != "") || !strings.HasPrefix(msg, c.want) {
				t.Errorf("%v, byte %d changed: bad=%v, report %q; want prefix %q", typ, c.at, bad, msg, c.want)
			}
		}
	}
}

// TestVerifyInterval: each chunk has its own header; as in fio 3.33 a
// bad data checksum fails the block only in its last chunk, but is
// always reported.
func TestVerifyInterval(t *testing.T) {
	tests := []struct {
		at      int
		bad     bool
		reports int
	}{
		{-1, false, 0},
		{1024 + 100, false, 1}, // second chunk's data: reported only
		{3072 + 100, true, 1},  // last chunk's data
		{1024 + 1, true, 1},    // a header: the block is bad at once
	}
	for _, tt := range tests {
		v, buf := newTestVerifier(t, jobspec.VerifyCRC32C, 1024, nil)
		stamp(v, buf, 8192)
		for off := 0; off < 4096; off += 1024 {
			if got := int(buf[off+4]) | int(buf[off+5])<<8; got != 1024 {
				t.Fatalf("chunk at %d has length %d", off, got)
			}
		}
		if tt.at >= 0 {
			buf[tt.at] ^= 1
		}
		msg, bad := v.Check(buf, len(buf), 8192, "f")
		if bad != tt.bad || strings.Count(msg, "verify") != tt.reports {
			t.Errorf("byte %d changed: bad=%v, report %q; want bad=%v and %d reports", tt.at, bad, msg, tt.bad, tt.reports)
		}
	}
}

// TestVerifyPattern: verify=pattern writes and checks the pattern only.
func TestVerifyPattern(t *testing.T) {
	v, buf := newTestVerifier(t, jobspec.VerifyPattern, 0, []byte{0xde, 0xad, 0xbe, 0xef})
	stamp(v, buf, 8192)
	if buf[0] != 0xde || buf[4095] != 0xef {
		t.Fatalf("block not filled with the pattern: % x", buf[:8])
	}
	if msg, bad := v.Check(buf, len(buf), 8192, "f"); bad {
		t.Fatalf("good block reported bad: %s", msg)
	}
	buf[101] = 0x5a
	want := "fio: got pattern '5a', wanted 'ad'. Bad bits 7\nfio: bad pattern block offset 101\n"
	if msg, bad := v.Check(buf, len(buf), 8192, "f"); !bad || !strings.HasPrefix(msg, want) {
		t.Errorf("changed block: bad=%v, report %q; want prefix %q", bad, msg, want)
	}
}

// TestVerifyHeaderSizes: jobspec's header sizes are the checksums'.
func TestVerifyHeaderSizes(t *testing.T) {
	for typ := jobspec.VerifyMD5; typ <= jobspec.VerifyMeta; typ++ {
		want := verifyHdrLen
		if s, ok := sumFor(typ); ok {
			want += s.size
		}
		if got := typ.HeaderSize(); got != want {
			t.Errorf("%v.HeaderSize() = %d, want %d", typ, got, want)
		}
	}
}

// TestVerifyBacklog: the order of writes (W) and checks (R) of 8 blocks
// with verify_backlog, as fio 3.33 issues them (seen with strace); the
// final verify phase checks what is left.
func TestVerifyBacklog(t *testing.T) {
	tests := []struct {
		backlog, batch int
		want           string
	}{
		{3, 0, "WWWRRRWWWRRRWW|RR"},
		{3, 2, "WWWRRWWRRWWRRW|RR"},
		{3, 5, "WWWRRRWRWRWWWRRR|"},
		{1, 0, "WRWRWRWRWRWRWRWR|"},
	}
	for _, tt := range tests {
		v := &Verifier{Backlog: tt.backlog, batch: tt.batch, record: true}
		if v.batch == 0 {
			v.batch = v.Backlog
		}
		var got strings.Builder
		for written := 0; written < 8; {
			if v.BacklogDue() {
				v.Next()
				got.WriteByte('R')
				continue
			}
			v.Wrote(0, 0, 0)
			written++
			got.WriteByte('W')
		}
		for v.BacklogDue() { // the write loop asks once more
			v.Next()
			got.WriteByte('R')
		}
		got.WriteByte('|')
		for _, ok := v.Next(); ok; _, ok = v.Next() {
			got.WriteByte('R')
		}
		if got.String() != tt.want {
			t.Errorf("verify_backlog=%d, verify_backlog_batch=%d: %s, want %s", tt.backlog, tt.batch, got.String(), tt.want)
		}
	}
}

// TestVerifyAllocs: stamping and checking a good block allocate nothing.
func TestVerifyAllocs(t *testing.T) {
	for _, typ := range []jobspec.VerifyType{jobspec.VerifyCRC32C, jobspec.VerifyMD5, jobspec.VerifySHA1, jobspec.VerifySHA3_256, jobspec.VerifyXXHash} {
		v, buf := newTestVerifier(t, typ, 1024, nil)
		v.list = make([]Block, 0, 1000)
		n := testing.AllocsPerRun(100, func() {
			stamp(v, buf, 8192)
			if _, bad := v.Check(buf, len(buf), 8192, "f"); bad {
				t.Fatal("good block reported bad")
			}
		})
		if n != 0 {
			t.Errorf("%v: %v allocations per block", typ, n)
		}
	}
}

// TestSettle: the blocks read back after writes that may overlap, as fio
// 3.33 reads them (its debug log of replayed traces): by offset, each
// block overwritten in part or in full by a later write dropped.
func TestSettle(t *testing.T) {
	tests := []struct {
		writes [][2]int64 // offset, length (in 4 KiB blocks)
		want   string
	}{
		{[][2]int64{{2, 1}, {0, 1}, {2, 1}}, "0+1 2+1"},
		{[][2]int64{{2, 1}, {1, 2}}, "1+2"},
		{[][2]int64{{2, 1}, {0, 1}, {0, 2}}, "0+2 2+1"},
		{[][2]int64{{0, 1}, {11, 1}, {13, 1}, {7, 1}, {13, 1}, {0, 1}, {5, 1}}, "0+1 5+1 7+1 11+1 13+1"},
		{[][2]int64{{0, 4}, {1, 1}, {3, 1}}, "1+1 3+1"},
		{[][2]int64{{4, 1}, {0, 2}, {2, 2}, {8, 1}}, "0+2 2+2 4+1 8+1"},
	}
	for _, tt := range tests {
		v := &Verifier{record: true}
		for _, w := range tt.writes {
			v.Wrote(w[0]*4096, int(w[1]*4096), 0)
		}
		v.Settle()
		var got []string
		for b, ok := v.Next(); ok; b, ok = v.Next() {
			got = append(got, fmt.Sprintf("%d+%d", b.Off/4096, b.Len/4096))
		}
		if s := strings.Join(got, " "); s != tt.want {
			t.Errorf("writes %v: read back %s, want %s", tt.writes, s, tt.want)
		}
	}
}

// TestCheckNumberIO: a block read back must hold the write number of its
// write (fio 3.33 reports "bad header numberio" before any checksum).
func TestCheckNumberIO(t *testing.T) {
	j := &jobspec.Job{Name: "v", RW: jobspec.RWWrite, BS: [3]uint64{4096, 4096, 4096}}
	j.Verify.Type, j.Verify.Do = jobspec.VerifyCRC32C, true
	v, err := New(j, 8, false)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for range 3 { // write numbers 0, 1, 2
		v.Stamp(buf, 8192, 7, 0)
	}
	for _, tt := range []struct {
		want int32
		msg  string
	}{
		{-1, ""},
		{2, ""},
		{0, "verify: bad header numberio 2, wanted 0 at file f offset 8192, length 4096 (requested block: offset=8192, length=4096)\n"},
	} {
		v.WantNumberIO = tt.want
		msg, bad := v.Check(buf, len(buf), 8192, "f")
		if msg != tt.msg || bad != (tt.msg != "") {
			t.Errorf("wanted %d: %q, %v; want %q", tt.want, msg, bad, tt.msg)
		}
	}
}

// TestBacklogSorted: with verify_backlog, random writes under
// norandommap wait by offset, a write replacing those it overlaps, and
// are checked smallest offset first (fio 3.33's order, from its debug
// log of rw=randwrite, norandommap, verify_backlog=4, batch 2).
func TestBacklogSorted(t *testing.T) {
	v := &Verifier{Backlog: 4, batch: 2, record: true, sorted: true}
	var got []string
	for _, off := range []int64{0, 11, 13, 7, 6, 13, 6, 5, 14, 1, 13, 10, 14, 3, 6, 8} {
		for v.BacklogDue() {
			b, _ := v.Next()
			got = append(got, fmt.Sprintf("r%d", b.Off))
		}
		got = append(got, fmt.Sprintf("w%d", off))
		v.Wrote(off, 1, 0)
	}
	for b, ok := v.Next(); ok; b, ok = v.Next() {
		got = append(got, fmt.Sprintf("r%d", b.Off))
	}
	want := "w0 w11 w13 w7 r0 r7 w6 w13 w6 w5 r5 r6 w14 w1 r1 r11 w13 w10 w14 w3 r3 r10 w6 w8 r6 r8 r13 r14"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("\n%s\nwant\n%s", s, want)
	}
}
