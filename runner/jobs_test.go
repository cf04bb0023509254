package runner

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/runner/host"
)

// fileInfo is a file left in a test directory: name, size and mode.
type fileInfo struct {
	name string
	size int64
	mode os.FileMode
}

func listDir(t *testing.T, dir string) []fileInfo {
	t.Helper()
	var out []fileInfo
	filepath.Walk(dir, func(p string, st os.FileInfo, err error) error {
		if err == nil && st.Mode().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, fileInfo{rel, st.Size(), st.Mode().Perm()})
		}
		return nil
	})
	sort.Slice(out, func(a, b int) bool { return out[a].name < out[b].name })
	return out
}

// Jobs of the file and size engines, with the values fio 3.33 gives for
// the same command lines: bytes and I/Os, latency samples, files left.
func TestEngineJobs(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		bytes [3]uint64
		ios   [3]uint64
		clatN uint64 // completion latency samples of the job's direction
		latN  uint64
		files []fileInfo
		err   string // text on the error stream; "" for a clean run
	}{
		{
			// filecreate: one timed create per file, no data, files 0600.
			name: "filecreate", args: []string{"ioengine=filecreate", "nrfiles=3", "filesize=4k", "bs=1k"},
			bytes: [3]uint64{12288}, ios: [3]uint64{12}, clatN: 3,
			files: []fileInfo{{"a.0.0", 0, 0o600}, {"a.0.1", 0, 0o600}, {"a.0.2", 0, 0o600}},
		},
		{
			// filestat: files laid out, one timed stat per file.
			name: "filestat", args: []string{"ioengine=filestat", "nrfiles=3", "filesize=4k", "bs=1k", "stat_type=lstat"},
			bytes: [3]uint64{12288}, ios: [3]uint64{12}, clatN: 3,
			files: []fileInfo{{"a.0.0", 4096, 0o644}, {"a.0.1", 4096, 0o644}, {"a.0.2", 4096, 0o644}},
		},
		{
			// filedelete: laid out, then each unlinked (timed).
			name: "filedelete", args: []string{"ioengine=filedelete", "nrfiles=3", "filesize=4k", "bs=1k", "rw=write"},
			bytes: [3]uint64{0, 12288}, ios: [3]uint64{0, 12}, clatN: 3,
		},
		{
			// ftruncate: each write sets the size to its offset; the last
			// one leaves 60 KiB.
			name: "ftruncate", args: []string{"ioengine=ftruncate", "filesize=64k", "rw=write"},
			bytes: [3]uint64{0, 65536}, ios: [3]uint64{0, 16}, clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 61440, 0o644}},
		},
		{
			// ftruncate refuses reads in td_io_queue.
			name: "ftruncate read", args: []string{"ioengine=ftruncate", "filesize=64k"},
			ios:   [3]uint64{1},
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
			err:   "err=22/file:runner, func=td_io_queue, error=Invalid argument",
		},
		{
			// falloc punches holes for trims.
			name: "falloc trim", args: []string{"ioengine=falloc", "filesize=64k", "rw=trim"},
			bytes: [3]uint64{0, 0, 65536}, ios: [3]uint64{0, 0, 16}, clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
		},
		{
			// falloc opens its files read-write whatever the direction
			// (fio 3.33, strace): a read allocates, keeping the size.
			name: "falloc read", args: []string{"ioengine=falloc", "filesize=64k"},
			bytes: [3]uint64{65536}, ios: [3]uint64{16}, clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
		},
		{
			// A trim on a regular file is BLKDISCARD: ENOTTY in td_io_queue.
			name: "psync trim", args: []string{"ioengine=psync", "filesize=64k", "rw=trim"},
			ios:   [3]uint64{0, 0, 1},
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
			err:   "err=25/file:runner, func=td_io_queue, error=Inappropriate ioctl for device",
		},
		{
			// mmap, vsync, pvsync, pvsync2 and posixaio move every byte.
			name: "mmap", args: []string{"ioengine=mmap", "filesize=64k", "rw=randrw"},
			clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
		},
		{
			name: "posixaio", args: []string{"ioengine=posixaio", "iodepth=4", "filesize=64k", "rw=randwrite"},
			bytes: [3]uint64{0, 65536}, ios: [3]uint64{0, 16}, clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
		},
		{
			name: "vsync", args: []string{"ioengine=vsync", "filesize=64k", "rw=write"},
			bytes: [3]uint64{0, 65536}, ios: [3]uint64{0, 16}, clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
		},
		{
			name: "pvsync2 hipri", args: []string{"ioengine=pvsync2", "hipri", "filesize=64k", "rw=write"},
			bytes: [3]uint64{0, 65536}, ios: [3]uint64{0, 16}, clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
		},
		{
			// unlink removes the files when the job is done.
			name: "unlink", args: []string{"filesize=64k", "rw=write", "unlink=1"},
			bytes: [3]uint64{0, 65536}, ios: [3]uint64{0, 16}, clatN: 16, latN: 16,
		},
		{
			// unlink_each_loop removes them between loops; the last loop's
			// file, created by the job's open, stays (mode 0600, as fio).
			name: "unlink_each_loop", args: []string{"filesize=64k", "rw=write", "loops=3", "unlink_each_loop=1"},
			bytes: [3]uint64{0, 3 * 65536}, ios: [3]uint64{0, 48}, clatN: 48, latN: 48,
			files: []fileInfo{{"a.0.0", 65536, 0o600}},
		},
		{
			// create_on_open: no layout; the job's open creates the file.
			name: "create_on_open", args: []string{"filesize=64k", "rw=write", "create_on_open=1"},
			bytes: [3]uint64{0, 65536}, ios: [3]uint64{0, 16}, clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 65536, 0o600}},
		},
		{
			// allow_file_create=0 with no file: fio's one-line refusal.
			name: "allow_file_create", args: []string{"filesize=64k", "allow_file_create=0"},
			err: "fio: file creation disallowed by allow_file_create=0",
		},
		{
			// The sync options: syncs are counted apart from the writes.
			name: "fsync", args: []string{"filesize=64k", "rw=write", "fsync=4", "sync=dsync", "fsync_on_close=1", "end_fsync=1"},
			bytes: [3]uint64{0, 65536}, ios: [3]uint64{0, 16}, clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
		},
		{
			// Buffers: shared memory, a pattern, and what each write gets.
			name: "buffers", args: []string{"filesize=64k", "rw=write", "mem=shm", "buffer_pattern=0xdeadbeef", "iomem_align=8k"},
			bytes: [3]uint64{0, 65536}, ios: [3]uint64{0, 16}, clatN: 16, latN: 16,
			files: []fileInfo{{"a.0.0", 65536, 0o644}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			oc, errs := runJobs(t, dir, append([]string{"name=a"}, c.args...)...)
			if c.err == "" && (oc.Failed != 0 || errs != "") {
				t.Fatalf("job failed: %s", errs)
			}
			if c.err != "" && (oc.Failed != 1 || !strings.Contains(errs, c.err)) {
				t.Fatalf("errors %q, %d failed; want %q", errs, oc.Failed, c.err)
			}
			if len(oc.Result.Jobs) > 0 {
				j := &oc.Result.Jobs[0]
				bytes, ios := dirStats(j)
				if c.name != "mmap" && (bytes != c.bytes || ios != c.ios) {
					t.Errorf("bytes %v, ios %v; want %v, %v", bytes, ios, c.bytes, c.ios)
				}
				var clatN, latN uint64
				for d := range 3 {
					clatN += j.Stats.Dir[d].Clat.N
					latN += j.Stats.Dir[d].Lat.N
				}
				if clatN != c.clatN || latN != c.latN {
					t.Errorf("latency samples clat %d lat %d; want %d, %d", clatN, latN, c.clatN, c.latN)
				}
			}
			if got := listDir(t, dir); !equalFiles(got, c.files) {
				t.Errorf("files %v; want %v", got, c.files)
			}
		})
	}
}

