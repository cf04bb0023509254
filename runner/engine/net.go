package engine

// The network engines (fio's manual, "net" and "netsplice"): each file of
// the job is a connection, and each unit moves one block over it.
//
//	net        send(2)/recv(2) on the socket
//	netsplice  the same data moved through a pipe: write(2) and splice(2)
//	           to send, splice(2) and read(2) to receive
//
// The protocol is tcp, tcpv6, udp, udpv6 or unix (a stream socket). The
// peer is hostname, or else the job's file name (the socket's path for
// unix). A TCP job with listen, or a UNIX job that reads, listens and
// accepts one connection; other TCP and UNIX jobs connect. A UDP job that
// reads binds port (and joins hostname's group when it is a multicast
// address, on interface); one that writes sends to hostname (multicast:
// from interface, with ttl). With pingpong each unit is a round trip: a
// write waits for its block to come back, a read sends what it received
// back.
//
// The small messages the peers exchange are those fio 3.33 sends
// (observed with strace): a UDP writer announces itself with an 8-byte
// open message before its data, and both ends send an 8-byte close
// message when done. A reader whose peer sends the close message, or
// closes the connection, ends its job (IOUnit.End). TCP and UNIX reads
// wait for the whole block (MSG_WAITALL), so a reader counts the bytes
// its writer sent when both use the same block size.

import (
	"bytes"
	"net"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
)

// The messages fio 3.33's net engine exchanges, as they appear on the
// wire (observed: the open message carries "link" in network order, the
// close message in the host's, little-endian, order).
var (
	netOpenMsg  = [8]byte{'l', 'i', 'n', 'k', 0, 0, 0, 0x98}
	netCloseMsg = [8]byte{'k', 'n', 'i', 'l', 0x89, 0, 0, 0}
)

// netTarget is where a net job's file leads.
type netTarget struct {
	proto jobspec.NetProto
	host  string // hostname, or the socket's path for unix
	port  int
}

func isUDP(p jobspec.NetProto) bool { return p == jobspec.ProtoUDP || p == jobspec.ProtoUDPv6 }
func isV6(p jobspec.NetProto) bool  { return p == jobspec.ProtoTCPv6 || p == jobspec.ProtoUDPv6 }

// netConn is the connection of one file.
type netConn struct {
	fd int
	// peer is the UDP peer: the address a writer sends to, the writer a
	// reader heard from (its open message).
	peer    unix.RawSockaddrAny
	peerLen uint32
	udp     bool
}

// netEngine implements net and netsplice.
type netEngine struct {
	name      string // net or netsplice
	o         jobspec.IOEngineOptions
	target    netTarget
	dest      unix.Sockaddr // where a connecting job or UDP writer goes
	reads     bool          // the job reads: a UDP job binds
	splice    bool
	pipe      [2]int // netsplice's pipe
	pipeMax   int    // its capacity
	lfd       int    // the listening socket, -1 when none
	ufd       int    // a UDP reader's socket, bound as the engine starts
	conns     []netConn
	multicast net.IP // the UDP multicast group, nil when none
}

var (
	_ Engine     = (*netEngine)(nil)
	_ FileOpener = (*netEngine)(nil)
	_ Noticer    = (*netEngine)(nil)
	_ Connector  = (*netEngine)(nil)
)

func newNet(cfg Config) (Engine, error)       { return newNetEngine(cfg, false) }
func newNetSplice(cfg Config) (Engine, error) { return newNetEngine(cfg, true) }

// netInitFailed is fio's failure of a net job's setup: msg, then "fio:
// io engine NAME init failed.", reported as error e in fn.
func netInitFailed(name, msg string, e unix.Errno, fn string) error {
	return &InitError{Errno: e, Fn: fn, Msg: msg + "\nfio: io engine " + name + " init failed."}
}

