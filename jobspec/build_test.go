package jobspec

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gofio/gofio/parser"
)

// session feeds a Builder as gofio's main does: command-line job options
// ("name=value" or "name"), then job files given as text.
type session struct {
	cfg            Config
	cmdline        []string
	files          []string
	stdout, stderr bytes.Buffer
}

// fileErr builds the jobs of one job file and returns the error, "" for
// none.
func fileErr(t *testing.T, file string) string {
	t.Helper()
	s := &session{files: []string{file}}
	if _, err := s.run(t); err != nil {
		return err.Error()
	}
	return ""
}

func (s *session) run(t *testing.T) (*Plan, error) {
	t.Helper()
	s.cfg.Stdout, s.cfg.Stderr = &s.stdout, &s.stderr
	b := NewBuilder(&s.cfg)
	for i, a := range s.cmdline {
		k, v, has := strings.Cut(a, "=")
		o := parser.Option{Name: k, Value: v, HasValue: has, Raw: "--" + a, Pos: parser.Pos{File: parser.CmdlineFile, Line: i + 1}}
		if err := b.CmdlineOption(o); err != nil {
			return nil, err
		}
	}
	if err := b.EndCmdline(); err != nil {
		return nil, err
	}
	kw := parser.Keywords{PageSize: 4096, MBMemory: 1024, NCPUs: 2}
	for i, f := range s.files {
		c := parser.Config{Keywords: &kw}
		if i == 0 {
			c.Sections = s.cfg.Sections
		}
		secs, perr := c.ParseJobFile("job.fio", strings.NewReader(f))
		if err := b.AddFile(secs); err != nil {
			return nil, err
		}
		if perr != nil {
			return nil, perr
		}
	}
	return b.Plan()
}

func TestGlobalOrder(t *testing.T) {
	// A [global] after a job affects only the jobs after it; several
	// accumulate.
	s := &session{files: []string{"[global]\nbs=8k\n[a]\n[global]\niodepth=4\n[b]\n[global]\nbs=16k\n[c]\n"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err, s.stderr.String())
	}
	want := []struct {
		bs    uint64
		depth int
	}{{8192, 1}, {8192, 4}, {16384, 4}}
	for i, w := range want {
		if j := p.Jobs[i]; j.BS[0] != w.bs || j.IODepth != w.depth {
			t.Errorf("job %s: bs %d iodepth %d; want %d, %d", j.Name, j.BS[0], j.IODepth, w.bs, w.depth)
		}
	}
}

func TestSeveralFiles(t *testing.T) {
	// Command-line defaults reach the first file only; each later file
	// starts from fio's defaults and with an implicit stonewall.
	s := &session{cmdline: []string{"bs=16k"}, files: []string{"[a]\n[b]\n", "[global]\niodepth=2\n[c]\n", "[d]\n"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err, s.stderr.String())
	}
	want := []struct {
		name      string
		bs        uint64
		depth     int
		stonewall bool
		group     int
	}{{"a", 16384, 1, false, 0}, {"b", 16384, 1, false, 0}, {"c", 4096, 2, true, 1}, {"d", 4096, 1, true, 2}}
	for i, w := range want {
		j := p.Jobs[i]
		if j.Name != w.name || j.BS[0] != w.bs || j.IODepth != w.depth || j.Stonewall != w.stonewall || j.GroupID != w.group {
			t.Errorf("job %d = %s bs %d iodepth %d stonewall %v group %d; want %+v", i, j.Name, j.BS[0], j.IODepth, j.Stonewall, j.GroupID, w)
		}
	}
}

