package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/report"
	"github.com/gofio/gofio/results"
	"github.com/gofio/gofio/runner"
)

// gofio's run reports, which fio 3.33 does not have (package report):
//
//	gofio --html=run.html [--interval-json=run.jsonl] [fio options] job.fio
//	gofio --report=result.json --html=run.html [fio log files...]
//
// They are taken off the command line before fio's options are parsed,
// and only when written in full with '=' (fio refuses each of them as an
// unrecognized option), so that every command line fio accepts keeps its
// meaning: abbreviations and all.

// reportUsage is appended to fio's --help text.
const reportUsage = `
gofio's run reports (not in fio 3.33):
  --html=file		Write a self-contained HTML report of the run (charts, host, options)
  --interval-json=file	Write one JSON line per job and interval: the interval's
			results in fio's JSON keys (--status-interval, else 1s)
  --report=result.json	With --html: report a finished fio or gofio run from its
			json+ output; fio's bw/iops/lat/clat/hist log files may follow
`

// reportHelp is what --cmdhelp prints for each of these options.
var reportHelp = map[string][]string{
	"html":          {"Write a self-contained HTML report of the run", "string (file name)"},
	"interval-json": {"Write per-interval results as JSON lines (--status-interval, else 1s)", "string (file name)"},
	"report":        {"With --html: report a finished run from its json+ output and log files", "string (file name)"},
}

// printReportHelp prints the --cmdhelp block of report option name and
// reports whether it is one.
func printReportHelp(w io.Writer, name string) bool {
	h, ok := reportHelp[name]
	if !ok {
		return false
	}
	fmt.Fprintf(w, "%20s: %s\n%20s: %s\n%20s: %s\n\n", name, h[0], "type", h[1], "default", "no default")
	return true
}

// reportOpts are gofio's report options.
type reportOpts struct {
	html, intervalJSON, from string
}

// takeReportArgs removes --html=, --interval-json= and --report= from
// args. An argument that is the value of the option before it (fio takes
// "--output FILE") is left alone, as is everything after "--".
func takeReportArgs(args []string) ([]string, reportOpts, error) {
	var ro reportOpts
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if _, ok := reportHelp[name]; ok && hasVal && strings.HasPrefix(a, "--") {
			if val == "" {
				return nil, ro, fmt.Errorf("gofio: --%s needs a file name", name)
			}
			switch name {
			case "html":
				ro.html = val
			case "interval-json":
				ro.intervalJSON = val
			case "report":
				ro.from = val
			}
			continue
		}
		rest = append(rest, a)
		if strings.HasPrefix(a, "--") && !hasVal && i+1 < len(args) && takesValue(name) {
			i++
			rest = append(rest, args[i])
		}
	}
	return rest, ro, nil
}

// remote reports whether a report option was given with --client or
// --server, which it cannot follow.
func (ro reportOpts) remote(cl *parser.CommandLine) bool {
	if ro.html == "" && ro.intervalJSON == "" {
		return false
	}
	for _, o := range cl.Fio {
		if o.Name == "client" || o.Name == "server" {
			return true
		}
	}
	return false
}

// takesValue reports whether option name, written without '=', takes the
// next argument as its value (getopt's required_argument).
func takesValue(name string) bool {
	if k, ok := (spec{}).FioOption(name); ok {
		return k == parser.ArgRequired
	}
	if valueless, ok := (spec{}).JobOption(name); ok {
		return !valueless
	}
	return false
}

// renderReport carries out --report=: the HTML report of a finished run
// from its result file and log files.
func renderReport(ro reportOpts, args []string, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gofio: "+format+"\n", a...)
		return 1
	}
	if ro.html == "" {
		return fail("--report needs --html=FILE, where the report goes")
	}
	if ro.intervalJSON != "" {
		return fail("--interval-json is written during a run, not with --report")
	}
	var logs []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return fail("%s: --report takes only --html= and fio's log files", a)
		}
		logs = append(logs, a)
	}
	doc, err := results.ReadFile(ro.from)
	if err != nil {
		return fail("--report: %v", err)
	}
	run := report.FromDocument(doc)
	if len(logs) > 0 {
		s, err := report.ReadLogs(logs, report.JobNames(run.Result))
		if err != nil {
			return fail("--report: %v", err)
		}
		run.Series = s
	}
	h := report.CollectHost(report.OptionTargets(run.Result))
	h.Note = "The machine this report was made on: a result file does not record its host."
	run.Host = &h
	if err := writeHTMLFile(ro.html, run); err != nil {
		return fail("--html: %v", err)
	}
	return 0
}

func writeHTMLFile(name string, run *report.Run) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = report.WriteHTML(bw, run)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// liveReport follows a run for --html and --interval-json: every
// interval it takes a snapshot of the jobs' statistics (a live report,
// as --status-interval does), turns it into intervals and writes their
// JSON lines; at the end it adds the last interval and writes the page.
type liveReport struct {
	ro      reportOpts
	prog    *runner.Progress
	plan    *jobspec.Plan
	every   time.Duration
	jsonl   *os.File
	tracker report.Tracker
	series  map[int]*report.Series
	limits  map[string]uint64 // runtime= per job name, ms
	stderr  io.Writer

	mu         sync.Mutex
	stop, done chan struct{}
}

