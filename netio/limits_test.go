package netio

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofio/gofio/internal/crc16"
)

// blockingBackend is a fakeBackend whose AddJob (with a "block" job
// text) waits for its context, and whose Run waits for release or stop.
type blockingBackend struct {
	fakeBackend
	entered chan struct{} // a blocked AddJob has begun
	addDone chan error    // AddJob's result of a blocked call
	release chan struct{} // closed by the test: the run ends
	stopped chan bool     // whether Run saw stop
	closed  chan struct{} // Close was called
	once    sync.Once
}

func newBlocking() *blockingBackend {
	return &blockingBackend{entered: make(chan struct{}, 1), addDone: make(chan error, 1), release: make(chan struct{}),
		stopped: make(chan bool, 1), closed: make(chan struct{})}
}

func (b *blockingBackend) AddJob(ctx context.Context, text string, file bool, info, errs io.Writer) (int, int, error) {
	if text == "refuse" {
		io.WriteString(errs, "refused\n")
		return 0, 0, fmt.Errorf("%w: refused", ErrClose)
	}
	if text == "block" {
		b.entered <- struct{}{}
		<-ctx.Done()
		b.addDone <- ctx.Err()
		return 0, 0, ctx.Err()
	}
	return b.fakeBackend.AddJob(ctx, text, file, info, errs)
}

func (b *blockingBackend) Run(stop <-chan struct{}, h RunHooks, info, errs io.Writer) (*Report, int) {
	h.Started()
	select {
	case <-b.release:
		b.stopped <- false
	case <-stop:
		b.stopped <- true
	}
	return b.fakeBackend.Run(stop, RunHooks{Started: func() {}}, info, errs)
}

func (b *blockingBackend) Close() error {
	b.once.Do(func() { close(b.closed) })
	return nil
}

// testServer serves be (a new blockingBackend per connection when be is
// nil) and returns the server, its address and a function that closes
// the listener and waits for Serve to return.
func testServer(t *testing.T, srv *Server, be func() Backend) (string, func()) {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.NewBackend, srv.Hostname = be, "h"
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			l.Close()
			select {
			case err := <-done:
				if err != nil {
					t.Error(err)
				}
			case <-time.After(10 * time.Second):
				t.Error("Serve did not return within 10 s of its listener's close")
			}
		})
	}
	t.Cleanup(stop)
	return l.Addr().String(), stop
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c
}

// readUntil reads messages until one with opcode op and returns it.
func readUntil(t *testing.T, c net.Conn, op Op) Msg {
	t.Helper()
	for {
		m, err := ReadMsg(c)
		if err != nil {
			t.Fatalf("waiting for %v: %v", op, err)
		}
		if m.Op == op {
			return m
		}
	}
}

// readToEOF reads messages until the server closes the connection and
// returns their opcodes and the TEXT lines.
func readToEOF(t *testing.T, c net.Conn) (ops []Op, texts []string) {
	t.Helper()
	for {
		m, err := ReadMsg(c)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) && !strings.Contains(err.Error(), "connection reset") {
				t.Fatalf("after %v: %v", ops, err)
			}
			return ops, texts
		}
		ops = append(ops, m.Op)
		if m.Op == OpText {
			_, s, _ := DecodeText(m.Payload)
			texts = append(texts, s)
		}
	}
}

