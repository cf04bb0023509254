package main

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// stopGrace is how long the jobs have to stop after the first SIGINT or
// SIGTERM before a second one makes gofio exit without its report.
const stopGrace = time.Second

// interrupts handles SIGINT and SIGTERM as fio does: each one prints
// "fio: terminating on signal N" on the info stream; the first one stops
// the jobs, after which the report of what ran is printed and the exit
// status is 128 plus the number of failed jobs. fio ignores any further
// signal; gofio exits at once with 128+N on a second one when the jobs
// have not stopped within stopGrace of the first (a job stuck in an I/O
// that does not return), so that a second Ctrl-C always ends it.
type interrupts struct {
	msg   io.Writer // info stream
	errs  io.Writer // stderr
	exit  func(code int)
	grace time.Duration

	stop chan struct{} // closed at the first signal
	got  atomic.Bool
	done chan struct{}
	quit chan struct{}
}

// watchInterrupts handles the signals received on sigs until finish.
func watchInterrupts(sigs <-chan os.Signal, msg, errs io.Writer, exit func(int)) *interrupts {
	in := &interrupts{msg: msg, errs: errs, exit: exit, grace: stopGrace, stop: make(chan struct{}), done: make(chan struct{}), quit: make(chan struct{})}
	go in.loop(sigs)
	return in
}

// interrupted reports whether a signal stopped the jobs.
func (in *interrupts) interrupted() bool { return in.got.Load() }

// finish ends the watch: the jobs have stopped and the report follows.
func (in *interrupts) finish() {
	close(in.quit)
	<-in.done
}

func (in *interrupts) loop(sigs <-chan os.Signal) {
	defer close(in.done)
	var first time.Time
	var force <-chan time.Time
	code := 0
	for {
		select {
		case <-in.quit:
			return
		case sig := <-sigs:
			n := signalNumber(sig)
			fmt.Fprintf(in.msg, "\nfio: terminating on signal %d\n", n)
			if first.IsZero() {
				first = time.Now()
				in.got.Store(true)
				close(in.stop)
				continue
			}
			if force == nil {
				code = 128 + n
				force = time.After(max(time.Until(first.Add(in.grace)), 0))
			}
		case <-force:
			select {
			case <-in.quit:
				return
			default:
			}
			fmt.Fprintln(in.errs, "gofio: the jobs did not stop; exiting without a report")
			in.exit(code)
			return
		}
	}
}

func signalNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return 2
}
