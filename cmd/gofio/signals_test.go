package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gofio/gofio/conformance"
)

// reportAfter returns the normal report that follows marker in out.
func reportAfter(out, marker string) string {
	_, after, _ := strings.Cut(out, marker)
	return after
}

// TestSignalStopsRun interrupts a 60 s time_based run of fio and of gofio
// with SIGINT (normal output) and SIGTERM (JSON): gofio must end within a
// second with fio's message, exit status and a complete report. The job
// reads a file of its own (1 MiB, from the page cache); the signal is
// sent once each program shows that it catches signals (fio installs its
// handlers just before it prints the job lines, and creates the job's
// file after that; so does gofio) and its job has read 64 MiB, so that
// the report has I/O and a run time to show: a signal sent at a fixed
// time from the start hit fio before its handlers on a loaded machine,
// and killed it (143). TestSignalBeforeJobs checks that early window.
func TestSignalStopsRun(t *testing.T) {
	tests := []struct {
		sig    syscall.Signal
		format string
		start  string // what stdout shows once the jobs are starting ("": nothing)
		marker string // what precedes the report on fio's stdout
	}{
		// Ctrl-C: the message, then the normal report of what ran.
		{syscall.SIGINT, "normal", "Starting 1 process\n", "\nfio: terminating on signal 2\n"},
		// kill: fio's message precedes the JSON document; gofio's goes to
		// stderr (docs/compat.md). Nothing shows on stdout before the
		// report: the job's file shows that it is starting.
		{syscall.SIGTERM, "json", "", "\nfio: terminating on signal 15\n{"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		gofio, fio := both(t, func(bin string) result {
			file := filepath.Join(dir, filepath.Base(bin)+".dat")
			args := []string{"--output-format=" + tt.format, "--name=s", "--ioengine=psync", "--rw=read", "--size=1m",
				"--time_based", "--runtime=60", "--filename=" + file}
			when := until{stdout: tt.start, reads: file, read: 64 << 20}
			return runWhen(t, dir, bin, when, 0, func(p *os.Process) { p.Signal(tt.sig) }, args...)
		})
		if gofio.took > time.Second {
			t.Errorf("%v: gofio took %v to end; want under 1 s", tt.sig, gofio.took)
		}
		if gofio.status != fio.status || gofio.status != 128 {
			t.Errorf("%v: exit status gofio %d, fio %d; want 128", tt.sig, gofio.status, fio.status)
		}
		if tt.format == "json" {
			msg := strings.TrimSuffix(tt.marker, "{")
			if gofio.stderr != msg || !strings.HasPrefix(gofio.stdout, "{\n") {
				t.Errorf("%v: gofio stderr %q, stdout starting %q; want %q and the JSON alone", tt.sig, gofio.stderr, gofio.stdout[:min(20, len(gofio.stdout))], msg)
			}
			gofio.stdout = tt.marker + strings.TrimPrefix(gofio.stdout, "{")
		} else if gofio.stderr != "" {
			t.Errorf("%v: gofio wrote on stderr: %q", tt.sig, gofio.stderr)
		}
		if !strings.Contains(gofio.stdout, tt.marker) || !strings.Contains(fio.stdout, tt.marker) {
			t.Fatalf("%v: stdout lacks %q:\ngofio:\n%s\nfio:\n%s", tt.sig, tt.marker, gofio.stdout, fio.stdout)
		}
		g, f := reportAfter(gofio.stdout, tt.marker), reportAfter(fio.stdout, tt.marker)
		if tt.format == "json" {
			gn, err := conformance.ParseJSON([]byte("{" + g))
			if err != nil {
				t.Fatalf("%v: gofio's JSON: %v\n%s", tt.sig, err, g)
			}
			fn, err := conformance.ParseJSON([]byte("{" + f))
			if err != nil {
				t.Fatalf("%v: fio's JSON: %v", tt.sig, err)
			}
			// fio interrupted under load sometimes leaves out a
			// percentile map; the conformance tests compare those.
			if diff := lineDiff(withoutPercentiles(conformance.KeyTree(gn)), withoutPercentiles(conformance.KeyTree(fn))); diff != "" {
				t.Errorf("%v: JSON key trees differ (gofio, fio):\n%s", tt.sig, diff)
			}
			rt := gn.Get("jobs", "0", "read", "runtime")
			if rt == nil || rt.Text == "0" || len(rt.Text) > 4 {
				t.Errorf("%v: gofio's read runtime %v; want the ms run before the signal", tt.sig, rt)
			}
			continue
		}
		gs := conformance.DropSampleLines(conformance.MaskNormal(g))
		fs := conformance.DropSampleLines(conformance.MaskNormal(f))
		if diff := lineDiff(gs, fs); diff != "" {
			t.Errorf("%v: report skeletons differ (gofio, fio):\n%s", tt.sig, diff)
		}
	}
}

// TestSignalBeforeJobs sends SIGINT and SIGTERM to fio and gofio while
// they wait for their job file on stdin: neither catches signals yet (fio
// installs its handlers once the jobs are read, just before it prints the
// job lines), so both are killed by the signal, with nothing printed.
// Stdin is closed after the signal, so that a program that caught it
// and went on would be seen.
func TestSignalBeforeJobs(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		gofio, fio := both(t, func(bin string) result {
			cmd := exec.Command(bin, "--output-format=json", "-")
			cmd.Dir = t.TempDir()
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmd.Process.Signal(sig)
			// The job file, should the signal not have ended the program.
			stdin.Write([]byte("[s]\nioengine=null\nsize=1m\n"))
			stdin.Close()
			err = cmd.Wait()
			return result{status: exitStatus(err), stdout: out.String(), stderr: errb.String()}
		})
		want := 128 + int(sig)
		if gofio.status != want || fio.status != want {
			t.Errorf("%v before the jobs: exit status gofio %d, fio %d; want %d", sig, gofio.status, fio.status, want)
		}
		if gofio.stdout != "" || gofio.stderr != "" {
			t.Errorf("%v before the jobs: gofio printed %q, %q", sig, gofio.stdout, gofio.stderr)
		}
	}
}