// newNetEngine checks the job's options as fio does when the engine
// starts and, for a listener, binds and listens.
func newNetEngine(cfg Config, splice bool) (Engine, error) {
	name := "net"
	if splice {
		name = "netsplice"
	}
	e := &netEngine{name: name, o: cfg.Options, splice: splice, lfd: -1, ufd: -1, pipe: [2]int{-1, -1}}
	e.reads = cfg.RW.Reads() && !cfg.RW.Writes()
	o := &e.o
	e.target = netTarget{proto: o.Protocol, host: o.Hostname, port: o.Port}
	if o.Hostname == "" && len(cfg.Filenames) > 0 {
		// fio 3.33 takes the file's name as the host (the socket's
		// path for unix); the port is port='s, whatever the name
		// (observed: filename=127.0.0.1,8888,tcp fails in getaddrinfo).
		e.target.host = cfg.Filenames[0]
	}
	if e.target.port != 0 {
		e.target.port += cfg.JobNum // numjobs use a range of ports
	}
	t := &e.target
	if cfg.RW.Random() {
		return nil, netInitFailed(name, "fio: network IO can't be random", unix.EPERM, "init")
	}
	if t.proto == jobspec.ProtoUnix {
		if o.Port != 0 {
			return nil, netInitFailed(name, "fio: network IO port not valid with unix socket", unix.EPERM, "init")
		}
		if t.host == "" {
			return nil, netInitFailed(name, "fio: UNIX sockets need host/filename", unix.EPERM, "init")
		}
	} else if t.port == 0 {
		return nil, netInitFailed(name, "fio: network IO requires port for tcp or udp", unix.EPERM, "init")
	}
	if t.proto != jobspec.ProtoTCP && t.proto != jobspec.ProtoTCPv6 && o.Listen {
		return nil, netInitFailed(name, "fio: listen only valid for TCP proto IO", unix.EPERM, "init")
	}
	if isUDP(t.proto) && t.host != "" {
		if ip := net.ParseIP(t.host); ip != nil && ip.IsMulticast() {
			e.multicast = ip
		}
	}
	// A UNIX reader listens, as a TCP job with listen does.
	listens := o.Listen || t.proto == jobspec.ProtoUnix && e.reads
	inbound := listens || isUDP(t.proto) && e.reads
	if inbound && t.host != "" && t.proto != jobspec.ProtoUnix && e.multicast == nil {
		return nil, netInitFailed(name, "fio: hostname not valid for non-multicast inbound network IO", unix.EPERM, "init")
	}
	if !inbound && t.host == "" {
		return nil, netInitFailed(name, "fio: connect with no host to connect to.", unix.EINVAL, "no hostname= set")
	}
	if !inbound {
		// fio resolves the peer as the engine starts.
		sa, err := e.sockaddr(t.host)
		if err != nil {
			return nil, err
		}
		e.dest = sa
	}
	if splice {
		if err := unix.Pipe2(e.pipe[:], unix.O_CLOEXEC); err != nil {
			return nil, &InitError{Errno: errno.Of(err), Fn: "pipe"}
		}
		e.pipeMax = pipeSize(e.pipe[1])
	}
	e.conns = make([]netConn, max(cfg.Files, 1))
	for i := range e.conns {
		e.conns[i].fd = -1
	}
	if listens {
		if err := e.listen(); err != nil {
			e.Close()
			return nil, err
		}
	}
	if isUDP(t.proto) && e.reads {
		// Bound now, so that datagrams sent before the job starts wait
		// in the socket.
		var err error
		if e.ufd, err = e.bindUDP(); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// Notice is what fio prints as a listener starts.
func (e *netEngine) Notice(string) string {
	if e.lfd >= 0 {
		return "fio: waiting for connection"
	}
	return ""
}

// family returns the socket family of the target.
func (e *netEngine) family() int {
	switch {
	case e.target.proto == jobspec.ProtoUnix:
		return unix.AF_UNIX
	case isV6(e.target.proto):
		return unix.AF_INET6
	}
	return unix.AF_INET
}

// sockaddr returns the target's address: host resolved (any address
// when host is ""), port.
func (e *netEngine) sockaddr(host string) (unix.Sockaddr, error) {
	t := &e.target
	if t.proto == jobspec.ProtoUnix {
		return &unix.SockaddrUnix{Name: host}, nil
	}
	var ip net.IP
	if host != "" {
		network := "ip4"
		if isV6(t.proto) {
			network = "ip6"
		}
		a, err := net.ResolveIPAddr(network, host)
		if err != nil {
			// fio 3.33's lines for a name that does not resolve.
			return nil, &InitError{Errno: unix.EINVAL, Fn: "getaddrinfo: Name or service not known", Msg: "fio: io engine " + e.name + " init failed."}
		}
		ip = a.IP
	}
	if isV6(t.proto) {
		sa := &unix.SockaddrInet6{Port: t.port}
		if ip != nil {
			copy(sa.Addr[:], ip.To16())
		}
		return sa, nil
	}
	sa := &unix.SockaddrInet4{Port: t.port}
	if ip != nil {
		copy(sa.Addr[:], ip.To4())
	}
	return sa, nil
}

// socket makes the job's socket with the options that apply to it.
func (e *netEngine) socket() (int, error) {
	typ := unix.SOCK_STREAM
	if isUDP(e.target.proto) {
		typ = unix.SOCK_DGRAM
	}
	fd, err := unix.Socket(e.family(), typ|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, &InitError{Errno: errno.Of(err), Fn: "socket"}
	}
	o := &e.o
	tcp := e.target.proto == jobspec.ProtoTCP || e.target.proto == jobspec.ProtoTCPv6
	if o.NoDelay && tcp {
		if err := unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1); err != nil {
			unix.Close(fd)
			return -1, &InitError{Errno: errno.Of(err), Fn: "setsockopt TCP_NODELAY"}
		}
	}
	if o.WindowSize > 0 {
		for _, opt := range []int{unix.SO_RCVBUF, unix.SO_SNDBUF} {
			if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, opt, o.WindowSize); err != nil {
				unix.Close(fd)
				return -1, &InitError{Errno: errno.Of(err), Fn: "setsockopt window size"}
			}
		}
	}
	if o.MSS > 0 && tcp {
		if err := unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_MAXSEG, o.MSS); err != nil {
			unix.Close(fd)
			return -1, &InitError{Errno: errno.Of(err), Fn: "setsockopt TCP_MAXSEG"}
		}
	}
	return fd, nil
}

