package conformance

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The client/server tests run a real fio 3.33 server and a gofio server
// side by side and drive both with real fio's client (and gofio's),
// comparing what the client prints: the masked normal report, and the
// JSON key tree and deterministic values.

// startServer starts "bin --server=ip:127.0.0.1,PORT" in a scratch
// directory, waits until it accepts connections, and kills it when the
// test ends. It returns the port.
func startServer(t *testing.T, bin string) int {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "--server=ip:127.0.0.1,"+strconv.Itoa(port))
	cmd.Dir = t.TempDir()
	// fio's server forks a process per connection and per run: kill the
	// whole process group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	for deadline := time.Now().Add(5 * time.Second); ; {
		c, err := net.DialTimeout("tcp4", "127.0.0.1:"+strconv.Itoa(port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return port
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s --server: not listening on %d: %v", bin, port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type csCase struct {
	name string
	job  string
	io   IOCheck
}

var csCases = []csCase{
	{"null", "[global]\nioengine=null\nsize=4m\nbs=4k\n[demo]\nrw=randread\n", IOPerDir},
	{"file", "[global]\nioengine=psync\nsize=1m\nbs=64k\n[w]\nrw=write\nfilename=cs{N}.dat\n", IOPerDir},
	// Two reports from one server: fio's client adds "All clients".
	{"groups", "[global]\nioengine=null\nsize=2m\nbs=4k\n[a]\nrw=randread\n[b]\nrw=write\nnumjobs=2\ngroup_reporting\nnew_group\n", IOPerDir},
}

var csRuns atomic.Int64

// runClient runs a client on job against the server at port.
func runClient(t *testing.T, client string, port int, job string, extra ...string) result {
	t.Helper()
	dir := t.TempDir()
	// A fresh file name per run: each run lays out its file.
	job = strings.ReplaceAll(job, "{N}", strconv.FormatInt(csRuns.Add(1), 10))
	if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	a := append([]string{"--client=127.0.0.1," + strconv.Itoa(port)}, extra...)
	r := runIn(client, dir, append(a, "job.fio"))
	if r.rc != 0 {
		t.Fatalf("%s %v: exit %d\n%s%s", client, a, r.rc, r.stdout, r.stderr)
	}
	return r
}

// clientJSON parses a client's JSON document (the lines from the first
// "{" line on; TEXT lines may come before it), with "client_stats"
// renamed "jobs" for DeterministicJSON.
func clientJSON(t *testing.T, out string) *Node {
	t.Helper()
	i := strings.Index(out, "\n{\n")
	if i < 0 {
		t.Fatalf("no JSON document in:\n%s", out)
	}
	n, err := ParseJSON([]byte(out[i:]))
	if err != nil {
		t.Fatalf("%v in:\n%s", err, out)
	}
	for k, key := range n.Keys {
		if key == "client_stats" {
			n.Keys[k] = "jobs"
		}
	}
	return n
}

func compareClientRuns(t *testing.T, c csCase, want, got result) {
	t.Helper()
	ws, gs := DropSampleLines(MaskNormal(unprefix(want.stdout))), DropSampleLines(MaskNormal(unprefix(got.stdout)))
	if d := cmp.Diff(ws, gs); d != "" {
		t.Errorf("normal report skeleton (-fio +gofio):\n%s", d)
	}
}

var scratchName = regexp.MustCompile(`cs[0-9]+\.dat`)

// scratchNames masks the per-run file names of the jobs.
func scratchNames(list []string) []string {
	for i, s := range list {
		list[i] = scratchName.ReplaceAllString(s, "csN.dat")
	}
	return list
}

var hostPrefix = regexp.MustCompile(`(?m)^<[^>\n]*> `)

// etaLine is a live status line of fio's client ("Jobs: 1 (f=1): ...\r"),
// printed when a run outlasts the ETA interval: timing.
var etaLine = regexp.MustCompile(`Jobs: [^\r\n]*\r`)

// unprefix drops the status lines and the "<host> " prefix of the
// server's TEXT lines, so that the blank line closing them starts the
// report for MaskNormal.
func unprefix(out string) string {
	return hostPrefix.ReplaceAllString(etaLine.ReplaceAllString(out, ""), "")
}

func compareClientJSON(t *testing.T, c csCase, want, got result) {
	t.Helper()
	wn, gn := clientJSON(t, want.stdout), clientJSON(t, got.stdout)
	if d := cmp.Diff(KeyTree(wn), KeyTree(gn)); d != "" {
		t.Errorf("JSON key tree (-fio +gofio):\n%s", d)
	}
	if d := cmp.Diff(scratchNames(DeterministicJSON(wn, c.io)), scratchNames(DeterministicJSON(gn, c.io))); d != "" {
		t.Errorf("JSON values (-fio +gofio):\n%s", d)
	}
}

// compareClientTerse compares the terse lines' field counts and their
// first four fields (terse version, fio version, job name, group), and
// the disk lines' names.
func compareClientTerse(t *testing.T, want, got result) {
	t.Helper()
	shape := func(out string) []string {
		var s []string
		for _, f := range SplitTerse(etaLine.ReplaceAllString(out, "")) {
			n := min(len(f), 4)
			if len(f) > 1 && f[0] == "" {
				n = 2 // ";vda;..." disk line
			}
			s = append(s, strconv.Itoa(len(f))+" "+strings.Join(f[:n], ";"))
		}
		return s
	}
	if d := cmp.Diff(shape(want.stdout), shape(got.stdout)); d != "" {
		t.Errorf("terse lines (-fio +gofio):\n%s", d)
	}
}

// TestClientServer drives a real fio server and a gofio server with the
// real fio client, and the real fio server with gofio's client, on the
// same jobs (several sessions on each server).
func TestClientServer(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	fioPort := startServer(t, fioPath)
	gofioPort := startServer(t, gofio)
	for _, c := range csCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // both servers take several clients at once
			ref := runClient(t, fioPath, fioPort, c.job)
			t.Run("gofio-server", func(t *testing.T) {
				compareClientRuns(t, c, ref, runClient(t, fioPath, gofioPort, c.job))
			})
			t.Run("gofio-client", func(t *testing.T) {
				compareClientRuns(t, c, ref, runClient(t, gofio, fioPort, c.job))
			})
			ref = runClient(t, fioPath, fioPort, c.job, "--output-format=terse")
			t.Run("gofio-server-terse", func(t *testing.T) {
				compareClientTerse(t, ref, runClient(t, fioPath, gofioPort, c.job, "--output-format=terse"))
			})
			t.Run("gofio-client-terse", func(t *testing.T) {
				compareClientTerse(t, ref, runClient(t, gofio, fioPort, c.job, "--output-format=terse"))
			})
			ref = runClient(t, fioPath, fioPort, c.job, "--output-format=json")
			t.Run("gofio-server-json", func(t *testing.T) {
				compareClientJSON(t, c, ref, runClient(t, fioPath, gofioPort, c.job, "--output-format=json"))
			})
			t.Run("gofio-client-json", func(t *testing.T) {
				compareClientJSON(t, c, ref, runClient(t, gofio, fioPort, c.job, "--output-format=json"))
			})
		})
	}
}

