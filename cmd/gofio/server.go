package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/netio"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/runner"
)

// runServer is "gofio --server[=ADDR]": it serves fio clients until
// SIGINT or SIGTERM, each connection with its own jobs (netio.Server).
func runServer(addr string, stderr io.Writer) int {
	a, err := netio.ParseAddr(addr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	network, address := a.DialAddr()
	l, err := net.Listen(network, address)
	if err != nil {
		fmt.Fprintf(stderr, "fio: bind: %s\n", errText(err))
		return 1
	}
	if network == "unix" {
		defer os.Remove(a.Path)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		<-sigs
		l.Close()
	}()
	srv := &netio.Server{NewBackend: func() netio.Backend { return &serverBackend{log: stderr} }, Log: stderr}
	if err := srv.Serve(l); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// serverBackend runs one client connection's jobs with gofio's own
// command-line and job-file handling: the JOB texts are written to a
// scratch directory and read as job files, after the JOBLINE options.
type serverBackend struct {
	args  []string // JOBLINE options
	files []string // job files, in the order received
	dir   string   // scratch directory of the JOB texts
	s     settings
	plan  *jobspec.Plan
	live  serverETA
	// clientIP is the client's address (serverclient.go), "" when not
	// on TCP.
	clientIP string
	// log is the server's own stderr.
	log io.Writer
}

var _ netio.Backend = (*serverBackend)(nil)

// JobLine reads a JOBLINE as fio's server does (fio 3.33, observed). At
// the first option it refuses, getopt's (an unknown option) or for its
// value (--terse-version=9), it stops reading: it tells the client once
// (fio's "fio: unrecognized option 'ARG'" line, with its "Did you mean"
// line, or the value's message; glibc's own line goes to the server's
// stderr), then goes on without the option when it was the last
// argument, and quits otherwise.
func (b *serverBackend) JobLine(argv []string, errs io.Writer) error {
	if len(argv) > 0 {
		argv = argv[1:]
	}
	cl, err := parser.ParseArgs(argv, spec{})
	bad, end := -1, 0 // the refused option's arguments: argv[bad:end]
	for _, o := range cl.Fio {
		i := o.Pos.Line - 1
		if i < 0 || i >= len(argv) {
			continue
		}
		s := settings{formats: formats{normal: true}, terseVersion: 3, eta: defaultETA()}
		var msg strings.Builder
		if done, status := s.apply(o, io.Discard, &msg); !done || status == 0 {
			continue
		}
		io.WriteString(errs, msg.String())
		if strings.HasPrefix(msg.String(), "gofio:") {
			return errNoRun // not supported yet: gofio's message, no run
		}
		bad, end = i, i+1
		if o.HasValue && !strings.Contains(argv[i], "=") {
			end++ // "--opt value"
		}
		break
	}
	var ae *parser.ArgError
	if bad < 0 && errors.As(err, &ae) {
		lines := ae.Lines("fio")
		if b.log != nil {
			fmt.Fprintln(b.log, lines[0])
		}
		for _, l := range lines[1:] {
			fmt.Fprintln(errs, l)
		}
		bad, end = ae.Pos.Line-1, ae.Pos.Line
	}
	if bad >= 0 {
		if end < len(argv) {
			return errNoRun
		}
		argv = argv[:bad]
	}
	b.args = append(b.args, argv...)
	_, _, err = b.load(errs, io.Discard)
	return err
}

func (b *serverBackend) AddJob(text string, file bool, info, errs io.Writer) (int, int, error) {
	name := text
	if !file {
		if b.dir == "" {
			d, err := os.MkdirTemp("", "gofio-server-")
			if err != nil {
				fmt.Fprintf(errs, "gofio: %v\n", err)
				return 0, 0, err
			}
			b.dir = d
		}
		name = filepath.Join(b.dir, fmt.Sprintf("job%d.fio", len(b.files)))
		if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
			fmt.Fprintf(errs, "gofio: %v\n", err)
			return 0, 0, err
		}
	}
	b.files = append(b.files, name)
	prev := 0
	if b.plan != nil {
		prev = len(b.plan.Jobs)
	}
	plan, s, err := b.load(errs, info)
	if err != nil {
		b.files = b.files[:len(b.files)-1]
		return 0, 0, err
	}
	b.plan, b.s = plan, s
	if s.formats.normal && prev < len(plan.Jobs) {
		printJobLines(info, &jobspec.Plan{Jobs: plan.Jobs[prev:]})
	}
	return len(plan.Jobs), len(reportThreads(plan)), nil
}

// errNoRun stands for a failure loadJobs has already printed.
var errNoRun = errors.New("job setup failed")

// load reads the options and job files received so far.
func (b *serverBackend) load(errs, info io.Writer) (*jobspec.Plan, settings, error) {
	argv := append(append([]string{}, b.args...), b.files...)
	cl, argErr := parser.ParseArgs(argv, spec{})
	s := settings{formats: formats{normal: true}, terseVersion: 3, eta: defaultETA()}
	if len(b.files) == 0 {
		if argErr != nil {
			printArgError(errs, argErr)
			return nil, s, errNoRun
		}
		return nil, s, nil
	}
	plan, _, done := s.loadJobs(cl, argErr, nil, info, errs)
	if done {
		return nil, s, errNoRun
	}
	if err := serverUnsupported(plan, &s); err != nil {
		fmt.Fprintln(errs, err)
		return nil, s, errNoRun
	}
	return plan, s, nil
}

// serverUnsupported refuses what a gofio server cannot do as fio's
// does: periodic reports, and I/O logs (fio sends them to the client
// as IOLOG messages).
func serverUnsupported(plan *jobspec.Plan, s *settings) error {
	if s.eta.every > 0 {
		return errors.New("gofio: option --status-interval is not supported yet in server mode")
	}
	for _, j := range plan.Jobs {
		if j.WriteBWLog || j.WriteIOPSLog || j.WriteLatLog || j.WriteHistLog {
			return fmt.Errorf("gofio: job %s: I/O logs (write_*_log) are not supported yet in server mode", j.Name)
		}
	}
	return nil
}

func (b *serverBackend) Run(stop <-chan struct{}, started func(), info, errs io.Writer) (*netio.Report, int) {
	defer b.cleanup()
	if b.plan == nil {
		return nil, 0
	}
	normal := b.s.formats.normal
	var log, inf io.Writer
	if normal {
		threads, procs := 0, 0
		for _, j := range b.plan.Jobs {
			if j.Thread {
				threads++
			} else {
				procs++
			}
		}
		output.Starting(info, threads, procs)
		log, inf = info, info
	}
	for range b.plan.Jobs {
		started()
	}
	prog := runner.NewProgress(b.plan)
	b.live.set(prog, newStatusLine(b.plan, 0), len(b.plan.Jobs))
	defer b.live.set(nil, nil, 0)
	b.prefixFiles()
	oc, err := runner.Run(b.plan, runner.Config{Log: log, Info: inf, Errors: errs, Stop: stop, ReadOnly: b.s.readOnly, Progress: prog})
	if err != nil {
		fmt.Fprintln(errs, err)
		return nil, 1
	}
	return &netio.Report{Result: oc.Result, Threads: reportThreads(b.plan), Normal: normal}, oc.Failed
}

func (b *serverBackend) ETA() netio.ETA { return b.live.eta() }

// Close removes the scratch directory when the connection ends.
func (b *serverBackend) Close() error {
	b.cleanup()
	return nil
}

func (b *serverBackend) cleanup() {
	if b.dir != "" {
		os.RemoveAll(b.dir)
		b.dir = ""
	}
}

// reportThreads returns, per report of plan, the fio thread number
// (from 1) of its first job: one report per job, one per group of jobs
// under group_reporting.
func reportThreads(plan *jobspec.Plan) []int {
	var out []int
	seen := map[int]bool{}
	for i, j := range plan.Jobs {
		if j.GroupReporting {
			if seen[j.GroupID] {
				continue
			}
			seen[j.GroupID] = true
		}
		out = append(out, i+1)
	}
	return out
}
