package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// nbdStyle is the handshake a test server speaks.
type nbdStyle uint8

const (
	nbdFixedGo   nbdStyle = iota // fixed newstyle, knows NBD_OPT_GO
	nbdFixedNoGo                 // fixed newstyle, answers NBD_OPT_GO with NBD_REP_ERR_UNSUP
	nbdPlainNew                  // newstyle without the fixed flag
	nbdOldstyle                  // oldstyle
	nbdRefuseGo                  // NBD_OPT_GO answered with NBD_REP_ERR_UNKNOWN and a message
)

// nbdTestServer is a small NBD server written from the protocol
// specification: one export of size bytes in memory, simple replies.
type nbdTestServer struct {
	style  nbdStyle
	export string
	tflags uint16 // transmission flags sent
	mu     sync.Mutex
	data   []byte
	cmds   []uint16 // commands received, in order
	opts   []uint32 // options received, in order
}

// serveNBD starts s on a unix socket and returns the socket's path.
func serveNBD(t *testing.T, s *nbdTestServer) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "nbd.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); defer c.Close(); s.serve(c) }()
		}
	}()
	return sock
}

func (s *nbdTestServer) serve(c net.Conn) {
	be := binary.BigEndian
	put := func(vals ...any) {
		for _, v := range vals {
			binary.Write(c, be, v)
		}
	}
	size := uint64(len(s.data))
	flags := s.tflags | 1 // NBD_FLAG_HAS_FLAGS
	if s.style == nbdOldstyle {
		put(uint64(nbdMagic), uint64(nbdOldstyleMagic), size, uint32(flags), make([]byte, 124))
	} else {
		hs := uint16(nbdFlagNoZeroes)
		if s.style != nbdPlainNew {
			hs |= nbdFlagFixedNewstyle
		}
		put(uint64(nbdMagic), uint64(nbdOptMagic), hs)
		var cf uint32
		if binary.Read(c, be, &cf) != nil {
			return
		}
		for negotiating := true; negotiating; {
			var h struct {
				Magic    uint64
				Opt, Len uint32
			}
			if binary.Read(c, be, &h) != nil || h.Magic != nbdOptMagic {
				return
			}
			body := make([]byte, h.Len)
			if _, err := io.ReadFull(c, body); err != nil {
				return
			}
			s.mu.Lock()
			s.opts = append(s.opts, h.Opt)
			s.mu.Unlock()
			reply := func(typ uint32, data []byte) {
				put(uint64(nbdOptReplyMagic), h.Opt, typ, uint32(len(data)), data)
			}
			switch {
			case h.Opt == nbdOptExportName:
				if string(body) != s.export {
					return // the spec: the server closes the connection
				}
				put(size, flags)
				if cf&nbdFlagNoZeroes == 0 {
					put(make([]byte, 124))
				}
				negotiating = false
			case h.Opt == nbdOptGo && s.style == nbdFixedGo:
				n := be.Uint32(body)
				if string(body[4:4+n]) != s.export {
					reply(nbdRepFlagError|6, []byte("no such export")) // NBD_REP_ERR_UNKNOWN
					continue
				}
				info := be.AppendUint16(nil, nbdInfoExport)
				info = be.AppendUint64(info, size)
				info = be.AppendUint16(info, flags)
				reply(nbdRepInfo, info)
				reply(nbdRepAck, nil)
				negotiating = false
			case h.Opt == nbdOptGo && s.style == nbdRefuseGo:
				reply(nbdRepFlagError|6, []byte("no such export"))
			default:
				reply(nbdRepErrUnsup, nil)
			}
		}
	}
	for {
		var r struct {
			Magic       uint32
			Flags, Type uint16
			Handle, Off uint64
			Len         uint32
		}
		if binary.Read(c, be, &r) != nil || r.Magic != nbdRequestMagic {
			return
		}
		s.mu.Lock()
		s.cmds = append(s.cmds, r.Type)
		s.mu.Unlock()
		var code uint32
		var out []byte
		inRange := r.Off+uint64(r.Len) <= size
		switch r.Type {
		case nbdCmdDisc:
			return
		case nbdCmdWrite:
			buf := make([]byte, r.Len)
			if _, err := io.ReadFull(c, buf); err != nil {
				return
			}
			if inRange {
				s.mu.Lock()
				copy(s.data[r.Off:], buf)
				s.mu.Unlock()
			}
		case nbdCmdRead:
			if inRange {
				s.mu.Lock()
				out = bytes.Clone(s.data[r.Off : r.Off+uint64(r.Len)])
				s.mu.Unlock()
			}
		case nbdCmdTrim:
			if inRange {
				s.mu.Lock()
				clear(s.data[r.Off : r.Off+uint64(r.Len)])
				s.mu.Unlock()
			}
		}
		if !inRange && r.Type != nbdCmdFlush {
			code, out = uint32(unix.EINVAL), nil
		}
		put(uint32(nbdReplyMagic), code, r.Handle, out)
	}
}

