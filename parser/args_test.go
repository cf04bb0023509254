package parser

import (
	"reflect"
	"strings"
	"testing"
)

// tableSpec is fio 3.33's option table (testdata/jobopts.txt) with a few
// engines' private options.
type tableSpec struct {
	jobs    []LongOption
	engines map[string][]LongOption
}

func (s *tableSpec) FioOption(name string) (ArgKind, bool) {
	for _, o := range FioOptions {
		if o.Name == name {
			return o.Arg, true
		}
	}
	return 0, false
}

func (s *tableSpec) JobOption(name string) (bool, bool) {
	for _, o := range s.jobs {
		if o.Name == name {
			return o.Arg == ArgOptional, true
		}
	}
	return false, false
}

func (s *tableSpec) JobOptions(engine string) []LongOption {
	if strings.HasPrefix(engine, "aio") || strings.HasPrefix(engine, "linuxaio") {
		engine = "libaio"
	}
	return append(append([]LongOption(nil), s.jobs...), s.engines[engine]...)
}

func loadSpec() *tableSpec {
	eng := func(flag string, names ...string) (l []LongOption) {
		for _, n := range names {
			o := LongOption{Name: n, Arg: ArgRequired, Job: true}
			if n == flag {
				o.Arg = ArgOptional
			}
			l = append(l, o)
		}
		return l
	}
	s := &tableSpec{engines: map[string][]LongOption{
		"libaio":  eng("userspace_reap", "userspace_reap", "cmdprio_percentage", "cmdprio_class", "cmdprio", "cmdprio_bssplit", "nowait"),
		"pvsync2": eng("hipri", "hipri", "hipri_percentage", "uncached", "nowait"),
	}}
	for _, line := range strings.Split(string(readFile("testdata/jobopts.txt")), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		name, kind, _ := strings.Cut(line, "\t")
		o := LongOption{Name: name, Arg: ArgRequired, Job: true}
		if kind == "opt" {
			o.Arg = ArgOptional
		}
		s.jobs = append(s.jobs, o)
	}
	return s
}

// exactSpec only answers lookups (no JobTable).
type exactSpec struct{ t *tableSpec }

func (s exactSpec) FioOption(name string) (ArgKind, bool) { return s.t.FioOption(name) }
func (s exactSpec) JobOption(name string) (bool, bool)    { return s.t.JobOption(name) }

// renderCL shows a command line compactly: fio options as "+name[=v]",
// sections as "[name]" then "name[=v]", job files as "<file>", all in
// argv order.
func renderCL(cl *CommandLine) string {
	type item struct {
		line int
		s    string
	}
	var items []item
	opt := func(o Option) string {
		if o.HasValue {
			return o.Name + "=" + o.Value
		}
		return o.Name
	}
	for _, o := range cl.Fio {
		items = append(items, item{o.Pos.Line, "+" + opt(o)})
	}
	for _, s := range cl.Sections {
		head := "[" + s.Name + "]"
		if s.Name == "global" && (len(s.Options) == 0 || s.Options[0].Name != "name") {
			items = append(items, item{s.Pos.Line, head})
		}
		for i, o := range s.Options {
			if i == 0 && o.Name == "name" {
				items = append(items, item{o.Pos.Line, head})
				continue
			}
			items = append(items, item{o.Pos.Line, opt(o)})
		}
	}
	// Stable sort by position: options sharing an argument keep order.
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && items[j].line < items[j-1].line; j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
	var parts []string
	for _, it := range items {
		parts = append(parts, it.s)
	}
	for _, f := range cl.JobFiles {
		parts = append(parts, "<"+f+">")
	}
	return strings.Join(parts, " ")
}

