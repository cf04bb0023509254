package main

import "github.com/gofio/gofio/parser"

// implemented says which of fio's own options (parser.FioOptions, with
// their short forms and argument kinds) gofio carries out: all of them
// (TestFioOptionsKnown). One missing here would be an internal error
// naming it: gofio never ignores an option silently.
var implemented = map[string]bool{
	"output":              true,
	"latency-log":         true, // fio refuses it as deprecated; so does gofio
	"bandwidth-log":       true,
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
	"profile":             true,
	"warnings-fatal":      true,
	"max-jobs":            true,
	"terse-version":       true,
	"server":              true,
	"daemonize":           true,
	"client":              true,
	"remote-config":       true,
	"cpuclock-test":       true,
	"crctest":             true,
	"memcpytest":          true,
	"idle-prof":           true,
	"status-interval":     true,
	"trigger-file":        true,
	"trigger-timeout":     true,
	"trigger":             true,
	"trigger-remote":      true,
	"aux-path":            true,
	"merge-blktrace-only": true,
}

// fioOption is one of fio's own command-line options.
type fioOption struct {
	parser.LongOption
	// Implemented is false for an option missing from implemented
	// (none: an internal error).
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