func equalFiles(a, b []fileInfo) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// cpuio counts units but no bytes, and runs for its runtime.
func TestCPUIOJob(t *testing.T) {
	start := time.Now()
	oc, errs := runJobs(t, t.TempDir(), "name=burn", "ioengine=cpuio", "cpuload=50", "cpuchunks=20000", "runtime=300ms", "time_based")
	j := &oc.Result.Jobs[0]
	bytes, ios := dirStats(j)
	if bytes != [3]uint64{} || ios[0] < 3 || ios[0] > 9 {
		t.Errorf("bytes %v ios %v; want no bytes and about 7 units (40 ms cycles in 300 ms)", bytes, ios)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("ran %v; want the runtime", d)
	}
	if !strings.Contains(errs, "burn (noop): ioengine=cpuio, cpuload=50, cpucycle=20000") {
		t.Errorf("no cpuio announcement in %q", errs)
	}
}

// --readonly refuses writing jobs before touching a file.
func TestReadOnlyRefusal(t *testing.T) {
	dir := t.TempDir()
	for _, rw := range []string{"write", "randtrim", "trimwrite", "randrw"} {
		p := planOf(t, "name=a", "directory="+dir, "size=64k", "rw="+rw)
		if _, err := Run(p, Config{ReadOnly: true}); err != ErrReadOnly {
			t.Errorf("rw=%s: Run = %v; want %v", rw, err, ErrReadOnly)
		}
	}
	if files := listDir(t, dir); len(files) != 0 {
		t.Errorf("files created: %v", files)
	}
	// A read job does not extend a file too small for it.
	path := filepath.Join(dir, "small")
	os.WriteFile(path, make([]byte, 8192), 0o644)
	p := planOf(t, "name=a", "filename="+path, "size=64k")
	var errs strings.Builder
	if _, err := Run(p, Config{ReadOnly: true, Errors: &errs, Info: &errs}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Size() != 8192 || !strings.Contains(errs.String(), "fio: refusing extend of file due to read-only") {
		t.Errorf("size %d, errors %q; want the file unchanged and fio's refusal", st.Size(), errs.String())
	}
}

// The mount table is read for block devices by device number.
func TestMountedDevices(t *testing.T) {
	var dev string
	var st unix.Stat_t
	for _, d := range []string{"/dev/loop0", "/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/ram0"} {
		if unix.Stat(d, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFBLK {
			dev = d
			break
		}
	}
	if dev == "" {
		t.Skip("no block device to name in a mount table")
	}
	table := filepath.Join(t.TempDir(), "mounts")
	os.WriteFile(table, []byte("proc /proc proc rw 0 0\n"+dev+" /mnt\\040x ext4 rw 0 0\n"), 0o644)
	got := host.MountedDevices(table)
	if len(got) != 1 || !got[st.Rdev] {
		t.Errorf("mountedDevices = %v; want only %s (%d)", got, dev, st.Rdev)
	}
}

// A file too small for the job is removed and laid out anew, as fio does
// (strace: unlink, then open with O_CREAT): the path gets a new file, and
// a hard link to the old one keeps the old one.
func TestLayoutReplacesSmallFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, filepath.Join(dir, "link")); err != nil {
		t.Skip("no hard links here:", err)
	}
	oc, errs := runJobs(t, dir, "name=a", "filename=f", "rw=write", "size=8k")
	if oc.Failed != 0 {
		t.Fatalf("job failed: %s", errs)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "link")); string(got) != "old" {
		t.Errorf("the link to the old file holds %d bytes; want the old file's 3", len(got))
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 8192 {
		t.Errorf("f: %v; want 8192 bytes", err)
	}
}

