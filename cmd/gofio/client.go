package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/gofio/gofio/internal/debuglog"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gofio/gofio/netio"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/parser"
)

// forwarded are the fio options a client sends to the servers named
// before them (JOBLINE); they apply locally too.
var forwarded = []string{"output", "latency-log", "bandwidth-log", "minimal", "output-format", "version", "help", "cmdhelp", "enghelp", "showcmd", "readonly", "eta", "eta-interval", "eta-newline", "debug", "parse-only", "section", "inflate-log", "alloc-size", "profile", "warnings-fatal", "max-jobs", "terse-version", "status-interval", "merge-blktrace-only"}

// target is one --client server with what it is sent.
type target struct {
	spec    string // the address as given
	addr    netio.Addr
	files   []string // its own job files
	args    []string // remote args (JOBLINE)
	configs []string // --remote-config files
}

// splitClients splits argv the way fio's client does (§2.3 of the
// client/server reference): job files right after a --client belong to
// it, other job files go to every server without its own; forwarded
// options after a --client go to that server and to those named right
// before it.
func splitClients(args []string) (targets []*target, global []string, err error) {
	var group []*target // consecutive --client options share remote args
	lastWasClient := false
	own := false // non-options now are the last client's own job files
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case a == "-C" || name == "client" && strings.HasPrefix(a, "-"):
			if !hasVal {
				if i+1 >= len(args) {
					return nil, nil, fmt.Errorf("fio: option '--client' requires an argument")
				}
				i++
				val = args[i]
			}
			addr, err := netio.ParseAddr(val)
			if err != nil {
				return nil, nil, err
			}
			t := &target{spec: val, addr: addr}
			if !lastWasClient {
				group = nil
			}
			group = append(group, t)
			targets = append(targets, t)
			lastWasClient, own = true, true
			continue
		case strings.HasPrefix(a, "-") && a != "-":
			if name == "remote-config" && len(targets) > 0 {
				if !hasVal && i+1 < len(args) {
					i++
					val = args[i]
				}
				targets[len(targets)-1].configs = append(targets[len(targets)-1].configs, val)
			} else if len(targets) > 0 && slices.Contains(forwarded, name) {
				for _, t := range group {
					t.args = append(t.args, a)
				}
			}
			own = false
		default:
			if own {
				targets[len(targets)-1].files = append(targets[len(targets)-1].files, a)
			} else {
				global = append(global, a)
			}
		}
		lastWasClient = false
	}
	return targets, global, nil
}

var envRef = regexp.MustCompile(`\$\{([^}]*)\}`)

// readJobText reads a job file as fio's client sends it: ${VAR}
// replaced from the client's environment, the rest left to the server.
func readJobText(name string) (string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	return envRef.ReplaceAllStringFunc(string(data), func(m string) string {
		return os.Getenv(m[2 : len(m)-1])
	}), nil
}

// clientEvent is a message from one server, or its end.
type clientEvent struct {
	srv *remoteServer
	msg netio.Msg
	end bool
	err error
}

// remoteServer is the client's state of one server.
type remoteServer struct {
	t       *target
	c       *netio.Client
	name    string // hostname from PROBE, else the address
	midLine bool   // the last TEXT had no newline
	opts    [][]output.Option
	// reports are the server's reports in arrival order: one at the end
	// of its run, more with --status-interval. A TS after a GS or DU
	// starts the next one.
	reports []*output.Result
	sawTS   bool
	running bool   // SERVER_START came, STOP not yet
	ended   bool   // the connection has ended
	etaTag  uint64 // the tag of the SEND_ETA awaiting its reply; 0 for none
	failed  bool
	remote  *output.Remote
}

