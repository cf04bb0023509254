package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// This file has the helpers of the tests that run gofio as a process,
// beside real fio: building the binary, finding fio, pseudo-terminals.

const fioMissing = "fio 3.33 not found: install it with `apt-get install -y fio` (CI's .ci/run does this)"

var (
	buildOnce sync.Once
	binDir    string
	binErr    error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// gofioBinary builds the gofio command once per test run and returns its
// path.
func gofioBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "gofio-bin-")
		if binErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, "gofio"), ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return filepath.Join(binDir, "gofio")
}

// fioBinary returns the path of real fio; a missing fio fails the test.
func fioBinary(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("fio")
	if err != nil {
		t.Fatal(fioMissing)
	}
	return p
}

// result is what a finished process left.
type result struct {
	status         int
	stdout, stderr string
	took           time.Duration // from the start, or from the signal
}

// exitStatus is the exit status of a finished command.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// openPTY opens a pseudo-terminal pair: the master to read what the
// program writes, the slave to hand it as its stdout.
func openPTY() (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("unlockpt: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("ptsname: %w", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

// runOnTerminal runs bin with args, its stdout a pseudo-terminal, and
// returns what appeared on the terminal (the terminal turns "\n" into
// "\r\n").
func runOnTerminal(t *testing.T, dir, bin string, args ...string) result {
	t.Helper()
	master, slave, err := openPTY()
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = slave, &errb
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&out, master) // ends with EIO once the slave is closed
		close(copied)
	}()
	start := time.Now()
	err = cmd.Run()
	slave.Close()
	<-copied
	return result{status: exitStatus(err), stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
}

// runUntil starts bin with args, waits until its stdout shows want (at
// once for ""), lets it run for delay, then calls act (which sends a signal or breaks a
// file) and returns the result, took measured from act.
func runUntil(t *testing.T, dir, bin, want string, delay time.Duration, act func(p *os.Process), args ...string) result {
	t.Helper()
	return runWhen(t, dir, bin, until{stdout: want}, delay, act, args...)
}

// until is what shows that a process is ready for the action: its stdout
// showing a text, then a file existing, then a process of the run (fio's
// job processes included) holding a file open for reading, then the
// run's processes having read at least read bytes; each "" (0) for no
// condition.
type until struct {
	stdout string
	file   string
	reads  string
	read   int64
}

// processTree returns pid and its descendants (/proc/PID/task/*/children).
func processTree(pid int) []int {
	procs := []int{pid}
	for i := 0; i < len(procs); i++ {
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", procs[i]))
		for _, task := range tasks {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", procs[i], task.Name()))
			for _, c := range strings.Fields(string(b)) {
				if n, err := strconv.Atoi(c); err == nil {
					procs = append(procs, n)
				}
			}
		}
	}
	return procs
}

// bytesRead returns how many bytes pid and its living descendants have
// read with read system calls (rchar of /proc/PID/io): a job reading
// its file from the page cache counts every pass.
func bytesRead(pid int) int64 {
	var total int64
	for _, p := range processTree(pid) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/io", p))
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "rchar:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				total += n
			}
		}
	}
	return total
}

// readsFile reports whether pid or one of its descendants has name open
// read-only (/proc/PID/fd and fdinfo).
func readsFile(pid int, name string) bool {
	for _, p := range processTree(pid) {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p))
		for _, fd := range fds {
			if link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", p, fd.Name())); err != nil || link != name {
				continue
			}
			info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%s", p, fd.Name()))
			if err != nil {
				continue
			}
			for _, l := range strings.Split(string(info), "\n") {
				if v, ok := strings.CutPrefix(l, "flags:"); ok {
					if f, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64); err == nil && f&unix.O_ACCMODE == unix.O_RDONLY {
						return true
					}
				}
			}
		}
	}
	return false
}

// runWhen is runUntil with the readiness of when: it starts bin with
// args, waits for when, lets it run for delay, then calls act.
func runWhen(t *testing.T, dir, bin string, when until, delay time.Duration, act func(p *os.Process), args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	pr, pw := io.Pipe()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.MultiWriter(&out, pw), &errb
	seen := make(chan struct{})
	if when.stdout == "" {
		close(seen)
	}
	go func() {
		if when.stdout == "" {
			io.Copy(io.Discard, pr)
			return
		}
		var buf bytes.Buffer
		b := make([]byte, 4096)
		for {
			n, err := pr.Read(b)
			buf.Write(b[:n])
			if strings.Contains(buf.String(), when.stdout) {
				close(seen)
				io.Copy(io.Discard, pr)
				return
			}
			if err != nil {
				return
			}
		}
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		waited <- cmd.Wait()
		close(exited)
		pw.Close()
	}()
	ready := make(chan struct{})
	go func() {
		select {
		case <-seen:
		case <-exited:
			return
		}
		for {
			if _, err := os.Stat(when.file); when.file == "" || err == nil {
				if when.reads == "" || readsFile(cmd.Process.Pid, when.reads) {
					if when.read == 0 || bytesRead(cmd.Process.Pid) >= when.read {
						break
					}
				}
			}
			select {
			case <-exited:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
		close(ready)
	}()
	var acted time.Time
	select {
	case <-ready:
		time.Sleep(delay)
		acted = time.Now()
		act(cmd.Process)
	case err := <-waited:
		t.Fatalf("%s %q ended before it was ready (%+v): %v\nstdout:\n%s\nstderr:\n%s", bin, args, when, err, out.String(), errb.String())
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%s %q was not ready (%+v) within 30 s", bin, args, when)
	}
	var err error
	select {
	case err = <-waited:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		err = <-waited
		t.Errorf("%s %q still ran 30 s after the action", bin, args)
	}
	return result{status: exitStatus(err), stdout: out.String(), stderr: errb.String(), took: time.Since(acted)}
}

// both runs f for gofio and for fio at the same time and returns their
// results.
func both(t *testing.T, f func(bin string) result) (gofio, fio result) {
	t.Helper()
	bin, fioBin := gofioBinary(t), fioBinary(t)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		fio = f(fioBin)
	}()
	gofio = f(bin)
	wg.Wait()
	return gofio, fio
}

var (
	pidRE     = regexp.MustCompile(`pid=\d+`)
	errFileRE = regexp.MustCompile(`file:[^,]*,`)
)

// normalizeMessages masks what differs on purpose in fio's messages: the
// pid, and the source file fio names in err= texts (docs/compat.md).
func normalizeMessages(s string) string {
	s = pidRE.ReplaceAllString(s, "pid=#")
	return errFileRE.ReplaceAllString(s, "file:#,")
}
