package main

import "github.com/gofio/gofio/parser"

// implemented says which of fio's own options (parser.FioOptions, with
// their short forms and argument kinds) gofio carries out. The others are
// still recognised, and their arguments checked as fio checks them, but
// using one is an error naming it: gofio never ignores an option silently.
var implemented = map[string]bool{
	"output":              true,
	"latency-log":         true, // fio refuses it as deprecated; so does gofio
	"bandwidth-log":       false,
	"minimal":             true,
	"output-format":       true,
	"append-terse":        true,
	"version":             true,
	"help":                true,
	"cmdhelp":             true,
	"enghelp":             true,
	"showcmd":             true,
	"readonly":            true,
	"eta":                 true,
	"eta-interval":        true,
	"eta-newline":         true,
	"debug":               true,
	"parse-only":          true,
	"section":             true,
	"inflate-log":         true,
	"alloc-size":          true,
	"profile":             true, // with --cmdhelp; running a profile is refused
	"warnings-fatal":      true,
	"max-jobs":            true,
	"terse-version":       true,
	"server":              true,
	"daemonize":           false,
	"client":              true,
	"remote-config":       true,
	"cpuclock-test":       false,
	"crctest":             false,
	"memcpytest":          false,
	"idle-prof":           false,
	"status-interval":     true,
	"trigger-file":        false,
	"trigger-timeout":     false,
	"trigger":             false,
	"trigger-remote":      false,
	"aux-path":            true,
	"merge-blktrace-only": true,
}

// fioOption is one of fio's own command-line options.
type fioOption struct {
	parser.LongOption
	// Implemented is false for options gofio knows but does not honour
	// yet.
	Implemented bool
}

// lookupFioOption finds one of fio's own options by its long name.
func lookupFioOption(name string) (fioOption, bool) {
	for _, o := range parser.FioOptions {
		if o.Name == name {
			return fioOption{LongOption: o, Implemented: implemented[name]}, true
		}
	}
	return fioOption{}, false
}
