package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/netio"
	"github.com/gofio/gofio/runner"
)

// triggerSettings are --trigger-file, --trigger-timeout, --trigger and
// --trigger-remote. A trigger fires when the file appears (fio then
// removes it) or when the timeout has passed since the start: fio saves
// the jobs' verify state, stops them and runs the local command; as a
// client it sends VTRIGGER with the remote command to its servers, which
// send back the state, stop their jobs and run that command, and runs
// the local command once a server's state has arrived.
type triggerSettings struct {
	file    string
	timeout time.Duration
	cmd     string // --trigger: run here
	remote  string // --trigger-remote: run by the servers
}

func (t *triggerSettings) apply(name, value string) {
	switch name {
	case "trigger-file":
		t.file = value
	case "trigger-timeout":
		us, _ := jobspec.ParseSeconds(value) // checked by applyParse
		t.timeout = time.Duration(us) * time.Microsecond
	case "trigger":
		t.cmd = value
	case "trigger-remote":
		t.remote = value
	}
}

// set reports whether a trigger can fire.
func (t *triggerSettings) set() bool { return t.file != "" || t.timeout > 0 }

// triggerPoll is how often the trigger file is looked for.
const triggerPoll = 100 * time.Millisecond

// watch returns a channel closed when the trigger fires, counting the
// timeout from now, until quit is closed. The trigger file is removed
// when it fires, as fio removes it.
func (t *triggerSettings) watch(quit <-chan struct{}) <-chan struct{} {
	fired := make(chan struct{})
	if !t.set() {
		return fired
	}
	go func() {
		var timeout <-chan time.Time
		if t.timeout > 0 {
			tm := time.NewTimer(t.timeout)
			defer tm.Stop()
			timeout = tm.C
		}
		var poll <-chan time.Time
		if t.file != "" {
			tk := time.NewTicker(triggerPoll)
			defer tk.Stop()
			poll = tk.C
		}
		for {
			select {
			case <-quit:
				return
			case <-timeout:
				close(fired)
				return
			case <-poll:
				if _, err := os.Stat(t.file); err == nil {
					os.Remove(t.file)
					close(fired)
					return
				}
			}
		}
	}()
	return fired
}

// runTrigger runs a trigger command through the shell, its output on
// stdout and stderr, and waits for it.
func runTrigger(cmd string, stdout, stderr io.Writer) {
	if cmd == "" {
		return
	}
	c := exec.Command("/bin/sh", "-c", cmd)
	c.Stdout, c.Stderr = stdout, stderr
	if err := c.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			fmt.Fprintf(stderr, "fio: trigger command %q failed: %v\n", cmd, err)
		}
	}
}

// writeStateFiles writes verify state records as fio does on a trigger:
// PREFIX-JOBNAME-INDEX-verify.state in the working directory ("local"
// for a local run, the server's address on a client), '/' in the job
// name replaced by '.'.
func writeStateFiles(prefix string, recs []netio.StateRecord, stderr io.Writer) {
	for i, r := range recs {
		name := prefix + "-" + sanitizeJobName(r.Name) + "-" + strconv.Itoa(i) + "-verify.state"
		if err := os.WriteFile(name, netio.StateFile(r.Data), 0o644); err != nil {
			fmt.Fprintf(stderr, "fio: failed writing verify state %s: %s\n", name, errText(err))
		}
	}
}

// sanitizeJobName keeps a job name inside the working directory.
func sanitizeJobName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if c == '/' {
			b[i] = '.'
		}
	}
	if s := string(b); s != "" && s != "." && s != ".." && filepath.Base(s) == s {
		return s
	}
	return "job"
}

// stateRecords turns verify states into the records a state file holds.
func stateRecords(states []netio.VerifyState) []netio.StateRecord {
	recs := make([]netio.StateRecord, len(states))
	for i, s := range states {
		recs[i] = netio.StateRecord{Name: s.Name, Data: s.Record()}
	}
	return recs
}

// localTrigger stops a local run when the trigger fires, as fio does:
// it saves the jobs' verify state (local-JOB-N-verify.state), stops them
// and runs --trigger's command. The returned channel, closed on a signal
// (sigStop) or the trigger, is the run's stop; end waits for the watch
// to finish once the run is over.
func (s *settings) localTrigger(sigStop <-chan struct{}, prog *runner.Progress, names []string, con *console, stdout, stderr io.Writer) (stop <-chan struct{}, end func()) {
	if !s.trigger.set() {
		return sigStop, func() {}
	}
	st, quit, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	fired := s.trigger.watch(quit)
	go func() {
		defer close(done)
		select {
		case <-sigStop:
			close(st)
		case <-fired:
			writeStateFiles("local", stateRecords(verifyStates(prog, names)), stderr)
			close(st)
			con.print(func(io.Writer) error {
				runTrigger(s.trigger.cmd, stdout, stderr)
				return nil
			})
		case <-quit:
		}
	}()
	return st, func() {
		close(quit)
		<-done
	}
}

// sendStateFile answers a server's SENDFILE: a verify_state_load job
// there asks for the state file a trigger saved here. fio's client sends
// any file the server names; gofio's sends only a file of the working
// directory named like one (docs/compat.md).
func sendStateFile(srv *remoteServer, m netio.Msg) error {
	path, err := netio.DecodeSendFile(m.Payload)
	if err != nil {
		return err
	}
	if filepath.Base(path) != path || !strings.HasSuffix(path, "-verify.state") || strings.HasPrefix(path, ".") {
		srv.c.SendFile(m.Tag, nil, uint32(syscall.EACCES))
		return fmt.Errorf("gofio: client <%s>: state file %q refused: not a verify state file of the working directory", srv.t.addr.String(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		errno := syscall.ENOENT
		errors.As(err, &errno)
		srv.c.SendFile(m.Tag, nil, uint32(errno))
		return fmt.Errorf("fio: failed opening send file %s: %s", path, errText(err))
	}
	return srv.c.SendFile(m.Tag, data, 0)
}