// TestServerProbeSizes checks that a PROBE is answered whatever its
// payload's size, as fio's server does (observed with 0, 4, 8, 16 and
// 136 bytes), the flags read from what is there.
func TestServerProbeSizes(t *testing.T) {
	c := startFake(t)
	for _, tc := range []struct {
		payload []byte
		flags   uint64
	}{
		{binary.LittleEndian.AppendUint64(nil, 1), 1},
		{binary.LittleEndian.AppendUint64(nil, 0), 0},
		{nil, 0},
		{[]byte{1}, 1},
		{ProbeRequest{Zlib: true, Server: "sock"}.Encode(), 1},
	} {
		if err := WriteMsg(c, Msg{Op: OpProbe, Tag: 0x55, Payload: tc.payload}); err != nil {
			t.Fatal(err)
		}
		m, err := ReadMsg(c)
		if err != nil {
			t.Fatalf("PROBE of %d bytes: %v", len(tc.payload), err)
		}
		rep, err := DecodeProbeReply(m.Payload)
		if m.Op != OpProbe || m.Tag != 0x55 || err != nil || rep.Flags != tc.flags || rep.FioVersion != "fio-3.33" {
			t.Errorf("PROBE of %d bytes: got %v tag %#x %+v %v, want the reply with flags %d", len(tc.payload), m.Op, m.Tag, rep, err, tc.flags)
		}
	}
}

// fragment is one F_MORE fragment of a JOB message that never ends.
func fragment() []byte {
	p := make([]byte, MaxFragment)
	h := make([]byte, HeaderSize)
	binary.LittleEndian.PutUint16(h, Version)
	binary.LittleEndian.PutUint16(h[2:], uint16(OpJob))
	binary.LittleEndian.PutUint32(h[4:], flagMore)
	binary.LittleEndian.PutUint32(h[16:], MaxFragment)
	binary.LittleEndian.PutUint16(h[20:], crc16.ARC(h[:20]))
	binary.LittleEndian.PutUint16(h[22:], crc16.ARC(p))
	return append(h, p...)
}