// listen binds the listener: TCP on any address, UNIX on its path (an old
// socket there removed first).
func (e *netEngine) listen() error {
	fd, err := e.socket()
	if err != nil {
		return err
	}
	e.lfd = fd
	if e.target.proto == jobspec.ProtoUnix {
		// fio removes what is at the path, and leaves the socket
		// there when done.
		os.Remove(e.target.host)
	} else {
		unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
		unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
	}
	sa, err := e.sockaddr("")
	if e.target.proto == jobspec.ProtoUnix {
		sa, err = e.sockaddr(e.target.host)
	}
	if err != nil {
		return err
	}
	if err := unix.Bind(fd, sa); err != nil {
		return &InitError{Errno: errno.Of(err), Fn: "bind"}
	}
	if err := unix.Listen(fd, 10); err != nil {
		return &InitError{Errno: errno.Of(err), Fn: "listen"}
	}
	return nil
}

// Connect sets up the connections of all the job's files before its
// clock starts.
func (e *netEngine) Connect() error {
	for i := range e.conns {
		if _, err := e.OpenFile(i, "", 0); err != nil {
			return err
		}
	}
	return nil
}

// OpenFile sets up file index's connection, unless Connect did: accepts
// one on the listener, connects, or for UDP binds (a reader, which then
// waits for its writer's open message) or announces itself (a writer).
func (e *netEngine) OpenFile(index int, path string, flags int) (int, error) {
	c := &e.conns[index]
	if c.fd >= 0 {
		return c.fd, nil
	}
	var err error
	switch {
	case e.lfd >= 0:
		c.fd, err = e.accept()
	case isUDP(e.target.proto):
		c.udp = true
		err = e.openUDP(c)
	default:
		c.fd, err = e.connect()
	}
	if err != nil {
		if c.fd >= 0 {
			unix.Close(c.fd)
			c.fd = -1
		}
		return -1, err
	}
	return c.fd, nil
}