func TestNumjobsAndGroups(t *testing.T) {
	s := &session{files: []string{"[a]\nstonewall\nnumjobs=3\n[b]\nnew_group\n[c]\n[d]\nwait_for_previous\n"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err, s.stderr.String())
	}
	var got []string
	for _, j := range p.Jobs {
		got = append(got, strings.Join([]string{j.Name, string(rune('0' + j.JobNum)), string(rune('0' + j.GroupID)), map[bool]string{true: "S", false: "-"}[j.Stonewall]}, ":"))
	}
	// Clones follow the job with indexes N-1 … 1, in its group, without
	// stonewall; the first job's stonewall starts no new group.
	want := "a:0:0:S a:2:0:- a:1:0:- b:0:1:- c:0:1:- d:0:2:S"
	if strings.Join(got, " ") != want {
		t.Errorf("jobs %s; want %s", strings.Join(got, " "), want)
	}
}

func TestNames(t *testing.T) {
	// name= changes the displayed name (and what wait_for matches), not
	// the section name used for file names; a [global] name= changes
	// nothing.
	s := &session{files: []string{"[global]\nname=g\n[job2]\nname=renamed\n[b]\nwait_for=renamed\n"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err, s.stderr.String())
	}
	if j := p.Jobs[0]; j.Name != "renamed" || j.Section != "job2" {
		t.Errorf("job2: Name %q Section %q", j.Name, j.Section)
	}
	if j := p.Jobs[1]; j.Name != "b" || j.WaitFor != "renamed" {
		t.Errorf("b: Name %q WaitFor %q", j.Name, j.WaitFor)
	}
}

func TestWaitForChecks(t *testing.T) {
	tests := []struct {
		file, msg string
	}{
		{"[a]\nwait_for=zz\n", "a: waitee job zz unknown.\n"},
		{"[x]\nwait_for=x\n", "x: a job cannot wait for itself (wait_for=x).\n"},
		{"[d]\n[d]\n[e]\nwait_for=d\n", "e: multiple waitees d found,\nplease avoid duplicates when using wait_for option.\n"},
		// Only earlier jobs count.
		{"[a]\nwait_for=b\n[b]\n", "a: waitee job b unknown.\n"},
	}
	for _, tt := range tests {
		s := &session{files: []string{tt.file}}
		if _, err := s.run(t); err == nil || s.stderr.String() != tt.msg {
			t.Errorf("%q: %v, stderr %q; want %q", tt.file, err, s.stderr.String(), tt.msg)
		}
		// Dry runs skip the check.
		s = &session{cfg: Config{DryRun: true}, files: []string{tt.file}}
		if _, err := s.run(t); !errors.Is(err, ErrNoJobs) || s.stderr.Len() != 0 {
			t.Errorf("%q under --parse-only: %v, stderr %q", tt.file, err, s.stderr.String())
		}
	}
}

func TestApplyOrder(t *testing.T) {
	// In job files kb_base is applied first whatever its place; on the
	// command line options apply as written.
	for _, tt := range []struct {
		s    *session
		size uint64
	}{
		{&session{files: []string{"[a]\nsize=8k\nkb_base=1000\n"}}, 8000},
		{&session{cmdline: []string{"name=a", "size=8k", "kb_base=1000"}}, 8192},
		{&session{cmdline: []string{"name=a", "kb_base=1000", "size=8k"}}, 8000},
	} {
		p, err := tt.s.run(t)
		if err != nil {
			t.Fatal(err, tt.s.stderr.String())
		}
		if p.Jobs[0].Size != tt.size {
			t.Errorf("%v %q: size %d; want %d", tt.s.cmdline, tt.s.files, p.Jobs[0].Size, tt.size)
		}
	}
}

