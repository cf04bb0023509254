package conformance

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeviceEngineRefusals: the sg and io_uring_cmd engines on targets
// they refuse (there is no SCSI or NVMe device here). fio 3.33 refuses a
// regular or missing file for sg with "only works on block or character
// devices" (err=22), a device that does not answer READ CAPACITY (a
// loop device, /dev/null) with error 0; io_uring_cmd refuses all but
// character devices ("only works with nvme ns generic char devices") and
// a character device that is no NVMe namespace ("failed to fetch
// namespace-id"), with error 0. Compared: exit status, stderr, the
// normal report's lines, the JSON error, and that no file was created.
func TestDeviceEngineRefusals(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	targets := []struct {
		name  string
		file  string
		setup func(t *testing.T) string // returns the target's path
	}{
		{name: "regular file", setup: func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "reg")
			fillFile(t, p, 1<<20, 1)
			return p
		}},
		{name: "missing file", setup: func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing") }},
		{name: "dev null", setup: func(t *testing.T) string { return "/dev/null" }},
		{name: "loop device", setup: func(t *testing.T) string {
			back := filepath.Join(t.TempDir(), "back")
			fillFile(t, back, 1<<20, 2)
			return loopOver(t, back)
		}},
	}
	for _, eng := range []string{"sg", "io_uring_cmd"} {
		for _, tg := range targets {
			t.Run(eng+"/"+tg.name, func(t *testing.T) {
				path := tg.setup(t)
				for _, format := range []string{"normal", "json"} {
					a := args("--name=d --ioengine=" + eng + " --filename=" + path + " --size=64k --rw=write --output-format=" + format)
					fr, gr := runBoth(t, gofio, a)
					if fr.rc != 1 || gr.rc != 1 {
						t.Errorf("%s: exit status: fio %d, gofio %d; want 1", format, fr.rc, gr.rc)
					}
					if fr.stderr != gr.stderr {
						t.Errorf("%s: stderr: fio %q, gofio %q", format, fr.stderr, gr.stderr)
					}
					if format == "normal" {
						if diff := cmp.Diff(lines(fr.stdout), lines(gr.stdout)); diff != "" {
							t.Errorf("stdout (-fio +gofio):\n%s", diff)
						}
						continue
					}
					fe := jsonOf(t, "fio", fr).Get("jobs").Kids[0].Get("error").Text
					ge := jsonOf(t, "gofio", gr).Get("jobs").Kids[0].Get("error").Text
					if fe != ge {
						t.Errorf("JSON error: fio %s, gofio %s", fe, ge)
					}
				}
				if strings.HasSuffix(path, "missing") {
					if _, err := os.Stat(path); err == nil {
						t.Errorf("%s was created", path)
					}
				}
			})
		}
	}
}

// zramDevice adds a zram device of size (zram's disksize syntax) of its
// own (never zram0, which others may use) and returns its path; it is
// removed when t ends. Needs root and the zram module.
func zramDevice(t *testing.T, size string) string {
	t.Helper()
	requireRoot(t, "add a zram device")
	b, err := os.ReadFile("/sys/class/zram-control/hot_add")
	if err != nil {
		t.Skipf("cannot add a zram device here: %v", err)
	}
	n := strings.TrimSpace(string(b))
	t.Cleanup(func() {
		if err := os.WriteFile("/sys/class/zram-control/hot_remove", []byte(n), 0); err != nil {
			t.Errorf("zram hot_remove %s: %v", n, err)
		}
	})
	if err := os.WriteFile("/sys/block/zram"+n+"/disksize", []byte(size), 0); err != nil {
		t.Fatalf("zram%s disksize: %v", n, err)
	}
	return "/dev/zram" + n
}

