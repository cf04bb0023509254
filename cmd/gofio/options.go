package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/parser"
)

// spec tells the parser which names are fio's own options and which are
// job options.
type spec struct{}

func (spec) FioOption(name string) (parser.ArgKind, bool) {
	o, ok := lookupFioOption(name)
	if !ok {
		return 0, false
	}
	return o.Arg, true
}

func (spec) JobOption(name string) (valueless bool, ok bool) {
	if o, ok := jobspec.Lookup(name); ok {
		return o.Valueless(), true
	}
	for _, e := range []string{"libaio", "io_uring"} {
		for _, o := range jobspec.EngineOptions(e) {
			if o.Name == name {
				return o.Valueless(), true
			}
		}
	}
	return false, false
}

// apply carries out one of fio's own options. done reports that gofio
// must exit now with status.
func (s *settings) apply(o parser.Option, stdout, stderr io.Writer) (done bool, status int) {
	def, ok := lookupFioOption(o.Name)
	if !ok {
		fmt.Fprintf(stderr, "fio: unrecognized option '--%s'\n", o.Name)
		return true, 1
	}
	if !def.Implemented {
		fmt.Fprintf(stderr, "gofio: option --%s is not supported yet\n", o.Name)
		return true, 1
	}
	switch o.Name {
	case "version":
		fmt.Fprintln(stdout, version)
		return true, 0
	case "help":
		printUsage(stdout)
		return true, 0
	case "output":
		s.outputPath = o.Value
	case "output-format":
		f, err := parseFormats(o.Value)
		if err != nil {
			fmt.Fprintln(stderr, err)
			fmt.Fprintln(stderr, "fio: failed parsing output-format")
			return true, 1
		}
		s.formats = f
	case "minimal":
		s.formats = formats{terse: true}
	case "append-terse":
		s.formats.terse = true
	case "terse-version":
		v, _ := strconv.Atoi(leadingDigits(o.Value))
		if v < 2 || v > 5 {
			fmt.Fprintln(stderr, "fio: bad terse version format")
			return true, 1
		}
		s.terseVersion = v
	case "latency-log":
		fmt.Fprintln(stderr, "fio: --latency-log is deprecated. Use per-job latency log options.")
		return true, 1
	case "cmdhelp":
		return true, cmdHelp(stdout, stderr, o.Value)
	case "enghelp":
		return true, engHelp(stdout, stderr, o.Value)
	case "parse-only":
		s.parseOnly = true
	case "readonly":
		s.readOnly = true
	case "warnings-fatal":
		s.warnFatal = true
	case "eta", "alloc-size", "max-jobs":
		// Accepted; the live status line is not drawn yet, which is what
		// --eta=never asks for and what fio does when stdout is not a
		// terminal.
	}
	return false, 0
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// parseFormats reads an --output-format list.
func parseFormats(list string) (formats, error) {
	var f formats
	for _, w := range strings.Split(list, ",") {
		switch w {
		case "normal":
			f.normal = true
		case "json":
			f.json = true
		case "json+":
			f.jsonPlus = true
		case "terse", "minimal", "csv":
			f.terse = true
		default:
			return f, fmt.Errorf("fio: invalid output format %s", w)
		}
	}
	return f, nil
}

// cmdHelp prints option help as fio's --cmdhelp does.
func cmdHelp(stdout, stderr io.Writer, name string) int {
	if name == "" || name == "all" {
		printOptionTree(stdout)
		return 0
	}
	o, ok := jobspec.Lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "No such command: %s", name)
		fmt.Fprintln(stdout)
		return 0
	}
	printOptionHelp(stdout, o)
	return 0
}

// printOptionTree lists every option, children indented under their
// parent, as --cmdhelp=all does.
func printOptionTree(w io.Writer) {
	opts := jobspec.Options()
	var walk func(parent string, level int, from int)
	printed := map[string]bool{}
	walk = func(parent string, level, from int) {
		for i := from; i < len(opts); i++ {
			o := &opts[i]
			if o.Hidden || o.Parent != parent || printed[o.Name] {
				continue
			}
			printed[o.Name] = true
			fmt.Fprintf(w, "%-24s: %s\n", strings.Repeat("  ", level)+o.Name, o.Help)
			walk(o.Name, level+1, i+1)
		}
	}
	walk("", 0, 0)
}

// printOptionHelp prints one option's help block.
func printOptionHelp(w io.Writer, o *jobspec.Option) {
	fmt.Fprintf(w, "%20s: %s\n", o.Name, o.Help)
	if o.Alias != "" {
		fmt.Fprintf(w, "%20s: %s\n", "alias", o.Alias)
	}
	fmt.Fprintf(w, "%20s: %s\n", "type", o.Type)
	def := o.Default
	if def == "" {
		def = "no default"
	}
	fmt.Fprintf(w, "%20s: %s\n", "default", def)
	if o.Range != "" {
		fmt.Fprintf(w, "%20s: %s\n", "range", o.Range)
	}
	for i, c := range o.Choices {
		label := ""
		if i == 0 {
			label = "valid values"
		}
		fmt.Fprintf(w, "%20s: %-10s %s\n", label, c.Word, c.Help)
	}
	fmt.Fprintln(w)
}

// engHelp lists the engines, or one engine's private options.
func engHelp(stdout, stderr io.Writer, arg string) int {
	if arg == "" {
		fmt.Fprintln(stdout, "Available IO engines:")
		for _, e := range []string{"sync", "psync", "libaio", "io_uring", "null"} {
			fmt.Fprintf(stdout, "\t%s\n", e)
		}
		return 0
	}
	name, _, _ := strings.Cut(arg, ",")
	opts := jobspec.EngineOptions(name)
	if len(opts) == 0 {
		fmt.Fprintf(stdout, "IO engine %s has no options\n", name)
		return 1
	}
	for _, o := range opts {
		fmt.Fprintf(stdout, "%-24s: %s\n", o.Name, o.Help)
	}
	return 0
}
