package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// zramDevice is the fast device of the zram jobs: set up on first use,
// reset by teardown.
type zramDevice struct {
	path  string
	size  int64
	state zramUse // what it is set up for now (noZram: not yet)
	err   error   // why it cannot be used, once known
	mnt   string  // mount point of its file system, when zramFS
	owned bool    // the bench gave it its disksize: teardown resets it
	noted bool    // the skip note was printed
}

// sysDir is the device's directory under /sys/block.
func (z *zramDevice) sysDir() string { return "/sys/block/" + filepath.Base(z.path) }

// setup makes the device ready for a job of kind use: a disksize and the
// raw jobs' region written; for zramFS, an ext4 file system mounted
// under work. A device that cannot be used stays so (the same error).
func (z *zramDevice) setup(use zramUse, work string) error {
	if z.err != nil || z.state == use {
		return z.err
	}
	if z.state == noZram {
		z.err = z.claim()
		if z.err != nil {
			return z.err
		}
		z.state = zramRaw
	}
	if use == zramFS && z.state != zramFS {
		z.mnt = filepath.Join(work, "zram-mnt")
		if err := os.MkdirAll(z.mnt, 0o755); err != nil {
			z.err = err
			return err
		}
		if out, err := exec.Command("mkfs.ext4", "-q", "-F", z.path).CombinedOutput(); err != nil {
			z.err = fmt.Errorf("mkfs.ext4 %s: %v: %s", z.path, err, strings.TrimSpace(string(out)))
			return z.err
		}
		if out, err := exec.Command("mount", z.path, z.mnt).CombinedOutput(); err != nil {
			z.err = fmt.Errorf("mount %s: %v: %s", z.path, err, strings.TrimSpace(string(out)))
			return z.err
		}
		z.state = zramFS
	}
	return nil
}

// claim gives the free device its disksize and writes the region the raw
// jobs read.
func (z *zramDevice) claim() error {
	if os.Geteuid() != 0 {
		return errors.New("not root (they set up " + z.path + ")")
	}
	if _, err := os.Stat(z.sysDir()); err != nil {
		// The module may not be loaded yet; loading it adds zram0.
		_ = exec.Command("modprobe", "zram").Run()
		if _, err := os.Stat(z.sysDir()); err != nil {
			return fmt.Errorf("%s: no such zram device (modprobe zram?)", z.path)
		}
	}
	b, err := os.ReadFile(z.sysDir() + "/disksize")
	if err != nil {
		return err
	}
	if n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); n != 0 {
		return fmt.Errorf("%s is in use (disksize %d): reset it or name another with -zram", z.path, n)
	}
	if err := os.WriteFile(z.sysDir()+"/disksize", []byte(strconv.FormatInt(z.size, 10)), 0); err != nil {
		return fmt.Errorf("%s disksize: %w", z.path, err)
	}
	z.owned = true
	if z.size < zramRegion {
		return fmt.Errorf("-zram-size %d is below the raw jobs' region of %d bytes", z.size, zramRegion)
	}
	return fillDevice(z.path, zramRegion)
}

// teardown unmounts the file system and resets the device (which frees
// its memory), if the bench set it up.
func (z *zramDevice) teardown() {
	if z.state == zramFS {
		if out, err := exec.Command("umount", z.mnt).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "bench: umount %s: %v: %s\n", z.mnt, err, out)
			return
		}
	}
	if z.owned {
		if err := os.WriteFile(z.sysDir()+"/reset", []byte("1"), 0); err != nil {
			fmt.Fprintf(os.Stderr, "bench: resetting %s: %v\n", z.path, err)
		}
	}
	z.state, z.owned = noZram, false
}

// expand puts the device's path in place of "{dev}".
func (z *zramDevice) expand(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "{dev}", z.path)
	}
	return out
}

// expandDir puts dir in place of "{dir}".
func expandDir(args []string, dir string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "{dir}", dir)
	}
	return out
}

// fillDevice writes size bytes of the bench's data pattern at the start
// of the block device at path.
func fillDevice(path string, size int) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i*7 + 1)
	}
	for n := 0; n < size; n += len(buf) {
		if _, err := f.Write(buf); err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// layout has fio lay out the job's files (--create_only=1) in dir.
func layout(fio, dir string, args []string) error {
	cmd := exec.Command(fio, append(append([]string{}, args...), "--create_only=1", "--output=/dev/null")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}
