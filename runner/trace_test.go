package runner

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/trace"
)

// TestTracerIO checks the names and offsets the worker's units get in a
// written trace: syncs at the offset of the I/O before, sync_file_range
// named as fio names it, and that logging a unit allocates nothing.
func TestTracerIO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace")
	out, err := trace.NewWriter(path)
	if err != nil {
		t.Fatal(err)
	}
	tr := &tracer{out: out}
	buf := make([]byte, 8192)
	tr.io("/d/f", &engine.IOUnit{Op: engine.OpWrite, Offset: 4096, Buf: buf[:4096]}, 94_000)    // a write
	tr.io("/d/f", &engine.IOUnit{Op: engine.OpFdatasync, Offset: 0, Buf: buf[:0]}, 235_000)     // the last I/O's offset
	tr.io("/d/f", &engine.IOUnit{Op: engine.OpSyncFileRange, Offset: 0, Buf: buf[:0]}, 240_000) // named as fio does
	tr.io("/d/f", &engine.IOUnit{Op: engine.OpTrim, Offset: 8192, Buf: buf[:8192]}, 1_000_000)
	tr.io("/d/f", &engine.IOUnit{Op: engine.OpFsync, Offset: 0, Buf: buf[:0]}, 1_100_000)
	tr.io("/d/f", &engine.IOUnit{Op: engine.OpRead, Offset: 512, Buf: buf[:512]}, 1_200_000)
	u := &engine.IOUnit{Op: engine.OpRead, Buf: buf[:512]}
	if a := testing.AllocsPerRun(100, func() { tr.io("/d/f", u, 2_000_000) }); a != 0 {
		t.Errorf("io: %v allocations per line, want 0", a)
	}
	tr.close()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "fio version 3 iolog\n94 /d/f write 4096 4096\n235 /d/f datasync 4096 0\n" +
		"240 /d/f sync_file_range 4096 0\n1000 /d/f trim 8192 8192\n1100 /d/f sync 8192 0\n1200 /d/f read 512 512\n"
	if s := string(got); len(s) < len(want) || s[:len(want)] != want {
		t.Errorf("trace:\n%s\nwant it to start:\n%s", s, want)
	}
}

// TestReplayTravelsWithTask checks that the trace read while planning
// reaches the worker through the plan, not behind its back: the worker
// given the planned trace sizes its buffers for the trace's largest I/O
// and replays it, and one given none fails.
func TestReplayTravelsWithTask(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "trace")
	if err := os.WriteFile(log, []byte("fio version 2 iolog\n"+dir+"/f add\n"+dir+"/f read 0 65536\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	j := jobOf(t, "name=j", "ioengine=null", "bs=4k", "read_iolog="+log)
	info, err := engine.Lookup(j.IOEngine)
	if err != nil {
		t.Fatal(err)
	}
	files, tl, err := planJobFiles(j, io.Discard, false)
	if err != nil {
		t.Fatal(err)
	}
	if tl == nil || len(files) != 1 || files[0].size != 65536 {
		t.Fatalf("planned trace %v, files %d", tl, len(files))
	}
	w, err := newWorker(j, info, files, tl)
	if err != nil {
		t.Fatal(err)
	}
	defer w.release()
	if w.trace == nil || w.trace.replay == nil {
		t.Fatal("the worker has no replay")
	}
	if n := len(w.units[0].Buf); n < 65536 {
		t.Errorf("unit buffer %d bytes, want room for the trace's 64 KiB I/O", n)
	}
	if w2, err := newWorker(j, info, files, nil); err == nil {
		w2.release()
		t.Error("a worker without its planned trace did not fail")
	}
}
