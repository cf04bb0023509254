package netio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofio/gofio/output"
)

// Backend parses and runs the jobs of one client connection; the server
// loop turns what it produces into fio's messages. Its writers send
// TEXT messages.
type Backend interface {
	// JobLine applies a JOBLINE's fio options (argv[0] is "fio").
	JobLine(ctx context.Context, argv []string, errs io.Writer) error
	// AddJob parses one job file's text (JOB) or, with file set, the
	// server-side file text names (LOAD_FILE). It prints the new jobs'
	// description lines on info and returns the totals so far: job
	// threads and reports. ctx is done when the connection has ended or
	// the server is shutting down; what AddJob reads should then stop.
	// An error that wraps ErrClose ends the connection after QUIT.
	AddJob(ctx context.Context, text string, file bool, info, errs io.Writer) (jobs, reports int, err error)
	// Run runs every job added so far. It calls h.Started once per job
	// thread as the run begins and h.Report for each report of the run
	// so far (--status-interval), returns when the jobs end or stop is
	// closed, and returns the final report with its fio thread numbers
	// and the exit status.
	Run(stop <-chan struct{}, h RunHooks, info, errs io.Writer) (*Report, int)
	// ETA returns the live status for SEND_ETA.
	ETA() ETA
}

// RunHooks are what a Backend's Run sends while its jobs run.
type RunHooks struct {
	// Started sends SERVER_START (once per job thread as the run begins).
	Started func()
	// Report sends a report of the run so far, as fio's server does every
	// --status-interval: it returns once the report is sent.
	Report func(*Report)
}

// VerifyStater is a Backend that reports its running jobs' verify state
// for a VTRIGGER; a Backend without it sends an empty state.
type VerifyStater interface {
	VerifyStates() []VerifyState
}

// ErrClose, wrapped by a Backend's error, makes the server send QUIT and
// do nothing more for the connection, as fio's connection handler ends
// when it cannot set up a client's jobs (fio's "maximum number of jobs
// reached."). The connection stays open until the client, which ends on
// QUIT, closes it: a close with the client's RUN unread would reset it.
var ErrClose = errors.New("connection closed")

// Report is a finished run as the server sends it.
type Report struct {
	Result *output.Result
	// Threads holds, per Result.Jobs entry, the fio thread number of its
	// first member.
	Threads []int
	// Normal is set when the client asked for normal output (the blank
	// line that closes fio's report is then sent).
	Normal bool
	// Logs are the jobs' I/O logs, sent as IOLOG messages before the
	// report, as fio's server sends them at the end of each job.
	Logs []*IOLog
}

// Default memory bounds of a Server.
const (
	// DefaultMaxConnBytes bounds the message bytes one connection has
	// buffered: received (in part or whole) and not yet handled.
	DefaultMaxConnBytes = 16 << 20
	// DefaultMaxTotalBytes bounds them over all connections.
	DefaultMaxTotalBytes = 64 << 20
)

// Server accepts client connections and runs each one's jobs with a
// Backend of its own. Runs of different connections go on at the same
// time, as under fio's server, which forks a process per connection.
//
// fio reads whole messages of up to 2 GiB; a gofio server bounds the
// bytes of the messages it buffers, per connection and in all (a client
// that goes over gets an error TEXT and its connection is closed), and
// frees them when the connection ends.
type Server struct {
	// NewBackend returns the backend of a new connection.
	NewBackend func() Backend
	// Hostname is sent in PROBE replies (os.Hostname when empty).
	Hostname string
	// Log receives the server's own messages (nil discards them).
	Log io.Writer
	// MaxConnBytes and MaxTotalBytes bound buffered message bytes per
	// connection and over all connections (0: the defaults).
	MaxConnBytes, MaxTotalBytes int64

	wg       sync.WaitGroup
	mu       sync.Mutex
	sessions map[*session]bool
	closing  bool // the listener has closed: no new runs
	stopping bool // StopRuns was called: runs stop at once

	buffered atomic.Int64 // message bytes buffered by all connections
}

