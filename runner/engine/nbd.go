package engine

// The nbd engine: a Network Block Device client, as fio 3.33's nbd engine
// (libnbd) is one. The target is the export the uri option names
// (nbd://HOST[:PORT]/EXPORT over TCP, nbd+unix:///EXPORT?socket=PATH
// over a unix socket), not the job's files; a job without size= does
// I/O over the whole export.
//
// Written from the NBD protocol specification (NetworkBlockDevice/nbd,
// doc/proto.md): the handshake is fixed newstyle with NBD_OPT_GO, falling
// back to NBD_OPT_EXPORT_NAME for servers that do not know it, or
// oldstyle; no structured replies are asked for, so every reply is a
// simple one. Units are requests tagged with their index (the handle);
// Queue collects them, Commit sends them, Reap reads replies.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
)

var nbdEngine = Info{Name: "nbd", New: newNBD, NoFiles: true, Diskless: true, Size: nbdExportSize}

// Protocol constants (NBD protocol specification).
const (
	nbdMagic         = 0x4e42444d41474943 // "NBDMAGIC"
	nbdOptMagic      = 0x49484156454f5054 // "IHAVEOPT"
	nbdOldstyleMagic = 0x00420281861253
	nbdOptReplyMagic = 0x3e889045565a9
	nbdRequestMagic  = 0x25609513
	nbdReplyMagic    = 0x67446698 // simple reply

	nbdFlagFixedNewstyle = 1 << 0 // handshake flags
	nbdFlagNoZeroes      = 1 << 1

	nbdOptExportName = 1
	nbdOptAbort      = 2
	nbdOptGo         = 7

	nbdRepAck       = 1
	nbdRepInfo      = 3
	nbdRepFlagError = 1 << 31
	nbdRepErrUnsup  = nbdRepFlagError | 1

	nbdInfoExport = 0

	nbdTFlagReadOnly  = 1 << 1 // transmission flags
	nbdTFlagSendFlush = 1 << 2
	nbdTFlagSendTrim  = 1 << 5

	nbdCmdRead  = 0
	nbdCmdWrite = 1
	nbdCmdDisc  = 2
	nbdCmdFlush = 3
	nbdCmdTrim  = 4

	nbdDefaultPort = "10809"
)

// nbdTarget is where a uri points: the network and address to dial and
// the export's name.
type nbdTarget struct {
	network, addr, export string
}

// parseNBDURI reads an NBD URI (the NBD URI specification:
// nbd://HOST[:PORT]/EXPORT, nbd+unix:///EXPORT?socket=PATH). TLS
// schemes (nbds, nbds+unix) are refused. Errors carry libnbd's words, as
// fio 3.33 prints them.
func parseNBDURI(s string) (nbdTarget, error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return nbdTarget{}, errors.New("NBD URI does not have a scheme: valid NBD URIs should start with a scheme like nbd://, nbds:// or nbd+unix://: Invalid argument")
	}
	export := strings.TrimPrefix(u.Path, "/")
	switch u.Scheme {
	case "nbd":
		host, port := u.Hostname(), u.Port()
		if host == "" {
			host = "localhost"
		}
		if port == "" {
			port = nbdDefaultPort
		}
		return nbdTarget{network: "tcp", addr: net.JoinHostPort(host, port), export: export}, nil
	case "nbd+unix":
		sock := u.Query().Get("socket")
		if sock == "" {
			return nbdTarget{}, errors.New("socket parameter is required for nbd+unix URIs: Invalid argument")
		}
		return nbdTarget{network: "unix", addr: sock, export: export}, nil
	case "nbds", "nbds+unix", "nbds+vsock", "nbd+vsock":
		return nbdTarget{}, fmt.Errorf("%s URIs are not supported by gofio (no TLS or vsock): Protocol not supported", u.Scheme)
	}
	return nbdTarget{}, fmt.Errorf("unknown NBD URI scheme: %s: Invalid argument", u.Scheme)
}

