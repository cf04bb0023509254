package netio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/gofio/gofio/output"
)

// Backend parses and runs the jobs of one client connection; the server
// loop turns what it produces into fio's messages. Its writers send
// TEXT messages.
type Backend interface {
	// JobLine applies a JOBLINE's fio options (argv[0] is "fio").
	JobLine(argv []string, errs io.Writer) error
	// AddJob parses one job file's text (JOB) or, with file set, the
	// server-side file text names (LOAD_FILE). It prints the new jobs'
	// description lines on info and returns the totals so far: job
	// threads and reports.
	AddJob(text string, file bool, info, errs io.Writer) (jobs, reports int, err error)
	// Run runs every job added so far. It calls started once per job
	// thread as the run begins, returns when the jobs end or stop is
	// closed, and returns the reports with their fio thread numbers and
	// the exit status.
	Run(stop <-chan struct{}, started func(), info, errs io.Writer) (*Report, int)
	// ETA returns the live status for SEND_ETA.
	ETA() ETA
}

// Report is a finished run as the server sends it.
type Report struct {
	Result *output.Result
	// Threads holds, per Result.Jobs entry, the fio thread number of its
	// first member.
	Threads []int
	// Normal is set when the client asked for normal output (the blank
	// line that closes fio's report is then sent).
	Normal bool
}

// Server accepts client connections and runs each one's jobs with a
// Backend of its own. Runs of different connections take turns: gofio
// runs its jobs inside one process.
type Server struct {
	// NewBackend returns the backend of a new connection.
	NewBackend func() Backend
	// Hostname is sent in PROBE replies (os.Hostname when empty).
	Hostname string
	// Log receives the server's own messages (nil discards them).
	Log io.Writer

	runMu sync.Mutex
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]bool
}

// Serve accepts connections on l until it fails or is closed; then it
// closes the open connections, which stops their runs, and waits for
// their sessions to end.
func (s *Server) Serve(l net.Listener) error {
	defer s.wg.Wait()
	defer s.closeAll()
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("netio: accept: %w", err)
		}
		s.mu.Lock()
		if s.conns == nil {
			s.conns = map[net.Conn]bool{}
		}
		s.conns[c] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			be := s.NewBackend()
			if ca, ok := be.(ClientAware); ok {
				// fio records the accepted socket's local address.
				ca.SetClient(c.LocalAddr())
			}
			(&session{srv: s, conn: c, be: be}).serve()
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
		}()
	}
}

// closeAll closes every open connection.
func (s *Server) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.Close()
	}
}

// session is one client connection.
type session struct {
	srv  *Server
	conn net.Conn
	be   Backend

	wmu sync.Mutex // one message at a time on the socket

	// Run state: stop, closed once, ends the run; done is closed when
	// the run (and its report) has finished. Both are nil before RUN.
	runMu   sync.Mutex
	stop    chan struct{}
	done    chan struct{}
	stopped bool
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
// connection, sends EXIT, or breaks the protocol.
func (s *session) serve() {
	defer s.conn.Close()
	if c, ok := s.be.(io.Closer); ok {
		defer c.Close()
	}
	defer s.stopRun()
	info, errs := textWriter{s, LevelInfo}, textWriter{s, LevelError}
	for {
		m, err := ReadMsg(s.conn)
		if err != nil {
			if errors.Is(err, ErrProtocol) {
				fmt.Fprintln(errs, trimProtocol(err))
				s.logf("%v\n", err)
			}
			return
		}
		switch m.Op {
		case OpProbe:
			req, err := DecodeProbeRequest(m.Payload)
			if err != nil {
				fmt.Fprintln(errs, trimProtocol(err))
				return
			}
			rep := s.probeReply()
			if req.Zlib {
				// Accepted as fio does; gofio sends no IOLOG to compress.
				rep.Flags = 1
			}
			s.send(OpProbe, m.Tag, rep.Encode())
		case OpJobLine:
			argv, err := DecodeJobLine(m.Payload)
			if err == nil {
				err = s.be.JobLine(argv, errs)
			}
			if err != nil {
				s.send(OpQuit, 0, nil)
				continue
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
				return
			}
			jobs, reports, err := s.be.AddJob(text, m.Op == OpLoadFile, info, errs)
			if err != nil {
				s.send(OpQuit, 0, nil)
				continue
			}
			s.send(OpStart, 0, EncodePair(uint32(jobs), uint32(reports)))
		case OpRun:
			s.startRun(info, errs)
		case OpSendETA:
			s.send(OpETA, m.Tag, s.be.ETA().Encode())
		case OpQuit:
			s.stopRun()
		case OpExit:
			return
		default:
			fmt.Fprintf(errs, "fio: unknown opcode: %v\n", m.Op)
			return
		}
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
	return ProbeReply{Hostname: host, FioVersion: "fio-3.33", OS: 1, Arch: arch, BPP: 8, CPUs: uint32(runtime.NumCPU())}
}

// startRun runs the jobs in the background and sends the report, STOP
// and QUIT when they end; the command loop goes on meanwhile (ETA,
// QUIT).
func (s *session) startRun(info, errs io.Writer) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.done != nil {
		return // a run is already going
	}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	stop, done := s.stop, s.done
	go func() {
		defer close(done)
		s.srv.runMu.Lock()
		rep, status := s.be.Run(stop, func() { s.send(OpServerStart, 0, nil) }, info, errs)
		s.srv.runMu.Unlock()
		if rep != nil {
			s.sendReport(rep, info)
		}
		s.send(OpStop, 0, EncodePair(uint32(status), 0))
		s.send(OpQuit, 0, nil)
	}()
}

// stopRun stops a run in progress and waits for it to end.
func (s *session) stopRun() {
	s.runMu.Lock()
	stop, done := s.stop, s.done
	if stop != nil && !s.stopped {
		close(stop)
		s.stopped = true
	}
	s.runMu.Unlock()
	if done != nil {
		<-done
	}
}

// sendReport sends a finished run's report in fio's order: global
// JOB_OPTs, then per report its JOB_OPTs and TS, then GS per group, DU
// per disk, and the closing blank line.
func (s *session) sendReport(rep *Report, info io.Writer) {
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