// Serve accepts connections on l until it fails or is closed. Then it
// shuts down as fio's server does on SIGTERM: connections with a run
// (RUN received) finish it, send its report, STOP and QUIT and are
// closed; the others are closed at once. Serve returns when every
// connection has ended.
func (s *Server) Serve(l net.Listener) error {
	defer s.wg.Wait()
	defer s.shutdown()
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("netio: accept: %w", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ss := &session{srv: s, conn: c, ctx: ctx, cancel: cancel}
		s.mu.Lock()
		if s.sessions == nil {
			s.sessions = map[*session]bool{}
		}
		s.sessions[ss] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			ss.be = s.NewBackend()
			if ca, ok := ss.be.(ClientAware); ok {
				// fio records the accepted socket's local address.
				ca.SetClient(c.LocalAddr())
			}
			ss.serve()
			s.mu.Lock()
			delete(s.sessions, ss)
			s.mu.Unlock()
			if ss.peak.Load() >= freeAfter {
				// Give a large connection's memory back now rather
				// than over the next minutes.
				debug.FreeOSMemory()
			}
		}()
	}
}

// freeAfter is the buffered size from which a connection's end returns
// memory to the system at once.
const freeAfter = 4 << 20

// shutdown closes the connections that have no run and marks the others
// to be closed when their run has reported.
func (s *Server) shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closing = true
	for ss := range s.sessions {
		ss.shutdown()
	}
}

// StopRuns stops the runs in progress and those not begun yet, as a
// client's QUIT does: their jobs end early and their reports are sent.
// Serve calls nothing of it; "gofio --server" calls it on a second
// SIGINT or SIGTERM.
func (s *Server) StopRuns() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopping = true
	for ss := range s.sessions {
		ss.closeStop()
	}
}

func (s *Server) limits() (conn, total int64) {
	conn, total = s.MaxConnBytes, s.MaxTotalBytes
	if conn <= 0 {
		conn = DefaultMaxConnBytes
	}
	if total <= 0 {
		total = DefaultMaxTotalBytes
	}
	return conn, total
}

// session is one client connection.
type session struct {
	srv  *Server
	conn net.Conn
	be   Backend
	// ctx is cancelled when the connection's input ends or the server
	// shuts down; it ends a backend's job-file reading.
	ctx    context.Context
	cancel context.CancelFunc

	wmu sync.Mutex // one message at a time on the socket

	// Run state: stop, closed once, ends the run; done is closed when
	// the run (and its report) has finished. Both are nil before RUN.
	// closing is set when the server shuts down.
	runMu   sync.Mutex
	stop    chan struct{}
	done    chan struct{}
	stopped bool
	closing bool

	// refused is set when the backend refused the connection's jobs
	// with ErrClose: the commands that follow are dropped.
	refused bool

	buffered atomic.Int64 // message bytes received and not yet handled
	peak     atomic.Int64 // the most buffered at once

	// zlib is set when the client's last PROBE offered zlib: IOLOG data
	// is then sent compressed.
	zlib atomic.Bool
}

// errLimit is a client's message going over the memory bounds.
type errLimit struct {
	what  string
	limit int64
}

func (e errLimit) Error() string {
	size := fmt.Sprintf("%d MiB", e.limit>>20)
	if e.limit%(1<<20) != 0 {
		size = fmt.Sprintf("%d KiB", e.limit>>10)
	}
	return fmt.Sprintf("gofio: server: client messages over the %s limit %s, closing the connection", size, e.what)
}

// reserve accounts n more buffered message bytes, or fails when that
// goes over the connection's or the server's bound.
func (s *session) reserve(n int) error {
	conn, total := s.srv.limits()
	if s.buffered.Load()+int64(n) > conn {
		return errLimit{"of one connection", conn}
	}
	if s.srv.buffered.Add(int64(n)) > total {
		s.srv.buffered.Add(-int64(n))
		return errLimit{"of all connections", total}
	}
	if b := s.buffered.Add(int64(n)); b > s.peak.Load() {
		s.peak.Store(b)
	}
	return nil
}