func TestShowCmd(t *testing.T) {
	tests := []struct {
		cmdline []string
		files   []string
		want    string
	}{
		// The reference's example (cli-and-jobfiles.md §4.1).
		{nil, []string{"; comment\n[global]\nrw=randread\nsize=128m\nioengine=libaio\niodepth=4   ; inline comment\ndirect=1 # hash comment\ndescription=hello world\n\n[job1]\nbs=4k\ntime_based\nruntime=10\n\n[job2]\nstonewall\nname=renamed\nbs=8k,16k\n"},
			"fio --rw=randread --size=128m --ioengine=libaio --iodepth=4 --direct=1 --description=\"hello world\" --name=job1 --bs=4k --time_based --runtime=10 --name=job2 --stonewall --name=renamed --bs=8k,16k \n"},
		// Priority sort, aliases shown by their canonical names.
		{nil, []string{"[a]\nfilename=/x\nbs=4k\nkb_base=1000\nreadwrite=write\nblocksize=8k\nfilename_format=foo\nunit_base=8\nlockfile=exclusive\n"},
			"fio --name=a --kb_base=1000 --unit_base=8 --lockfile=exclusive --bs=4k --rw=write --bs=8k --filename=/x --filename_format=foo \n"},
		// Engine options come after the general ones.
		{nil, []string{"[a]\nioengine=libaio\nuserspace_reap\nbs=4k\n"}, "fio --name=a --ioengine=libaio --bs=4k --userspace_reap \n"},
		// Every [global] section prints all global options so far, those
		// of the command line included; each file starts again.
		{[]string{"bs=16k"}, []string{"[global]\nbs=8k\n[a]\n[global]\niodepth=2\n[b]\n", "[global]\nbs=1k\n[c]\n"},
			"fio --bs=16k --bs=8k --name=a --bs=16k --bs=8k --iodepth=2 --name=b \nfio --bs=1k --name=c \n"},
		// A dropped section ends the line.
		{nil, []string{"[a]\nbs=1k\n[b]\nbs=abc\n[c]\n"}, "fio --name=a --bs=1k --name=b \n"},
		// A file without sections is an empty line.
		{nil, []string{"; nothing\n"}, "\n"},
	}
	for _, tt := range tests {
		s := &session{cfg: Config{ShowCmd: true, DryRun: true}, cmdline: tt.cmdline, files: tt.files}
		s.run(t)
		if got := s.stdout.String(); got != tt.want {
			t.Errorf("--showcmd %v %q:\n got %q\nwant %q", tt.cmdline, tt.files, got, tt.want)
		}
	}
}

func TestEngineOptions(t *testing.T) {
	// Engine options of [global] reach jobs of the same engine and are
	// dropped when a job switches engines.
	s := &session{files: []string{"[global]\nioengine=libaio\nuserspace_reap\ncmdprio=3\n[a]\n[b]\nioengine=io_uring\n"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err, s.stderr.String())
	}
	if got := p.Jobs[0].EngineOptions; !got.UserspaceReap || got.CmdPrio.Level != [2]int{3, 3} ||
		!got.Given("userspace_reap") || !got.Given("cmdprio") || got.Given("nowait") {
		t.Errorf("a: engine options %+v", got)
	}
	if got := p.Jobs[1].EngineOptions; !reflect.DeepEqual(got, defaultIOEngineOptions()) {
		t.Errorf("b: engine options %+v; want none", got)
	}
}

