package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
)

// daemonEnv marks the background copy of a "gofio --server
// --daemonize=PIDFILE": its value is the pid file.
const daemonEnv = "GOFIO_DAEMON_PIDFILE"

// daemonize starts the server in the background, as fio's --server
// --daemonize=PIDFILE does: a new session, standard input and output on
// the null device, its pid in pidfile,
// which the server removes when it exits. Go cannot fork, so gofio runs
// itself again, marked by daemonEnv. It refuses a pid file that names a
// live process (fio's message).
func daemonize(pidfile string, args []string, stderr io.Writer) int {
	if data, err := os.ReadFile(pidfile); err == nil {
		if pid, err := strconv.Atoi(string(bytes.TrimSpace(data))); err == nil && pid > 0 && syscall.Kill(pid, 0) == nil {
			// fio's background server prints this and exits, its
			// parent having exited 0; gofio checks before going to
			// the background and fails (docs/compat.md).
			fmt.Fprintf(stderr, "fio: pidfile %s exists and server appears alive\n", pidfile)
			return 1
		}
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "fio: failed to daemonize: %v\n", err)
		return 1
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		fmt.Fprintf(stderr, "fio: failed to daemonize: %v\n", err)
		return 1
	}
	defer null.Close()
	p, err := os.StartProcess(exe, append([]string{os.Args[0]}, args...), &os.ProcAttr{
		Env:   append(os.Environ(), daemonEnv+"="+pidfile),
		Files: []*os.File{null, null, null},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		fmt.Fprintf(stderr, "fio: failed to daemonize: %v\n", err)
		return 1
	}
	if err := os.WriteFile(pidfile, []byte(strconv.Itoa(p.Pid)+"\n"), 0o644); err != nil {
		fmt.Fprintf(stderr, "fio: failed opening pid file %s\n", pidfile)
		p.Kill()
		return 1
	}
	p.Release()
	return 0
}