// TestClientServerDisconnect checks that a gofio server survives a
// client that connects, starts a job and vanishes, and serves the next
// client.
func TestClientServerDisconnect(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	port := startServer(t, gofio)
	for _, msg := range [][]byte{
		nil, // connect and close at once
		// PROBE header only, then close mid-message.
		{0x61, 0x00, 0x0a, 0x00, 0, 0, 0, 0, 0x50, 0x3a, 0x0c, 0x28, 0x3b, 0x56, 0, 0, 0x88, 0, 0, 0, 0xe8, 0x87, 0x9a, 0xec},
		// A header with a bad CRC.
		{0x61, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0},
	} {
		c, err := net.Dial("tcp4", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			t.Fatal(err)
		}
		c.Write(msg)
		c.Close()
	}
	// A client that starts a long run and vanishes: the server stops the
	// run, so the next client's run need not wait for it.
	c, err := net.Dial("tcp4", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	long := "[long]\nioengine=null\nsize=1m\ntime_based\nruntime=60\n"
	for _, op := range [][]byte{jobMsg(long), {0x61, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xb0, 0xbc, 0, 0}} {
		if _, err := c.Write(op); err != nil {
			t.Fatal(err)
		}
	}
	// Vanish once the run has started: the server says so with
	// SERVER_START (op 14), as fio's does.
	waitForOp(t, c, 14)
	c.Close()
	start := time.Now()
	r := runClient(t, fioPath, port, csCases[0].job)
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("next client took %v: the vanished client's run was not stopped", el)
	}
	if !strings.Contains(r.stdout, "Run status group 0") {
		t.Errorf("no report after disconnected clients:\n%s%s", r.stdout, r.stderr)
	}
}

