package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/parser"
)

// The resolved-job dump: --parse-only with --output-format=json (or
// json+) prints, for every job that would run, the options that make
// it. fio 3.33 prints nothing on stdout for such a command line (it reads
// the jobs and exits 0), so the document is an addition no fio user
// relies on the absence of.

// resolvedDoc is the dump's top level.
type resolvedDoc struct {
	Version string        `json:"fio version"`
	Jobs    []resolvedJob `json:"jobs"`
}

// resolvedJob is one job that would run.
type resolvedJob struct {
	Name    string `json:"jobname"`
	Section string `json:"section"`
	JobNum  int    `json:"jobnum"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	// Effective is what fio's JSON report would show as the job's
	// options were all of them its own: canonical name to value, the
	// last setting winning, valueless options left out.
	Effective map[string]string `json:"job options"`
	Options   []resolvedOpt     `json:"options"`
}

// resolvedOpt is one option as written and as read.
type resolvedOpt struct {
	Name string `json:"name"`
	// Value is null for an option written without '='.
	Value  *string          `json:"value"`
	Global bool             `json:"global"`
	File   string           `json:"file,omitempty"`
	Line   int              `json:"line,omitempty"`
	Typed  []map[string]any `json:"typed,omitempty"`
}

// writeResolved prints the dump of jobs.
func writeResolved(w io.Writer, jobs []jobspec.ResolvedJob) error {
	doc := resolvedDoc{Version: output.FioVersion, Jobs: []resolvedJob{}}
	for _, j := range jobs {
		rj := resolvedJob{Name: j.Name, Section: j.Section, JobNum: j.JobNum, Effective: map[string]string{}, Options: []resolvedOpt{}}
		rj.File, rj.Line = posFields(j.Pos)
		for _, o := range j.Options {
			ro := resolvedOpt{Name: o.Name, Global: o.Global}
			ro.File, ro.Line = posFields(o.Pos)
			if o.HasValue {
				v := o.Value
				ro.Value = &v
				if v != "" {
					rj.Effective[o.Name] = v
				}
			}
			for _, t := range o.Typed {
				var v any = t.Value
				if t.Unit == "bool" {
					v = t.Value != 0
				}
				ro.Typed = append(ro.Typed, map[string]any{t.Unit: v})
			}
			rj.Options = append(rj.Options, ro)
		}
		doc.Jobs = append(doc.Jobs, rj)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("resolved jobs: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// posFields spells a position for the dump: the job file and its line,
// or "<cmdline>" and the argument's index in argv.
func posFields(p parser.Pos) (string, int) {
	return p.File, p.Line
}

// wantResolved reports whether the command line asks for the dump:
// --parse-only, a JSON format, and not --showcmd (whose lines go to
// stdout too).
func (s *settings) wantResolved() bool {
	return s.parseOnly && !s.parse.showCmd && (s.formats.json || s.formats.jsonPlus)
}

// printResolved prints the dump where the report would go and returns
// the exit status.
func (s *settings) printResolved(b *jobspec.Builder, stdout, stderr io.Writer) int {
	out, closeOut, ok := s.openOutput(stdout, stderr)
	if !ok {
		return 1
	}
	defer closeOut()
	if err := writeResolved(out, b.Resolved()); err != nil {
		fmt.Fprintln(stderr, "gofio:", err)
		return 1
	}
	return 0
}
