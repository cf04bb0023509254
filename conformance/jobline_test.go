package conformance

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServerJobLineErrors sends a real fio server and a gofio server the
// same JOBLINE (a command line a client forwards) with options getopt
// rejects, then RUN, and compares what each answers (the messages, the
// TEXT lines with their levels) and what each prints on its own stderr.
// fio's server prints "fio: unrecognized option 'ARG'" to the client once
// and glibc's own line on its stderr, and goes on without the option; a
// value fio refuses is reported once and its option dropped.
func TestServerJobLineErrors(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	cases := [][]string{
		{"--foo=bar"},
		{"--hipri"},
		{"--bs"},
		{"--foo", "--output-format=normal", "--hipr=1"},
		// Values fio refuses: said once, the option dropped.
		{"--output-format=bogus"},
		{"--terse-version=9", "--output-format=terse"},
		{"--eta-interval=abc"},
		{"--eta-interval=abc", "--output-format=terse"},
		{"--output-format", "bogus"},
	}
	for _, argv := range cases {
		t.Run(strings.Join(argv, " "), func(t *testing.T) {
			t.Parallel()
			var got [2]string
			var logs [2]string
			for i, bin := range []string{fioPath, gofio} {
				got[i], logs[i] = jobLineSession(t, bin, argv)
			}
			if got[0] != got[1] {
				t.Errorf("server replies differ:\nfio:\n%s\ngofio:\n%s", got[0], got[1])
			}
			if logs[0] != logs[1] {
				t.Errorf("server stderr differs:\nfio:\n%s\ngofio:\n%s", logs[0], logs[1])
			}
		})
	}
}

// jobLineSession starts "bin --server" on a socket, sends JOBLINE argv
// and RUN, and returns the server's replies up to QUIT (one line per
// message; TEXT with its level and text) and what the server printed on
// its stderr.
func jobLineSession(t *testing.T, bin string, argv []string) (replies, log string) {
	t.Helper()
	dir := t.TempDir()
	sock := filepath.Join(dir, "s.sock")
	cmd := exec.Command(bin, "--server=sock:"+sock)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		os.Remove(sock)
	}
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	var c net.Conn
	for deadline := time.Now().Add(5 * time.Second); ; {
		var err error
		if c, err = net.Dial("unix", sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s --server: not listening on %s: %v", bin, sock, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	var p []byte
	p = binary.LittleEndian.AppendUint16(p, uint16(len(argv)+1))
	p = binary.LittleEndian.AppendUint16(p, 1) // client_type CLI
	for _, a := range append([]string{"fio"}, argv...) {
		p = binary.LittleEndian.AppendUint16(p, uint16(len(a)+1))
		p = append(append(p, a...), 0)
	}
	if _, err := c.Write(append(rawMsg(4, p), rawMsg(16, nil)...)); err != nil { // JOBLINE, RUN
		t.Fatal(err)
	}
	names := map[uint16]string{1: "QUIT", 5: "TEXT", 11: "START", 12: "STOP", 15: "ADD_JOB"}
	var b strings.Builder
	for {
		h := make([]byte, 24)
		if _, err := io.ReadFull(c, h); err != nil {
			t.Fatalf("%s: reading the replies: %v\nso far:\n%s", bin, err, b.String())
		}
		op := binary.LittleEndian.Uint16(h[2:])
		pl := make([]byte, binary.LittleEndian.Uint32(h[16:]))
		if _, err := io.ReadFull(c, pl); err != nil {
			t.Fatalf("%s: reading a reply: %v", bin, err)
		}
		name, ok := names[op]
		if !ok {
			name = fmt.Sprint("op ", op)
		}
		if op == 5 && len(pl) >= 24 {
			n := binary.LittleEndian.Uint32(pl[4:])
			fmt.Fprintf(&b, "TEXT %d %q\n", binary.LittleEndian.Uint32(pl), pl[24:24+min(int(n), len(pl)-24)])
			continue
		}
		fmt.Fprintln(&b, name)
		if op == 1 {
			break
		}
	}
	// The server prints its stderr line while it reads the JOBLINE,
	// before its first reply; Wait has copied it all.
	stopped = true
	stop()
	return b.String(), stderr.String()
}

// rawMsg is a one-fragment message of opcode op, built by hand as jobMsg.
func rawMsg(op uint16, p []byte) []byte {
	h := make([]byte, 24)
	binary.LittleEndian.PutUint16(h, 97)
	binary.LittleEndian.PutUint16(h[2:], op)
	binary.LittleEndian.PutUint32(h[16:], uint32(len(p)))
	binary.LittleEndian.PutUint16(h[20:], arc16(h[:20]))
	binary.LittleEndian.PutUint16(h[22:], arc16(p))
	return append(h, p...)
}
