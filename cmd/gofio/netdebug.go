package main

import (
	"encoding/binary"

	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/netio"
)

// --debug=net: in fio 3.33 the class traces the client's side of
// client/server mode (observed with --client): connecting, what it
// sends, each message it gets ("client: got cmd op TEXT from HOST
// (pdu=89)"), the end of each server.

// netDebug prints one net line from the main thread, if the class is on.
func netDebug(format string, args ...any) {
	if debuglog.On(debuglog.Net) {
		debuglog.Printf(debuglog.Net, debuglog.Pid, format, args...)
	}
}

// netDebugStart prints the lines of sending a server its jobs: the
// connection's descriptor, the probe, the command line (its words with
// fio's argv[0]) and each job file.
func netDebugStart(host string, fd int, args, files []string) {
	if !debuglog.On(debuglog.Net) {
		return
	}
	netDebug("client: %s connected %d", host, fd)
	netDebug("client: send probe")
	if len(args) > 0 {
		netDebug("client: send cmdline %d", len(args)+1)
	}
	for _, f := range files {
		netDebug("send ini %s to %s", f, host)
	}
}

// tsSSState is the offset of ss_state in a TS message (fio 3.33's
// thread_stat on the wire).
const tsSSState = 183740

// netDebugMsg prints the lines of a message the client got from host:
// the op and payload length, and for a TS message its steady-state
// flags.
func netDebugMsg(host string, m netio.Msg) {
	if !debuglog.On(debuglog.Net) {
		return
	}
	netDebug("client: handle %s", host)
	netDebug("client: got cmd op %s from %s (pdu=%d)", m.Op, host, len(m.Payload))
	if m.Op == netio.OpTS && len(m.Payload) >= tsSSState+4 {
		netDebug("client: ts->ss_state = %d", binary.LittleEndian.Uint32(m.Payload[tsSSState:]))
	}
}
