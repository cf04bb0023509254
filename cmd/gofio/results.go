package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/results"
)

// gofio's own result tools, which fio 3.33 does not have (package
// results):
//
//	gofio --compare=BASE.json[:BASE2.json...] [--gate=iops=-5%,p99=+10%] NEW.json
//	gofio --merge=a.json,b.json [--output=merged.json]
//
// fio refuses --compare, --merge and --gate ("unrecognized option", or
// "ambiguous" for --merge), so a command line is one of these only when
// fio would stop on one of them: getopt's first failure is at an argument
// written --compare=, --merge= or --gate=, and every argument before it
// is one fio takes without acting on it yet (--output=, --output-format=
// or a file name). Any other command line keeps fio's meaning, and
// abbreviations of these names stay fio's.

// gateStatus is the exit status of --compare when a gate is crossed:
// distinct from fio's 1 (any failure, also of --compare itself).
const gateStatus = 2

// resultsUsage is appended to fio's --help text.
const resultsUsage = `
gofio's own result tools (not in fio 3.33):
  --compare=base[:base2...] new	Compare a JSON/JSON+ result with baseline run(s)
  --gate=iops=-5%,p99=+10%	With --compare: exit 2 when a change crosses a gate
				(metrics iops, bw, mean, p50, p99, p99.9)
  --merge=a,b...		Merge JSON+ results into one JSON+ document
`

// resultsMode carries out --compare or --merge when the command line is
// one of theirs; ok is false otherwise.
func resultsMode(args []string, argErr error, stdout, stderr io.Writer) (code int, ok bool) {
	var ae *parser.ArgError
	if !errors.As(argErr, &ae) || ae.Pos.File != parser.CmdlineFile {
		return 0, false
	}
	at := ae.Pos.Line - 1
	if at < 0 || at >= len(args) || toolOption(args[at]) == "" {
		return 0, false
	}
	for _, a := range args[:at] {
		if !strings.HasPrefix(a, "--output=") && !strings.HasPrefix(a, "--output-format=") && strings.HasPrefix(a, "-") {
			return 0, false
		}
	}
	return runResults(args, stdout, stderr), true
}

// toolOption returns the name of the result-tool option arg is, or "".
func toolOption(arg string) string {
	for _, n := range []string{"compare", "merge", "gate"} {
		if strings.HasPrefix(arg, "--"+n+"=") {
			return n
		}
	}
	return ""
}

// runResults parses a result-tool command line and runs it.
func runResults(args []string, stdout, stderr io.Writer) int {
	var compare, merge, gate, outPath string
	var fmts *formats
	var files []string
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gofio: "+format+"\n", a...)
		return 1
	}
	for _, a := range args {
		name, val, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		switch {
		case !strings.HasPrefix(a, "-"):
			files = append(files, a)
		case toolOption(a) == "compare":
			compare = val
		case toolOption(a) == "merge":
			merge = val
		case toolOption(a) == "gate":
			gate = val
		case strings.HasPrefix(a, "--output="):
			outPath = val
		case strings.HasPrefix(a, "--output-format="):
			f, err := parseFormats(val)
			if err != nil {
				return fail("--output-format=%s: %v", val, strings.TrimPrefix(err.Error(), "fio: "))
			}
			fmts = &f
		default:
			return fail("%s: --compare and --merge take only --gate=, --output= and --output-format= (see --help)", name)
		}
	}
	switch {
	case compare != "" && merge != "":
		return fail("--compare and --merge cannot be used together")
	case compare == "" && merge == "":
		return fail("--gate needs --compare")
	case merge != "" && gate != "":
		return fail("--gate needs --compare, not --merge")
	}

	open := func() (io.Writer, func() error, bool) {
		if outPath == "" {
			return stdout, func() error { return nil }, true
		}
		f, err := os.Create(outPath)
		if err != nil {
			fmt.Fprintf(stderr, "gofio: %v\n", err)
			return nil, nil, false
		}
		return f, f.Close, true
	}

	if merge != "" {
		if len(files) > 0 {
			return fail("--merge: unexpected argument %q (list the files in --merge=a.json,b.json)", files[0])
		}
		docs, err := readDocs(splitList(merge))
		if err != nil {
			return fail("--merge: %v", err)
		}
		r, err := results.Merge(docs)
		if err != nil {
			return fail("--merge: %v", err)
		}
		s := settings{formats: formats{jsonPlus: true}, terseVersion: 3}
		if fmts != nil {
			s.formats = *fmts
		}
		w, closeOut, ok := open()
		if !ok {
			return 1
		}
		bw := bufio.NewWriter(w)
		err = s.report(bw, r)
		if err == nil {
			err = bw.Flush()
		}
		if cerr := closeOut(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail("--merge: writing the result: %v", err)
		}
		return 0
	}

	if len(files) != 1 {
		return fail("--compare needs exactly one new result file after the options, got %d", len(files))
	}
	var gates []results.Gate
	if gate != "" {
		var err error
		if gates, err = results.ParseGates(gate); err != nil {
			return fail("--gate: %v", err)
		}
	}
	base, err := readDocs(splitList(compare))
	if err != nil {
		return fail("--compare: %v", err)
	}
	cur, err := results.ReadFile(files[0])
	if err != nil {
		return fail("--compare: %v", err)
	}
	c, err := results.Compare(base, cur, gates)
	if err != nil {
		return fail("--compare: %v", err)
	}
	f := formats{normal: true}
	if fmts != nil {
		f = *fmts
	}
	if f.terse {
		return fail("--compare prints normal (a table) or json")
	}
	w, closeOut, ok := open()
	if !ok {
		return 1
	}
	if f.json || f.jsonPlus {
		err = c.WriteJSON(w)
	}
	if f.normal && err == nil {
		err = c.WriteTable(w)
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail("--compare: writing the comparison: %v", err)
	}
	if c.Crossed {
		return gateStatus
	}
	return 0
}

// splitList splits a list of file names at ':' and ','.
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ':' || r == ',' })
}

// readDocs reads result files.
func readDocs(names []string) ([]*results.Document, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("no file named")
	}
	var docs []*results.Document
	for _, n := range names {
		d, err := results.ReadFile(n)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	return docs, nil
}