// Expected errors are fio 3.33's stderr lines (argv[0] = "fio").
func TestParseArgs(t *testing.T) {
	spec := loadSpec()
	tests := []struct {
		args string
		want string
		err  []string
	}{
		{"--name x --bs 4k --size 1m --ioengine null", "[x] bs=4k size=1m ioengine=null", nil},
		{"-name=x -bs=4k", "[x] bs=4k", nil},
		{"--parse-only --name=x --time_based 1", "+parse-only [x] time_based <1>", nil},
		{"--name=x --time_based=1", "[x] time_based=1", nil},
		{"--name=x --time_based=", "[x] time_based=", nil},
		{"--name=x --rw=", "[x] rw=", nil},
		{"--name=", "[]", nil},
		{"--write_lat_log --bs=8k --name=x", "[global] write_lat_log=--bs=8k [x]", nil},
		{"--bs=4k --name=a --rw=read --name=global --bs=8k --name=b", "[global] bs=4k [a] rw=read [global] bs=8k [b]", nil},
		{"--name=globalx --bs=8k", "[globalx] bs=8k", nil},
		{"--numj=2 --nam=x --blocksize=4k", "[global] numjobs=2 [x] blocksize=4k", nil},
		{"--bss=4k", "[global] bssplit=4k", nil},
		{"--vers", "+version", nil},
		{"a.fio --rw=trim b.fio", "[global] rw=trim <a.fio> <b.fio>", nil},
		{"-- --foo -x", "<--foo> <-x>", nil},
		{"- x", "<-> <x>", nil},
		{"--name=a –group_reporting", "[a] <–group_reporting>", nil},
		{"-cbs", "+cmdhelp=bs", nil},
		{"-c bs", "+cmdhelp <bs>", nil},
		{"--cmdhelp bs", "+cmdhelp <bs>", nil},
		{"--cmdhelp=bs", "+cmdhelp=bs", nil},
		{"-o out.txt -ofile2 --output=o3 --output o4", "+output=out.txt +output=file2 +output=o3 +output=o4", nil},
		{"-sP", "+showcmd +parse-only", nil},
		{"-x a -x b --name=a", "+section=a +section=b [a]", nil},
		{"-x=a", "+section==a", nil},
		{"-v", "+version", nil},
		{"--name=a --ioengine=libaio --userspace_reap --cmdprio_percentage=10", "[a] ioengine=libaio userspace_reap cmdprio_percentage=10", nil},
		{"--ioengine=libaio --name=a --userspace_reap", "[global] ioengine=libaio [a] userspace_reap", nil},
		{"--ioengine=aio --userspace_reap=1", "[global] ioengine=aio userspace_reap=1", nil},
		{"--name=a --ioengine=pvsync2 --hipri 1", "[a] ioengine=pvsync2 hipri <1>", nil},
		{"--bs=4k --name=a --readonly --rw=read", "[global] bs=4k [a] +readonly rw=read", nil},

		// Errors (the command line before the error is still returned).
		{"--foo", "", []string{"fio: unrecognized option '--foo'", "fio: unrecognized option '--foo'", "Did you mean flow?"}},
		{"--name=a --foo=bar", "[a]", []string{"fio: unrecognized option '--foo=bar'", "fio: unrecognized option '--foo=bar'"}},
		{"--rwmix=50 --name=x", "", []string{"fio: option '--rwmix=50' is ambiguous; possibilities: '--rwmixread' '--rwmixwrite' '--rwmixcycle'", "fio: unrecognized option '--rwmix=50'", "Did you mean rwmixread?"}},
		{"--parse-only --ver", "+parse-only", []string{"fio: option '--ver' is ambiguous; possibilities: '--version' '--verify_only' '--verify' '--verifysort' '--verifysort_nr' '--verify_interval' '--verify_offset' '--verify_pattern' '--verify_fatal' '--verify_dump' '--verify_async' '--verify_backlog' '--verify_backlog_batch' '--verify_async_cpus' '--verify_state_load' '--verify_state_save'", "fio: unrecognized option '--ver'", "Did you mean mem?"}},
		{"--ver=1", "", []string{"fio: option '--ver=1' is ambiguous; possibilities: '--version' '--verify_only' '--verify' '--verifysort' '--verifysort_nr' '--verify_interval' '--verify_offset' '--verify_pattern' '--verify_fatal' '--verify_dump' '--verify_async' '--verify_backlog' '--verify_backlog_batch' '--verify_async_cpus' '--verify_state_load' '--verify_state_save'", "fio: unrecognized option '--ver=1'", "Did you mean verify?"}},
		{"--version=1", "", []string{"fio: option '--version' doesn't allow an argument", "fio: unrecognized option '--version=1'", "Did you mean version?"}},
		{"-n", "", []string{"fio: option '-n' is ambiguous; possibilities: '-name' '-number_ios' '-norandommap' '-nrfiles' '-nr_files' '-numjobs' '-nice' '-numa_cpu_nodes' '-numa_mem_policy' '-new_group' '-numruns'", "fio: unrecognized option '-n'"}},
		{"-Q", "", []string{"fio: unrecognized option '-Q'", "fio: unrecognized option '-Q'"}},
		{"-Qs", "", []string{"fio: unrecognized option '-Qs'", "fio: unrecognized option '-Qs'", "Did you mean bs?"}},
		{"-sQ", "+showcmd", []string{"fio: invalid option -- 'Q'", "fio: unrecognized option '-sQ'", "Did you mean ss?"}},
		{"--parse-only -sQv", "+parse-only +showcmd", []string{"fio: invalid option -- 'Q'", "fio: unrecognized option '--parse-only'", "Did you mean parse-only?"}},
		{"--siz=1m", "", []string{"fio: option '--siz=1m' is ambiguous; possibilities: '--size' '--size'", "fio: unrecognized option '--siz=1m'", "Did you mean size?"}},
		{"--name=x --rw", "[x]", []string{"fio: option '--rw' requires an argument", "fio: unrecognized option '--rw'", "Did you mean rw?"}},
		{"-e", "", []string{"fio: option requires an argument -- 'e'", "fio: unrecognized option '-e'"}},
		{"-o=foo", "", []string{"fio: option '-o=foo' is ambiguous; possibilities: '-output' '-output-format' '-opendir' '-offset' '-offset_align' '-offset_increment' '-openfiles' '-overwrite'", "fio: unrecognized option '-o=foo'"}},
		{"--BS=4k", "", []string{"fio: unrecognized option '--BS=4k'", "fio: unrecognized option '--BS=4k'"}},
		{"--runtme=10", "", []string{"fio: unrecognized option '--runtme=10'", "fio: unrecognized option '--runtme=10'", "Did you mean runtime?"}},
		{"--tim", "", []string{"fio: option '--tim' is ambiguous; possibilities: '--timeout' '--time_based'", "fio: unrecognized option '--tim'", "Did you mean mem?"}},
		{"--thread_s", "", []string{"fio: unrecognized option '--thread_s'", "fio: unrecognized option '--thread_s'", "Did you mean threads?"}},
		{"--bsxxx", "", []string{"fio: unrecognized option '--bsxxx'", "fio: unrecognized option '--bsxxx'", "Did you mean bs?"}},
		{"--bsxxxx", "", []string{"fio: unrecognized option '--bsxxxx'", "fio: unrecognized option '--bsxxxx'"}},
		{"--name=a --ioengine=libaio --userspace_reap --name=b --userspace_reap", "[a] ioengine=libaio userspace_reap [b]", []string{"fio: unrecognized option '--userspace_reap'", "fio: unrecognized option '--userspace_reap'"}},
		{"--name=a --ioengine=libaio --userspace_reeap", "[a] ioengine=libaio", []string{"fio: unrecognized option '--userspace_reeap'", "fio: unrecognized option '--userspace_reeap'", "Did you mean userspace_reap?"}},
		{"--name=a --ioengine=psync --hipri", "[a] ioengine=psync", []string{"fio: unrecognized option '--hipri'", "fio: unrecognized option '--hipri'", "Did you mean prio?"}},
		{"--version --foo", "+version", []string{"fio: unrecognized option '--foo'", "fio: unrecognized option '--foo'", "Did you mean flow?"}},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			cl, err := ParseArgs(strings.Fields(tt.args), spec)
			if got := renderCL(cl); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			var lines []string
			if err != nil {
				ae, ok := err.(*ArgError)
				if !ok {
					t.Fatalf("error %T %v", err, err)
				}
				lines = ae.Lines("fio")
				if err.Error() != strings.Join(lines, "\n") {
					t.Errorf("Error() = %q", err.Error())
				}
			}
			if !reflect.DeepEqual(lines, tt.err) {
				t.Errorf("error lines\n got  %q\n want %q", lines, tt.err)
			}
		})
	}
}