// nbdContractServer serves a 64 KiB export for TestEngineContract.
func nbdContractServer(t *testing.T) []string {
	s := &nbdTestServer{data: make([]byte, 64<<10), tflags: nbdTFlagSendFlush | nbdTFlagSendTrim}
	return []string{"uri=nbd+unix:///?socket=" + serveNBD(t, s)}
}

// Each handshake the specification allows ends in the transmission phase
// with the export's size and flags.
func TestNBDHandshake(t *testing.T) {
	for _, tc := range []struct {
		name     string
		style    nbdStyle
		wantOpts []uint32
	}{
		{"fixed newstyle, NBD_OPT_GO", nbdFixedGo, []uint32{nbdOptGo}},
		{"fixed newstyle, GO unsupported", nbdFixedNoGo, []uint32{nbdOptGo, nbdOptExportName}},
		{"newstyle", nbdPlainNew, []uint32{nbdOptExportName}},
		{"oldstyle", nbdOldstyle, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &nbdTestServer{style: tc.style, export: "disk", data: make([]byte, 12345), tflags: nbdTFlagSendTrim}
			sock := serveNBD(t, s)
			c, err := nbdDial("nbd+unix:///disk?socket=" + sock)
			if err != nil {
				t.Fatal(err)
			}
			defer c.close()
			if c.size != 12345 || c.flags != nbdTFlagSendTrim|1 {
				t.Errorf("size %d, flags %#x; want 12345, %#x", c.size, c.flags, nbdTFlagSendTrim|1)
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if !slicesEqual(s.opts, tc.wantOpts) {
				t.Errorf("options sent %v, want %v", s.opts, tc.wantOpts)
			}
		})
	}
	t.Run("export refused", func(t *testing.T) {
		s := &nbdTestServer{style: nbdRefuseGo, export: "disk", data: make([]byte, 512)}
		_, err := nbdDial("nbd+unix:///other?socket=" + serveNBD(t, s))
		var ie *InitError
		if !errors.As(err, &ie) || ie.Errno != 0 || ie.Msg != "fio: nbd_connect_uri: nbd_connect_uri: handshake: no such export: Invalid argument" {
			t.Errorf("err = %v", err)
		}
	})
}

func slicesEqual(a, b []uint32) bool {
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

func TestParseNBDURI(t *testing.T) {
	for _, tc := range []struct {
		uri  string
		want nbdTarget
		err  string
	}{
		{uri: "nbd://example.com/exp", want: nbdTarget{"tcp", "example.com:10809", "exp"}},
		{uri: "nbd://127.0.0.1:1234", want: nbdTarget{"tcp", "127.0.0.1:1234", ""}},
		{uri: "nbd://[::1]:99/a/b", want: nbdTarget{"tcp", "[::1]:99", "a/b"}},
		{uri: "nbd+unix:///?socket=/tmp/s", want: nbdTarget{"unix", "/tmp/s", ""}},
		{uri: "nbd+unix:///e?socket=/tmp/s", want: nbdTarget{"unix", "/tmp/s", "e"}},
		{uri: "bogus", err: "NBD URI does not have a scheme: valid NBD URIs should start with a scheme like nbd://, nbds:// or nbd+unix://: Invalid argument"},
		{uri: "nbd+unix:///", err: "socket parameter is required for nbd+unix URIs: Invalid argument"},
		{uri: "nbds://h/", err: "nbds URIs are not supported by gofio (no TLS or vsock): Protocol not supported"},
		{uri: "http://h/", err: "unknown NBD URI scheme: http: Invalid argument"},
	} {
		got, err := parseNBDURI(tc.uri)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: err %v, want %q", tc.uri, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.uri, got, err, tc.want)
		}
	}
}

