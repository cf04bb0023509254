package main

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/gofio/gofio/parser"
)

// TestJobOptionsTable compares spec's getopt table with fio's, recorded in
// parser/testdata/jobopts.txt from fio's own ambiguity messages.
func TestJobOptionsTable(t *testing.T) {
	f, err := os.Open("../../parser/testdata/jobopts.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			want = append(want, l)
		}
	}
	var got []string
	for _, o := range (spec{}).JobOptions("") {
		arg := "req"
		if o.Arg == parser.ArgOptional {
			arg = "opt"
		}
		got = append(got, o.Name+"\t"+arg)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("JobOptions(\"\") differs from fio's table (%d entries, fio %d)", len(got), len(want))
	}
	// An engine's private options follow, with their aliases.
	tail := (spec{}).JobOptions("net")[len(got):]
	var names []string
	for _, o := range tail {
		names = append(names, o.Name)
	}
	if s := strings.Join(names, " "); s != "hostname port protocol proto nodelay listen pingpong interface ttl window_size mss" {
		t.Errorf("net's options: %s", s)
	}
}

// TestFioOptionsKnown keeps every option of fio's own table either
// implemented or refused by name, and that none is refused.
func TestFioOptionsKnown(t *testing.T) {
	for _, o := range parser.FioOptions {
		if _, ok := implemented[o.Name]; !ok {
			t.Errorf("--%s: not in the implemented table", o.Name)
		}
	}
	for name := range implemented {
		if _, ok := lookupFioOption(name); !ok {
			t.Errorf("implemented lists %q, which fio does not have", name)
		}
	}
	// Every option of fio 3.33's own table is carried out (issue 14:
	// nothing fio runs is "not supported yet").
	for name, ok := range implemented {
		if !ok {
			t.Errorf("--%s is refused as not supported yet", name)
		}
	}
}

func TestCommandLineForms(t *testing.T) {
	tests := []struct {
		args         []string
		status       int
		stdout, errs string
		stdoutPrefix bool
	}{
		// Abbreviations of job options, as getopt_long_only allows.
		{[]string{"--numj=2", "--name=a", "--parse-only"}, 0, "", "", false},
		// --cmdhelp=NAME and its closest match.
		{[]string{"--cmdhelp=iodepth_low"}, 0, "         iodepth_low: Low water mark for queuing depth\n                type: integer value (opt=100)\n             default: no default\n               range: min=0, max=-1\n\n", "", false},
		{[]string{"--cmdhelp=numjob"}, 0, " - showing closest match\n             numjobs: Duplicate this job this many times\n", "No such command: numjob", true},
		// --enghelp lists the engines gofio runs.
		{[]string{"--enghelp"}, 0, "Available IO engines:\n", "", true},
		{[]string{"--enghelp=psync"}, 1, "IO engine psync has no options\n", "", false},
		// --debug=? lists the classes; unknown classes are reported and ignored.
		{[]string{"--debug=?"}, 0, "fio: dumping debug options:process,file,io,mem,blktrace,verify,random,parse,diskutil,job,mutex,profile,time,net,rate,compress,steadystate,helperthread,zbd,all\n", "", false},
		{[]string{"--debug=foo", "--parse-only"}, 0, "", "fio: debug mask foo not found\n", false},
		{[]string{"--debug=io", "--name=a", "--parse-only"}, 0, "fio: set debug option io\n", "", false},
		// --profile=P --cmdhelp shows P's options; act needs a device.
		{[]string{"--profile=act", "--cmdhelp=prep"}, 0, "                prep: Set to run ACT prep phase\n                type: empty or boolean value ([0|1])\n             default: no default\n               valid: only for profile 'act'\n\n", "", false},
		{[]string{"--profile=act"}, 1, "", "act: you need to set IO target(s) with the device-names option.\nfio: profile act prep failed\n", false},
		// With --parse-only and no jobs, nothing is printed.
		{[]string{"--parse-only"}, 0, "", "", false},
	}
	for _, tt := range tests {
		status, out, errs := gofio(t, tt.args...)
		okOut := out == tt.stdout || tt.stdoutPrefix && strings.HasPrefix(out, tt.stdout)
		if status != tt.status || !okOut || errs != tt.errs {
			t.Errorf("gofio %v = %d, %q, %q; want %d, %q, %q", tt.args, status, out, errs, tt.status, tt.stdout, tt.errs)
		}
	}
}

func TestShowcmdStdin(t *testing.T) {
	var out, errb strings.Builder
	status := run([]string{"--showcmd", "-"}, strings.NewReader("[global]\nbs=8k\n[a]\nrw=write\n"), &out, &errb)
	if status != 0 || out.String() != "fio --bs=8k --name=a --rw=write \n" || errb.String() != "" {
		t.Errorf("gofio --showcmd - = %d, %q, %q", status, out.String(), errb.String())
	}
}
