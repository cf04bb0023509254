package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gofio/gofio/parser"
)

// remoteMode runs gofio as a server (--server) or as a client of fio
// servers (--client) when the command line asks for one; ok is false
// for a local run.
func remoteMode(cl *parser.CommandLine, argErr error, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	var server, client, config, daemon bool
	var serverAddr, pidfile string
	for _, o := range cl.Fio {
		switch o.Name {
		case "server":
			server, serverAddr = true, o.Value
		case "client":
			client = true
		case "remote-config":
			config = true
		case "daemonize":
			daemon, pidfile = true, o.Value
		}
	}
	switch {
	case server:
		if argErr != nil {
			printArgError(stderr, argErr)
			return 1, true
		}
		if daemon {
			if os.Getenv(daemonEnv) == "" {
				return daemonize(pidfile, args, stderr), true
			}
			// The background server: its pid file goes with it.
			defer os.Remove(pidfile)
		}
		return runServer(serverAddr, stderr), true
	case client:
		if argErr != nil {
			printArgError(stderr, argErr)
			return 1, true
		}
		return runClients(cl, args, stdout, stderr), true
	case config:
		fmt.Fprintln(stderr, "gofio: --remote-config needs a --client before it")
		return 1, true
	}
	return 0, false
}
