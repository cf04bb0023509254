package conformance

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mountExt4 makes an ext4 file system of size bytes on a loop device over
// a file in a temporary directory, mounts it and returns the mount point;
// all is undone when t ends. Needs root.
func mountExt4(t *testing.T, size int64) string {
	t.Helper()
	requireRoot(t, "make and mount an ext4 file system")
	dir := t.TempDir()
	back := filepath.Join(dir, "ext4.img")
	if err := os.WriteFile(back, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(back, size); err != nil {
		t.Fatal(err)
	}
	dev := loopOver(t, back)
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", dev).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4: %v: %s", err, out)
	}
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", dev, mnt).CombinedOutput(); err != nil {
		t.Skipf("mount %s: %v: %s", dev, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	return mnt
}

// TestE4defrag runs the e4defrag engine with fio 3.33 and gofio on an
// ext4 file system made for the test (a loop device over a file), each
// in a directory of its own, and compares the exit status, the error
// lines (pid masked), the JSON's deterministic values (io_bytes and
// total_ios per direction, syncs) and the files left with their sizes.
// Covered: the donor preallocated to filesize= (inplace=0), allocated per
// write (inplace=1, the donor left empty), direct=1, random writes, reads
// and fsync=N refused in td_io_queue, the missing filesize= (EINVAL in
// io_queue_init) and the missing donorname.
func TestE4defrag(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	mnt := mountExt4(t, 96<<20)
	pid := regexp.MustCompile(`pid=\d+`)
	cases := []struct{ name, args string }{
		{"inplace=0", "--filesize=4m --rw=write"},
		{"inplace=0 direct randwrite", "--filesize=4m --rw=randwrite --direct=1"},
		{"inplace=1", "--inplace=1 --rw=write"},
		{"inplace=1 randwrite", "--inplace=1 --rw=randwrite"},
		{"read refused", "--filesize=4m --rw=read"},
		{"fsync refused", "--filesize=4m --rw=write --fsync=4"},
		{"no filesize", "--rw=write"},
		{"donor in directory", "--filesize=4m --rw=write --donorname=other.def --directory={DIR}"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := func(bin, who string) (result, []string) {
				dir := filepath.Join(mnt, fmt.Sprintf("%s%d", who, i))
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				a := args("--name=d --ioengine=e4defrag --donorname=file.def --filename=file1 --size=4m --bs=32k --output-format=json " + c.args)
				r := runIn(bin, dir, a)
				var files []string
				ents, _ := os.ReadDir(dir)
				for _, e := range ents {
					if fi, err := e.Info(); err == nil {
						files = append(files, fmt.Sprintf("%s %d", e.Name(), fi.Size()))
					}
				}
				sort.Strings(files)
				os.RemoveAll(dir)
				return r, files
			}
			fr, ff := run(fioPath, "fio")
			gr, gf := run(gofio, "gofio")
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
			}
			// fio prints its "fio: pid=" line on stdout before the JSON,
			// gofio on stderr (docs/compat.md: runtime messages); the
			// source file named in it is masked.
			fileMask := regexp.MustCompile(`/file:[^,]*,`)
			errLines := func(r result) []string {
				var out []string
				for _, l := range append(lines(r.stderr), lines(r.stdout[:max(0, strings.Index(r.stdout, "{\n"))])...) {
					out = append(out, fileMask.ReplaceAllString(pid.ReplaceAllString(l, "pid=N"), "/file:F,"))
				}
				sort.Strings(out)
				return out
			}
			if diff := cmp.Diff(errLines(fr), errLines(gr)); diff != "" {
				t.Errorf("error lines (-fio +gofio):\n%s", diff)
			}
			fj, gj := jsonOf(t, "fio", fr), jsonOf(t, "gofio", gr)
			fv := append(DeterministicJSON(fj, IOPerDir, fr.dir, "{DIR}"), "sync/total_ios="+fj.Get("jobs").Kids[0].Get("sync", "total_ios").Text)
			gv := append(DeterministicJSON(gj, IOPerDir, gr.dir, "{DIR}"), "sync/total_ios="+gj.Get("jobs").Kids[0].Get("sync", "total_ios").Text)
			if diff := cmp.Diff(fv, gv); diff != "" {
				t.Errorf("JSON deterministic values (-fio +gofio):\n%s", diff)
			}
			if diff := cmp.Diff(ff, gf); diff != "" {
				t.Errorf("files left (-fio +gofio):\n%s", diff)
			}
		})
	}
	t.Run("no donorname", func(t *testing.T) {
		a := args("--name=d --ioengine=e4defrag --filename=" + filepath.Join(mnt, "nodonor") + " --size=1m --rw=write")
		fr, gr := runIn(fioPath, t.TempDir(), a), runIn(gofio, t.TempDir(), a)
		if fr.rc != 1 || gr.rc != 1 || fr.stderr != gr.stderr {
			t.Errorf("exit status and stderr: fio %d %q, gofio %d %q", fr.rc, fr.stderr, gr.rc, gr.stderr)
		}
		if !hasLine(pid.ReplaceAllString(gr.stdout, "pid=N"), "fio: pid=N, err=1/") {
			t.Errorf("gofio's stdout lacks fio's line \"fio: pid=N, err=1/\":\n%s", head(gr.stdout))
		}
	})
}