// waitForOp reads the server's messages on c, by hand as jobMsg writes
// them (24-byte header: the opcode at 2, the payload length at 16), until
// one has opcode op.
func waitForOp(t *testing.T, c net.Conn, op uint16) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	defer c.SetReadDeadline(time.Time{})
	h := make([]byte, 24)
	for {
		if _, err := io.ReadFull(c, h); err != nil {
			t.Fatalf("waiting for opcode %d from the server: %v", op, err)
		}
		if _, err := io.CopyN(io.Discard, c, int64(binary.LittleEndian.Uint32(h[16:]))); err != nil {
			t.Fatalf("waiting for opcode %d from the server: %v", op, err)
		}
		if binary.LittleEndian.Uint16(h[2:]) == op {
			return
		}
	}
}

// jobMsg is a JOB message carrying text, built by hand (version 97,
// opcode 3, one fragment, CRC-16/ARC of header and payload) so that the
// test does not trust the code under test to frame it.
func jobMsg(text string) []byte {
	p := make([]byte, 8+len(text)+1)
	binary.LittleEndian.PutUint32(p, uint32(len(text)+1))
	binary.LittleEndian.PutUint32(p[4:], 1)
	copy(p[8:], text)
	h := make([]byte, 24)
	binary.LittleEndian.PutUint16(h, 97)
	binary.LittleEndian.PutUint16(h[2:], 3)
	binary.LittleEndian.PutUint32(h[16:], uint32(len(p)))
	binary.LittleEndian.PutUint16(h[20:], arc16(h[:20]))
	binary.LittleEndian.PutUint16(h[22:], arc16(p))
	return append(h, p...)
}

func arc16(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c ^= uint16(x)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0xA001
			} else {
				c >>= 1
			}
		}
	}
	return c
}

// TestClientLogs runs a job with I/O logs on a real fio server through
// fio's client and gofio's: both write the same log files (NAME.HOST)
// with the same columns.
func TestClientLogs(t *testing.T) {
	t.Parallel() // its own server, its clients in directories of their own
	requireFio(t)
	gofio := requireGofio(t)
	port := startServer(t, fioPath)
	job := "[lg]\nioengine=null\nrw=randrw\nbs=4k\nsize=1g\ntime_based\nruntime=600ms\nlog_avg_msec=100\nwrite_bw_log=bwl\nwrite_lat_log=latl\nlog_offset=1\n"
	shape := func(r result) []string { return logShapes(t, r.dir) }
	want := shape(runClient(t, fioPath, port, job))
	got := shape(runClient(t, gofio, port, job))
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("log files (-fio +gofio):\n%s", d)
	}
}

