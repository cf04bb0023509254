package verify

import (
	"fmt"
	"strings"
	"testing"
)

// TestTrims: the trims of a trimwrite job of 32 blocks with every block
// marked (trim_percentage=100), as fio 3.33 issues them (its I/O logs):
// "w5" is the write of block 5, "T5" the trim of block 5 after it.
func TestTrims(t *testing.T) {
	tests := []struct {
		backlog, batch int
		zero           bool
		want           string // the start of the sequence
		leaked         int
	}{
		{4, 0, true, "w0 w1 w2 w3 T0 T1 T2 T3 w4 T4 w5 w6 w7 T5 T6 T7 w8 T8 w9 T9 w10 w11 T10 T11 w12 T12", 0},
		{4, 2, true, "w0 w1 w2 w3 T0 T1 T2 T3 w4 T4 w5 T5 w6 w7 T6 T7 w8 T8 w9 w10 w11 T9 T10 T11 w12 w13 w14 w15 T12 T13 T14 T15", 0},
		{4, 0, false, "w0 w1 w2 w3 T0 T1 T2 T3 w4 T4 w5 w6 w7 w8 T5 T6 T7 T8 w9 T9", 2},
	}
	for _, tt := range tests {
		v := &Verifier{record: true}
		v.EnableTrims(tt.backlog, tt.batch, tt.zero)
		var got []string
		for i := range 32 {
			for v.TrimDue() {
				got = append(got, fmt.Sprintf("T%d", v.NextTrim().Off))
			}
			got = append(got, fmt.Sprintf("w%d", i))
			v.Wrote(int64(i), 1, 0)
			v.MarkTrim()
		}
		for v.TrimDue() {
			got = append(got, fmt.Sprintf("T%d", v.NextTrim().Off))
		}
		if s := strings.Join(got, " "); !strings.HasPrefix(s, tt.want) {
			t.Errorf("trim_backlog=%d batch=%d zero=%v:\n%s\nwant it to start with\n%s", tt.backlog, tt.batch, tt.zero, s, tt.want)
		}
		reads := 0
		for _, ok := v.Next(); ok; _, ok = v.Next() {
			reads++
		}
		if tt.zero && reads != 32 || !tt.zero && reads != tt.leaked {
			t.Errorf("trim_verify_zero=%v: %d blocks read back", tt.zero, reads)
		}
		v.EndLoop()
		want := ""
		if tt.leaked > 0 {
			want = fmt.Sprintf("fio: %d trim entries leaked?\n", tt.leaked)
		}
		if got := v.TrimsLeaked(); got != want {
			t.Errorf("leaked: %q, want %q", got, want)
		}
	}
}

func TestCheckZero(t *testing.T) {
	v := &Verifier{TrimmedRead: true}
	buf := make([]byte, 4096)
	if msg, bad := v.Check(buf, len(buf), 8192, "f"); bad || msg != "" {
		t.Errorf("zeroes: %q, %v", msg, bad)
	}
	buf[100] = 1
	if msg, bad := v.Check(buf, len(buf), 8192, "f"); !bad || !strings.Contains(msg, "offset 8292") {
		t.Errorf("a byte set: %q, %v", msg, bad)
	}
}
