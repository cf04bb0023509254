package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/runner/engine"
)

// This file prints option and engine help as fio 3.33's --cmdhelp and
// --enghelp do (reference: cli-and-jobfiles.md §4.3, §4.4), from the
// jobspec tables.

// cmdHelp carries out --cmdhelp[=NAME]. With --profile=P given before, it
// knows only profile P's options. It exits 0 even for unknown names.
func cmdHelp(stdout, stderr io.Writer, name, profile string) int {
	opts := jobspec.Options()
	if profile != "" {
		opts = jobspec.ProfileOptions(profile)
	}
	if name == "" || name == "all" {
		printOptionTree(stdout, opts)
		return 0
	}
	if profile == "" && printReportHelp(stdout, name) {
		return 0
	}
	helpFor(stdout, stderr, opts, name)
	return 0
}

// helpFor prints the help block of the option named (or aliased) name, or
// fio's "No such command" with the closest option within two edits. It
// reports whether name was found.
func helpFor(stdout, stderr io.Writer, opts []jobspec.Option, name string) bool {
	var candidates []*jobspec.Option
	for i := range opts {
		o := &opts[i]
		if o.Kind == jobspec.KindDeprecated || o.Kind == jobspec.KindSoftDeprecated {
			continue
		}
		if o.Name == name || o.Alias != "" && o.Alias == name {
			printOptionHelp(stdout, o)
			return true
		}
		candidates = append(candidates, o)
	}
	fmt.Fprintf(stderr, "No such command: %s", name)
	var best *jobspec.Option
	bestD := 3
	for _, o := range candidates {
		if d := parser.EditDistance(name, o.Name); d < bestD {
			best, bestD = o, d
		}
	}
	if best == nil {
		fmt.Fprintln(stdout)
		return false
	}
	fmt.Fprintln(stdout, " - showing closest match")
	printOptionHelp(stdout, best)
	return false
}

// printOptionTree lists options as --cmdhelp=all does: "%-24s: %s", table
// order, each option's children (later options naming it as Parent)
// indented two blanks per level under it; hidden options are left out.
func printOptionTree(w io.Writer, opts []jobspec.Option) {
	printed := map[string]bool{}
	var walk func(parent string, level, from int)
	walk = func(parent string, level, from int) {
		for i := from; i < len(opts); i++ {
			o := &opts[i]
			if o.Hidden || o.Kind == jobspec.KindDeprecated || o.Kind == jobspec.KindSoftDeprecated || o.Parent != parent || printed[o.Name] {
				continue
			}
			printed[o.Name] = true
			fmt.Fprintf(w, "%-24s: %s\n", strings.Repeat("  ", level)+o.Name, o.Help)
			walk(o.Name, level+1, i+1)
		}
	}
	walk("", 0, 0)
}

// printOptionHelp prints one option's help block and the empty line that
// ends it.
func printOptionHelp(w io.Writer, o *jobspec.Option) {
	for _, l := range o.HelpLines() {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
}

// engHelp carries out --enghelp[=ENGINE[,OPTION]]: the list of the
// engines gofio can run (the runner's registry, in fio's order), one
// engine's private options, or one option's help block.
func engHelp(stdout, stderr io.Writer, arg string) int {
	if arg == "" {
		fmt.Fprintln(stdout, "Available IO engines:")
		for _, e := range engine.Registered() {
			fmt.Fprintf(stdout, "\t%s\n", e.Name)
		}
		return 0
	}
	name, opt, hasOpt := strings.Cut(arg, ",")
	if _, known := jobspec.ResolveEngine(name); !known {
		fmt.Fprintf(stderr, "fio: engine %s not loadable\n", name)
		fmt.Fprintf(stdout, "IO engine %s not found\n", name)
		return 1
	}
	opts := jobspec.EngineOptions(name)
	if len(opts) == 0 {
		fmt.Fprintf(stdout, "IO engine %s has no options\n", name)
		return 1
	}
	if hasOpt {
		if helpFor(stdout, stderr, opts, opt) {
			return 0
		}
		return 1
	}
	printOptionTree(stdout, opts)
	return 0
}
