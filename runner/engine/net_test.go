//go:build linux

package engine

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/testport"
	"github.com/gofio/gofio/jobspec"
)

// TestNetInitErrors checks the setups fio 3.33 refuses as the engine
// starts, with its message (observed: fio --ioengine=net ...).
func TestNetInitErrors(t *testing.T) {
	tests := []struct {
		rw    jobspec.RW
		opts  []string
		files []string
		msg   string
		errno unix.Errno
	}{
		{jobspec.RWRead, []string{"protocol=udp", "listen", "port=31111"}, nil, "fio: listen only valid for TCP proto IO", unix.EPERM},
		{jobspec.RWRead, []string{"protocol=unix", "listen"}, []string{"/tmp/x.sock"}, "fio: listen only valid for TCP proto IO", unix.EPERM},
		{jobspec.RWWrite, []string{"port=31111"}, nil, "fio: connect with no host to connect to.", unix.EINVAL},
		{jobspec.RWWrite, []string{"hostname=localhost"}, nil, "fio: network IO requires port for tcp or udp", unix.EPERM},
		{jobspec.RWRandWrite, []string{"hostname=localhost", "port=31111"}, nil, "fio: network IO can't be random", unix.EPERM},
		{jobspec.RWRead, []string{"hostname=localhost", "port=31111", "listen"}, nil, "fio: hostname not valid for non-multicast inbound network IO", unix.EPERM},
		{jobspec.RWRead, []string{"hostname=localhost", "port=31111", "protocol=udp"}, nil, "fio: hostname not valid for non-multicast inbound network IO", unix.EPERM},
		{jobspec.RWWrite, []string{"protocol=unix"}, nil, "fio: UNIX sockets need host/filename", unix.EPERM},
		{jobspec.RWWrite, []string{"protocol=unix", "port=1"}, []string{"/tmp/x.sock"}, "fio: network IO port not valid with unix socket", unix.EPERM},
		// The file's name is the host: an inbound job may have none.
		{jobspec.RWRead, []string{"port=31111", "listen"}, []string{"127.0.0.1"}, "fio: hostname not valid for non-multicast inbound network IO", unix.EPERM},
		// fio 3.33 reads no "host,port,protocol" file name: the whole
		// name is the host, which does not resolve.
		{jobspec.RWWrite, []string{"port=31111"}, []string{"127.0.0.1,8888,tcp"}, "", unix.EINVAL},
		{jobspec.RWWrite, []string{"port=31111", "hostname=no.such.host.invalid"}, nil, "", unix.EINVAL},
	}
	for _, tt := range tests {
		_, err := newNet(Config{Options: engineOpts(t, "net", tt.opts...), RW: tt.rw, Files: 1, Filenames: tt.files, Job: "x"})
		var ie *InitError
		if !errors.As(err, &ie) {
			t.Errorf("%v %v: error %v, want an InitError", tt.rw, tt.opts, err)
			continue
		}
		want := tt.msg + "\nfio: io engine net init failed."
		if tt.msg == "" {
			want = "fio: io engine net init failed."
			if ie.Fn != "getaddrinfo: Name or service not known" {
				t.Errorf("%v %v: func=%s, want getaddrinfo's", tt.rw, tt.opts, ie.Fn)
			}
		}
		if ie.Msg != want || ie.Errno != tt.errno {
			t.Errorf("%v %v: %q (%v), want %q (%v)", tt.rw, tt.opts, ie.Msg, ie.Errno, want, tt.errno)
		}
	}
}

