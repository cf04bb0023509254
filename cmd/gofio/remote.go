package main

import (
	"fmt"
	"io"

	"github.com/gofio/gofio/parser"
)

// remoteMode runs gofio as a server (--server) or as a client of fio
// servers (--client) when the command line asks for one; ok is false
// for a local run.
func remoteMode(cl *parser.CommandLine, argErr error, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	var server, client, config, daemonize bool
	var serverAddr string
	for _, o := range cl.Fio {
		switch o.Name {
		case "server":
			server, serverAddr = true, o.Value
		case "client":
			client = true
		case "remote-config":
			config = true
		case "daemonize":
			daemonize = true
		}
	}
	switch {
	case server && daemonize:
		fmt.Fprintln(stderr, "gofio: option --daemonize is not supported yet")
		return 1, true
	case server:
		if argErr != nil {
			printArgError(stderr, argErr)
			return 1, true
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