// TestServerConcurrentRuns checks that a server runs the jobs of two
// connections at the same time, as fio's forked server does: a short
// run finishes while another client's long run is still going. The
// long run lasts 60 s; the short one must end within 30 s of its start
// (it takes about 1 s when not made to wait).
func TestServerConcurrentRuns(t *testing.T) {
	t.Parallel() // its own servers
	requireFio(t)
	gofio := requireGofio(t)
	for _, bin := range []string{fioPath, gofio} {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			t.Parallel() // a server and directory of its own
			port := startServer(t, bin)
			dir := t.TempDir()
			long := "[long]\nioengine=null\nsize=1m\ntime_based\nruntime=60\n"
			if err := os.WriteFile(filepath.Join(dir, "long.fio"), []byte(long), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(fioPath, "--client=127.0.0.1,"+strconv.Itoa(port), "long.fio")
			cmd.Dir = dir
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				cmd.Process.Signal(syscall.SIGINT) // fio's client sends QUIT
				cmd.Wait()
			}()
			// The long run has started once the server says so.
			buf := make([]byte, 4096)
			var seen strings.Builder
			for !strings.Contains(seen.String(), "Starting 1 process") {
				n, err := out.Read(buf)
				if err != nil {
					t.Fatalf("long run: %v\n%s", err, seen.String())
				}
				seen.Write(buf[:n])
			}
			go io.Copy(io.Discard, out)
			start := time.Now()
			r := runClient(t, fioPath, port, "[short]\nioengine=null\nsize=1m\ntime_based\nruntime=1\n")
			if el := time.Since(start); el > 30*time.Second {
				t.Errorf("the short run took %v: it waited for the other connection's run", el)
			}
			if !strings.Contains(r.stdout, "Run status group 0") {
				t.Errorf("no report:\n%s%s", r.stdout, r.stderr)
			}
		})
	}
}

// reportOrder lists the report lines of a client's normal output in
// order: "job" for a job block, "group" for a "Run status group" line.
func reportOrder(out string) []string {
	var order []string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(l, ": (groupid="):
			order = append(order, "job")
		case strings.HasPrefix(l, "Run status group"):
			order = append(order, "group")
		}
	}
	return order
}

// TestClientServerStatusInterval runs a 3 s job with a forwarded
// --status-interval=1 in both roles (fio's client on a gofio server,
// gofio's client on a fio server) and on fio alone: the client prints
// every report the server sends, each job block followed by its group
// line, in order (fio: 3 periodic reports and the final one; the test
// wants at least 3, the periodic ones being timed).
func TestClientServerStatusInterval(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	fioPort := startServer(t, fioPath)
	gofioPort := startServer(t, gofio)
	job := "[si]\nioengine=null\nsize=1m\ntime_based\nruntime=3\nrw=read\n"
	for _, c := range []struct {
		name   string
		client string
		port   int
	}{{"fio", fioPath, fioPort}, {"gofio-server", fioPath, gofioPort}, {"gofio-client", gofio, fioPort}, {"gofio", gofio, gofioPort}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := runClient(t, c.client, c.port, job, "--status-interval=1")
			order := reportOrder(r.stdout)
			if len(order) < 6 || len(order)%2 != 0 {
				t.Fatalf("reports %v: want 3 or more job blocks, each with its group line\n%s", order, r.stdout)
			}
			for i, o := range order {
				if want := []string{"job", "group"}[i%2]; o != want {
					t.Fatalf("reports %v: want job and group lines in turn\n%s", order, r.stdout)
				}
			}
			// Each report ends with the server's blank line (TEXT "\n").
			if n := strings.Count(r.stdout, "<"+hostName(t)+"> \n"); n < 3 {
				t.Errorf("%d blank report-end lines from the server, want 3 or more\n%s", n, r.stdout)
			}
		})
	}
}