// runClients is fio's client mode: it sends the jobs to every server,
// prints what they send, each server's report when it is done, and the
// JSON document at the end.
func runClients(cl *parser.CommandLine, args []string, stdout, stderr io.Writer) int {
	s := settings{formats: formats{normal: true}, terseVersion: 3, eta: defaultETA()}
	for _, o := range cl.Fio {
		switch o.Name {
		case "client", "remote-config":
			continue
		}
		if done, status := s.apply(o, stdout, stderr); done {
			return status
		}
	}
	targets, global, err := splitClients(args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	out, closeOut, ok := s.openOutput(stdout, stderr)
	if !ok {
		return 1
	}
	defer closeOut()
	w := bufio.NewWriter(out)
	defer w.Flush()
	debuglog.SetOutput(w) // --debug=net's lines (netdebug.go)
	netDebug("client: connect all")

	events := make(chan clientEvent, 64)
	status := 0
	var servers []*remoteServer
	started := time.Now()
	for _, t := range targets {
		files := t.files
		if len(files) == 0 && len(t.configs) == 0 {
			files = global
		}
		if len(files) == 0 && len(t.configs) == 0 {
			continue // fio drops a server with no job file
		}
		var texts []string
		for _, f := range files {
			text, err := readJobText(f)
			if err != nil {
				fmt.Fprintf(stderr, "fio: job file <%s> open: %s\n", f, errText(err))
				return 1
			}
			texts = append(texts, text)
		}
		netDebug("client: connect to host %s", t.addr.String())
		c, err := netio.Dial(t.addr, 5*time.Second)
		if err != nil {
			var errno syscall.Errno
			if errors.As(err, &errno) {
				err = errno
			}
			fmt.Fprintf(stderr, "fio: connect: %s\n", errText(err))
			fmt.Fprintf(stderr, "fio: failed to connect to %s:%d\n", t.addr.String(), t.addr.Port)
			continue
		}
		srv := &remoteServer{t: t, c: c, name: t.addr.String(), remote: &output.Remote{Hostname: t.addr.String(), Port: t.addr.Port}}
		servers = append(servers, srv)
		started = time.Now()
		netDebugStart(t.addr.String(), c.FD(), t.args, files)
		if err := c.Start(t.args, texts, t.configs); err != nil {
			fmt.Fprintln(stderr, err)
			c.Close()
			servers = servers[:len(servers)-1]
			status = 1
			continue
		}
	}
	// Read only once every server has its jobs, as fio's client does
	// (it polls them all after sending): the START counts of the servers
	// then come before the reports that the "All clients" sum counts.
	netDebug("client: start all")
	for _, srv := range servers {
		netDebug("client: start %s", srv.t.addr.String())
		go func() {
			err := srv.c.Receive(func(m netio.Msg) error {
				events <- clientEvent{srv: srv, msg: m}
				return nil
			})
			events <- clientEvent{srv: srv, end: true, err: err}
		}()
	}
	if len(servers) == 0 {
		return 1
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)

	all := output.Result{Time: started}
	var agg allClients
	// fio's client prints the status line in normal output, on a
	// terminal or not (fio 3.33, observed), unless --eta=never.
	var eta clientETA
	var etaTick <-chan time.Time
	if s.formats.normal && s.eta.mode != "never" {
		t := time.NewTicker(s.eta.interval)
		defer t.Stop()
		etaTick = t.C
	}
	showETA := func(line string, ok bool) {
		if ok {
			io.WriteString(w, line)
			w.Flush()
		}
	}
	trigQuit := make(chan struct{})
	defer close(trigQuit)
	fired := s.trigger.watch(trigQuit) // trigger.go
	for open := len(servers); open > 0; {
		var ev clientEvent
		select {
		case <-fired:
			// fio's client asks every server to stop and send its
			// jobs' verify state (VTRIGGER, with --trigger-remote).
			fired = nil
			for _, srv := range servers {
				if !srv.ended {
					srv.c.VTrigger(s.trigger.remote)
				}
			}
			continue
		case <-sigs:
			for _, srv := range servers {
				srv.c.Quit()
			}
			continue
		case <-etaTick:
			if slices.ContainsFunc(servers, func(srv *remoteServer) bool { return srv.running && !srv.ended }) {
				showETA(eta.request(servers))
			}
			continue
		case ev = <-events:
		}
		srv := ev.srv
		if ev.end {
			if ev.err == nil {
				netDebugMsg(srv.t.addr.String(), netio.Msg{Op: netio.OpQuit})
			}
			netDebug("client: removed <%s>", srv.t.addr.String())
			open--
			srv.ended, srv.running = true, false
			showETA(eta.gone(srv))
			srv.c.Close()
			if ev.err != nil {
				// On fio's info stream (stdout), as fio 3.33 prints it.
				fmt.Fprintf(w, "client: host=%s disconnected\n", srv.t.addr.String())
				status = 1
			}
			if srv.failed {
				status = 1
			}
			if !srv.sawTS {
				agg.expected--
			}
			for _, res := range srv.reports {
				s.printReport(w, res)
			}
			w.Flush()
			continue
		}
		netDebugMsg(srv.t.addr.String(), ev.msg)
		if ev.msg.Op == netio.OpETA {
			showETA(eta.reply(srv, ev.msg))
			continue
		}
		if ev.msg.Op == netio.OpVTrigger {
			// The server's verify state: saved as fio's client saves
			// it, then the local --trigger command runs.
			recs, err := netio.DecodeVTriggerReply(ev.msg.Payload)
			if err != nil {
				fmt.Fprintln(stderr, err)
			}
			writeStateFiles(srv.t.addr.String(), recs, stderr)
			w.Flush()
			runTrigger(s.trigger.cmd, stdout, stderr)
			continue
		}
		if err := s.clientMessage(w, srv, ev.msg, &all, &agg); err != nil {
			fmt.Fprintln(stderr, err)
		}
		w.Flush()
	}
	if agg.job != nil {
		if s.formats.terse {
			output.Terse(w, &output.Result{Time: time.Now(), Jobs: []output.Job{*agg.job}}, s.terseVersion)
		}
		if s.formats.normal {
			r := output.Result{Time: time.Now(), Jobs: []output.Job{*agg.job}}
			var b bytes.Buffer
			output.Normal(&b, &r)
			w.Write(bytes.TrimPrefix(b.Bytes(), []byte("\n")))
		}
		all.Jobs = append(all.Jobs, *agg.job)
	}
	if s.formats.json || s.formats.jsonPlus {
		output.ClientJSON(w, &all, s.formats.jsonPlus)
	}
	if s.aggLogs {
		writeAggLogs(stderr)
	}
	return status
}

// printReport prints one report of a server, as fio's client prints
// its per-server buffer.
func (s *settings) printReport(w io.Writer, res *output.Result) {
	if s.formats.terse {
		// fio's client prints each disk on a line of its own
		// (terse version 3 and later), not after the job line.
		r := *res
		r.Disks = nil
		output.Terse(w, &r, s.terseVersion)
		if s.terseVersion >= 3 {
			for _, d := range res.Disks {
				fmt.Fprintf(w, ";%s;%d;%d;%d;%d;%d;%d;%d;%.2f%%\n", d.Name, d.ReadIOs, d.WriteIOs,
					d.ReadMerges, d.WriteMerges, d.ReadTicks, d.WriteTicks, d.InQueue, d.Util)
			}
		}
	}
	if s.formats.normal && len(res.Jobs) > 0 {
		// fio's per-server buffer has no leading blank line.
		var b bytes.Buffer
		output.Normal(&b, res)
		w.Write(bytes.TrimPrefix(b.Bytes(), []byte("\n")))
	}
}

// report returns the report the next TS (ts) or GS/DU belongs to.
func (srv *remoteServer) report(ts bool) *output.Result {
	n := len(srv.reports)
	if n == 0 || ts && (len(srv.reports[n-1].Groups) > 0 || len(srv.reports[n-1].Disks) > 0) {
		// fio's client dates a report when it formats it, as it arrives.
		srv.reports = append(srv.reports, &output.Result{Time: time.Now()})
		n++
	}
	return srv.reports[n-1]
}

// clientMessage handles one message of srv.
func (s *settings) clientMessage(w io.Writer, srv *remoteServer, m netio.Msg, all *output.Result, agg *allClients) error {
	switch m.Op {
	case netio.OpProbe:
		p, err := netio.DecodeProbeReply(m.Payload)
		if err != nil {
			return err
		}
		srv.name = p.Hostname
		if s.formats.normal {
			fmt.Fprintln(w, p.Line())
		}
	case netio.OpText:
		_, text, err := netio.DecodeText(m.Payload)
		if err != nil {
			return err
		}
		if !srv.midLine && !s.formats.terse {
			fmt.Fprintf(w, "<%s> ", srv.name)
		}
		io.WriteString(w, text)
		srv.midLine = !strings.Contains(text, "\n")
	case netio.OpStart:
		jobs, reports, err := netio.DecodePair(m.Payload)
		if err != nil {
			return err
		}
		srv.opts = make([][]output.Option, jobs)
		agg.expected += int(reports)
	case netio.OpJobOpt:
		o, err := netio.DecodeJobOpt(m.Payload)
		if err != nil {
			return err
		}
		opt := output.Option{Name: o.Name, Value: o.Value}
		if o.Global {
			all.GlobalOptions = append(all.GlobalOptions, opt)
		} else if int(o.Report) < len(srv.opts) {
			srv.opts[o.Report] = append(srv.opts[o.Report], opt)
		}
	case netio.OpTS:
		ts, err := netio.DecodeTS(m.Payload)
		if err != nil {
			return err
		}
		j := ts.Job
		if k := ts.Thread - 1; k >= 0 && k < len(srv.opts) {
			j.Options = srv.opts[k]
		}
		j.Remote = srv.remote
		srv.sawTS = true
		res := srv.report(true)
		res.Jobs = append(res.Jobs, j)
		all.Jobs = append(all.Jobs, j)
		agg.add(&j)
	case netio.OpGS:
		g, err := netio.DecodeGS(m.Payload)
		if err != nil {
			return err
		}
		res := srv.report(false)
		res.Groups = append(res.Groups, output.Group{ID: g.ID, KBBase: g.KBBase, UnitBase: g.UnitBase, SigFigs: g.SigFigs, Unified: g.Unified})
	case netio.OpDU:
		d, err := netio.DecodeDU(m.Payload)
		if err != nil {
			return err
		}
		d.Remote = srv.remote
		res := srv.report(false)
		res.Disks = append(res.Disks, d)
		all.Disks = append(all.Disks, d)
	case netio.OpIOLog:
		return writeClientLog(m.Payload, srv.t.addr.String())
	case netio.OpSendFile:
		return sendStateFile(srv, m)
	case netio.OpServerStart:
		srv.running = true
	case netio.OpStop:
		srv.running = false
		code, _, err := netio.DecodePair(m.Payload)
		if err != nil {
			return err
		}
		if code != 0 {
			fmt.Fprintf(w, "client <%s>: exited with error %d\n", srv.t.addr.String(), code)
			srv.failed = true
		}
	}
	return nil
}

// writeClientLog writes a server's IOLOG as fio's client does: to
// NAME.HOST in the working directory, as text (or, for a log the job
// stored compressed, the bytes received).
func writeClientLog(p []byte, host string) error {
	l, err := netio.DecodeIOLog(p)
	if err != nil {
		return err
	}
	if slices.Contains(strings.Split(l.Name, "/"), "..") {
		// fio writes any name a server sends; gofio stays below the
		// names the server's job may choose.
		return fmt.Errorf("gofio: client <%s>: log %s not written: the name leaves its directory", host, l.Name)
	}
	f, err := os.Create(l.Name + "." + host)
	if err != nil {
		return fmt.Errorf("fio: open log %s: %s", l.Name, errText(err))
	}
	defer f.Close()
	if l.Compressed == 2 {
		_, err = f.Write(l.Data)
	} else {
		err = l.WriteText(f)
	}
	return err
}
