package runner

import (
	"os"
	"path/filepath"
	"testing"
)

// TestZBDWaitFor runs a reader that waits (wait_for) for the writer of
// the zones it reads: as in fio, it starts once the writer has ended, so
// it reads exactly the two zones written, then finds no more data.
func TestZBDWaitFor(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "z"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(256 << 10); err != nil {
		t.Fatal(err)
	}
	f.Close()
	zbd := []string{"filename=z", "zonemode=zbd", "zonesize=64k", "bs=4k"}
	args := append(append([]string{"name=w", "rw=write", "offset=128k", "size=128k"}, zbd...),
		append([]string{"name=r", "wait_for=w", "rw=read", "size=256k"}, zbd...)...)
	oc, errs := runJobs(t, dir, args...)
	if len(oc.Result.Jobs) != 2 {
		t.Fatalf("%d jobs reported; errors %q", len(oc.Result.Jobs), errs)
	}
	w, _ := dirStats(&oc.Result.Jobs[0])
	r, _ := dirStats(&oc.Result.Jobs[1])
	if w[1] != 128<<10 || r[0] != 128<<10 {
		t.Errorf("written %d, read %d; want 128 KiB each (errors %q)", w[1], r[0], errs)
	}
}