// The directories above a job's file are created, mode 0700, as fio does
// (create_on_open too); one that cannot be made fails the job with fio's
// message, error 0 in its report, and counts for the exit status.
func TestMissingParentDirs(t *testing.T) {
	for _, extra := range [][]string{{"rw=write"}, {"rw=read"}, {"rw=write", "create_on_open=1"}} {
		dir := t.TempDir()
		oc, errs := runJobs(t, dir, append([]string{"name=a", "filename=d1/d2/f", "size=8k"}, extra...)...)
		if oc.Failed != 0 {
			t.Errorf("%v: job failed: %s", extra, errs)
			continue
		}
		for _, d := range []string{"d1", "d1/d2"} {
			if st, err := os.Stat(filepath.Join(dir, d)); err != nil || st.Mode().Perm() != 0o700 {
				t.Errorf("%v: %s: %v, %v; want a directory of mode 0700", extra, d, st, err)
			}
		}
		if st, err := os.Stat(filepath.Join(dir, "d1/d2/f")); err != nil || st.Size() != 8192 {
			t.Errorf("%v: the file: %v; want 8192 bytes", extra, err)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plain"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	oc, errs := runJobs(t, dir, "name=a", "filename=plain/sub/deeper/f", "rw=write", "size=8k")
	want := "fio: failed to create dir (" + filepath.Join(dir, "plain/sub") + "): Not a directory\n"
	if oc.Failed != 1 || len(oc.Result.Jobs) != 1 || oc.Result.Jobs[0].Error != 0 || errs != want {
		t.Errorf("a file in the way: %d failed, %d reports, stderr %q; want 1 failed, 1 report with error 0, %q",
			oc.Failed, len(oc.Result.Jobs), errs, want)
	}
}