func TestBadOptions(t *testing.T) {
	tests := []struct {
		cfg                Config
		file, out, errText string
	}{
		{Config{DryRun: true}, "[a]\nfoo=bar\n", "", "Bad option <foo=bar>\nDid you mean flow?\nfio: job a dropped\n"},
		// fio suggests no alias and nothing for BS (it compares case);
		// gofio then adds its own hint.
		{Config{DryRun: true}, "[a]\nBS=4k\nblocksizx=4k\n", "", "Bad option <BS=4k>\ngofio: did you mean bs?\nBad option <blocksizx=4k>\nDid you mean lockfile?\nfio: job a dropped\n"},
		// General options first, then the engine's (in file order,
		// interleaved with bad keys); all are tried.
		{Config{DryRun: true}, "[a]\nioengine=net\nfoo=1\nport=abc\nbs=abc\n", "", "fio: failed parsing bs=abc\nBad option <foo=1>\nDid you mean flow?\nfio: failed parsing port\nfio: job a dropped\n"},
		// An engine fio cannot load.
		{Config{DryRun: true}, "[a]\nioengine=http\nfoo=1\n", "fio: file:ioengines.c:134, func=dlopen, error=http: cannot open shared object file: No such file or directory\n",
			"fio: engine http not loadable\nfio: failed to load engine\nBad option <foo=1>\nDid you mean flow?\nfio: job a dropped\n"},
		// In a [global] section there is no dlopen line.
		{Config{DryRun: true}, "[global]\nioengine=http\nfoo=1\n[a]\n", "", "fio: engine http not loadable\nfio: failed to load engine\nBad option <foo=1>\nDid you mean flow?\nfio: job global dropped\n"},
		// An engine option of another engine.
		{Config{DryRun: true}, "[a]\nioengine=psync\nhipri\n", "", "Bad option <hipri>\nDid you mean prio?\nfio: job a dropped\n"},
		// bc failures are reported for the line as written.
		{Config{DryRun: true}, "[a]\nsize=$ncpus*4k\n", "", "(standard_in) 1: syntax error\nfio: failed parsing size=$ncpus*4k\nfio: job a dropped\n"},
		// Missing values.
		{Config{DryRun: true}, "[a]\nbs\n", "", "Option bs requires an argument\nfio: failed parsing bs\nfio: job a dropped\n"},
		// A missing include: the job is kept, fio prints its error.
		{Config{DryRun: true}, "[a]\nbs=4k\ninclude /nonexistent/x.fio\n", "fio: file:init.c:1956, func=job file open, error=No such file or directory\n",
			"fio: unable to open '/nonexistent/x.fio' job file\nError 1 while parsing include file /nonexistent/x.fio\n"},
	}
	for _, tt := range tests {
		s := &session{cfg: tt.cfg, files: []string{tt.file}}
		s.run(t)
		if s.stdout.String() != tt.out || s.stderr.String() != tt.errText {
			t.Errorf("%q:\n stdout %q\n stderr %q\nwant %q\n      %q", tt.file, s.stdout.String(), s.stderr.String(), tt.out, tt.errText)
		}
	}
}

func TestCmdlineErrors(t *testing.T) {
	tests := []struct {
		cmdline []string
		stderr  string
	}{
		{[]string{"name=a", "bs=abc"}, "fio: failed parsing bs=abc\n"},
		{[]string{"name="}, "fio: option name requires an argument\n"},
		{[]string{"name=a", "bs="}, "fio: option bs requires an argument\n"},
		{[]string{"name=a", "time_based="}, "fio: failed parsing time_based=\n"},
		{[]string{"name=a", "ioengine=libaio", "cmdprio=9"}, "cmdprio: max value out of range: 9 (7 max)\nfio: failed parsing cmdprio=9\n"},
		{[]string{"ioengine=foo"}, "fio: engine foo not loadable\nfio: failed to load engine\n"},
	}
	for _, tt := range tests {
		s := &session{cmdline: tt.cmdline}
		if _, err := s.run(t); err == nil || s.stderr.String() != tt.stderr {
			t.Errorf("%v: %v, stderr %q; want %q", tt.cmdline, err, s.stderr.String(), tt.stderr)
		}
	}
}