// release gives back n buffered bytes.
func (s *session) release(n int64) {
	s.buffered.Add(-n)
	s.srv.buffered.Add(-n)
}

// shutdown closes the connection now if it has no run, or after the
// run's report otherwise.
func (s *session) shutdown() {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	s.closing = true
	if s.done == nil {
		s.cancel()
		s.conn.Close()
		return
	}
	select {
	case <-s.done:
		s.cancel()
		s.conn.Close()
	default:
		// The run's goroutine closes the connection after QUIT.
	}
}

func (s *session) send(op Op, tag uint64, p []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return WriteMsg(s.conn, Msg{Op: op, Tag: tag, Payload: p})
}

// textWriter sends each line of a Write as one TEXT message (fio sends
// one per log call, and its client prefixes each with the host name).
type textWriter struct {
	s     *session
	level uint32
}

func (w textWriter) Write(p []byte) (int, error) {
	for rest := p; len(rest) > 0; {
		n := bytes.IndexByte(rest, '\n') + 1
		if n == 0 {
			n = len(rest)
		}
		if err := w.s.send(OpText, 0, EncodeText(w.level, string(rest[:n]), time.Now())); err != nil {
			return len(p) - len(rest), err
		}
		rest = rest[n:]
	}
	return len(p), nil
}

func (s *session) logf(format string, args ...any) {
	if s.srv.Log != nil {
		fmt.Fprintf(s.srv.Log, format, args...)
	}
}

// serve handles commands in arrival order until the client closes the
// connection, sends EXIT, or breaks the protocol. A reader goroutine
// reads ahead of the handling (within the memory bounds), so that a
// client that goes away ends whatever its connection is doing.
func (s *session) serve() {
	q := newMsgQueue()
	readDone := make(chan struct{})
	defer func() {
		// Everything the connection still holds is released once its
		// reader has ended.
		<-readDone
		s.release(s.buffered.Load())
	}()
	defer s.conn.Close()
	defer s.cancel()
	if c, ok := s.be.(io.Closer); ok {
		defer c.Close()
	}
	defer s.stopRun()
	info, errs := textWriter{s, LevelInfo}, textWriter{s, LevelError}
	go func() {
		defer close(readDone)
		s.read(q)
	}()
	for {
		m, err, ok := q.pop()
		if !ok {
			return
		}
		if err != nil {
			if errors.Is(err, ErrProtocol) {
				fmt.Fprintln(errs, trimProtocol(err))
			} else {
				fmt.Fprintln(errs, err)
			}
			s.logf("%v\n", err)
			return
		}
		if s.refused {
			// Nothing more is done for this client; the connection
			// ends when it closes it (fio's client does on QUIT).
			s.release(int64(len(m.Payload)))
			continue
		}
		quit := s.handle(m, info, errs)
		s.release(int64(len(m.Payload)))
		if quit {
			return
		}
	}
}

// read reads messages into q until the input ends or fails. A client
// gone (end of input, a read error) cancels the session's context and
// ends the handling at once; a protocol error or a client over the
// memory bounds is queued, to be reported after the commands before it.
func (s *session) read(q *msgQueue) {
	for {
		m, err := readMsg(s.conn, s.reserve)
		if err != nil {
			var lim errLimit
			if errors.Is(err, ErrProtocol) || errors.As(err, &lim) {
				q.fail(err)
				return
			}
			s.cancel()
			q.end()
			return
		}
		q.push(m)
	}
}