// hostName is the name servers on this machine give in PROBE replies.
func hostName(t *testing.T) string {
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// clientStatusLine is a status line of fio's client, summed from the
// servers' ETA replies: no units on the rates (fio's client sums into a
// status with kb_base and unit_base 0), "\r" at the end.
var clientStatusLine = regexp.MustCompile(`Jobs: 1 \(f=1\): \[R\(1\)\]\[(-\.-|[0-9]+\.[0-9])%\]\[r=[0-9.]+[kMGTP]?\]\[r=[0-9.]+[kMGTP]? IOPS\]\[eta [0-9]{2}m:[0-9]{2}s\] *\r`)

// TestClientStatusLine checks the status line fio's client prints from
// its servers' ETA replies (in normal output, also when stdout is not a
// terminal), in both roles.
func TestClientStatusLine(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	fioPort := startServer(t, fioPath)
	gofioPort := startServer(t, gofio)
	// 6 s: the ETA is known from the third second on.
	job := "[st]\nioengine=null\nsize=1m\ntime_based\nruntime=6\nrw=read\n"
	for _, c := range []struct {
		name   string
		client string
		port   int
	}{{"fio", fioPath, fioPort}, {"gofio-server", fioPath, gofioPort}, {"gofio-client", gofio, fioPort}, {"gofio", gofio, gofioPort}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// The two runs side by side (make test's time): each
			// client has a directory of its own, the servers take
			// several clients at once.
			var rs [2]result
			var wg sync.WaitGroup
			for i, extra := range [][]string{nil, {"--eta=never"}} {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(job), 0o644); err != nil {
					t.Fatal(err)
				}
				a := append(append([]string{"--client=127.0.0.1," + strconv.Itoa(c.port)}, extra...), "job.fio")
				wg.Add(1)
				go func() { defer wg.Done(); rs[i] = runIn(c.client, dir, a) }()
			}
			wg.Wait()
			for _, r := range rs {
				if r.rc != 0 {
					t.Fatalf("%s: exit %d\n%s%s", c.client, r.rc, r.stdout, r.stderr)
				}
			}
			if r := rs[0]; !clientStatusLine.MatchString(r.stdout) {
				t.Errorf("no status line like %v in:\n%q", clientStatusLine, r.stdout)
			}
			if r := rs[1]; strings.Contains(r.stdout, "Jobs:") {
				t.Errorf("--eta=never: status line in:\n%q", r.stdout)
			}
		})
	}
}

// TestServerLogs runs jobs with I/O logs on a gofio server and on a fio
// server through fio's client: the server sends the logs (IOLOG) and the
// client writes the same files (NAME.HOST) with the same columns.
// Histogram logs are checked with gofio's client (fio 3.33's own client
// crashes writing them): the file has fio's 3 + 1856 columns
// (log_hist_coarseness=0) or 3 + 1856/4 (coarseness 2).
func TestServerLogs(t *testing.T) {
	t.Parallel() // its own servers, its clients in directories of their own
	requireFio(t)
	gofio := requireGofio(t)
	fioPort := startServer(t, fioPath)
	gofioPort := startServer(t, gofio)
	job := "[lg]\nioengine=null\nrw=randrw\nbs=4k\nsize=1g\ntime_based\nruntime=600ms\nlog_avg_msec=100\nwrite_bw_log=bwl\nwrite_iops_log\nwrite_lat_log=latl\nlog_offset=1\n"
	shape := func(r result) []string { return logShapes(t, r.dir) }
	want := shape(runClient(t, fioPath, fioPort, job))
	if d := cmp.Diff(want, shape(runClient(t, fioPath, gofioPort, job))); d != "" {
		t.Errorf("log files, fio's client (-fio server +gofio server):\n%s", d)
	}
	if d := cmp.Diff(want, shape(runClient(t, gofio, gofioPort, job))); d != "" {
		t.Errorf("log files, gofio's client (-fio server +gofio server):\n%s", d)
	}
	// log_store_compressed: the stored log's bytes, named NAME.fz.HOST.
	stored := "[lc]\nioengine=null\nrw=read\nbs=4k\nsize=1g\ntime_based\nruntime=300ms\nlog_avg_msec=50\nwrite_bw_log=bwl\nlog_compression=4k\nlog_store_compressed=1\n"
	names := func(r result) []string {
		ents, _ := os.ReadDir(r.dir)
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}
	want = names(runClient(t, fioPath, fioPort, stored))
	if d := cmp.Diff(want, names(runClient(t, fioPath, gofioPort, stored))); d != "" {
		t.Errorf("stored compressed log, fio's client (-fio server +gofio server):\n%s", d)
	}
	for _, coarse := range []int{0, 2} {
		hist := fmt.Sprintf("[h]\nioengine=null\nrw=read\nbs=4k\nsize=1g\ntime_based\nruntime=700ms\nwrite_hist_log=h\nlog_hist_msec=200\nlog_hist_coarseness=%d\n", coarse)
		cols := map[int]bool{3 + 1856>>coarse: true}
		for _, port := range []int{fioPort, gofioPort} {
			got := shape(runClient(t, gofio, port, hist))
			if want := []string{fmt.Sprintf("h_clat_hist.1.log.127.0.0.1 columns=%v", cols)}; !cmp.Equal(want, got) {
				t.Errorf("histogram log, gofio's client, server port %d: %v, want %v", port, got, want)
			}
		}
	}
}