func TestUnsupported(t *testing.T) {
	// A value gofio refuses on purpose is noted; profile= in a job is
	// stored and otherwise has no effect, as in fio 3.33.
	s := &session{files: []string{"[a]\nprofile=nonesuch\n[b]\nverify_dump=0\ndisk_util=1\nnrfiles=2000000\n"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Jobs[0].Unsupported) != 0 || p.Jobs[0].Misc.Profile != "nonesuch" {
		t.Errorf("a: %v, profile %q", p.Jobs[0].Unsupported, p.Jobs[0].Misc.Profile)
	}
	want := "gofio: nrfiles=2000000 is refused: fio 3.33 aborts on memory (realloc OOM) when it sets up that many files; " +
		"spread them over several jobs (numjobs, or jobs with their own filename lists); gofio takes 0 to 1048576"
	if len(p.Jobs[1].Unsupported) != 1 || p.Jobs[1].Unsupported[0].Error() != want {
		t.Errorf("b: %v", p.Jobs[1].Unsupported)
	}
	if err := p.Unsupported(); err == nil {
		t.Error("Plan.Unsupported() = nil")
	}
}

// TestEveryRowHasSetter: every general option row stores what fio
// stores, so no value is refused for want of a setter.
func TestEveryRowHasSetter(t *testing.T) {
	for _, o := range options {
		if o.Set == nil && o.Kind != KindSoftDeprecated && o.Kind != KindDeprecated {
			t.Errorf("%s: no setter", o.Name)
		}
	}
}

func TestMisreadWarnings(t *testing.T) {
	tests := []struct {
		line, want string
	}{
		{"size=1.5g", "gofio: size=1.5g was read as 1 byte, as fio 3.33 reads it; write 1536m for 1.5 GiB"},
		{"runtime=10sec", "gofio: runtime=10sec was read as 10 µs, as fio 3.33 reads it; write 10s for 10 seconds"},
		{"runtime=2hours", "gofio: runtime=2hours was read as 2 µs, as fio 3.33 reads it; write 2h for 2 hours"},
		{"runtime=1.5m", "gofio: runtime=1.5m was read as 1 s, as fio 3.33 reads it; write 90s for 1.5 minutes"},
		{"bs = 4k", "gofio: bs= 4k was read as 4 bytes, as fio 3.33 reads it; write 4k for 4 KiB"},
		{"thinktime=5min", "gofio: thinktime=5min was read as 5 µs, as fio 3.33 reads it; write 5m for 5 minutes"},
		{"size=4k", ""},
		{"runtime=10s", ""},
		{"runtime=10", ""},
		{"thinktime=10", ""},
		{"bs=4k,8k", ""},
		{"size=0x10", ""},
	}
	for _, tt := range tests {
		s := &session{cfg: Config{DryRun: true}, files: []string{"[a]\n" + tt.line + "\n"}}
		s.run(t)
		want := tt.want
		if want != "" {
			want += "\n"
		}
		if got := s.stderr.String(); got != want {
			t.Errorf("%s: stderr %q; want %q", tt.line, got, want)
		}
	}
}

func TestStdinReadIolog(t *testing.T) {
	// A job file read from stdin cannot also replay an iolog from stdin.
	secs, err := parser.ParseJobFile("-", strings.NewReader("[a]\nread_iolog=-\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	b := NewBuilder(&Config{DryRun: true, Stderr: &errb})
	if err := b.AddFile(secs); err == nil || errb.String() != "fio: only one user (read_iolog_file/job file) of stdin is permitted at once but more than one was found.\nfio: job a dropped\n" {
		t.Errorf("read_iolog=- in a job file from stdin: %v, %q", err, errb.String())
	}
}

func TestFadviseHintAndDiskUtil(t *testing.T) {
	// The defaults act (fadvise_hint=1, disk_util=1), so they must be
	// set on a job that never names the options.
	s := &session{files: []string{"[a]\n[b]\nfadvise_hint=0\ndisk_util=0\n[c]\nfadvise_hint=random\n[d]\nfadvise_hint=sequential\n[e]\nfadvise_hint=1\n"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err, s.stderr.String())
	}
	want := []struct {
		hint     FadviseHint
		diskUtil bool
	}{{FadvisePattern, true}, {FadviseNone, false}, {FadviseRandom, true}, {FadviseSequential, true}, {FadvisePattern, true}}
	for i, w := range want {
		if j := p.Jobs[i]; j.FadviseHint != w.hint || j.DiskUtil != w.diskUtil {
			t.Errorf("job %s: fadvise_hint %d disk_util %v; want %d, %v", j.Name, j.FadviseHint, j.DiskUtil, w.hint, w.diskUtil)
		}
	}
}