// TestBlockDevices runs jobs on block devices with fio 3.33 and gofio:
// direct I/O and trims (rw=trim, randtrim, trimwrite, and randwrite) with
// psync, libaio and io_uring on a loop device over a file and on a zram
// device of the test's own; fill_device; writes to a mounted device
// (refused without allow_mounted_write, done with it; a trim of it fails
// with EBUSY). Compared: exit status, the JSON's error, io_bytes and
// total_ios per direction and the disk_util device names, and stderr.
// Needs root (skips with a note otherwise).
func TestBlockDevices(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	requireRoot(t, "set up loop and zram devices")
	t.Parallel() // devices and a mount of its own; its cases one after the other
	back := filepath.Join(t.TempDir(), "back")
	fillFile(t, back, 32<<20, 5)
	loop := loopOver(t, back)
	zram := zramDevice(t, "32M")
	mnt := mountExt4(t, 32<<20)
	mounted := ""
	if out, err := exec.Command("findmnt", "-n", "-o", "SOURCE", mnt).Output(); err == nil {
		mounted = strings.TrimSpace(string(out))
	}
	type devCase struct{ name, args string }
	var cases []devCase
	for _, dev := range []string{loop, zram} {
		for _, eng := range []string{"psync", "libaio", "io_uring"} {
			for _, rw := range []string{"trim", "randtrim", "trimwrite", "randwrite"} {
				cases = append(cases, devCase{filepath.Base(dev) + "/" + eng + "/" + rw,
					"--filename=" + dev + " --ioengine=" + eng + " --rw=" + rw + " --bs=64k --size=8m --direct=1 --iodepth=4"})
			}
		}
		cases = append(cases, devCase{filepath.Base(dev) + "/fill_device", "--filename=" + dev + " --fill_device=1 --rw=write --bs=256k --direct=1"})
	}
	if mounted != "" {
		cases = append(cases,
			devCase{"mounted/write refused", "--filename=" + mounted + " --rw=write --size=1m"},
			devCase{"mounted/allow_mounted_write", "--filename=" + mounted + " --rw=write --size=1m --offset=28m --allow_mounted_write=1 --direct=1"},
			devCase{"mounted/trim", "--filename=" + mounted + " --rw=trim --size=1m --offset=28m"})
	}
	pid := regexp.MustCompile(`pid=\d+, err=(\d+)/file:[^,]*,`)
	// The devices side by side (go test's time), each device's cases one
	// after the other: a case's name starts with its device's.
	var devices []string
	byDevice := map[string][]devCase{}
	for _, c := range cases {
		dev, name, _ := strings.Cut(c.name, "/")
		if byDevice[dev] == nil {
			devices = append(devices, dev)
		}
		byDevice[dev] = append(byDevice[dev], devCase{name, c.args})
	}
	for _, dev := range devices {
		t.Run(dev, func(t *testing.T) {
			t.Parallel()
			for _, c := range byDevice[dev] {
				blockDevCase(t, gofio, pid, c.name, c.args)
			}
		})
	}
}

// blockDevCase runs one of TestBlockDevices' cases, the job args, with
// fio and then gofio as subtest name.
func blockDevCase(t *testing.T, gofio string, pid *regexp.Regexp, name, jobArgs string) {
	t.Run(name, func(t *testing.T) {
		a := append(args("--name=b "+jobArgs), "--output-format=json")
		fr := runIn(fioPath, t.TempDir(), a)
		gr := runIn(gofio, t.TempDir(), a)
		if fr.rc != gr.rc {
			t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
		}
		// gofio prints the "fio: pid=" line on stderr, fio on stdout
		// before the JSON (docs/compat.md); compared without it.
		dropPid := func(s string) string { return pid.ReplaceAllString(s, "pid=N, err=$1/file:F,") }
		fe := dropPid(fr.stderr + fr.stdout[:max(0, strings.Index(fr.stdout, "{\n"))])
		ge := dropPid(gr.stderr)
		if fe != ge {
			t.Errorf("messages: fio %q, gofio %q", fe, ge)
		}
		fv := DeterministicJSON(jsonOf(t, "fio", fr), IOPerDir)
		gv := DeterministicJSON(jsonOf(t, "gofio", gr), IOPerDir)
		if diff := cmp.Diff(fv, gv); diff != "" {
			t.Errorf("JSON deterministic values (-fio +gofio):\n%s", diff)
		}
	})
}