// waitFor polls cond every 20 ms for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestServerDaemonize starts fio's and gofio's servers with
// --daemonize=PIDFILE: the command returns at once, the server runs in
// a session of its own with its pid in the file, serves a client,
// refuses a second start on the same pid file while it lives (fio's
// message), and removes the file when SIGINT ends it.
func TestServerDaemonize(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	for _, bin := range []string{fioPath, gofio} {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			l, err := net.Listen("tcp4", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			port := l.Addr().(*net.TCPAddr).Port
			l.Close()
			dir := t.TempDir()
			pidfile := filepath.Join(dir, "srv.pid")
			addr := "--server=ip:127.0.0.1," + strconv.Itoa(port)
			if r := runIn(bin, dir, []string{addr, "--daemonize=" + pidfile}); r.rc != 0 || r.stdout != "" {
				t.Fatalf("%s --daemonize: exit %d\n%s%s", bin, r.rc, r.stdout, r.stderr)
			}
			var pid int
			t.Cleanup(func() {
				if pid > 0 {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			waitFor(t, "the pid file", func() bool {
				data, err := os.ReadFile(pidfile)
				pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
				return err == nil && pid > 0
			})
			stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
			if err != nil {
				t.Fatal(err)
			}
			// pid (comm) state ppid pgrp session ...
			f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
			if f[3] != strconv.Itoa(pid) {
				t.Errorf("session %s, want the server's own (%d)", f[3], pid)
			}
			waitFor(t, "the server to listen", func() bool {
				c, err := net.Dial("tcp4", "127.0.0.1:"+strconv.Itoa(port))
				if err == nil {
					c.Close()
				}
				return err == nil
			})
			r := runClient(t, fioPath, port, csCases[0].job)
			if !strings.Contains(r.stdout, "Run status group 0") {
				t.Errorf("no report from the daemonized server:\n%s%s", r.stdout, r.stderr)
			}
			// fio's background copy prints the message (on the
			// output it inherited) after its parent has exited;
			// gofio's parent prints it.
			r = runIn(bin, dir, []string{addr + "1", "--daemonize=" + pidfile})
			if want := "fio: pidfile " + pidfile + " exists and server appears alive"; !strings.Contains(r.stdout+r.stderr, want) {
				t.Errorf("second start: %q, want %q", r.stdout+r.stderr, want)
			}
			if data, _ := os.ReadFile(pidfile); string(data) != strconv.Itoa(pid)+"\n" {
				t.Errorf("second start: pid file %q, want %d", data, pid)
			}
			syscall.Kill(pid, syscall.SIGINT)
			waitFor(t, "the pid file to go", func() bool {
				_, err := os.Stat(pidfile)
				return os.IsNotExist(err)
			})
		})
	}
}

// stateFiles lists the verify state files in dir with their sizes and
// headers' versions.
func stateFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), "-verify.state") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(data) < 24 {
			t.Fatalf("%s: %v, %d bytes", e.Name(), err, len(data))
		}
		out = append(out, fmt.Sprintf("%s %d bytes, version %d, record %d bytes", e.Name(), len(data),
			binary.LittleEndian.Uint64(data), binary.LittleEndian.Uint64(data[8:])))
	}
	return out
}

