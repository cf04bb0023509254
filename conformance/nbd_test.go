package conformance

import (
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// nbdkitMemory starts nbdkit's memory plugin (an export of size bytes
// held in memory) and returns its URI; the server is killed, by its
// process, when t ends. tcp serves on a local TCP port, else on a unix
// socket in a temporary directory. Skips without nbdkit.
func nbdkitMemory(t *testing.T, size string, tcp bool) string {
	t.Helper()
	bin, err := exec.LookPath("nbdkit")
	if err != nil {
		t.Skip("nbdkit is not installed (apt-get install nbdkit)")
	}
	var args []string
	var uri, network, addr string
	if tcp {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		addr = fmt.Sprintf("127.0.0.1:%d", port)
		args = []string{"-f", "-i", "127.0.0.1", "-p", fmt.Sprint(port)}
		uri, network = "nbd://"+addr+"/", "tcp"
	} else {
		addr = filepath.Join(t.TempDir(), "nbd.sock")
		args = []string{"-f", "-U", addr}
		uri, network = "nbd+unix:///?socket="+addr, "unix"
	}
	cmd := exec.Command(bin, append(args, "memory", size)...)
	if err := cmd.Start(); err != nil {
		t.Fatalf("nbdkit: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// Ready once it accepts a connection (bounded: 20 s).
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.Dial(network, addr)
		if err == nil {
			c.Close()
			return uri
		}
		if time.Now().After(deadline) {
			t.Fatalf("nbdkit did not start listening on %s: %v", addr, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestNBD runs jobs of the nbd engine against nbdkit's memory plugin with
// fio 3.33 (whose nbd engine is libnbd's client) and gofio, each against
// a server of its own, and compares the exit status, the "fio: connected
// to NBD server" line, the JSON key tree and its deterministic values
// (io_bytes and total_ios per direction, syncs; a job without size= does
// the whole export), and for one job the normal report's skeleton.
func TestNBD(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	cases := []struct {
		name   string
		tcp    bool
		args   string
		normal bool
	}{
		{name: "write whole export", args: "--bs=64k --rw=write"},
		{name: "randrw depth 8", args: "--bs=4k --size=4m --rw=randrw --iodepth=8 --randseed=7"},
		{name: "randtrim", args: "--bs=4k --size=1m --rw=randtrim"},
		{name: "trimwrite", args: "--bs=16k --size=1m --rw=trimwrite --iodepth=4"},
		{name: "write with fsync", args: "--bs=4k --size=1m --rw=write --fsync=8"},
		{name: "read over tcp", tcp: true, args: "--bs=8k --size=2m --rw=read --iodepth=2", normal: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := func(bin string, format string) result {
				uri := nbdkitMemory(t, "16M", c.tcp)
				a := append(args("--name=n --ioengine=nbd --uri="+uri+" "+c.args), "--output-format="+format)
				return runIn(bin, t.TempDir(), a)
			}
			fr, gr := run(fioPath, "json"), run(gofio, "json")
			if fr.rc != 0 {
				t.Fatalf("fio failed (status %d): %s", fr.rc, head(fr.stderr))
			}
			// fio prints its notice on stdout before the JSON document,
			// gofio on stderr (docs/compat.md: runtime messages).
			const notice = "fio: connected to NBD server\n"
			if gr.rc != fr.rc || fr.stderr != "" || gr.stderr != notice {
				t.Errorf("exit status and stderr: fio %d %q, gofio %d %q", fr.rc, fr.stderr, gr.rc, gr.stderr)
			}
			if !strings.HasPrefix(fr.stdout, notice) {
				t.Fatalf("fio's stdout should start with %q: %q", notice, head(fr.stdout))
			}
			fj, err := ParseJSON([]byte(strings.TrimPrefix(fr.stdout, notice)))
			if err != nil {
				t.Fatalf("fio's JSON: %v", err)
			}
			gj, err := ParseJSON([]byte(strings.TrimPrefix(gr.stdout, notice)))
			if err != nil {
				t.Fatalf("gofio's JSON: %v\n%s", err, head(gr.stdout))
			}
			if diff := cmp.Diff(KeyTree(fj), KeyTree(gj)); diff != "" {
				t.Errorf("JSON key tree (-fio +gofio):\n%s", diff)
			}
			uriOpt := func(n *Node) string { return n.Get("jobs").Kids[0].Get("job options", "uri").Text }
			syncs := func(n *Node) string { return "sync/total_ios=" + n.Get("jobs").Kids[0].Get("sync", "total_ios").Text }
			fv := append(DeterministicJSON(fj, IOPerDir, uriOpt(fj), "URI"), syncs(fj))
			gv := append(DeterministicJSON(gj, IOPerDir, uriOpt(gj), "URI"), syncs(gj))
			if diff := cmp.Diff(fv, gv); diff != "" {
				t.Errorf("JSON deterministic values (-fio +gofio):\n%s", diff)
			}
			if c.normal {
				fr, gr := run(fioPath, "normal"), run(gofio, "normal")
				compareNormal(t, fr, gr)
			}
		})
	}
}

// TestNBDConnectErrors: a job whose NBD server cannot be reached, or
// whose uri is missing or malformed, fails before its I/O with libnbd's
// message (fio 3.33), error 0 in the report and exit status 1.
func TestNBDConnectErrors(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	cases := []struct{ name, uri string }{
		{"no uri", ""},
		{"refused", "--uri=nbd://" + closed + "/"},
		{"no socket", "--uri=nbd+unix:///?socket={DIR}/none"},
		{"no scheme", "--uri=bogus"},
	}
	for _, c := range cases {
		uri := c.uri
		t.Run(c.name, func(t *testing.T) {
			a := args("--name=n --ioengine=nbd --size=1m " + uri)
			fr, gr := runBoth(t, gofio, a)
			if fr.rc != 1 || gr.rc != 1 {
				t.Errorf("exit status: fio %d, gofio %d; want 1", fr.rc, gr.rc)
			}
			fe := strings.ReplaceAll(fr.stderr, fr.dir, "{DIR}")
			ge := strings.ReplaceAll(gr.stderr, gr.dir, "{DIR}")
			if fe == "" || fe != ge {
				t.Errorf("stderr: fio %q, gofio %q", fe, ge)
			}
			if diff := cmp.Diff(lines(fr.stdout), lines(gr.stdout)); diff != "" {
				t.Errorf("stdout (-fio +gofio):\n%s", diff)
			}
		})
	}
}
