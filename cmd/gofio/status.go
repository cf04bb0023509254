package main

import (
	"bufio"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/runner"
)

// console serialises what gofio writes while the jobs run, from the
// status monitor, the signal handler, the jobs and the main goroutine:
// messages and reports go to the info stream (stdout or the --output
// file, buffered and flushed after each write), the status line to the
// real stdout.
type console struct {
	mu   sync.Mutex
	out  *bufio.Writer
	term io.Writer
}

// Write writes p to the info stream.
func (c *console) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.out.Write(p)
	if err == nil {
		err = c.out.Flush()
	}
	return n, err
}

// print runs f on the info stream with the console to itself.
func (c *console) print(f func(w io.Writer) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := f(c.out)
	if ferr := c.out.Flush(); err == nil {
		err = ferr
	}
	return err
}

// status writes a status line to the terminal.
func (c *console) status(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out.Flush()
	io.WriteString(c.term, line)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// tickEvery is how often the monitor wakes, as fio's helper thread does:
// status lines are printed on this grid. fio's helper thread starts before
// the jobs, so its wake-ups fall a little before each multiple of 250 ms
// of the run, and its lines show whole seconds (75.0% at 3 s of a 4 s
// job); tickLead puts gofio's grid there too.
const (
	tickEvery = 250 * time.Millisecond
	tickLead  = 10 * time.Millisecond
)

// monitor is what fio's helper thread does for the user while the jobs
// run: the status line, the --status-interval reports and the report
// SIGUSR1 asks for.
type monitor struct {
	con      *console
	prog     *runner.Progress
	line     *statusLine // nil: no status line
	interval time.Duration
	every    time.Duration // --status-interval; 0 for none
	report   func(w io.Writer, r *output.Result) error
	usr1     <-chan os.Signal
	jobs     int

	stop chan struct{}
	done chan struct{}
}

// start runs the monitor until close.
func (m *monitor) start() {
	m.stop, m.done = make(chan struct{}), make(chan struct{})
	go m.loop()
}

// close stops the monitor and waits until it has stopped writing.
func (m *monitor) close() {
	close(m.stop)
	<-m.done
}

func (m *monitor) loop() {
	defer close(m.done)
	select {
	case <-m.prog.Started():
	case <-m.stop:
		return
	}
	st := make([]runner.JobStatus, m.jobs)
	nextTick, nextReport := tickEvery-tickLead, m.every-tickLead
	timer := time.NewTimer(tickEvery)
	defer timer.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-m.usr1:
			m.dump()
			continue
		case <-timer.C:
		}
		since := m.prog.Elapsed()
		if m.every > 0 && since >= nextReport {
			m.dump()
			for nextReport <= since {
				nextReport += m.every
			}
		}
		if since >= nextTick {
			for nextTick <= since {
				nextTick += tickEvery
			}
			if m.line != nil {
				since = m.prog.Snapshot(st)
				if active(st) && m.line.due(since, m.interval) {
					m.con.status(m.line.next(st, since))
				}
			}
		}
		wake := nextTick
		if m.every > 0 && nextReport < wake {
			wake = nextReport
		}
		timer.Reset(max(wake-m.prog.Elapsed(), time.Millisecond))
	}
}

// dump prints the report of the run so far in every selected format.
func (m *monitor) dump() {
	r := m.prog.Report(time.Second)
	if r == nil {
		return
	}
	m.con.print(func(w io.Writer) error { return m.report(w, r) })
}

// etaSettings are the options --eta, --eta-interval, --eta-newline and
// --status-interval.
type etaSettings struct {
	mode     string        // "always", "never", or "" for auto
	interval time.Duration // between status lines
	newline  time.Duration // --eta-newline; 0 for none
	every    time.Duration // --status-interval; 0 for none
}

func defaultETA() etaSettings { return etaSettings{interval: time.Second} }

// apply sets one option and returns fio's message for a bad value, or "".
func (e *etaSettings) apply(name, value string) string {
	if name == "eta" {
		e.mode = ""
		if value == "always" || value == "never" {
			e.mode = value
		}
		return ""
	}
	us, err := jobspec.ParseSeconds(value)
	d := time.Duration(us) * time.Microsecond
	switch name {
	case "eta-interval":
		if err != nil {
			return "fio: failed parsing eta interval " + value
		}
		if d < 250*time.Millisecond {
			return "fio: eta interval time too short (250msec min)"
		}
		e.interval = d
	case "eta-newline":
		if err != nil {
			return "fio: failed parsing eta time " + value
		}
		if d < time.Millisecond {
			return "fio: eta new line time too short"
		}
		e.newline = d
	case "status-interval":
		if err != nil {
			return "fio: failed parsing time " + value
		}
		if d < time.Millisecond {
			return "fio: status interval too small"
		}
		e.every = d
	}
	return ""
}

// lineWanted reports whether the status line is drawn: not with
// --eta=never, only on a terminal unless --eta=always, and never when
// stdout carries only JSON or terse output.
func (s *settings) lineWanted(stdout io.Writer) bool {
	if s.eta.mode == "never" || (!s.formats.normal && s.outputPath == "") {
		return false
	}
	return s.eta.mode == "always" || isTerminal(stdout)
}
