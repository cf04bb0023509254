package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gofio/gofio/runner/engine"
)

func TestTraceWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace")
	w, err := newTraceWriter(path)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8192)
	w.fileAction("/d/f", "add", 15_999)                                                        // 15 µs, truncated
	w.fileAction("/d/f", "open", 90_000)                                                       // 90 µs
	w.io("/d/f", &engine.IOUnit{Op: engine.OpWrite, Offset: 4096, Buf: buf[:4096]}, 94_000)    // a write
	w.io("/d/f", &engine.IOUnit{Op: engine.OpFdatasync, Offset: 0, Buf: buf[:0]}, 235_000)     // the last I/O's offset
	w.io("/d/f", &engine.IOUnit{Op: engine.OpSyncFileRange, Offset: 0, Buf: buf[:0]}, 240_000) // named as fio does
	w.io("/d/f", &engine.IOUnit{Op: engine.OpTrim, Offset: 8192, Buf: buf[:8192]}, 1_000_000)
	w.fileAction("/d/f", "close", 1_252_000)
	allocs := testing.AllocsPerRun(100, func() {
		w.io("/d/f", &engine.IOUnit{Op: engine.OpRead, Buf: buf[:512]}, 2_000_000)
	})
	if allocs != 0 {
		t.Errorf("io: %v allocations per line, want 0", allocs)
	}
	if err := w.close(); err != nil {
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
