package engine

// The exec engine runs a program for the duration of the job (fio's
// manual: program, arguments, grace_time, std_redirect). As observed in
// fio 3.33:
//
//   - the arguments are split at blanks, with %r replaced by the job's
//     runtime in seconds and %n by its name; the program is started as
//     the job starts, its output in JOB.stdout and JOB.stderr
//     (std_redirect=1, the default) or fio's own;
//   - the job announces "JOB : program=P, arguments=A" (A as written,
//     "(null)" when not given), then "JOB : Saving output of P A' :
//     stdout=JOB.stdout stderr=JOB.stderr" or "JOB : Running P A'" (A'
//     expanded);
//   - its units move no data (Info.NoIO): each waits a tenth of a
//     second, or a twentieth of the runtime when shorter, the first
//     none, so only runtime ends the job, whether the program is still
//     running or not;
//   - when the job ends the program gets SIGTERM, then, grace_time
//     seconds later, SIGKILL.

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

type execEngine struct {
	job      string
	program  string
	args     []string // argv[1:]
	notice   string
	redirect bool
	grace    time.Duration
	interval unix.Timespec // the wait of each unit after the first
	units    int
	pid      int
}

var (
	_ Engine    = (*execEngine)(nil)
	_ Connector = (*execEngine)(nil)
	_ Noticer   = (*execEngine)(nil)
)

// execArgs expands %r (the runtime in seconds) and %n (the job's name)
// in arguments and splits them at blanks.
func execArgs(arguments, job string, runtimeUS uint64) (expanded string, argv []string) {
	expanded = strings.NewReplacer("%r", strconv.FormatUint(runtimeUS/1e6, 10), "%n", job).Replace(arguments)
	return expanded, strings.Fields(expanded)
}

func newExec(cfg Config) (Engine, error) {
	o := &cfg.Options
	if o.Program == "" {
		// fio 3.33: "fio: io engine exec init failed.", the job's error
		// 22 in func=exec ("no program is defined, it is mandatory to
		// define one").
		return nil, &InitError{Errno: unix.EINVAL, Fn: "exec", Msg: "fio: io engine exec init failed."}
	}
	e := &execEngine{job: cfg.Job, program: o.Program, redirect: o.StdRedirect, grace: time.Duration(o.GraceTime) * time.Second, pid: -1}
	shown, expanded := "(null)", "(null)"
	if cfg.Options.Given("arguments") {
		shown = o.Arguments
		expanded, e.args = execArgs(o.Arguments, cfg.Job, cfg.Runtime)
	}
	interval := 100 * time.Millisecond
	if cfg.Runtime > 0 {
		interval = min(interval, time.Duration(cfg.Runtime)*time.Microsecond/20)
	}
	e.interval = unix.NsecToTimespec(int64(interval))
	e.notice = fmt.Sprintf("%s : program=%s, arguments=%s\n", cfg.Job, o.Program, shown)
	if e.redirect {
		e.notice += fmt.Sprintf("%s : Saving output of %s %s : stdout=%s.stdout stderr=%s.stderr", cfg.Job, o.Program, expanded, cfg.Job, cfg.Job)
	} else {
		e.notice += fmt.Sprintf("%s : Running %s %s", cfg.Job, o.Program, expanded)
	}
	return e, nil
}

// Notice is what fio prints as the job starts.
func (e *execEngine) Notice(string) string { return e.notice }

// Connect starts the program.
func (e *execEngine) Connect() error {
	files := []*os.File{os.Stdin, os.Stdout, os.Stderr}
	if e.redirect {
		for i, ext := range []string{"stdout", "stderr"} {
			f, err := os.OpenFile(e.job+"."+ext, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
			if err != nil {
				return &InitError{Errno: errnoOfPath(err), Fn: "open", Msg: fmt.Sprintf("fio: exec: %v", err)}
			}
			defer f.Close()
			files[i+1] = f
		}
	}
	argv := append([]string{e.program}, e.args...)
	path := e.program
	if !strings.Contains(path, "/") {
		// fio looks a bare name up in PATH, as execvp(3) does.
		if p, err := exec.LookPath(path); err == nil {
			path = p
		}
	}
	p, err := os.StartProcess(path, argv, &os.ProcAttr{Files: files})
	if err != nil {
		return &InitError{Errno: errnoOfPath(err), Fn: "execvp", Msg: fmt.Sprintf("fio: exec: %v", err)}
	}
	e.pid = p.Pid
	p.Release() // Close reaps it with wait4
	return nil
}

func errnoOfPath(err error) unix.Errno {
	if pe, ok := err.(*os.PathError); ok {
		if en, ok := pe.Err.(syscall.Errno); ok {
			return unix.Errno(en)
		}
	}
	return unix.EINVAL
}

// Queue waits out one unit while the program runs.
func (e *execEngine) Queue(u *IOUnit) Status {
	if e.units > 0 {
		ts := e.interval
		for unix.Nanosleep(&ts, &ts) == unix.EINTR {
		}
	}
	e.units++
	u.Result, u.Err = len(u.Buf), 0
	return Completed
}

// Close ends the program: SIGTERM, then after grace_time SIGKILL.
func (e *execEngine) Close() error {
	if e.pid <= 0 {
		return nil
	}
	unix.Kill(e.pid, unix.SIGTERM)
	// fio waits the whole grace time, even for a program that is gone.
	time.Sleep(e.grace)
	unix.Kill(e.pid, unix.SIGKILL)
	var ws unix.WaitStatus
	for {
		if _, err := unix.Wait4(e.pid, &ws, 0, nil); err != unix.EINTR {
			break
		}
	}
	e.pid = -1
	return nil
}
