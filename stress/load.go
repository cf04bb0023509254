package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// loadConfig is the background load: CPU hogs, a disk writer over a file
// of bounded size and a bounded allocation kept resident.
type loadConfig struct {
	cpuHogs int    // busy-looping processes
	diskMB  int    // the disk writer's file size (0: no writer)
	memMB   int    // memory allocated and touched (0: none)
	dir     string // where the disk writer's file goes
}

// load is the running background load: child processes of this program
// (started with -hog), each in its own process group.
type load struct {
	procs []*exec.Cmd
}

// startLoad starts the hogs of c.
func startLoad(c loadConfig) (*load, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	l := &load{}
	start := func(args ...string) error {
		cmd := exec.Command(self, args...)
		cmd.Stderr = os.Stderr
		// Each hog runs in a session of its own, as unrelated work on a
		// machine does: with the kernel's autogroup scheduling a session
		// shares the CPU with the other sessions, so hogs in the harness's
		// own session would take their CPU from gofio (one session) but
		// not from fio (each job process calls setsid). docs/perf.md.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("load %v: %w", args, err)
		}
		l.procs = append(l.procs, cmd)
		return nil
	}
	for i := 0; i < c.cpuHogs; i++ {
		if err := start("-hog=cpu"); err != nil {
			l.stop()
			return nil, err
		}
	}
	if c.diskMB > 0 {
		if err := start("-hog=disk", "-hog-mb="+strconv.Itoa(c.diskMB), "-hog-dir="+c.dir); err != nil {
			l.stop()
			return nil, err
		}
	}
	if c.memMB > 0 {
		if err := start("-hog=mem", "-hog-mb="+strconv.Itoa(c.memMB)); err != nil {
			l.stop()
			return nil, err
		}
	}
	return l, nil
}

// stop kills the hogs and waits for them.
func (l *load) stop() {
	for _, p := range l.procs {
		p.Process.Kill()
		p.Wait()
	}
	l.procs = nil
}

// hog is the body of a -hog child; it runs until killed.
func hog(kind string, mb int, dir string) error {
	switch kind {
	case "cpu":
		runtime.GOMAXPROCS(1)
		x := uint64(1)
		for {
			x = x*6364136223846793005 + 1442695040888963407
			if x == 0 {
				fmt.Println(x) // never: keeps the loop from being dropped
			}
		}
	case "disk":
		// Rewrites a file of mb MiB in 1 MiB writes, syncing every 16 MiB,
		// from the start again once it is full.
		f, err := os.CreateTemp(dir, "stress-disk-")
		if err != nil {
			return err
		}
		os.Remove(f.Name()) // gone when the hog is killed
		buf := make([]byte, 1<<20)
		for i := range buf {
			buf[i] = byte(i * 131)
		}
		for off := 0; ; off = (off + 1) % mb {
			if _, err := f.WriteAt(buf, int64(off)<<20); err != nil {
				return err
			}
			if off%16 == 15 {
				f.Sync()
			}
		}
	case "mem":
		// Holds mb MiB and writes to every page of it every 100 ms, so
		// that it stays resident.
		mem := make([]byte, mb<<20)
		for {
			for i := 0; i < len(mem); i += 4096 {
				mem[i]++
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return fmt.Errorf("unknown hog %q", kind)
}

// scratchDir makes a temporary directory under base ("" for the
// system's).
func scratchDir(base, pattern string) (string, error) {
	d, err := os.MkdirTemp(base, pattern)
	if err != nil {
		return "", err
	}
	return filepath.Abs(d)
}