func (e *netEngine) accept() (int, error) {
	for {
		fd, _, err := unix.Accept4(e.lfd, unix.SOCK_CLOEXEC)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, &InitError{Errno: errno.Of(err), Fn: "accept"}
		}
		e.tune(fd)
		return fd, nil
	}
}

// tune applies nodelay and mss to an accepted connection.
func (e *netEngine) tune(fd int) {
	if e.target.proto == jobspec.ProtoUnix {
		return
	}
	if e.o.NoDelay {
		unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	}
}

func (e *netEngine) connect() (int, error) {
	fd, err := e.socket()
	if err != nil {
		return -1, err
	}
	for {
		if err = unix.Connect(fd, e.dest); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		unix.Close(fd)
		return -1, &InitError{Errno: errno.Of(err), Fn: "connect"}
	}
	return fd, nil
}

// openUDP binds a reader's socket and waits for the writer's open
// message, or points a writer's at its peer and sends it.
func (e *netEngine) openUDP(c *netConn) error {
	if e.reads {
		fd := e.ufd
		e.ufd = -1
		if fd < 0 {
			var err error
			if fd, err = e.bindUDP(); err != nil {
				return err
			}
		}
		c.fd = fd
		var msg [8]byte
		for {
			c.peerLen = uint32(unsafe.Sizeof(c.peer))
			n, en := recvfrom(fd, msg[:], 0, &c.peer, &c.peerLen)
			if en != 0 {
				return &InitError{Errno: en, Fn: "recvfrom"}
			}
			if n == len(msg) && msg == netOpenMsg {
				return nil
			}
		}
	}
	fd, err := e.socket()
	if err != nil {
		return err
	}
	c.fd = fd
	if err := e.multicastOut(fd); err != nil {
		return err
	}
	c.peerLen = rawSockaddr(e.dest, &c.peer)
	if _, en := sendto(fd, netOpenMsg[:], 0, &c.peer, c.peerLen); en != 0 {
		return &InitError{Errno: en, Fn: "sendto"}
	}
	return nil
}