// startLive starts following a run; it returns nil when neither option
// was given, and an error when the interval file cannot be created.
func startLive(ro reportOpts, prog *runner.Progress, plan *jobspec.Plan, every time.Duration, stderr io.Writer) (*liveReport, error) {
	if ro.html == "" && ro.intervalJSON == "" {
		return nil, nil
	}
	if every <= 0 {
		every = time.Second
	}
	l := &liveReport{ro: ro, prog: prog, plan: plan, every: every, series: map[int]*report.Series{}, limits: map[string]uint64{}, stderr: stderr,
		stop: make(chan struct{}), done: make(chan struct{})}
	for _, j := range plan.Jobs {
		if j.Runtime > 0 {
			if ms, ok := l.limits[j.Name]; !ok || j.Runtime/1000 < ms {
				l.limits[j.Name] = j.Runtime / 1000
			}
		}
	}
	if ro.intervalJSON != "" {
		f, err := os.Create(ro.intervalJSON)
		if err != nil {
			return nil, fmt.Errorf("gofio: --interval-json: %w", err)
		}
		l.jsonl = f
	}
	go l.loop()
	return l, nil
}

func (l *liveReport) loop() {
	defer close(l.done)
	select {
	case <-l.prog.Started():
	case <-l.stop:
		return
	}
	next := l.every
	t := time.NewTimer(max(next-l.prog.Elapsed(), time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		if since := l.prog.Elapsed(); since >= next {
			if r := l.prog.Report(time.Second); r != nil {
				l.take(r, true, l.prog.Elapsed()-next)
			}
			for next <= l.prog.Elapsed() {
				next += l.every
			}
		}
		t.Reset(max(next-l.prog.Elapsed(), time.Millisecond))
	}
}

// take turns snapshot r into intervals. Live, a job within half an
// interval of its runtime= is left for the final report, so that a job
// of N intervals writes N lines; late is how long after its due time the
// snapshot was taken (a loaded machine wakes the timer late), which does
// not count toward that half interval.
func (l *liveReport) take(r *output.Result, live bool, late time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// A job in ramp_time has statistics that its end discards: it has
	// no interval yet. Records of several jobs (group_reporting) wait
	// while any job ramps.
	var ramping []bool
	if live {
		st := make([]runner.JobStatus, len(l.plan.Jobs))
		l.prog.Snapshot(st)
		any := false
		for _, s := range st {
			ramping = append(ramping, s.State == runner.StateRamp)
			any = any || s.State == runner.StateRamp
		}
		if len(ramping) != len(r.Jobs) {
			ramping = make([]bool, len(r.Jobs))
			for i := range ramping {
				ramping[i] = any
			}
		}
	}
	keep := func(i int, j *output.Job) bool {
		if !live {
			return true
		}
		if ramping[i] {
			return false
		}
		lim, ok := l.limits[j.Name]
		due := int64(report.TimeMS(&j.Stats)) - int64(late/time.Millisecond)
		return !ok || due+int64(l.every/time.Millisecond)/2 < int64(lim)
	}
	for _, iv := range l.tracker.Next(r, keep) {
		s := l.series[iv.Index]
		if s == nil {
			s = &report.Series{Source: fmt.Sprintf("gofio intervals of %v", l.every)}
			l.series[iv.Index] = s
		}
		s.Add(&iv)
		if l.jsonl != nil {
			if err := report.WriteIntervalLine(l.jsonl, r, &iv, false); err != nil {
				fmt.Fprintf(l.stderr, "gofio: --interval-json: %v\n", err)
				l.jsonl.Close()
				l.jsonl = nil
			}
		}
	}
}

// finish stops following the run and writes the last interval and the
// page from the final result (nil when the run failed).
func (l *liveReport) finish(final *output.Result) error {
	if l == nil {
		return nil
	}
	close(l.stop)
	<-l.done
	var err error
	if final != nil {
		l.take(final, false, 0)
		if l.ro.html != "" {
			h := report.CollectHost(planTargets(l.plan))
			run := &report.Run{Result: final, Series: l.series, Host: &h, Source: "a gofio run"}
			if werr := writeHTMLFile(l.ro.html, run); werr != nil {
				err = fmt.Errorf("gofio: --html: %w", werr)
			}
		}
	}
	if l.jsonl != nil {
		if cerr := l.jsonl.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("gofio: --interval-json: %w", cerr)
		}
	}
	return err
}

// planTargets returns the files and directories the jobs name (their
// working directory when they name none).
func planTargets(plan *jobspec.Plan) []string {
	var out []string
	for _, j := range plan.Jobs {
		if j.IOEngine == "null" {
			continue
		}
		switch {
		case len(j.Filename) > 0:
			out = append(out, j.Filename...)
		case len(j.Directory) > 0:
			out = append(out, j.Directory...)
		default:
			out = append(out, ".")
		}
	}
	return out
}