func TestParseArgsDetails(t *testing.T) {
	cl, err := ParseArgs([]string{"--output=x", "--name", "a", "--bs", "4k", "b.fio", "-v"}, loadSpec())
	if err != nil {
		t.Fatal(err)
	}
	want := &CommandLine{
		Fio: []Option{
			{Name: "output", Value: "x", HasValue: true, Pos: Pos{CmdlineFile, 1}, Raw: "--output=x"},
			{Name: "version", Pos: Pos{CmdlineFile, 7}, Raw: "-v"},
		},
		Sections: []Section{{
			Name: "a", Pos: Pos{CmdlineFile, 2}, File: CmdlineFile,
			Options: []Option{
				{Name: "name", Value: "a", HasValue: true, Pos: Pos{CmdlineFile, 2}, Raw: "--name"},
				{Name: "bs", Value: "4k", HasValue: true, Pos: Pos{CmdlineFile, 4}, Raw: "--bs"},
			},
		}},
		JobFiles: []string{"b.fio"},
	}
	if !reflect.DeepEqual(cl, want) {
		t.Errorf("got  %+v\nwant %+v", cl, want)
	}

	// An invalid letter in the middle of the first argument's cluster:
	// getopt's argv[optind-1] is the program itself.
	_, err = ParseArgs([]string{"-sQv"}, loadSpec())
	if got := err.(*ArgError).Lines("/usr/bin/fio"); !reflect.DeepEqual(got, []string{"/usr/bin/fio: invalid option -- 'Q'", "/usr/bin/fio: unrecognized option '/usr/bin/fio'"}) {
		t.Errorf("got %q", got)
	}
	if got := err.(*ArgError).Lines("fio"); !reflect.DeepEqual(got, []string{"fio: invalid option -- 'Q'", "fio: unrecognized option 'fio'", "Did you mean prio?"}) {
		t.Errorf("got %q", got)
	}
	if p := err.(*ArgError).Pos; p != (Pos{CmdlineFile, 1}) {
		t.Errorf("pos %v", p)
	}
}

