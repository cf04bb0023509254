package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestMerge checks the merged blktrace: the queue events of a read,
// write or discard of each trace, by time, each trace's times scaled and
// repeated, payloads dropped.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	withPDU := blk(5000, 16, 4096, qWrite)
	withPDU.PDULen, withPDU.Sequence = 2, 13
	notify := blk(3000, 0, 0, blkCatNotify)
	notify.PDULen = 8
	a := []BlkEvent{blk(1000, 8, 4096, qRead), blk(2000, 9, 4096, blkActIssue), notify, withPDU,
		blk(7500, 24, 512, blkActQueue), blk(7600, 24, 512, qFlush), blk(7700, 24, 512, blkActQueue|blkCatDiscard)}
	b := []BlkEvent{blk(500, 100, 512, qRead), blk(2500, 108, 512, qWrite), blk(6000, 116, 512, cWrite)}
	for _, e := range []struct {
		name string
		evs  []BlkEvent
	}{{"a", a}, {"b", b}} {
		if err := os.WriteFile(filepath.Join(dir, e.name), blkFile(binary.BigEndian, e.evs...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := func(e BlkEvent, ns uint64) BlkEvent { e.Time, e.PDULen = ns, 0; return e }
	out := filepath.Join(dir, "merged")
	paths := []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}
	tests := []struct {
		name           string
		scalars, iters []float64
		want           []BlkEvent
	}{
		{"by time", nil, nil, []BlkEvent{at(b[0], 500), at(a[0], 1000), at(b[1], 2500), at(withPDU, 5000), at(a[6], 7700)}},
		{"scaled and repeated", []float64{100, 50}, []float64{2, 1},
			[]BlkEvent{at(b[0], 250), at(a[0], 1000), at(b[1], 1250), at(withPDU, 5000), at(a[6], 7700),
				at(a[0], 8700), at(withPDU, 12700), at(a[6], 15400)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := Merge(out, paths, tc.scalars, tc.iters); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if want := blkFile(binary.LittleEndian, tc.want...); !bytes.Equal(data, want) {
				var got []BlkEvent
				for i := 0; i+blkRecordLen <= len(data); i += blkRecordLen {
					got = append(got, decodeBlkEvent(data[i:], binary.LittleEndian))
				}
				t.Errorf("merged:\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
	var ce *MergeCountError
	if err := Merge(out, paths, []float64{50}, nil); !errors.As(err, &ce) || err.Error() != "fio: merge_blktrace_scalars(1) != nr_logs(2)" {
		t.Errorf("scalars count: %v", err)
	}
	if err := Merge(out, paths, nil, []float64{1, 2, 3}); !errors.As(err, &ce) || err.Error() != "fio: merge_blktrace_iters(3) != nr_logs(2)" {
		t.Errorf("iters count: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "text"), []byte("fio version 2 iolog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Merge(out, []string{filepath.Join(dir, "text")}, nil, nil); err == nil {
		t.Error("merging a text trace: no error")
	}
}
