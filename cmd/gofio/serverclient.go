package main

import (
	"net"

	"github.com/gofio/gofio/netio"
)

var _ netio.ClientAware = (*serverBackend)(nil)

// SetClient notes the IP address of the connection's client.
func (b *serverBackend) SetClient(addr net.Addr) {
	if a, ok := addr.(*net.TCPAddr); ok {
		b.clientIP = a.IP.String()
	}
}

// prefixFiles applies unique_filename: as fio's server does, files a
// client's job creates in directory= are named "CLIENTIP.NAME", unless
// the job sets unique_filename=0.
func (b *serverBackend) prefixFiles() {
	if b.clientIP == "" {
		return
	}
	for _, j := range b.plan.Jobs {
		if !j.Misc.NoUniqueFilename {
			j.Misc.FilePrefix = b.clientIP + "."
		}
	}
}
