package main

import (
	"fmt"
	"strings"

	"github.com/gofio/gofio/parser"
)

// gofio's own run options, which fio 3.33 does not have:
//
//	--lint                    values fio would misread are errors
//	--exit-status=detailed    an exit status that says what failed (exitstatus.go)
//	--metrics=HOST:PORT       OpenMetrics endpoint during the run (metrics.go)
//
// fio refuses each of them ("unrecognized option"), so no command line
// fio accepts changes meaning; gofio takes them out of argv before it
// parses the rest as fio does (as --html and --interval-json,
// htmlreport.go). They are spelled in full, with '=' where they take a
// value: an abbreviation stays fio's.

// gofioOpts are the gofio-only run options given.
type gofioOpts struct {
	lint     bool
	detailed bool   // --exit-status=detailed
	metrics  string // --metrics address
}

// gofioUsage is appended to fio's --help text.
const gofioUsage = `
gofio's own run options (not in fio 3.33):
  --lint			Values fio 3.33 would misread are errors (FILE:LINE)
  --exit-status=detailed	Exit status says what failed (see README)
  --metrics=host:port	Serve OpenMetrics (Prometheus) during the run
  --parse-only --output-format=json	Print every job's resolved options as JSON
`

// takeGofioArgs takes gofio's own run options out of args.
func takeGofioArgs(args []string) ([]string, gofioOpts, error) {
	var g gofioOpts
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		switch {
		case a == "--lint":
			g.lint = true
			continue
		case name == "--exit-status" && hasVal:
			switch val {
			case "detailed":
				g.detailed = true
			case "fio":
				g.detailed = false
			default:
				return nil, g, fmt.Errorf("gofio: --exit-status=%s: use detailed or fio", val)
			}
			continue
		case name == "--metrics" && hasVal:
			if val == "" {
				return nil, g, fmt.Errorf("gofio: --metrics needs an address (host:port)")
			}
			g.metrics = val
			continue
		}
		rest = append(rest, a)
		if n := strings.TrimPrefix(a, "--"); n != a && !hasVal && i+1 < len(args) && takesValue(n) {
			i++
			rest = append(rest, args[i])
		}
	}
	return rest, g, nil
}

// any reports whether one of gofio's own run options was given.
func (g gofioOpts) any() bool { return g.lint || g.detailed || g.metrics != "" }

// remoteCmdline reports whether cl runs as --client or --server, which
// gofio's own run options do not follow.
func remoteCmdline(cl *parser.CommandLine) bool {
	for _, o := range cl.Fio {
		if o.Name == "client" || o.Name == "server" {
			return true
		}
	}
	return false
}

// restoreArgPositions gives the options of cl, parsed from kept (orig
// without the options gofio took out), their places in orig, so that
// messages such as the lint's name the argument the user typed.
func restoreArgPositions(cl *parser.CommandLine, orig, kept []string) {
	if cl == nil || len(orig) == len(kept) {
		return
	}
	at := make([]int, len(kept)+1) // kept argv index -> orig argv index
	j := 0
	for i, a := range kept {
		for j < len(orig) && orig[j] != a {
			j++
		}
		at[i+1] = j + 1
		j++
	}
	fix := func(p *parser.Pos) {
		if p.File == parser.CmdlineFile && p.Line > 0 && p.Line < len(at) {
			p.Line = at[p.Line]
		}
	}
	for i := range cl.Fio {
		fix(&cl.Fio[i].Pos)
	}
	for i := range cl.Sections {
		fix(&cl.Sections[i].Pos)
		for k := range cl.Sections[i].Options {
			fix(&cl.Sections[i].Options[k].Pos)
		}
	}
}