// handle handles one command; it reports true when the connection ends.
func (s *session) handle(m Msg, info, errs io.Writer) bool {
	switch m.Op {
	case OpProbe:
		req, _ := DecodeProbeRequest(m.Payload)
		rep := s.probeReply()
		if req.Zlib {
			// From now on IOLOG data is zlib-compressed, as fio's are.
			rep.Flags = 1
		}
		s.zlib.Store(req.Zlib)
		s.send(OpProbe, m.Tag, rep.Encode())
	case OpJobLine:
		argv, err := DecodeJobLine(m.Payload)
		if err == nil {
			err = s.be.JobLine(s.ctx, argv, errs)
		}
		if err != nil {
			s.refuse(err)
			return false
		}
		s.send(OpStart, 0, EncodePair(0, 0))
	case OpJob, OpLoadFile:
		var text string
		var err error
		if m.Op == OpJob {
			text, err = DecodeJob(m.Payload)
		} else {
			text, err = DecodeLoadFile(m.Payload)
		}
		if err != nil {
			fmt.Fprintln(errs, trimProtocol(err))
			return true
		}
		jobs, reports, err := s.be.AddJob(s.ctx, text, m.Op == OpLoadFile, info, errs)
		if err != nil {
			s.refuse(err)
			return false
		}
		s.send(OpStart, 0, EncodePair(uint32(jobs), uint32(reports)))
	case OpRun:
		s.startRun(info, errs)
	case OpSendETA:
		s.send(OpETA, m.Tag, s.be.ETA().Encode())
	case OpVTrigger:
		cmd, err := DecodeVTrigger(m.Payload)
		if err != nil {
			fmt.Fprintln(errs, trimProtocol(err))
			return true
		}
		s.trigger(cmd, m.Tag)
	case OpQuit:
		s.stopRun()
	case OpExit:
		return true
	default:
		fmt.Fprintf(errs, "fio: unknown opcode: %v\n", m.Op)
		return true
	}
	return false
}

// refuse answers a failed JOBLINE, JOB or LOAD_FILE: QUIT, and with
// ErrClose nothing more for this connection.
func (s *session) refuse(err error) {
	s.send(OpQuit, 0, nil)
	if errors.Is(err, ErrClose) {
		s.refused = true
	}
}

// msgQueue holds the messages read and not yet handled; their bytes are
// bounded by the session's reserve.
type msgQueue struct {
	mu    sync.Mutex
	items []queued
	ended bool
	ready chan struct{} // signalled after each push and at the end
}

// queued is a message, or the error that ended the input.
type queued struct {
	m   Msg
	err error
}

func newMsgQueue() *msgQueue { return &msgQueue{ready: make(chan struct{}, 1)} }

func (q *msgQueue) add(it queued, end bool) {
	q.mu.Lock()
	if !end {
		q.items = append(q.items, it)
	}
	q.ended = q.ended || end
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

func (q *msgQueue) push(m Msg) { q.add(queued{m: m}, false) }

// fail queues the error that ended the input.
func (q *msgQueue) fail(err error) { q.add(queued{err: err}, false) }

// end marks a client gone: what is left is dropped.
func (q *msgQueue) end() { q.add(queued{}, true) }

// pop returns the next message or queued error. Once the client has
// gone it reports false: nothing more is done for it.
func (q *msgQueue) pop() (Msg, error, bool) {
	for {
		q.mu.Lock()
		if q.ended {
			q.mu.Unlock()
			return Msg{}, nil, false
		}
		if len(q.items) > 0 {
			it := q.items[0]
			q.items[0] = queued{}
			q.items = q.items[1:]
			q.mu.Unlock()
			return it.m, it.err, true
		}
		q.mu.Unlock()
		<-q.ready
	}
}

// trimProtocol drops the ErrProtocol prefix: the text is fio's message.
func trimProtocol(err error) string {
	msg := err.Error()
	if p := ErrProtocol.Error() + ": "; len(msg) > len(p) && msg[:len(p)] == p {
		return msg[len(p):]
	}
	return msg
}

func (s *session) probeReply() ProbeReply {
	host := s.srv.Hostname
	if host == "" {
		host, _ = os.Hostname()
	}
	arch := uint8(14)
	switch runtime.GOARCH {
	case "amd64":
		arch = 1
	case "386":
		arch = 2
	case "arm64":
		arch = 13
	}
	return ProbeReply{Hostname: host, FioVersion: output.FioVersion, OS: 1, Arch: arch, BPP: 8, CPUs: uint32(runtime.NumCPU())}
}

// startRun runs the jobs in the background and sends the report, STOP
// and QUIT when they end; the command loop goes on meanwhile (ETA,
// QUIT). While the server shuts down no run starts, and a run's
// connection is closed after its QUIT.
func (s *session) startRun(info, errs io.Writer) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.done != nil || s.closing {
		return // a run is already going, or the server is closing
	}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	stop, done := s.stop, s.done
	go func() {
		defer func() {
			s.runMu.Lock()
			close(done)
			if s.closing {
				s.cancel()
				s.conn.Close()
			}
			s.runMu.Unlock()
		}()
		s.srv.mu.Lock()
		if s.srv.stopping {
			s.closeStop()
		}
		s.srv.mu.Unlock()
		hooks := RunHooks{
			Started: func() { s.send(OpServerStart, 0, nil) },
			Report:  func(r *Report) { s.sendReport(r, info) },
		}
		rep, status := s.be.Run(stop, hooks, info, errs)
		if rep != nil {
			s.sendReport(rep, info)
		}
		s.send(OpStop, 0, EncodePair(uint32(status), 0))
		s.send(OpQuit, 0, nil)
	}()
}