// TestTriggerLocal runs two 60 s jobs with --trigger-timeout=1 and with
// a --trigger-file present from the start, on fio and gofio: the
// trigger saves each job's verify state (local-JOB-N-verify.state),
// stops the jobs (the run ends well before 60 s: within 30 s), runs the
// --trigger command, and removes the trigger file.
func TestTriggerLocal(t *testing.T) {
	t.Parallel() // its runs in directories of their own
	requireFio(t)
	gofio := requireGofio(t)
	job := "[rd]\nioengine=null\nrw=read\nbs=4k\nsize=1m\ntime_based\nruntime=60\n[wr]\nioengine=null\nrw=write\nbs=4k\nsize=1m\ntime_based\nruntime=60\n"
	for _, how := range []string{"--trigger-timeout=1", "--trigger-file=go"} {
		var want []string
		for _, bin := range []string{fioPath, gofio} {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "job.fio"), []byte(job), 0o644)
			os.WriteFile(filepath.Join(dir, "go"), nil, 0o644)
			start := time.Now()
			r := runIn(bin, dir, []string{how, "--trigger=echo TRIGGERED", "job.fio"})
			if el := time.Since(start); r.rc != 0 || el > 30*time.Second {
				t.Fatalf("%s %s: exit %d after %v\n%s%s", bin, how, r.rc, el, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "TRIGGERED\n") || !strings.Contains(r.stdout, "Run status group 0") {
				t.Errorf("%s %s: no trigger command output or no report:\n%s", bin, how, r.stdout)
			}
			if _, err := os.Stat(filepath.Join(dir, "go")); strings.HasPrefix(how, "--trigger-file") && err == nil {
				t.Errorf("%s %s: the trigger file is still there", bin, how)
			}
			got := stateFiles(t, dir)
			if bin == fioPath {
				want = got
			} else if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s: state files (-fio +gofio):\n%s", how, d)
			}
		}
	}
}

// TestClientServerTrigger runs a 60 s job in client/server mode with
// --trigger-timeout=1, --trigger and --trigger-remote, in both roles
// and on fio alone: the client sends VTRIGGER, the server sends its
// jobs' verify state (saved as HOST-JOB-N-verify.state), stops them and
// runs the remote command; the client runs the local one.
func TestClientServerTrigger(t *testing.T) {
	t.Parallel() // its own servers, its clients in directories of their own
	requireFio(t)
	gofio := requireGofio(t)
	fioPort := startServer(t, fioPath)
	gofioPort := startServer(t, gofio)
	var want []string
	for _, c := range []struct {
		name   string
		client string
		port   int
	}{{"fio", fioPath, fioPort}, {"gofio-server", fioPath, gofioPort}, {"gofio-client", gofio, fioPort}, {"gofio", gofio, gofioPort}} {
		t.Run(c.name, func(t *testing.T) {
			mark := filepath.Join(t.TempDir(), "remote")
			start := time.Now()
			r := runClient(t, c.client, c.port, "[tr]\nioengine=null\nrw=write\nbs=4k\nsize=1m\ntime_based\nruntime=60\n",
				"--trigger-timeout=1", "--trigger=echo LOCALTRIG", "--trigger-remote=touch "+mark)
			if el := time.Since(start); el > 30*time.Second {
				t.Errorf("the run took %v: the trigger did not stop it", el)
			}
			if !strings.Contains(r.stdout, "LOCALTRIG\n") || !strings.Contains(r.stdout, "Run status group 0") {
				t.Errorf("no local trigger output or no report:\n%s", r.stdout)
			}
			waitFor(t, "the remote trigger command", func() bool {
				_, err := os.Stat(mark)
				return err == nil
			})
			got := stateFiles(t, r.dir)
			if c.name == "fio" {
				want = got
			} else if d := cmp.Diff(want, got); d != "" {
				t.Errorf("state files (-fio +gofio):\n%s", d)
			}
		})
	}
}

