//go:build linux

package diskutil

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/output"
)

func TestParseDiskStat(t *testing.T) {
	s, ok := parseDiskStat([]byte("   46392     5148  1575770     8650     3481     7446   884096     2753        0     3716    11697     3439       69   307976      262      542       31\n"))
	if !ok {
		t.Fatal("parse failed")
	}
	want := diskStat{
		ios:         [2]uint64{46392, 3481},
		merges:      [2]uint64{5148, 7446},
		sectors:     [2]uint64{1575770, 884096},
		ticks:       [2]uint64{8650, 2753},
		ioTicks:     3716,
		timeInQueue: 11697,
	}
	if s != want {
		t.Errorf("got %+v, want %+v", s, want)
	}
	if _, ok := parseDiskStat([]byte("1 2 3 4 5 6 7 8 9 10\n")); ok {
		t.Error("10 fields accepted")
	}
	if _, ok := parseDiskStat([]byte("1 2 3 4 5 6 7 8 9 10 x\n")); ok {
		t.Error("non-number accepted")
	}
}

// fakeSys builds a sysfs-like tree: sda (8:0) with partition sda1 (8:1),
// vdb (254:16), md0 (9:0) whose slaves are sda1 and vdb, and dm-0
// (253:0) whose slave is md0.
func fakeSys(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	devs := filepath.Join(root, "devices")
	mk := func(dir, dev string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "dev"), dev+"\n")
		write(t, filepath.Join(dir, "stat"), statLine(0, 0, 0, 0, 0))
	}
	mk(filepath.Join(devs, "sda"), "8:0")
	os.MkdirAll(filepath.Join(devs, "sda", "queue"), 0o755)
	os.MkdirAll(filepath.Join(devs, "sda", "slaves"), 0o755)
	mk(filepath.Join(devs, "sda", "sda1"), "8:1")
	mk(filepath.Join(devs, "vdb"), "254:16")
	os.MkdirAll(filepath.Join(devs, "vdb", "queue"), 0o755)
	mk(filepath.Join(devs, "md0"), "9:0")
	os.MkdirAll(filepath.Join(devs, "md0", "queue"), 0o755)
	os.MkdirAll(filepath.Join(devs, "md0", "slaves"), 0o755)
	symlink(t, filepath.Join(devs, "sda", "sda1"), filepath.Join(devs, "md0", "slaves", "sda1"))
	symlink(t, filepath.Join(devs, "vdb"), filepath.Join(devs, "md0", "slaves", "vdb"))
	mk(filepath.Join(devs, "dm-0"), "253:0")
	os.MkdirAll(filepath.Join(devs, "dm-0", "slaves"), 0o755)
	symlink(t, filepath.Join(devs, "md0"), filepath.Join(devs, "dm-0", "slaves", "md0"))
	block := filepath.Join(root, "block")
	os.MkdirAll(block, 0o755)
	for _, n := range []string{"sda", "vdb", "md0", "dm-0"} {
		symlink(t, filepath.Join(devs, n), filepath.Join(block, n))
	}
	return root
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, old, new string) {
	t.Helper()
	if err := os.Symlink(old, new); err != nil {
		t.Fatal(err)
	}
}

// statLine is a stat file line with the given reads, writes, read ticks,
// io_ticks and time in queue (merges = ios/2, write ticks = 2×read ticks).
func statLine(r, w, rt, io, q uint64) string {
	return fmt.Sprintf("%8d %8d %8d %8d %8d %8d %8d %8d %8d %8d %8d 0 0 0 0 0 0\n",
		r, r/2, 8*r, rt, w, w/2, 8*w, 2*rt, 0, io, q)
}

func TestDiskTrackerFakeSysfs(t *testing.T) {
	root := fakeSys(t)
	tr := &Tracker{sysRoot: root}
	tr.mu.Lock()
	tr.addDev(8, 1)   // partition → sda
	tr.addDev(8, 0)   // same disk again
	tr.addDev(253, 0) // dm-0 → md0 → sda1, vdb
	tr.addDev(1, 99)  // unknown: ignored
	tr.mu.Unlock()

	var names []string
	for _, e := range tr.entries {
		names = append(names, e.name)
	}
	if diff := cmp.Diff([]string{"sda", "dm-0", "md0", "sda1", "vdb"}, names); diff != "" {
		t.Fatalf("entries (-want +got):\n%s", diff)
	}

	devs := filepath.Join(root, "devices")
	set := func(rel string, r, w, rt, io, q uint64) {
		write(t, filepath.Join(devs, rel, "stat"), statLine(r, w, rt, io, q))
	}
	t0 := time.Unix(1000, 0)
	tr.mu.Lock()
	for _, e := range tr.entries {
		tr.baseline(e, t0)
	}
	set("sda", 100, 10, 50, 125, 300)
	set("sda/sda1", 40, 4, 20, 250, 80)
	set("vdb", 60, 6, 30, 100, 90)
	set("md0", 100, 10, 0, 200, 0)
	set("dm-0", 10, 1, 5, 300, 7)
	tr.sample(t0.Add(250*time.Millisecond + 900*time.Microsecond)) // 250 ms counted
	set("sda", 150, 10, 50, 250, 300)
	tr.sample(t0.Add(500*time.Millisecond + 100*time.Microsecond)) // 249 ms counted
	tr.mu.Unlock()

	got := tr.Disks()
	want := []output.Disk{
		{Name: "sda", ReadIOs: 150, WriteIOs: 10, ReadMerges: 75, WriteMerges: 5, ReadTicks: 50, WriteTicks: 100, InQueue: 300, Util: 100 * 250.0 / 499},
		{Name: "dm-0", ReadIOs: 10, WriteIOs: 1, ReadMerges: 5, WriteMerges: 0, ReadTicks: 5, WriteTicks: 10, InQueue: 7, Util: 100 * 300.0 / 499,
			Slaves: &output.DiskAggregate{ReadIOs: 100, WriteIOs: 10, ReadMerges: 50, WriteMerges: 5, ReadTicks: 0, WriteTicks: 0, InQueue: 0, Util: 100 * 200.0 / 499}},
		{Name: "md0", ReadIOs: 100, WriteIOs: 10, ReadMerges: 50, WriteMerges: 5, Util: 100 * 200.0 / 499,
			Slaves: &output.DiskAggregate{ReadIOs: 50, WriteIOs: 5, ReadMerges: 25, WriteMerges: 2, ReadTicks: 25, WriteTicks: 50, InQueue: 85, Util: 100 * 250.0 / 499}},
		{Name: "sda1", ReadIOs: 40, WriteIOs: 4, ReadMerges: 20, WriteMerges: 2, ReadTicks: 20, WriteTicks: 40, InQueue: 80, Util: 100 * 250.0 / 499},
		{Name: "vdb", ReadIOs: 60, WriteIOs: 6, ReadMerges: 30, WriteMerges: 3, ReadTicks: 30, WriteTicks: 60, InQueue: 90, Util: 100 * 100.0 / 499},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Disks (-want +got):\n%s", diff)
	}
}

