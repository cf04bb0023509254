package netio

import (
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
)

// Client is one connection of a client to a fio server.
type Client struct {
	Addr Addr
	conn net.Conn
}

// Dial connects to the server at a.
func Dial(a Addr, timeout time.Duration) (*Client, error) {
	network, address := a.DialAddr()
	c, err := net.DialTimeout(network, address, timeout)
	if err != nil {
		return nil, err
	}
	return &Client{Addr: a, conn: c}, nil
}

// Start sends what fio's client sends without waiting for any reply:
// PROBE (offering zlib, as fio does: IOLOG messages are not used), a JOBLINE when args is not empty, one JOB per job text, one
// LOAD_FILE per server-side file, then RUN.
func (c *Client) Start(args, jobs, loadFiles []string) error {
	server := "sock"
	if ta, ok := c.conn.RemoteAddr().(*net.TCPAddr); ok {
		server = ta.IP.String()
	}
	msgs := []Msg{{Op: OpProbe, Tag: 1, Payload: ProbeRequest{Zlib: true, Server: server}.Encode()}}
	if len(args) > 0 {
		msgs = append(msgs, Msg{Op: OpJobLine, Payload: EncodeJobLine(append([]string{"fio"}, args...))})
	}
	for _, j := range jobs {
		msgs = append(msgs, Msg{Op: OpJob, Payload: EncodeJob(j)})
	}
	for _, f := range loadFiles {
		msgs = append(msgs, Msg{Op: OpLoadFile, Payload: EncodeLoadFile(f)})
	}
	msgs = append(msgs, Msg{Op: OpRun})
	for _, m := range msgs {
		if err := WriteMsg(c.conn, m); err != nil {
			return err
		}
	}
	return nil
}

// SendETA asks the server for its status (SEND_ETA); the ETA reply
// carries tag.
func (c *Client) SendETA(tag uint64) error { return WriteMsg(c.conn, Msg{Op: OpSendETA, Tag: tag}) }

// VTrigger asks the server to stop its jobs, send their verify state
// and run cmd (fio's --trigger-remote).
func (c *Client) VTrigger(cmd string) error {
	return WriteMsg(c.conn, Msg{Op: OpVTrigger, Payload: EncodeVTrigger(cmd)})
}

// SendFile answers a SENDFILE request (tag echoed) with data, or with
// errno when it is not 0.
func (c *Client) SendFile(tag uint64, data []byte, errno uint32) error {
	return WriteMsg(c.conn, Msg{Op: OpSendFile, Tag: tag, Payload: EncodeSendFileReply(data, errno)})
}

// Quit asks the server to stop its jobs (the client was interrupted).
func (c *Client) Quit() error { return WriteMsg(c.conn, Msg{Op: OpQuit}) }

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// ErrDisconnected reports a server that closed the connection without
// QUIT.
var ErrDisconnected = errors.New("disconnected")

// Receive reads messages and hands each to fn until the server sends
// QUIT (nil error) or the connection ends (ErrDisconnected or the
// read error). ETA, ADD_JOB, IOLOG and other messages the CLI client
// does not print are handed on as well; fn may ignore them.
func (c *Client) Receive(fn func(Msg) error) error {
	for {
		m, err := ReadMsg(c.conn)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
				return ErrDisconnected
			}
			return fmt.Errorf("netio: %w", err)
		}
		if m.Op == OpQuit {
			return nil
		}
		if err := fn(m); err != nil {
			return err
		}
	}
}

// FD is the connection's file descriptor number (for fio's --debug=net
// lines), or -1.
func (c *Client) FD() int {
	sc, ok := c.conn.(interface {
		SyscallConn() (syscall.RawConn, error)
	})
	if !ok {
		return -1
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	rc.Control(func(f uintptr) { fd = int(f) })
	return fd
}
