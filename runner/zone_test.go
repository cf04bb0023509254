package runner

import (
	"fmt"
	"testing"

	"github.com/gofio/gofio/runner/engine"
)

// TestStridedOffsets checks zonemode=strided's offsets (in KiB) against
// fio 3.33's write_iolog for the same jobs.
func TestStridedOffsets(t *testing.T) {
	tests := []struct {
		args []string
		want string // offsets in KiB, then the op
	}{
		{[]string{"zonesize=8k", "zonerange=16k"}, "[0 4 16 20 32 36 48 52 0 4 16 20 32 36 48 52]"},
		{[]string{"zonesize=8k", "zoneskip=8k"}, "[0 4 16 20 32 36 48 52 0 4 16 20 32 36 48 52]"},
		// A zone cut by the end of the file ends the loop.
		{[]string{"zonesize=8k", "zonerange=16k", "zoneskip=4k"}, "[0 4 20 24 40 44 60]"},
		{[]string{"zonesize=8k", "zoneskip=4k"}, "[0 4 12 16 24 28 36 40 48 52 60]"},
		{[]string{"zonesize=8k", "zoneskip=4k", "loops=2"}, "[0 4 12 16 24 28 36 40 48 52 60 0 4 12 16 24 28 36 40 48 52 60]"},
		{[]string{"zonesize=8k", "zoneskip=4k", "io_size=96k"}, "[0 4 12 16 24 28 36 40 48 52 60 0 4 12 16 24 28 36 40 48 52 60 0 4]"},
		{[]string{"zonesize=8k", "zoneskip=4k", "size=60k"}, "[0 4 12 16 24 28 36 40 48 52 0 4 12 16 24]"},
		// zonesize over zonerange visits each zone again.
		{[]string{"zonesize=16k", "zonerange=8k"}, "[0 4 0 4 8 12 8 12 16 20 16 20 24 28 24 28]"},
		{[]string{"zonesize=6k"}, "[0 4 6 10 12 16 18 22 24 28 30 34 36 40 42 46]"},
		{[]string{"zonesize=8k", "offset=8k"}, "[8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68]"},
		{[]string{"zonesize=8k", "zoneskip=8k", "rw=read:4k"}, "[0 8 16 24 32 40 48 56 0 8 16 24 32 40 48 56]"},
		{[]string{"zonesize=8k", "zoneskip=8k", "rw=trimwrite", "size=32k"}, "[0 0 16 16 0 0 16 16 0 0 16 16 0 0 16 16]"},
	}
	for _, tt := range tests {
		args := append([]string{"size=64k", "bs=4k", "rw=write", "zonemode=strided"}, tt.args...)
		log := recordJob(t, args...)
		var got []int64
		for _, r := range log {
			got = append(got, r.off/1024)
		}
		if s := fmt.Sprint(got); s != tt.want {
			t.Errorf("%v: offsets %s, want %s", tt.args, s, tt.want)
		}
	}
}

// TestStridedZoneskipPercent checks fio 3.33's reading of zoneskip=N%:
// a step of -(N+1) bytes.
func TestStridedZoneskipPercent(t *testing.T) {
	log := recordJob(t, "size=64k", "bs=4k", "rw=write", "zonemode=strided", "zonesize=8k", "zoneskip=10%", "number_ios=4")
	want := "[0 4096 8181 12277]"
	if got := fmt.Sprint(unitOffsets(log, engine.OpWrite)); got != want {
		t.Errorf("offsets %s, want %s", got, want)
	}
}

// TestStridedRandom checks that random I/O stays in the current zone
// for zonesize bytes and does the job's size in all.
func TestStridedRandom(t *testing.T) {
	for _, extra := range []string{"norandommap=0", "norandommap=1"} {
		log := recordJob(t, "size=64k", "bs=4k", "rw=randwrite", "zonemode=strided", "zonesize=8k", "zonerange=16k", extra)
		if len(log) != 16 {
			t.Fatalf("%s: %d I/Os, want 16", extra, len(log))
		}
		for i, r := range log {
			zone := int64(i/2%4) * 16384 // two I/Os per zone, four zones, then again
			if r.off < zone || r.off+int64(r.len) > zone+16384 {
				t.Errorf("%s: I/O %d at %d, outside zone [%d, %d)", extra, i, r.off, zone, zone+16384)
			}
		}
	}
}