// trigger answers a VTRIGGER as fio's server does: it sends the jobs'
// verify state, stops the run (whose report, STOP and QUIT follow as
// usual) and runs cmd through the shell.
func (s *session) trigger(cmd string, tag uint64) {
	var states []VerifyState
	if vs, ok := s.be.(VerifyStater); ok {
		states = vs.VerifyStates()
	}
	s.send(OpVTrigger, tag, EncodeVTriggerReply(states))
	s.closeStop()
	if cmd != "" {
		c := exec.Command("/bin/sh", "-c", cmd)
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Start(); err != nil {
			s.logf("fio: trigger command %q failed: %v\n", cmd, err)
			return
		}
		go c.Wait()
	}
}

// closeStop closes the run's stop channel once.
func (s *session) closeStop() {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.stop != nil && !s.stopped {
		close(s.stop)
		s.stopped = true
	}
}

// stopRun stops a run in progress and waits for it to end.
func (s *session) stopRun() {
	s.closeStop()
	s.runMu.Lock()
	done := s.done
	s.runMu.Unlock()
	if done != nil {
		<-done
	}
}

// sendReport sends a finished run's report in fio's order: global
// JOB_OPTs, then per report its JOB_OPTs and TS, then GS per group, DU
// per disk, and the closing blank line.
func (s *session) sendReport(rep *Report, info io.Writer) {
	for _, l := range rep.Logs {
		s.send(OpIOLog, 0, l.Encode(s.zlib.Load()))
	}
	r := rep.Result
	for _, o := range r.GlobalOptions {
		s.send(OpJobOpt, 0, JobOpt{Global: true, Name: o.Name, Value: o.Value}.Encode())
	}
	groups := output.GroupStats(r)
	byID := map[int]*output.GroupRunStats{}
	for k := range groups {
		byID[groups[k].ID] = &groups[k]
	}
	for k := range r.Jobs {
		j := &r.Jobs[k]
		for _, o := range j.Options {
			s.send(OpJobOpt, 0, JobOpt{Report: uint32(k), Name: o.Name, Value: o.Value}.Encode())
		}
		thread := k + 1
		if k < len(rep.Threads) {
			thread = rep.Threads[k]
		}
		s.send(OpTS, 0, EncodeTS(j, thread, byID[j.GroupID]))
	}
	for k := range groups {
		s.send(OpGS, 0, EncodeGS(&groups[k]))
	}
	for k := range r.Disks {
		s.send(OpDU, 0, EncodeDU(&r.Disks[k]))
	}
	if rep.Normal {
		io.WriteString(info, "\n")
	}
}