func TestDiskTrackerUtilCap(t *testing.T) {
	e := &diskEntry{msec: 100}
	e.acc.ioTicks = 150
	if u := e.util(); u != 100 {
		t.Errorf("util = %v, want 100", u)
	}
	e.msec = 0
	if u := e.util(); u != 0 {
		t.Errorf("util with msec 0 = %v, want 0", u)
	}
}

func TestDiskTrackerIgnores(t *testing.T) {
	tr := NewTracker()
	tr.Add("/dev/null") // character device
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		var st unix.Statfs_t
		if unix.Statfs("/dev/shm", &st) == nil && st.Type == unix.TMPFS_MAGIC {
			tr.Add("/dev/shm/gofio-does-not-exist")
		}
	}
	tr.Add("/nonexistent-dir/file")
	tr.Start()
	tr.Stop()
	if d := tr.Disks(); d != nil {
		t.Errorf("Disks() = %+v, want nil", d)
	}
}

// blockBacked reports whether dir's file system has a block device in sysfs.
func blockBacked(dir string) bool {
	maj, min, ok := deviceOf(dir)
	if !ok {
		return false
	}
	_, err := os.Stat(fmt.Sprintf("/sys/dev/block/%d:%d", maj, min))
	return err == nil
}

// TestDiskTrackerReal writes and fsyncs a file in a temp directory and
// checks the device found matches the one real fio names.
func TestDiskTrackerReal(t *testing.T) {
	dir := t.TempDir()
	if !blockBacked(dir) {
		t.Skipf("%s is not on a block device", dir)
	}
	name := filepath.Join(dir, "x")
	tr := NewTracker()
	tr.Add(name) // does not exist yet: its directory counts
	tr.Add(dir)
	tr.Start()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	for i := 0; i < 4; i++ {
		if _, err := f.Write(buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Wait for a 250 ms sample that counts the writes (a loaded machine
	// delays them, so no fixed wait is enough).
	for deadline := time.Now().Add(30 * time.Second); ; {
		if d := tr.Disks(); len(d) > 0 && d[0].WriteIOs > 0 {
			break
		}
		if time.Now().After(deadline) {
			break // the check below reports it
		}
		time.Sleep(10 * time.Millisecond)
	}
	tr.Stop()
	disks := tr.Disks()
	if len(disks) == 0 {
		t.Fatal("no disk found")
	}
	d := disks[0]
	t.Logf("%+v", d)
	if d.WriteIOs == 0 {
		t.Errorf("no write I/O counted on %s", d.Name)
	}
	if d.Util < 0 || d.Util > 100 {
		t.Errorf("util %v out of range", d.Util)
	}
	// Adding the file and its directory gave one entry.
	if len(disks) != 1 {
		t.Errorf("got %d entries, want 1: %+v", len(disks), disks)
	}

	fio, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio not installed: device name not compared")
	}
	out, err := exec.Command(fio, "--name=t", "--filename="+filepath.Join(dir, "fio"), "--size=4m",
		"--rw=write", "--output-format=json").Output()
	if err != nil {
		t.Fatalf("fio: %v", err)
	}
	var doc struct {
		DiskUtil []struct {
			Name string `json:"name"`
		} `json:"disk_util"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("fio json: %v\n%s", err, out)
	}
	var fioNames, ours []string
	for _, x := range doc.DiskUtil {
		fioNames = append(fioNames, x.Name)
	}
	for _, x := range disks {
		ours = append(ours, x.Name)
	}
	if diff := cmp.Diff(fioNames, ours); diff != "" {
		t.Errorf("device names (-fio +gofio):\n%s", diff)
	}
}

func TestDiskTrackerShortRunIsZero(t *testing.T) {
	dir := t.TempDir()
	if !blockBacked(dir) {
		t.Skipf("%s is not on a block device", dir)
	}
	tr := NewTracker()
	tr.Add(dir)
	tr.Start()
	tr.Stop() // well under 250 ms: nothing counted, as in fio
	for _, d := range tr.Disks() {
		if d != (output.Disk{Name: d.Name, Slaves: d.Slaves}) {
			t.Errorf("short run counted something: %+v", d)
		}
	}
}