// nbdConn is one connection in its transmission phase.
type nbdConn struct {
	conn  net.Conn
	r     *bufio.Reader
	size  uint64
	flags uint16 // transmission flags
}

// nbdDial connects to uri and negotiates the export. Its errors are fio
// 3.33's lines ("fio: nbd_connect_uri: ...").
func nbdDial(uri string) (*nbdConn, error) {
	fail := func(err error) error {
		return &InitError{Msg: "fio: nbd_connect_uri: nbd_connect_uri: " + err.Error()}
	}
	if uri == "" {
		return nil, &InitError{Msg: "fio: nbd: uri parameter was not specified"}
	}
	t, err := parseNBDURI(uri)
	if err != nil {
		return nil, fail(err)
	}
	conn, err := net.Dial(t.network, t.addr)
	if err != nil {
		var se syscall.Errno
		if !errors.As(err, &se) {
			return nil, fail(fmt.Errorf("connect: %w", err))
		}
		if t.network == "tcp" {
			return nil, fail(fmt.Errorf("connect: %s: could not connect to remote host: %s", t.addr, errno.Text(unix.Errno(se))))
		}
		return nil, fail(fmt.Errorf("connect: %s", errno.Text(unix.Errno(se))))
	}
	c := &nbdConn{conn: conn, r: bufio.NewReaderSize(conn, 64<<10)}
	if err := c.handshake(t.export); err != nil {
		conn.Close()
		return nil, fail(err)
	}
	return c, nil
}

// handshake runs the negotiation phase up to transmission.
func (c *nbdConn) handshake(export string) error {
	var hdr [16]byte
	if _, err := io.ReadFull(c.r, hdr[:]); err != nil {
		return fmt.Errorf("handshake: server did not send initial greeting: %w", err)
	}
	if binary.BigEndian.Uint64(hdr[:8]) != nbdMagic {
		return errors.New("handshake: server did not send expected NBD magic: Protocol error")
	}
	switch binary.BigEndian.Uint64(hdr[8:]) {
	case nbdOldstyleMagic:
		// Oldstyle: size, flags (32 bits, the low 16 the transmission
		// flags) and 124 zero bytes follow.
		var b [8 + 4 + 124]byte
		if _, err := io.ReadFull(c.r, b[:]); err != nil {
			return fmt.Errorf("handshake: %w", err)
		}
		c.size = binary.BigEndian.Uint64(b[:8])
		c.flags = uint16(binary.BigEndian.Uint32(b[8:12]))
		return nil
	case nbdOptMagic:
	default:
		return errors.New("handshake: server did not send expected newstyle magic: Protocol error")
	}
	var hf [2]byte
	if _, err := io.ReadFull(c.r, hf[:]); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	gflags := binary.BigEndian.Uint16(hf[:])
	cflags := uint32(gflags & (nbdFlagFixedNewstyle | nbdFlagNoZeroes))
	if err := c.write(binary.BigEndian.AppendUint32(nil, cflags)); err != nil {
		return err
	}
	if gflags&nbdFlagFixedNewstyle != 0 {
		ok, err := c.optGo(export)
		if err != nil || ok {
			return err
		}
	}
	return c.optExportName(export, gflags&nbdFlagNoZeroes != 0)
}

