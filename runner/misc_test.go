package runner

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofio/gofio/runner/engine"
)

// /dev/full fails every write with ENOSPC: the end fill_device waits for
// and an error ignore_error can list.
func TestFullDeviceErrors(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	tests := []struct {
		args      []string
		err       int    // the job's reported error
		errText   string // its text
		failed    int    // jobs failed (exit status)
		total     uint64 // errors counted
		check     bool   // the report's error line
		writes    uint64 // writes issued
		ioUErrors int    // "fio: io_u error" lines
	}{
		// fill_device: the first ENOSPC ends the job cleanly.
		{[]string{"fill_device=1"}, 0, "", 0, 0, false, 1, 1},
		// ignore_error: every write fails and is survived.
		{[]string{"ignore_error=,ENOSPC"}, 28, "file:runner, func=xfer, error=No space left on device", 0, 16, true, 16, 0},
		{[]string{"ignore_error=,28", "ioengine=io_uring"}, 28, "", 0, 16, true, 16, 0},
		{[]string{"ignore_error=,ENOSPC", "error_dump=1"}, 28, "file:runner, func=io_u error, error=No space left on device", 0, 16, true, 16, 16},
		// A list for another class, or without the error, leaves it fatal.
		{[]string{"ignore_error=ENOSPC"}, 28, "file:runner, func=io_u error, error=No space left on device", 1, 0, true, 1, 1},
		{[]string{"ignore_error=,EIO"}, 28, "file:runner, func=io_u error, error=No space left on device", 1, 1, true, 1, 1},
	}
	for _, tt := range tests {
		args := append([]string{"name=f", "filename=/dev/full", "rw=write", "bs=4k", "size=64k"}, tt.args...)
		oc, msgs := runJobs(t, t.TempDir(), args...)
		j := &oc.Result.Jobs[0]
		_, ios := dirStats(j)
		got := []any{j.Error, j.ErrorText, oc.Failed, j.TotalErrors, j.ErrorCheck, ios[1], strings.Count(msgs, "fio: io_u error")}
		want := []any{tt.err, tt.errText, tt.failed, tt.total, tt.check, tt.writes, tt.ioUErrors}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%q: got %v, want %v\n%s", tt.args, got, want, msgs)
				break
			}
		}
	}
}

func TestFillDevicePlan(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args     []string
		fileSize uint64
		size     uint64
		err      string
	}{
		{[]string{"rw=write"}, math.MaxUint64, math.MaxInt64, ""},
		{[]string{"rw=write", "nrfiles=2"}, math.MaxUint64 / 2, math.MaxUint64 / 2, ""},
		{[]string{"rw=write", "size=1m"}, 1 << 20, 1 << 20, ""},
		{[]string{"rw=randwrite", "norandommap"}, math.MaxUint64, math.MaxInt64, ""},
		{[]string{"rw=randwrite"}, 0, 0, "failed allocating random map"},
		{[]string{"rw=randrw"}, 0, 0, "failed allocating random map"},
		{[]string{"rw=randread"}, math.MaxUint64, math.MaxInt64, ""}, // mapped after its layout
	}
	for _, tt := range tests {
		p := planOf(t, append([]string{"name=f", "directory=" + dir, "fill_device=1"}, tt.args...)...)
		files, err := planFiles(p.Jobs[0])
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if f := files[0]; f.fileSize != tt.fileSize || f.size != tt.size {
			t.Errorf("%q: fileSize %d size %d, want %d %d", tt.args, f.fileSize, f.size, tt.fileSize, tt.size)
		}
	}
}

func TestOpendirPlan(t *testing.T) {
	dir := t.TempDir()
	for name, n := range map[string]int{"a": 8192, "sub/b": 4096, "sub/deep/c": 4096, "empty": 0} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := planOf(t, "name=o", "opendir="+dir)
	files, err := planFiles(p.Jobs[0])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var total uint64
	for _, f := range files {
		got = append(got, strings.TrimPrefix(f.path, dir+"/"))
		total += f.size
	}
	if want := "a empty sub/b sub/deep/c"; strings.Join(got, " ") != want || total != 16384 {
		t.Errorf("files %q total %d, want %q 16384", got, total, want)
	}
}

func TestOverlaps(t *testing.T) {
	units := []*engine.IOUnit{
		{Index: 0, Op: engine.OpWrite, File: 0, Offset: 0, Buf: make([]byte, 4096)},
		{Index: 1, Op: engine.OpWrite, File: 0, Offset: 8192, Buf: make([]byte, 4096)},
		{Index: 2, Op: engine.OpWrite, File: 1, Offset: 0, Buf: make([]byte, 4096)},
		{Index: 3, Op: engine.OpWrite, Buf: make([]byte, 4096)}, // the candidate
	}
	w := &worker{units: units, overlap: newOverlapState(true, len(units))}
	tests := []struct {
		free   []int // units not in flight
		file   int
		offset int64
		want   bool
	}{
		{[]int{3}, 0, 2048, true},
		{[]int{3}, 0, 4096, false},    // adjacent, no overlap
		{[]int{0, 3}, 0, 2048, false}, // the overlapping unit is free
		{[]int{3}, 1, 2048, true},
		{[]int{2, 3}, 1, 2048, false},
		{[]int{3}, 0, 10000, true},
	}
	for _, tt := range tests {
		w.free = w.free[:0]
		for _, i := range tt.free {
			w.free = append(w.free, units[i])
		}
		units[3].File, units[3].Offset = tt.file, tt.offset
		if got := w.overlaps(units[3]); got != tt.want {
			t.Errorf("free %v file %d offset %d: overlaps = %v, want %v", tt.free, tt.file, tt.offset, got, tt.want)
		}
	}
}
