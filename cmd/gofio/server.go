package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/netio"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/runner"
)

// runServer is "gofio --server[=ADDR]": it serves fio clients until
// SIGINT or SIGTERM. Then, as fio's server on SIGTERM, it takes no new
// connection, lets running jobs finish and report to their clients, and
// exits; a second signal stops the running jobs (they still report), a
// third exits at once.
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
	srv := &netio.Server{NewBackend: func() netio.Backend { return &serverBackend{log: stderr} }, Log: stderr}
	sigs := make(chan os.Signal, 3)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		<-sigs
		l.Close()
		<-sigs
		srv.StopRuns()
		<-sigs
		if network == "unix" {
			os.Remove(a.Path)
		}
		os.Exit(1)
	}()
	if err := srv.Serve(l); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// Bounds of what one connection makes a gofio server read.
const (
	// maxJobBytes bounds the job files (JOB texts, LOAD_FILE files and
	// what they include) one connection's jobs are read from.
	maxJobBytes = 4 << 20
)

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
func (b *serverBackend) JobLine(ctx context.Context, argv []string, errs io.Writer) error {
	if len(argv) > 0 {
		argv = argv[1:]
	}
	cl, err := parser.ParseArgs(argv, spec{})
	bad, end := -1, 0 // the refused option's arguments: argv[bad:end]
	for _, o := range cl.Fio {
		i := o.Pos.Line - 1
		if i < 0 || i >= len(argv) || o.Name == "debug" {
			continue // --debug is never refused, and setting it here would leak into the server
		}
		s := settings{formats: formats{normal: true}, terseVersion: 3, eta: defaultETA()}
		var msg strings.Builder
		if done, status := s.apply(o, io.Discard, &msg); !done || status == 0 {
			continue
		}
		io.WriteString(errs, msg.String())
		if strings.HasPrefix(msg.String(), "gofio:") {
			return errNoRun // refused by gofio (its message said why): no run
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
	_, _, err = b.load(ctx, errs, io.Discard, 0)
	return err
}

func (b *serverBackend) AddJob(ctx context.Context, text string, file bool, info, errs io.Writer) (int, int, error) {
	name := text
	if file && text == "-" {
		// fio's would read its own standard input.
		fmt.Fprintln(errs, "gofio: server: a client's job file cannot be the server's standard input")
		return 0, 0, errNoRun
	}
	if !file {
		if len(text) > maxJobBytes {
			fmt.Fprintf(errs, "gofio: server: job file of more than %d MiB\n", maxJobBytes>>20)
			return 0, 0, fmt.Errorf("%w: %w", netio.ErrClose, errNoRun)
		}
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
	plan, s, err := b.load(ctx, errs, info, prev)
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

// jobsWithin returns the first n jobs. A job whose clones go past them
// comes without clones: fio prints its line but not the "..." that
// follows a job whose clones were all added.
func jobsWithin(jobs []*jobspec.Job, n int) []*jobspec.Job {
	out := slices.Clone(jobs[:n])
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].JobNum == 0 {
			if i+out[i].NumJobs > n {
				j := *out[i]
				j.NumJobs = 1
				out[i] = &j
			}
			break
		}
	}
	return out
}

// errNoRun stands for a failure loadJobs has already printed.
var errNoRun = errors.New("job setup failed")

// load reads the options and job files received so far. The files are
// read through a jobReader: at most maxJobBytes in all, and nothing once
// ctx is done (the client has gone or the server is shutting down).
func (b *serverBackend) load(ctx context.Context, errs, info io.Writer, prev int) (*jobspec.Plan, settings, error) {
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
	jr := &jobReader{ctx: ctx, left: maxJobBytes}
	s.openJob = jr.open
	// A job file "-" (in a JOBLINE) reads nothing: the server's standard
	// input is not the client's.
	// The client reads one stream: fio announces each job as it adds it,
	// so the lines of the jobs added before a failure come before its
	// error. prev jobs were announced by earlier loads.
	var eb bytes.Buffer
	s.deferJobLines = true
	plan, _, done := s.loadJobs(cl, argErr, strings.NewReader(""), info, &eb)
	if done && plan != nil && s.formats.normal && len(plan.Jobs) > prev {
		printJobLines(info, &jobspec.Plan{Jobs: jobsWithin(plan.Jobs[prev:], len(plan.Jobs)-prev)})
	}
	errs.Write(eb.Bytes())
	switch {
	case ctx.Err() != nil:
		return nil, s, fmt.Errorf("%w: %w", netio.ErrClose, ctx.Err())
	case jr.over:
		fmt.Fprintf(errs, "gofio: server: job files of more than %d MiB in all\n", maxJobBytes>>20)
		return nil, s, fmt.Errorf("%w: %w", netio.ErrClose, errNoRun)
	case done && bytes.Contains(eb.Bytes(), []byte(jobspec.JobLimitMessage)):
		// fio fails the connection's setup and ends it after QUIT.
		return nil, s, fmt.Errorf("%w: %w", netio.ErrClose, errNoRun)
	case done:
		return nil, s, errNoRun
	}
	return plan, s, nil
}

// jobReader opens the job files of one load: reads fail once left bytes
// have been read (over is then set) or ctx is done. The parser takes a
// failed read for the end of the file; load then reports the failure.
type jobReader struct {
	ctx  context.Context
	left int64
	over bool
}

func (jr *jobReader) open(name string) (io.ReadCloser, error) {
	if err := jr.ctx.Err(); err != nil {
		return nil, err
	}
	// O_NONBLOCK: opening a FIFO does not wait for a writer, and reads
	// of FIFOs and devices go through Go's poller, so that closing the
	// file ends a read that waits. It changes nothing for regular files.
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	bf := &boundedFile{f: f, jr: jr}
	bf.stop = context.AfterFunc(jr.ctx, func() { f.Close() })
	return bf, nil
}

type boundedFile struct {
	f    *os.File
	jr   *jobReader
	stop func() bool // ends the close on ctx's end
}

func (b *boundedFile) Read(p []byte) (int, error) {
	if err := b.jr.ctx.Err(); err != nil {
		return 0, err
	}
	if b.jr.left <= 0 {
		// At the bound: only the end of the file is still fine.
		var one [1]byte
		if n, err := b.f.Read(one[:]); n == 0 && err == io.EOF {
			return 0, io.EOF
		}
		b.jr.over = true
		return 0, errJobTooBig
	}
	if int64(len(p)) > b.jr.left {
		p = p[:b.jr.left]
	}
	n, err := b.f.Read(p)
	b.jr.left -= int64(n)
	return n, err
}

func (b *boundedFile) Close() error {
	b.stop()
	return b.f.Close()
}

var errJobTooBig = errors.New("job files too large")

func (b *serverBackend) Run(stop <-chan struct{}, h netio.RunHooks, info, errs io.Writer) (*netio.Report, int) {
	defer b.cleanup()
	if b.plan == nil {
		return nil, 0
	}
	var logs []serverLog
	for _, j := range b.plan.Jobs {
		if j.WriteBWLog || j.WriteIOPSLog || j.WriteLatLog || j.WriteHistLog {
			dir, err := os.MkdirTemp("", "gofio-logs-")
			if err != nil {
				fmt.Fprintf(errs, "gofio: server: %v\n", err)
				return nil, 1
			}
			defer os.RemoveAll(dir)
			logs = redirectLogs(b.plan, dir)
			break
		}
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
		h.Started()
	}
	prog := runner.NewProgress(b.plan)
	b.live.set(prog, newStatusLine(b.plan, 0), jobNames(b.plan))
	defer b.live.set(nil, nil, nil)
	b.prefixFiles()
	threads := reportThreads(b.plan)
	endReports := b.statusReports(prog, h.Report, threads, normal)
	oc, err := runner.Run(b.plan, runner.Config{Log: log, Info: inf, Errors: errs, Stop: stop, ReadOnly: b.s.readOnly, Progress: prog})
	endReports()
	if err != nil {
		fmt.Fprintln(errs, err)
		return nil, 1
	}
	rep := &netio.Report{Result: oc.Result, Threads: threads, Normal: normal}
	rep.Logs, err = readLogs(logs)
	if err != nil {
		fmt.Fprintf(errs, "gofio: server: %v\n", err)
	}
	return rep, oc.Failed
}

// statusReports sends a report of the run every --status-interval, as
// fio's server does, until the returned function is called; that waits
// for a report being sent.
func (b *serverBackend) statusReports(prog *runner.Progress, send func(*netio.Report), threads []int, normal bool) (end func()) {
	every := b.s.eta.every
	if every <= 0 || send == nil {
		return func() {}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-prog.Started():
		case <-quit:
			return
		}
		next := every
		timer := time.NewTimer(every)
		defer timer.Stop()
		for {
			select {
			case <-quit:
				return
			case <-timer.C:
			}
			if r := prog.Report(time.Second); r != nil {
				send(&netio.Report{Result: r, Threads: threads, Normal: normal})
			}
			since := prog.Elapsed()
			for next <= since {
				next += every
			}
			timer.Reset(next - since)
		}
	}()
	return func() {
		close(quit)
		<-done
	}
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

// jobNames returns the names of the plan's jobs, in order.
func jobNames(plan *jobspec.Plan) []string {
	names := make([]string, len(plan.Jobs))
	for i, j := range plan.Jobs {
		names[i] = j.Name
	}
	return names
}