// optGo asks for the export with NBD_OPT_GO; ok is false when the server
// does not know the option (then NBD_OPT_EXPORT_NAME is used).
func (c *nbdConn) optGo(export string) (ok bool, err error) {
	data := binary.BigEndian.AppendUint32(nil, uint32(len(export)))
	data = append(data, export...)
	data = binary.BigEndian.AppendUint16(data, 0) // no information requests
	if err := c.sendOpt(nbdOptGo, data); err != nil {
		return false, err
	}
	gotInfo := false
	for {
		var h [20]byte
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return false, fmt.Errorf("handshake: %w", err)
		}
		if binary.BigEndian.Uint64(h[:8]) != nbdOptReplyMagic || binary.BigEndian.Uint32(h[8:12]) != nbdOptGo {
			return false, errors.New("handshake: invalid option reply magic: Protocol error")
		}
		typ, n := binary.BigEndian.Uint32(h[12:16]), binary.BigEndian.Uint32(h[16:20])
		if n > 1<<20 {
			return false, errors.New("handshake: option reply too long: Protocol error")
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(c.r, body); err != nil {
			return false, fmt.Errorf("handshake: %w", err)
		}
		switch {
		case typ == nbdRepAck:
			if !gotInfo {
				return false, errors.New("handshake: server did not send NBD_INFO_EXPORT: Protocol error")
			}
			return true, nil
		case typ == nbdRepInfo:
			if len(body) >= 12 && binary.BigEndian.Uint16(body[:2]) == nbdInfoExport {
				c.size = binary.BigEndian.Uint64(body[2:10])
				c.flags = binary.BigEndian.Uint16(body[10:12])
				gotInfo = true
			}
		case typ == nbdRepErrUnsup:
			return false, nil
		case typ&nbdRepFlagError != 0:
			msg := "server refused the export"
			if len(body) > 0 {
				msg = string(body)
			}
			return false, fmt.Errorf("handshake: %s: Invalid argument", msg)
		}
	}
}

