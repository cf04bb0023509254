package netio

import "net"

// ClientAware is a Backend that wants to know the address of its client
// (fio's unique_filename prefixes file names with the client's IP).
// Server calls SetClient before the connection's first command.
type ClientAware interface {
	SetClient(addr net.Addr)
}