// bindUDP makes a UDP reader's socket, bound to the port on any address
// and a member of the multicast group when there is one.
func (e *netEngine) bindUDP() (int, error) {
	fd, err := e.socket()
	if err != nil {
		return -1, err
	}
	unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
	unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
	sa, err := e.sockaddr("")
	if err == nil {
		if err = unix.Bind(fd, sa); err != nil {
			err = &InitError{Errno: errno.Of(err), Fn: "bind"}
		}
	}
	if err == nil {
		err = e.joinGroup(fd)
	}
	if err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// joinGroup makes a multicast reader a member of its group, on the
// interface option's address when given.
func (e *netEngine) joinGroup(fd int) error {
	if e.multicast == nil {
		return nil
	}
	var err error
	if v4 := e.multicast.To4(); v4 != nil && !isV6(e.target.proto) {
		mreq := &unix.IPMreq{}
		copy(mreq.Multiaddr[:], v4)
		if ifip := net.ParseIP(e.o.Interface).To4(); ifip != nil {
			copy(mreq.Interface[:], ifip)
		}
		err = unix.SetsockoptIPMreq(fd, unix.IPPROTO_IP, unix.IP_ADD_MEMBERSHIP, mreq)
	} else {
		mreq := &unix.IPv6Mreq{}
		copy(mreq.Multiaddr[:], e.multicast.To16())
		err = unix.SetsockoptIPv6Mreq(fd, unix.IPPROTO_IPV6, unix.IPV6_JOIN_GROUP, mreq)
	}
	if err != nil {
		return &InitError{Errno: errno.Of(err), Fn: "setsockopt IP_ADD_MEMBERSHIP"}
	}
	return nil
}

// multicastOut sets a multicast writer's interface and ttl.
func (e *netEngine) multicastOut(fd int) error {
	if e.multicast == nil {
		return nil
	}
	var err error
	if !isV6(e.target.proto) {
		if ifip := net.ParseIP(e.o.Interface).To4(); ifip != nil {
			err = unix.SetsockoptInet4Addr(fd, unix.IPPROTO_IP, unix.IP_MULTICAST_IF, [4]byte(ifip))
		}
		if err == nil {
			err = unix.SetsockoptByte(fd, unix.IPPROTO_IP, unix.IP_MULTICAST_TTL, byte(e.o.TTL))
		}
	} else {
		err = unix.SetsockoptInt(fd, unix.IPPROTO_IPV6, unix.IPV6_MULTICAST_HOPS, e.o.TTL)
	}
	if err != nil {
		return &InitError{Errno: errno.Of(err), Fn: "setsockopt IP_MULTICAST"}
	}
	return nil
}

// rawSockaddr stores sa in raw and returns its length.
func rawSockaddr(sa unix.Sockaddr, raw *unix.RawSockaddrAny) uint32 {
	switch a := sa.(type) {
	case *unix.SockaddrInet4:
		r := (*unix.RawSockaddrInet4)(unsafe.Pointer(raw))
		r.Family = unix.AF_INET
		r.Port = uint16(a.Port>>8) | uint16(a.Port&0xff)<<8
		r.Addr = a.Addr
		return unix.SizeofSockaddrInet4
	case *unix.SockaddrInet6:
		r := (*unix.RawSockaddrInet6)(unsafe.Pointer(raw))
		r.Family = unix.AF_INET6
		r.Port = uint16(a.Port>>8) | uint16(a.Port&0xff)<<8
		r.Addr = a.Addr
		return unix.SizeofSockaddrInet6
	}
	return 0
}

// CloseFile sends fio's close message on the connection and closes it.
func (e *netEngine) CloseFile(index int, fd int) error {
	c := &e.conns[index]
	if c.fd < 0 {
		return nil
	}
	if c.udp {
		if c.peerLen != 0 {
			sendto(c.fd, netCloseMsg[:], 0, &c.peer, c.peerLen)
		}
	} else {
		sendto(c.fd, netCloseMsg[:], unix.MSG_NOSIGNAL, nil, 0)
	}
	err := unix.Close(c.fd)
	c.fd = -1
	return err
}

// Close releases the listener and the pipe.
func (e *netEngine) Close() error {
	for i := range e.conns {
		if e.conns[i].fd >= 0 {
			e.CloseFile(i, e.conns[i].fd)
		}
	}
	if e.ufd >= 0 {
		unix.Close(e.ufd)
		e.ufd = -1
	}
	if e.lfd >= 0 {
		unix.Close(e.lfd)
		e.lfd = -1
	}
	for i, p := range e.pipe {
		if p >= 0 {
			unix.Close(p)
			e.pipe[i] = -1
		}
	}
	return nil
}

// Queue moves u's block: a write sends it (and with pingpong waits for
// it to come back), a read receives one (and with pingpong sends it
// back).
func (e *netEngine) Queue(u *IOUnit) Status {
	if !u.Op.IsData() || u.Op == OpTrim {
		u.Result, u.Err = 0, 0 // nothing to sync on a socket
		if u.Op == OpTrim {
			u.Err, u.ErrFn = unix.EINVAL, "td_io_queue"
		}
		return Completed
	}
	c := &e.conns[u.File]
	u.Result, u.Err = 0, 0
	var n int
	var en unix.Errno
	if u.Op == OpWrite {
		n, en = e.send(c, u.Buf)
		if en == 0 && e.o.PingPong && n > 0 {
			var m int
			m, en = e.recv(c, u.Buf[:n])
			if en == 0 && m == 0 {
				u.End = true
				return Completed
			}
		}
	} else {
		n, en = e.recv(c, u.Buf)
		if en == 0 && (n == 0 || isCloseMsg(u.Buf[:n])) {
			u.End = true
			return Completed
		}
		if en == 0 && e.o.PingPong {
			_, en = e.send(c, u.Buf[:n])
		}
	}
	if en != 0 {
		u.Err = en
		return Completed
	}
	u.Result = n
	return Completed
}

// isCloseMsg reports whether b holds the peer's close message (the last,
// short, block of a stream).
func isCloseMsg(b []byte) bool {
	return len(b) == len(netCloseMsg) && bytes.Equal(b, netCloseMsg[:])
}

// send sends b on c: to the UDP peer, or on the stream.
func (e *netEngine) send(c *netConn, b []byte) (int, unix.Errno) {
	if e.splice && !c.udp {
		return e.spliceOut(c.fd, b)
	}
	if c.udp {
		return sendto(c.fd, b, 0, &c.peer, c.peerLen)
	}
	return sendto(c.fd, b, unix.MSG_NOSIGNAL, nil, 0)
}

// recv receives into b: one datagram, or all of b from the stream unless
// it ends first.
func (e *netEngine) recv(c *netConn, b []byte) (int, unix.Errno) {
	if c.udp {
		return recvfrom(c.fd, b, 0, nil, nil)
	}
	if e.splice {
		return e.spliceIn(c.fd, b)
	}
	return recvfrom(c.fd, b, unix.MSG_WAITALL, nil, nil)
}

// spliceOut copies b into the pipe and splices it to the socket. (A
// vmsplice(2) of b would hand the socket the buffer's pages themselves,
// which the next unit overwrites while TCP may still hold them.)
func (e *netEngine) spliceOut(fd int, b []byte) (int, unix.Errno) {
	done := 0
	for done < len(b) {
		m, _, en := unix.Syscall(unix.SYS_WRITE, uintptr(e.pipe[1]), uintptr(unsafe.Pointer(&b[done])), uintptr(min(len(b)-done, e.pipeMax)))
		if en == unix.EINTR {
			continue
		}
		if en != 0 {
			return done, en
		}
		for left := int(m); left > 0; {
			s, _, en := unix.Syscall6(unix.SYS_SPLICE, uintptr(e.pipe[0]), 0, uintptr(fd), 0, uintptr(left), unix.SPLICE_F_MOVE)
			if en == unix.EINTR {
				continue
			}
			if en != 0 {
				return done, en
			}
			left -= int(s)
		}
		done += int(m)
	}
	return done, 0
}

// spliceIn splices from the socket into the pipe and reads the pipe into
// b, until b is full or the stream ends.
func (e *netEngine) spliceIn(fd int, b []byte) (int, unix.Errno) {
	done := 0
	for done < len(b) {
		s, _, en := unix.Syscall6(unix.SYS_SPLICE, uintptr(fd), 0, uintptr(e.pipe[1]), 0, uintptr(min(len(b)-done, e.pipeMax)), unix.SPLICE_F_MOVE)
		if en == unix.EINTR {
			continue
		}
		if en != 0 {
			return done, en
		}
		if s == 0 {
			break
		}
		n, en := readPipe(e.pipe[0], b[done:done+int(s)])
		done += n
		if en != 0 {
			return done, en
		}
	}
	return done, 0
}

// sendto is sendto(2) with a raw address (nil for a connected socket),
// retried on EINTR.
func sendto(fd int, b []byte, flags int, to *unix.RawSockaddrAny, tolen uint32) (int, unix.Errno) {
	if len(b) == 0 {
		return 0, 0
	}
	for {
		n, _, en := unix.Syscall6(unix.SYS_SENDTO, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(flags), uintptr(unsafe.Pointer(to)), uintptr(tolen))
		if en != unix.EINTR {
			return int(n), en
		}
	}
}

// recvfrom is recvfrom(2) into a raw address (nil when not wanted),
// retried on EINTR.
func recvfrom(fd int, b []byte, flags int, from *unix.RawSockaddrAny, fromlen *uint32) (int, unix.Errno) {
	if len(b) == 0 {
		return 0, 0
	}
	for {
		n, _, en := unix.Syscall6(unix.SYS_RECVFROM, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(flags), uintptr(unsafe.Pointer(from)), uintptr(unsafe.Pointer(fromlen)))
		if en != unix.EINTR {
			return int(n), en
		}
	}
}