// TestServerMemoryBounds sends fragments of messages that never end: a
// connection over its own bound, or over the bound of all connections,
// gets an error TEXT and is closed, and what it held is released.
func TestServerMemoryBounds(t *testing.T) {
	srv := &Server{MaxConnBytes: 64 << 10, MaxTotalBytes: 96 << 10}
	addr, stop := testServer(t, srv, func() Backend { return fakeBackend{} })
	frag := fragment()
	send := func(c net.Conn, n int) {
		t.Helper()
		for range n {
			// Writes after the server's close may fail.
			c.Write(frag)
		}
	}
	// waitBuffered waits (up to 10 s) until the server holds n bytes.
	waitBuffered := func(n int64) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); srv.buffered.Load() != n; {
			if time.Now().After(deadline) {
				t.Fatalf("server holds %d bytes, want %d", srv.buffered.Load(), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	c1 := dial(t, addr)
	send(c1, 60)
	waitBuffered(60 << 10)
	c2 := dial(t, addr)
	send(c2, 40)
	if _, texts := readToEOF(t, c2); len(texts) != 1 || !strings.Contains(texts[0], "96 KiB limit of all connections") {
		t.Errorf("over the total bound: got %q", texts)
	}
	waitBuffered(60 << 10)
	send(c1, 10)
	if _, texts := readToEOF(t, c1); len(texts) != 1 || !strings.Contains(texts[0], "64 KiB limit of one connection") {
		t.Errorf("over the connection bound: got %q", texts)
	}
	stop()
	if n := srv.buffered.Load(); n != 0 {
		t.Errorf("after the connections ended the server holds %d bytes", n)
	}
}

// TestServerDisconnectEndsAddJob checks that a client that goes away
// ends the job-file reading of its connection (fio's connection
// handler ends with its client), and that the backend is closed.
func TestServerDisconnectEndsAddJob(t *testing.T) {
	be := newBlocking()
	addr, _ := testServer(t, &Server{}, func() Backend { return be })
	c := dial(t, addr)
	if err := WriteMsg(c, Msg{Op: OpJob, Payload: EncodeJob("block")}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-be.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("AddJob not called within 10 s")
	}
	c.Close()
	select {
	case err := <-be.addDone:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("AddJob ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("AddJob still running 10 s after its client went away")
	}
	select {
	case <-be.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("backend not closed 10 s after its client went away")
	}
}

// startBlockedRun connects, sends a job and RUN, and waits for the run
// to start.
func startBlockedRun(t *testing.T, addr string) net.Conn {
	t.Helper()
	c := dial(t, addr)
	for _, m := range []Msg{{Op: OpJob, Payload: EncodeJob("[j]\n")}, {Op: OpRun}} {
		if err := WriteMsg(c, m); err != nil {
			t.Fatal(err)
		}
	}
	readUntil(t, c, OpServerStart)
	return c
}

// TestServerShutdown checks what the server does when its listener
// closes (gofio --server's SIGTERM), as fio's server on SIGTERM: a
// running job finishes and its report, STOP and QUIT are sent before the
// connection closes; a connection without a run is closed at once.
func TestServerShutdown(t *testing.T) {
	be := newBlocking()
	srv := &Server{}
	addr, stop := testServer(t, srv, func() Backend { return be })
	c := startBlockedRun(t, addr)
	idle := dial(t, addr)
	WriteMsg(idle, Msg{Op: OpProbe, Tag: 1, Payload: ProbeRequest{}.Encode()})
	readUntil(t, idle, OpProbe)

	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	if ops, _ := readToEOF(t, idle); len(ops) != 0 {
		t.Errorf("idle connection got %v before its close", ops)
	}
	// The idle connection is closed while the shutdown holds srv.mu:
	// once it is free, the shutdown has marked every connection.
	srv.mu.Lock()
	closing := srv.closing
	srv.mu.Unlock()
	if !closing {
		t.Fatal("the idle connection was closed before the shutdown began")
	}
	if err := WriteMsg(c, Msg{Op: OpSendETA, Tag: 3}); err != nil {
		t.Fatal(err)
	}
	if m := readUntil(t, c, OpETA); m.Tag != 3 {
		t.Errorf("ETA tag %d", m.Tag)
	}
	select {
	case <-stopped:
		t.Fatal("Serve returned with a run in progress")
	default:
	}
	close(be.release)
	ops, _ := readToEOF(t, c)
	want := []Op{OpJobOpt, OpJobOpt, OpTS, OpGS, OpDU, OpText, OpStop, OpQuit}
	if !equalOps(ops, want) {
		t.Errorf("after shutdown the run sent %v, want %v", ops, want)
	}
	if <-be.stopped {
		t.Error("the run was stopped, not finished")
	}
	<-stopped
}

// TestServerStopRuns checks StopRuns (gofio --server's second signal):
// the run stops early and still reports.
func TestServerStopRuns(t *testing.T) {
	be := newBlocking()
	srv := &Server{}
	addr, stop := testServer(t, srv, func() Backend { return be })
	c := startBlockedRun(t, addr)
	go stop()
	srv.StopRuns()
	ops, _ := readToEOF(t, c)
	want := []Op{OpJobOpt, OpJobOpt, OpTS, OpGS, OpDU, OpText, OpStop, OpQuit}
	if !equalOps(ops, want) {
		t.Errorf("after StopRuns the run sent %v, want %v", ops, want)
	}
	if !<-be.stopped {
		t.Error("the run was not stopped")
	}
}

func equalOps(a, b []Op) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestServerErrClose checks a backend's ErrClose: QUIT, then nothing
// more is done for the connection (RUN and PROBE are dropped) until the
// client closes it.
func TestServerErrClose(t *testing.T) {
	addr, _ := testServer(t, &Server{}, func() Backend { return newBlocking() })
	c := dial(t, addr)
	for _, m := range []Msg{{Op: OpJob, Payload: EncodeJob("refuse")}, {Op: OpRun}, {Op: OpProbe, Tag: 1}} {
		if err := WriteMsg(c, m); err != nil {
			t.Fatal(err)
		}
	}
	if m := readUntil(t, c, OpQuit); m.Op != OpQuit {
		t.Fatal(m.Op)
	}
	c.(*net.TCPConn).CloseWrite()
	if ops, _ := readToEOF(t, c); len(ops) != 0 {
		t.Errorf("after QUIT the server sent %v", ops)
	}
}