// TestNetEngines runs a writer and a reader of each engine and protocol
// over the loopback: the reader gets each block the writer sent, then
// ends its job (IOUnit.End) on the writer's close message; with
// pingpong each block comes back to the writer.
func TestNetEngines(t *testing.T) {
	const bs, blocks = 4096, 4
	for _, eng := range []string{"net", "netsplice"} {
		for _, proto := range []string{"tcp", "udp", "unix", "tcpv6"} {
			for _, pingpong := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/pingpong=%v", eng, proto, pingpong)
				t.Run(name, func(t *testing.T) {
					info, err := Lookup(eng)
					if err != nil {
						t.Fatal(err)
					}
					var rOpts, wOpts []string
					var files, wFiles []string
					switch proto {
					case "unix":
						files = []string{filepath.Join(t.TempDir(), "s.sock")}
						wFiles = files
						rOpts, wOpts = []string{"protocol=unix"}, []string{"protocol=unix"}
					case "udp":
						p := fmt.Sprint(testport.Free(t))
						rOpts, wOpts = []string{"protocol=udp", "port=" + p}, []string{"protocol=udp", "port=" + p, "hostname=127.0.0.1"}
					case "tcp", "tcpv6":
						host := "127.0.0.1"
						if proto == "tcpv6" {
							host = "::1"
							if l, err := net.Listen("tcp6", "[::1]:0"); err != nil {
								t.Skip("no IPv6 loopback")
							} else {
								l.Close()
							}
						}
						p := fmt.Sprint(testport.Free(t))
						rOpts = []string{"protocol=" + proto, "port=" + p, "listen"}
						wOpts = []string{"protocol=" + proto, "port=" + p, "hostname=" + host}
						if proto == "tcp" {
							// The file's name is the host.
							wOpts, wFiles = wOpts[:2], []string{host}
						}
					}
					if pingpong {
						rOpts, wOpts = append(rOpts, "pingpong"), append(wOpts, "pingpong")
					}
					rUnits, wUnits := asyncTUnits(t, 1, bs), asyncTUnits(t, 1, bs)
					re, err := info.New(Config{IODepth: 1, Units: rUnits, Options: engineOpts(t, eng, rOpts...), RW: jobspec.RWRead, Files: 1, Filenames: files, Job: "r"})
					if err != nil {
						t.Fatalf("reader: %v", err)
					}
					defer re.(interface{ Close() error }).Close()
					if n := re.(Noticer).Notice("r"); proto != "udp" && n != "fio: waiting for connection" {
						t.Errorf("reader's notice %q, want fio's waiting line", n)
					}
					we, err := info.New(Config{IODepth: 1, Units: wUnits, Options: engineOpts(t, eng, wOpts...), RW: jobspec.RWWrite, Files: 1, Filenames: wFiles, Job: "w"})
					if err != nil {
						t.Fatalf("writer: %v", err)
					}
					defer we.(interface{ Close() error }).Close()

					// The reader accepts (or waits for the UDP open
					// message) while the writer connects.
					rdone := make(chan error, 1)
					go func() { rdone <- re.(Connector).Connect() }()
					if err := we.(Connector).Connect(); err != nil {
						t.Fatalf("writer Connect: %v", err)
					}
					err = <-rdone
					if err != nil {
						t.Fatalf("reader Connect: %v", err)
					}

					got := make(chan []byte, 1)
					go func() {
						var all []byte
						r := rUnits[0]
						for {
							r.Op, r.File, r.End = OpRead, 0, false
							clear(r.Buf)
							re.Queue(r)
							if r.Err != 0 {
								t.Errorf("read: %v", r.Err)
								break
							}
							if r.End {
								break
							}
							all = append(all, r.Buf[:r.Result]...)
						}
						got <- all
					}()
					var sent []byte
					w := wUnits[0]
					for i := range blocks {
						copy(w.Buf, bytes.Repeat([]byte{byte('a' + i)}, bs))
						w.Op, w.File = OpWrite, 0
						we.Queue(w)
						if w.Err != 0 || w.Result != bs || w.End {
							t.Fatalf("write %d: Result %d, Err %v, End %v", i, w.Result, w.Err, w.End)
						}
						if pingpong && !bytes.Equal(w.Buf, bytes.Repeat([]byte{byte('a' + i)}, bs)) {
							t.Errorf("write %d: pingpong brought back %q...", i, w.Buf[:8])
						}
						sent = append(sent, bytes.Repeat([]byte{byte('a' + i)}, bs)...)
					}
					if err := we.(FileOpener).CloseFile(0, -1); err != nil {
						t.Errorf("writer CloseFile: %v", err)
					}
					if all := <-got; !bytes.Equal(all, sent) {
						t.Errorf("reader got %d bytes (%q...), want the %d sent", len(all), strings.TrimRight(string(all[:min(len(all), 8)]), "\x00"), len(sent))
					}
				})
			}
		}
	}
}

// TestNetSocketOptions checks that nodelay, window_size and mss reach a
// TCP connection, and ttl and interface a multicast writer's socket.
func TestNetSocketOptions(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			defer c.Close()
			c.Read(make([]byte, 1))
		}
	}()
	port := l.Addr().(*net.TCPAddr).Port
	opts := []string{"hostname=127.0.0.1", fmt.Sprint("port=", port), "nodelay=1", "window_size=128k", "mss=1200"}
	e, err := newNet(Config{Options: engineOpts(t, "net", opts...), RW: jobspec.RWWrite, Files: 1, Job: "w"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.(*netEngine).Close()
	if err := e.(Connector).Connect(); err != nil {
		t.Fatal(err)
	}
	fd := e.(*netEngine).conns[0].fd
	for _, c := range []struct {
		name       string
		level, opt int
		ok         func(int) bool
	}{
		{"TCP_NODELAY", unix.IPPROTO_TCP, unix.TCP_NODELAY, func(v int) bool { return v == 1 }},
		{"SO_SNDBUF", unix.SOL_SOCKET, unix.SO_SNDBUF, func(v int) bool { return v >= 128<<10 }}, // the kernel doubles it
		{"SO_RCVBUF", unix.SOL_SOCKET, unix.SO_RCVBUF, func(v int) bool { return v >= 128<<10 }},
		{"TCP_MAXSEG", unix.IPPROTO_TCP, unix.TCP_MAXSEG, func(v int) bool { return v > 0 && v <= 1200 }},
	} {
		v, err := unix.GetsockoptInt(fd, c.level, c.opt)
		if err != nil || !c.ok(v) {
			t.Errorf("%s = %d (%v)", c.name, v, err)
		}
	}

	opts = []string{"protocol=udp", "hostname=239.1.2.3", "port=9", "ttl=4", "interface=127.0.0.1"}
	m, err := newNet(Config{Options: engineOpts(t, "net", opts...), RW: jobspec.RWWrite, Files: 1, Job: "w"})
	if err != nil {
		t.Fatal(err)
	}
	defer m.(*netEngine).Close()
	if err := m.(Connector).Connect(); err != nil {
		t.Fatal(err)
	}
	fd = m.(*netEngine).conns[0].fd
	if v, err := unix.GetsockoptInt(fd, unix.IPPROTO_IP, unix.IP_MULTICAST_TTL); err != nil || v != 4 {
		t.Errorf("IP_MULTICAST_TTL = %d (%v), want 4", v, err)
	}
	if a, err := unix.GetsockoptInet4Addr(fd, unix.IPPROTO_IP, unix.IP_MULTICAST_IF); err != nil || a != [4]byte{127, 0, 0, 1} {
		t.Errorf("IP_MULTICAST_IF = %v (%v), want 127.0.0.1", a, err)
	}
}
