package netio

import (
	"bytes"
	"context"
	"io"
	"net"
	"runtime"
	"testing"
	"time"
)

// FuzzReadMsg feeds arbitrary bytes to the reader: it must return a
// message or an error, never panic, and a message it returns must
// survive Encode and ReadMsg unchanged.
func FuzzReadMsg(f *testing.F) {
	f.Add(Msg{Op: OpRun}.Encode())
	f.Add(Msg{Op: OpJob, Payload: make([]byte, 1500)}.Encode())
	f.Add(Msg{Op: OpText, Payload: EncodeText(LevelInfo, "x\n", zeroTime)}.Encode())
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadMsg(bytes.NewReader(data))
		if err != nil {
			return
		}
		back, err := ReadMsg(bytes.NewReader(m.Encode()))
		if err != nil || back.Op != m.Op || back.Tag != m.Tag || !bytes.Equal(back.Payload, m.Payload) {
			t.Fatalf("round trip of %v: %v", m.Op, err)
		}
	})
}

// FuzzDecode feeds arbitrary payloads to every payload decoder: none
// may panic.
func FuzzDecode(f *testing.F) {
	f.Add(EncodeJobLine([]string{"fio", "--eta=never"}))
	f.Add(EncodeText(LevelInfo, "x", zeroTime))
	f.Add(EncodeLoadFile("a.fio"))
	f.Add(EncodeJob("[j]\n"))
	f.Fuzz(func(t *testing.T, p []byte) {
		DecodeProbeRequest(p)
		DecodeProbeReply(p)
		DecodeJob(p)
		DecodeJobLine(p)
		DecodeLoadFile(p)
		DecodeText(p)
		DecodePair(p)
		DecodeJobOpt(p)
		DecodeETA(p)
		DecodeGS(p)
		DecodeDU(p)
		DecodeTS(p)
	})
}

// FuzzServerInput feeds arbitrary bytes to a server connection (with
// small memory bounds): the session must end when the client closes,
// never panic, and give back every byte it buffered.
func FuzzServerInput(f *testing.F) {
	var seed []byte
	for _, m := range []Msg{
		{Op: OpProbe, Tag: 7, Payload: ProbeRequest{Zlib: true}.Encode()},
		{Op: OpJob, Payload: EncodeJob("[j]\n")},
		{Op: OpSendETA, Tag: 9},
		{Op: OpRun},
		{Op: OpQuit},
	} {
		seed = append(seed, m.Encode()...)
	}
	f.Add(seed)
	f.Add(Msg{Op: OpProbe, Tag: 1, Payload: make([]byte, 8)}.Encode())
	f.Add(Msg{Op: OpJob, Payload: make([]byte, 5000)}.Encode())
	f.Add(append(fragment(), fragment()...))
	f.Fuzz(func(t *testing.T, data []byte) {
		srv := &Server{NewBackend: func() Backend { return fakeBackend{} }, Hostname: "h", MaxConnBytes: 4096, MaxTotalBytes: 8192}
		cli, conn := net.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		s := &session{srv: srv, conn: conn, be: fakeBackend{}, ctx: ctx, cancel: cancel}
		done := make(chan struct{})
		go func() {
			s.serve()
			close(done)
		}()
		go io.Copy(io.Discard, cli)
		go func() {
			// The server may stop reading (a protocol error): the
			// write then fails when it closes the connection.
			cli.Write(data)
			cli.Close()
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			buf := make([]byte, 1<<20)
			t.Fatalf("session still running 10 s after its client closed:\n%s", buf[:runtime.Stack(buf, true)])
		}
		if n := srv.buffered.Load(); n != 0 {
			t.Fatalf("session ended holding %d bytes", n)
		}
	})
}