// The engine's requests at depth 4: writes, a trim, a flush and reads
// come back by handle, with the data read; a read past the export fails
// with the server's error; a trim the export does not offer fails with
// EOPNOTSUPP without reaching the server.
func TestNBDEngineIO(t *testing.T) {
	s := &nbdTestServer{data: make([]byte, 64<<10), tflags: nbdTFlagSendFlush | nbdTFlagSendTrim}
	sock := serveNBD(t, s)
	units := asyncTUnits(t, 4, 4096)
	eng, err := newNBD(Config{IODepth: 4, Units: units, Options: engineOpts(t, "nbd", "uri=nbd+unix:///?socket="+sock)})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.(io.Closer).Close()
	e := eng.(*nbdEng)
	run := func(ops ...*IOUnit) {
		t.Helper()
		for _, u := range ops {
			if st := e.Queue(u); st != Queued {
				t.Fatalf("Queue: status %d", st)
			}
		}
		if n, err := e.Commit(); err != nil || n != len(ops) {
			t.Fatalf("Commit = %d, %v", n, err)
		}
		done := make([]*IOUnit, 4)
		if n, err := e.Reap(len(ops), done); err != nil || n != len(ops) {
			t.Fatalf("Reap = %d, %v", n, err)
		}
	}
	for i, u := range units[:3] {
		u.Op, u.Offset = OpWrite, int64(i)*4096
		for k := range u.Buf {
			u.Buf[k] = byte(i + 1)
		}
	}
	units[3].Op = OpFsync
	run(units...)
	for i, u := range units {
		want := 4096
		if i == 3 {
			want = 0
		}
		if u.Err != 0 || u.Result != want {
			t.Errorf("unit %d: Result %d, Err %v", i, u.Result, u.Err)
		}
	}
	units[0].Op, units[0].Offset = OpTrim, 4096
	units[1].Op, units[1].Offset = OpRead, 0
	units[2].Op, units[2].Offset = OpRead, 4096
	units[3].Op, units[3].Offset = OpRead, 64<<10
	run(units...)
	if units[1].Buf[0] != 1 || units[1].Buf[4095] != 1 || units[1].Result != 4096 {
		t.Errorf("read at 0: %d... (Result %d), want 1s", units[1].Buf[0], units[1].Result)
	}
	if units[2].Err != 0 || units[2].Buf[0] != 0 {
		t.Errorf("read of the trimmed block: %d... (%v), want 0s", units[2].Buf[0], units[2].Err)
	}
	if units[3].Err != unix.EINVAL || units[3].Result != 0 {
		t.Errorf("read past the end: Result %d, Err %v; want 0, EINVAL", units[3].Result, units[3].Err)
	}
	s.mu.Lock()
	want := []uint16{nbdCmdWrite, nbdCmdWrite, nbdCmdWrite, nbdCmdFlush, nbdCmdTrim, nbdCmdRead, nbdCmdRead, nbdCmdRead}
	got := s.cmds
	s.mu.Unlock()
	if len(got) != len(want) {
		t.Fatalf("commands %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("commands %v, want %v", got, want)
		}
	}
	e.c.flags &^= nbdTFlagSendTrim
	u := units[0]
	u.Op = OpTrim
	if st := e.Queue(u); st != Completed || u.Err != unix.EOPNOTSUPP {
		t.Errorf("trim without NBD_FLAG_SEND_TRIM: status %d, Err %v", st, u.Err)
	}
}