// TestClientSendFile runs a verify_state_load job on a fio server, whose
// backend asks the client for the state file a trigger saved (SENDFILE),
// through fio's client and gofio's: both send it (the run then ends with
// a report and exit 0), and without the file both see the server fail.
func TestClientSendFile(t *testing.T) {
	t.Parallel() // its own server and directory
	requireFio(t)
	gofio := requireGofio(t)
	port := startServer(t, fioPath)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	write := fmt.Sprintf("[vs]\nioengine=psync\nrw=write\nbs=4k\nsize=1m\nfilename=%s\nverify=crc32c\ntime_based\nruntime=30\n", data)
	read := fmt.Sprintf("[vs]\nioengine=psync\nrw=read\nbs=4k\nsize=1m\nfilename=%s\nverify=crc32c\nverify_state_load=1\n", data)
	os.WriteFile(filepath.Join(dir, "w.fio"), []byte(write), 0o644)
	os.WriteFile(filepath.Join(dir, "r.fio"), []byte(read), 0o644)
	addr := "--client=127.0.0.1," + strconv.Itoa(port)
	if r := runIn(fioPath, dir, []string{addr, "--trigger-timeout=1", "w.fio"}); r.rc != 0 {
		t.Fatalf("writing the state: exit %d\n%s%s", r.rc, r.stdout, r.stderr)
	}
	state := filepath.Join(dir, "127.0.0.1-vs-0-verify.state")
	if _, err := os.Stat(state); err != nil {
		t.Fatal(err)
	}
	var want string
	for _, bin := range []string{fioPath, gofio} {
		r := runIn(bin, dir, []string{addr, "r.fio"})
		got := fmt.Sprintf("exit %d, report %v", r.rc, strings.Contains(r.stdout, "Run status group 0"))
		if bin == fioPath {
			want = got
		} else if got != want {
			t.Errorf("with the state file: %s, fio: %s\n%s%s", got, want, r.stdout, r.stderr)
		}
	}
	if want != "exit 0, report true" {
		t.Errorf("fio's client with the state file: %s", want)
	}
	// Without the file fio's server reports the failure (exit 0) or,
	// as often, its connection ends first (fio 3.33, observed).
	os.Remove(state)
	for _, bin := range []string{fioPath, gofio} {
		r := runIn(bin, dir, []string{addr, "r.fio"})
		failed := strings.Contains(r.stdout, "fio: failure on receiving state file 127.0.0.1-vs-0-verify.state: No such file or directory\n")
		gone := r.rc == 1 && strings.Contains(r.stdout, "client: host=127.0.0.1 disconnected\n")
		if !failed && !gone {
			t.Errorf("%s without the state file: exit %d\n%s%s", bin, r.rc, r.stdout, r.stderr)
		}
	}
}

// logShapes describes the log files a client run left in dir (its job
// file aside): each file's name and the column counts of its lines.
func logShapes(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.Name() == "job.fio" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		cols := map[int]bool{}
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if l != "" {
				cols[len(strings.Split(l, ", "))] = true
			}
		}
		out = append(out, fmt.Sprintf("%s columns=%v", e.Name(), cols))
	}
	return out
}
