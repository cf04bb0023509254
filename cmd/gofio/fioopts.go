package main

import "github.com/gofio/gofio/parser"

// fioOption is one of fio's own command-line options (not a job option).
type fioOption struct {
	Name  string
	Short byte
	Arg   parser.ArgKind
	// Implemented is false for options gofio knows but does not honour
	// yet; using one is an error naming it.
	Implemented bool
}

// fioOptions lists fio's own options in fio's order (reference:
// cli-and-jobfiles.md §1.2).
var fioOptions = []fioOption{
	{"output", 'o', parser.ArgRequired, true},
	{"output-format", 'F', parser.ArgRequired, true},
	{"minimal", 'm', parser.ArgNone, true},
	{"append-terse", 'f', parser.ArgOptional, true},
	{"terse-version", 'V', parser.ArgRequired, true},
	{"bandwidth-log", 'b', parser.ArgNone, false},
	{"latency-log", 'l', parser.ArgRequired, true},
	{"version", 'v', parser.ArgNone, true},
	{"help", 'h', parser.ArgNone, true},
	{"cmdhelp", 'c', parser.ArgOptional, true},
	{"enghelp", 'i', parser.ArgOptional, true},
	{"showcmd", 's', parser.ArgNone, false},
	{"parse-only", 'P', parser.ArgNone, true},
	{"readonly", 'r', parser.ArgNone, true},
	{"eta", 'e', parser.ArgRequired, true},
	{"eta-interval", 'O', parser.ArgRequired, false},
	{"eta-newline", 'E', parser.ArgRequired, false},
	{"status-interval", 'L', parser.ArgRequired, false},
	{"debug", 'd', parser.ArgRequired, false},
	{"section", 'x', parser.ArgRequired, false},
	{"alloc-size", 'a', parser.ArgRequired, true},
	{"warnings-fatal", 'w', parser.ArgNone, true},
	{"max-jobs", 'j', parser.ArgRequired, true},
	{"server", 'S', parser.ArgOptional, false},
	{"daemonize", 'D', parser.ArgRequired, false},
	{"client", 'C', parser.ArgRequired, false},
	{"remote-config", 'R', parser.ArgRequired, false},
	{"idle-prof", 'I', parser.ArgRequired, false},
	{"inflate-log", 'X', parser.ArgRequired, false},
	{"trigger-file", 'W', parser.ArgRequired, false},
	{"trigger-timeout", 'B', parser.ArgRequired, false},
	{"trigger", 'H', parser.ArgRequired, false},
	{"trigger-remote", 'J', parser.ArgRequired, false},
	{"aux-path", 'K', parser.ArgRequired, false},
	{"merge-blktrace-only", 'A', parser.ArgNone, false},
	{"profile", 'p', parser.ArgRequired, false},
	{"crctest", 'G', parser.ArgOptional, false},
	{"cpuclock-test", 'T', parser.ArgNone, false},
	{"memcpytest", 'M', parser.ArgOptional, false},
}

func lookupFioOption(name string) (*fioOption, bool) {
	for i := range fioOptions {
		if fioOptions[i].Name == name {
			return &fioOptions[i], true
		}
	}
	return nil, false
}