// optExportName asks for the export with NBD_OPT_EXPORT_NAME, which ends
// the negotiation.
func (c *nbdConn) optExportName(export string, noZeroes bool) error {
	if err := c.sendOpt(nbdOptExportName, []byte(export)); err != nil {
		return err
	}
	n := 8 + 2 + 124
	if noZeroes {
		n = 8 + 2
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(c.r, b); err != nil {
		return fmt.Errorf("handshake: server refused the export %q: %w", export, err)
	}
	c.size = binary.BigEndian.Uint64(b[:8])
	c.flags = binary.BigEndian.Uint16(b[8:10])
	return nil
}

// sendOpt sends one option request.
func (c *nbdConn) sendOpt(opt uint32, data []byte) error {
	b := binary.BigEndian.AppendUint64(nil, nbdOptMagic)
	b = binary.BigEndian.AppendUint32(b, opt)
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	return c.write(append(b, data...))
}

func (c *nbdConn) write(b []byte) error {
	if _, err := c.conn.Write(b); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	return nil
}

// close ends the transmission phase (NBD_CMD_DISC) and the connection.
func (c *nbdConn) close() error {
	var req [28]byte
	putNBDRequest(req[:], nbdCmdDisc, 0, 0, 0)
	c.conn.Write(req[:])
	return c.conn.Close()
}

// putNBDRequest encodes a request header into b (28 bytes).
func putNBDRequest(b []byte, cmd uint16, handle, off uint64, length uint32) {
	binary.BigEndian.PutUint32(b[0:], nbdRequestMagic)
	binary.BigEndian.PutUint16(b[4:], 0) // command flags
	binary.BigEndian.PutUint16(b[6:], cmd)
	binary.BigEndian.PutUint64(b[8:], handle)
	binary.BigEndian.PutUint64(b[16:], off)
	binary.BigEndian.PutUint32(b[24:], length)
}

// nbdExportSize connects to the job's export for its size.
func nbdExportSize(opts jobspec.IOEngineOptions) (uint64, error) {
	c, err := nbdDial(opts.URI)
	if err != nil {
		return 0, err
	}
	defer c.close()
	return c.size, nil
}

// nbdEngine is one job's connection.
type nbdEng struct {
	c        *nbdConn
	units    []*IOUnit
	queued   []*IOUnit
	inflight int
	wbuf     []byte // requests (and write payloads) of one Commit
	broken   error  // a failed connection: every later unit fails
}

var (
	_ Engine    = (*nbdEng)(nil)
	_ Committer = (*nbdEng)(nil)
	_ Reaper    = (*nbdEng)(nil)
	_ Noticer   = (*nbdEng)(nil)
)

func newNBD(cfg Config) (Engine, error) {
	for i, u := range cfg.Units {
		if u == nil || u.Index != i {
			return nil, fmt.Errorf("nbd: unit %d has index mismatch", i)
		}
	}
	c, err := nbdDial(cfg.Options.URI)
	if err != nil {
		return nil, err
	}
	return &nbdEng{c: c, units: cfg.Units, queued: make([]*IOUnit, 0, len(cfg.Units))}, nil
}

// Notice is the line fio 3.33 prints once the job's connection is made.
func (e *nbdEng) Notice(string) string { return "fio: connected to NBD server" }

func (e *nbdEng) Queue(u *IOUnit) Status {
	u.Result, u.Err = 0, 0
	switch {
	case u.Op == OpTrim && e.c.flags&nbdTFlagSendTrim == 0,
		(u.Op == OpFsync || u.Op == OpFdatasync) && e.c.flags&nbdTFlagSendFlush == 0:
		u.Err = unix.EOPNOTSUPP
		return Completed
	case u.Op == OpWrite && e.c.flags&nbdTFlagReadOnly != 0:
		u.Err = unix.EPERM
		return Completed
	case e.broken != nil:
		u.Err = unix.ESHUTDOWN
		return Completed
	}
	e.queued = append(e.queued, u)
	return Queued
}

// Commit sends the queued requests in one write.
func (e *nbdEng) Commit() (int, error) {
	n := len(e.queued)
	if n == 0 {
		return 0, nil
	}
	b := e.wbuf[:0]
	for _, u := range e.queued {
		var hdr [28]byte
		cmd, length := uint16(nbdCmdRead), uint32(len(u.Buf))
		switch u.Op {
		case OpWrite:
			cmd = nbdCmdWrite
		case OpTrim:
			cmd = nbdCmdTrim
		case OpFsync, OpFdatasync:
			cmd, length = nbdCmdFlush, 0
		}
		off := uint64(u.Offset)
		if cmd == nbdCmdFlush {
			off = 0
		}
		putNBDRequest(hdr[:], cmd, uint64(u.Index), off, length)
		b = append(b, hdr[:]...)
		if cmd == nbdCmdWrite {
			b = append(b, u.Buf...)
		}
	}
	e.wbuf = b
	e.queued = e.queued[:0]
	e.inflight += n
	if _, err := e.c.conn.Write(b); err != nil {
		e.broken = err
		return n, fmt.Errorf("nbd: send: %w", err)
	}
	return n, nil
}

// Reap reads replies until min units have completed, then takes those
// already arrived, up to len(done).
func (e *nbdEng) Reap(min int, done []*IOUnit) (int, error) {
	n := 0
	for n < len(done) && e.inflight > 0 && (n < min || e.c.r.Buffered() >= 16) {
		u, err := e.readReply()
		if err != nil {
			e.broken = err
			return n, err
		}
		e.inflight--
		done[n] = u
		n++
	}
	return n, nil
}

// readReply reads one simple reply and the data of a read.
func (e *nbdEng) readReply() (*IOUnit, error) {
	var h [16]byte
	if _, err := io.ReadFull(e.c.r, h[:]); err != nil {
		return nil, fmt.Errorf("nbd: reply: %w", err)
	}
	if binary.BigEndian.Uint32(h[:4]) != nbdReplyMagic {
		return nil, errors.New("nbd: reply: bad magic (structured reply not negotiated)")
	}
	code := binary.BigEndian.Uint32(h[4:8])
	handle := binary.BigEndian.Uint64(h[8:16])
	if handle >= uint64(len(e.units)) {
		return nil, fmt.Errorf("nbd: reply: unknown handle %d", handle)
	}
	u := e.units[handle]
	if code != 0 {
		u.Result, u.Err = 0, unix.Errno(code) // NBD error values are errno values
		return u, nil
	}
	if u.Op == OpRead {
		if _, err := io.ReadFull(e.c.r, u.Buf); err != nil {
			return nil, fmt.Errorf("nbd: reply data: %w", err)
		}
	}
	if u.Op.IsData() {
		u.Result = len(u.Buf)
	}
	return u, nil
}

// Close disconnects.
func (e *nbdEng) Close() error { return e.c.close() }
