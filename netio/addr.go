package netio

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// Addr is a server address in fio's syntax (§2.2 of the reference):
// "sock:PATH", "ip:HOST[,PORT]", "ip4:…", "ip6:…", "HOST[,PORT]",
// ",PORT" or ":PORT". The host/port separator is the first comma.
type Addr struct {
	// Network is "tcp4", "tcp6" or "unix".
	Network string
	// Host is empty for the wildcard; Path is the Unix socket's path.
	Host, Path string
	Port       int
}

// ParseAddr parses s; an empty s is the IPv4 wildcard on DefaultPort.
func ParseAddr(s string) (Addr, error) {
	a := Addr{Network: "tcp4", Port: DefaultPort}
	switch {
	case strings.HasPrefix(s, "sock:"):
		return Addr{Network: "unix", Path: s[5:], Port: DefaultPort}, nil
	case strings.HasPrefix(s, "ip:"):
		s = s[3:]
	case strings.HasPrefix(s, "ip4:"):
		s = s[4:]
	case strings.HasPrefix(s, "ip6:"):
		a.Network, s = "tcp6", s[4:]
	case strings.HasPrefix(s, ":"):
		p, _ := strconv.Atoi(s[1:])
		if p < 1 || p > 65535 {
			return a, fmt.Errorf("fio: bad server port %d", p)
		}
		a.Port = p
		return a, nil
	}
	host, port, hasPort := strings.Cut(s, ",")
	a.Host = host
	if hasPort {
		p, _ := strconv.Atoi(port)
		if p < 1 || p > 65535 {
			return a, fmt.Errorf("fio: bad server port %d", p)
		}
		a.Port = p
	}
	return a, nil
}

// DialAddr returns the network and address to dial or listen on.
func (a Addr) DialAddr() (network, address string) {
	if a.Network == "unix" {
		return "unix", a.Path
	}
	return a.Network, net.JoinHostPort(a.Host, strconv.Itoa(a.Port))
}

// String is the address fio's client shows before the PROBE reply.
func (a Addr) String() string {
	if a.Network == "unix" {
		return a.Path
	}
	return a.Host
}