func TestFioOptionOrder(t *testing.T) {
	// "--=x" abbreviates every option; fio 3.33 lists them all, its own
	// options first, in this order.
	const want = "option '--=x' is ambiguous; possibilities: '--output' '--latency-log' '--bandwidth-log' '--minimal' " +
		"'--output-format' '--append-terse' '--version' '--help' '--cmdhelp' '--enghelp' '--showcmd' '--readonly' '--eta' " +
		"'--eta-interval' '--eta-newline' '--debug' '--parse-only' '--section' '--inflate-log' '--alloc-size' '--profile' " +
		"'--warnings-fatal' '--max-jobs' '--terse-version' '--server' '--daemonize' '--client' '--remote-config' " +
		"'--cpuclock-test' '--crctest' '--memcpytest' '--idle-prof' '--status-interval' '--trigger-file' '--trigger-timeout' " +
		"'--trigger' '--trigger-remote' '--aux-path' '--merge-blktrace-only' '--description' '--name' '--wait_for' "
	_, err := ParseArgs([]string{"--=x"}, loadSpec())
	if got := err.(*ArgError).Getopt; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, " '--large-block-op-kbytes' '--prep'") {
		t.Errorf("got %.600s", got)
	}
}

func TestParseArgsPosixlyCorrect(t *testing.T) {
	t.Setenv("POSIXLY_CORRECT", "1")
	cl, err := ParseArgs([]string{"--parse-only", "ok.fio", "--foo"}, loadSpec())
	if err != nil || renderCL(cl) != "+parse-only <ok.fio> <--foo>" {
		t.Errorf("got %q %v", renderCL(cl), err)
	}
}

func TestParseArgsWithoutJobTable(t *testing.T) {
	spec := exactSpec{loadSpec()}
	for _, tt := range []struct {
		args, want, err string
	}{
		{"--name=a --bs=4k --time_based 1 --vers", "[a] bs=4k time_based +version <1>", ""},
		{"--name=a --numj=2", "[a]", "fio: unrecognized option '--numj=2'\nfio: unrecognized option '--numj=2'"},
		{"--name=a --ioengine=psync --hipri", "[a] ioengine=psync", "fio: unrecognized option '--hipri'\nfio: unrecognized option '--hipri'"},
	} {
		cl, err := ParseArgs(strings.Fields(tt.args), spec)
		if got := renderCL(cl); got != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("%s: got %q %v", tt.args, got, err)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	names := []string{"flow", "bs", "mem", "uid", "rw"}
	for _, tt := range []struct{ typed, want string }{
		{"foo", "flow"}, {"foo=bar", ""}, {"BS", ""}, {"tim", "mem"}, {"bsxxx", "bs"}, {"bsxxxx", ""}, {"", ""}, {"rw", "rw"},
	} {
		if got := DidYouMean(tt.typed, names); got != tt.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
}

func TestLooksLikeDashTypo(t *testing.T) {
	for _, tt := range []struct {
		arg, want string
		ok        bool
	}{
		{"–group_reporting", "--group_reporting", true},
		{"—group_reporting", "--group_reporting", true},
		{"−−rw=read", "--rw=read", true},
		{"–-bs=4k", "--bs=4k", true},
		{"‐name=x", "--name=x", true},
		{"--group_reporting", "", false},
		{"job.fio", "", false},
		{"–", "", false},
		{"", "", false},
	} {
		got, ok := LooksLikeDashTypo(tt.arg)
		if got != tt.want || ok != tt.ok {
			t.Errorf("LooksLikeDashTypo(%q) = %q, %v", tt.arg, got, ok)
		}
	}
}
