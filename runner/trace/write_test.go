package trace

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTraceWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace")
	w, err := NewWriter(path)
	if err != nil {
		t.Fatal(err)
	}
	w.FileAction("/d/f", "add", 15_999)        // 15 µs, truncated
	w.FileAction("/d/f", "open", 90_000)       // 90 µs
	w.IO("/d/f", "write", 4096, 4096, 94_000)  // a write
	w.Sync("/d/f", "datasync", 235_000)        // the last I/O's offset
	w.Sync("/d/f", "sync_file_range", 240_000) // named as fio does
	w.IO("/d/f", "trim", 8192, 8192, 1_000_000)
	w.FileAction("/d/f", "close", 1_252_000)
	allocs := testing.AllocsPerRun(100, func() {
		w.IO("/d/f", "read", 0, 512, 2_000_000)
	})
	if allocs != 0 {
		t.Errorf("io: %v allocations per line, want 0", allocs)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "fio version 3 iolog\n15 /d/f add\n90 /d/f open\n94 /d/f write 4096 4096\n235 /d/f datasync 4096 0\n" +
		"240 /d/f sync_file_range 4096 0\n1000 /d/f trim 8192 8192\n1252 /d/f close\n"
	if s := string(got); len(s) < len(want) || s[:len(want)] != want {
		t.Errorf("trace:\n%s\nwant it to start:\n%s", s, want)
	}
}