// withoutPercentiles drops a key tree's percentile maps.
func withoutPercentiles(tree []string) []string {
	var out []string
	for _, l := range tree {
		if !strings.Contains(l, "/percentile ") {
			out = append(out, l)
		}
	}
	return out
}

// lineDiff returns the first lines where a and b differ, "" if equal.
func lineDiff(a, b []string) string {
	var buf bytes.Buffer
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			buf.WriteString("- " + x + "\n+ " + y + "\n")
			if buf.Len() > 2000 {
				break
			}
		}
	}
	return buf.String()
}

// TestSecondSignal checks the signal handling without real signals: the
// message at each signal, the stop at the first, and an exit at once on
// a second one when the jobs have not stopped within the grace time.
func TestSecondSignal(t *testing.T) {
	sigs := make(chan os.Signal, 4)
	var msg, errs bytes.Buffer
	var mu sync.Mutex
	exited := make(chan int, 1)
	in := watchInterrupts(sigs, lockedWriter{&mu, &msg}, lockedWriter{&mu, &errs}, func(code int) { exited <- code })
	in.grace = 50 * time.Millisecond

	sigs <- syscall.SIGINT
	select {
	case <-in.stop:
	case <-time.After(5 * time.Second):
		t.Fatal("the first signal did not stop the jobs")
	}
	if !in.interrupted() {
		t.Error("interrupted() = false after a signal")
	}
	sigs <- syscall.SIGINT
	select {
	case code := <-exited:
		if code != 130 {
			t.Errorf("exit status %d; want 130", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a second signal with the jobs still running did not exit")
	}
	mu.Lock()
	defer mu.Unlock()
	if want := "\nfio: terminating on signal 2\n\nfio: terminating on signal 2\n"; msg.String() != want {
		t.Errorf("messages %q; want %q", msg.String(), want)
	}
	if !strings.Contains(errs.String(), "did not stop") {
		t.Errorf("stderr %q; want a line saying the jobs did not stop", errs.String())
	}
}

// TestSecondSignalAfterStop: jobs that stop in time make a second signal
// harmless, as in fio.
func TestSecondSignalAfterStop(t *testing.T) {
	sigs := make(chan os.Signal, 4)
	var msg, errs bytes.Buffer
	var mu sync.Mutex
	exited := make(chan int, 1)
	in := watchInterrupts(sigs, lockedWriter{&mu, &msg}, lockedWriter{&mu, &errs}, func(code int) { exited <- code })
	in.grace = 50 * time.Millisecond
	sigs <- syscall.SIGTERM
	<-in.stop
	sigs <- syscall.SIGTERM
	in.finish() // the jobs have stopped; the watch has ended
	// finish returns once the watch's goroutine has returned, so nothing
	// can call exit after this: no wait is needed to see that it did not.
	select {
	case code := <-exited:
		t.Errorf("exited with %d after the jobs stopped", code)
	default:
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
