// Package testport finds free ports for tests that run network peers.
package testport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"testing"
)

// Free returns a port that TCP and UDP could both bind a moment ago: a
// random high one, since other tests may run beside and take ports of
// their own. It fails tb when 100 tries find none.
func Free(tb testing.TB) int {
	tb.Helper()
	for range 100 {
		p := 20000 + rand.IntN(40000)
		l, err := net.Listen("tcp", fmt.Sprintf(":%d", p))
		if err != nil {
			continue
		}
		u, err := net.ListenPacket("udp", fmt.Sprintf(":%d", p))
		l.Close()
		if err != nil {
			continue
		}
		u.Close()
		return p
	}
	tb.Fatal("no free port")
	return 0
}
