package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// This file compares how fio 3.33 and gofio read command lines and job
// files: --showcmd and --parse-only on the example job files fio ships,
// --cmdhelp and --enghelp, and a table of bad inputs. Both programs run
// with argv[0] "fio" (fio echoes it in its messages) and must print the
// same bytes on stdout and stderr and exit with the same status, except
// for the hints gofio adds on extra stderr lines.

// examplesDir holds copies of the 86 example job files of fio-examples.
const examplesDir = "../parser/testdata/examples"

// runAs runs prog (fio or gofio) as "fio ARGS" in dir with stdin.
func runAs(t *testing.T, prog, dir, stdin string, args ...string) result {
	t.Helper()
	r, err := runAsErr(prog, dir, stdin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// runAsErr is runAs for any goroutine: a program that could not be run is
// an error.
func runAsErr(prog, dir, stdin string, args ...string) (result, error) {
	cmd := exec.Command(prog, args...)
	cmd.Args[0] = "fio"
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.rc = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.rc = 128 + int(ws.Signal()) // fio's crashes, as a shell shows them
		}
	case err != nil:
		return r, fmt.Errorf("%s %v: %v", prog, args, err)
	}
	return r, nil
}

// same returns a list of n times s.
func same(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// bothEach runs fio and then gofio the same way on each argument list,
// as both does, four lists at a time (make test's time: each run is
// mostly the programs' start): lists[i] in dirs[i], with no stdin;
// out[i] holds its results.
func bothEach(t *testing.T, dirs []string, lists [][]string) (out [][2]result) {
	t.Helper()
	requireFio(t)
	progs := [2]string{fioPath, requireGofio(t)}
	out = make([][2]result, len(lists))
	errs := make([]error, len(lists))
	next := make(chan int)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				for k, prog := range progs {
					r, err := runAsErr(prog, dirs[i], "", lists[i]...)
					out[i][k] = r
					if err != nil {
						errs[i] = err
					}
				}
			}
		}()
	}
	for i := range lists {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return out
}

// both runs fio and gofio the same way.
func both(t *testing.T, dir, stdin string, args ...string) (fio, gofio result) {
	t.Helper()
	requireFio(t)
	g := requireGofio(t)
	return runAs(t, fioPath, dir, stdin, args...), runAs(t, g, dir, stdin, args...)
}

// diffResults describes how got (gofio) differs from want (fio); extra
// are lines gofio adds to stderr (somewhere among fio's lines).
func diffResults(want, got result, extra string) string {
	var d []string
	if got.rc != want.rc {
		d = append(d, fmt.Sprintf("exit status %d; fio's %d", got.rc, want.rc))
	}
	if got.stdout != want.stdout {
		d = append(d, fmt.Sprintf("stdout:\n%s\nfio's:\n%s", got.stdout, want.stdout))
	}
	if !strings.Contains(got.stderr, extra) || strings.Replace(got.stderr, extra, "", 1) != want.stderr {
		d = append(d, fmt.Sprintf("stderr:\n%s\nfio's (plus gofio's hint %q):\n%s", got.stderr, extra, want.stderr))
	}
	return strings.Join(d, "\n")
}

// TestExamplesShowcmdParseOnly runs --showcmd and --parse-only on each
// example job file fio ships: the same command lines, messages and exit
// statuses.
func TestExamplesShowcmdParseOnly(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.fio"))
	if err != nil || len(files) != 86 {
		t.Fatalf("%d example files in %s, %v", len(files), examplesDir, err)
	}
	requireGofio(t)
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, mode := range []string{"--showcmd", "--parse-only"} {
				want, got := both(t, examplesDir, "", mode, name)
				if d := diffResults(want, got, ""); d != "" {
					t.Errorf("fio %s %s: gofio's %s", mode, name, d)
				}
			}
		})
	}
}

// TestCmdhelp compares --cmdhelp=all, and --cmdhelp=NAME for every job
// option and alias of fio's table and for names fio does not know.
func TestCmdhelp(t *testing.T) {
	names := []string{"all", "", "bsx", "ioengin", "numjob", "zz", "q", "blocksizex", "xyzzy", "hipri", "threads", "verifysort", "NULL"}
	data, err := os.ReadFile("../parser/testdata/jobopts.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			names = append(names, strings.Fields(l)[0])
		}
	}
	requireGofio(t)
	for i := 0; i < len(names); i += 32 {
		chunk := names[i:min(i+32, len(names))]
		t.Run(chunk[0], func(t *testing.T) {
			t.Parallel()
			for _, n := range chunk {
				arg := "--cmdhelp"
				if n != "" {
					arg += "=" + n
				}
				want, got := both(t, ".", "", arg)
				if d := diffResults(want, got, ""); d != "" {
					t.Errorf("fio %s: gofio's %s", arg, d)
				}
			}
		})
	}
	// With --profile, --cmdhelp knows only that profile's options.
	for _, args := range [][]string{{"--profile=tiobench", "--cmdhelp"}, {"--profile=act", "--cmdhelp=prep"}, {"--profile=act", "--cmdhelp=bs"}} {
		want, got := both(t, ".", "", args...)
		if d := diffResults(want, got, ""); d != "" {
			t.Errorf("fio %v: gofio's %s", args, d)
		}
	}
}

// TestEnghelp compares --enghelp=ENGINE and --enghelp=ENGINE,OPTION for
// every engine of fio's build and every option of each. (The plain
// --enghelp list differs on purpose: gofio lists the engines it runs.)
func TestEnghelp(t *testing.T) {
	want, _ := both(t, ".", "", "--enghelp")
	lines := strings.Split(strings.TrimSpace(want.stdout), "\n")
	if len(lines) < 2 || lines[0] != "Available IO engines:" {
		t.Fatalf("fio --enghelp printed %q", want.stdout)
	}
	var engines [][]string
	for _, l := range lines[1:] {
		engines = append(engines, []string{"--enghelp=" + strings.TrimSpace(l)})
	}
	var args []string
	for i, r := range bothEach(t, same(".", len(engines)), engines) {
		e := strings.TrimPrefix(engines[i][0], "--enghelp=")
		args = append(args, e, e+",zz", e+",cmdpri", e+",")
		for _, ol := range strings.Split(r[0].stdout, "\n") {
			if name, _, ok := strings.Cut(ol, ":"); ok {
				args = append(args, e+","+strings.TrimSpace(name))
			}
		}
	}
	args = append(args, "bogus", "bogus,x", "aio", "linuxaio", "external", "net,proto", "rdma,proto")
	var lists [][]string
	for _, a := range args {
		lists = append(lists, []string{"--enghelp=" + a})
	}
	for i, r := range bothEach(t, same(".", len(lists)), lists) {
		if d := diffResults(r[0], r[1], ""); d != "" {
			t.Errorf("fio --enghelp=%s: gofio's %s", args[i], d)
		}
	}
}

// badInput is one bad command line or job file.
type badInput struct {
	// args are the command-line arguments; "JOB" stands for a job file
	// holding job.
	args []string
	job  string
	// hint is what gofio adds to stderr (its own advice, on lines of
	// their own).
	hint string
	// crash marks inputs fio 3.33 crashes or misbehaves on: gofio must
	// instead exit with status 1 and print msg on stderr.
	crash bool
	msg   string
	// accepted marks inputs Debian's fio 3.33 refuses but upstream fio,
	// and so gofio, accepts (docs/compat.md): gofio must exit 0 silently.
	accepted bool
}

// badInputs, each with a words comment. Runs (no --parse-only) use the
// null engine and tiny sizes, in a scratch directory.
var badInputs = []badInput{
	// Command lines.
	{args: []string{"--foo"}}, // unknown option: "Did you mean flow?"
	{args: []string{"--name=a", "--foo=bar"}, hint: "gofio: did you mean --flow?\n"}, // fio suggests nothing when "=bar" is counted
	{args: []string{"--ver"}},                                                                 // ambiguous prefix: the candidates
	{args: []string{"--name=a", "--rw"}},                                                      // missing argument
	{args: []string{"-Q"}},                                                                    // unknown short option
	{args: []string{"--name=a", "--rw=bogus"}},                                                // bad choice: valid values on stdout
	{args: []string{"--name=a", "--bs=abc"}},                                                  // not a number
	{args: []string{"--name=a", "--direct=2"}},                                                // bool out of range
	{args: []string{"--name="}},                                                               // empty job name
	{args: []string{"--name=a", "--bs="}},                                                     // empty value
	{args: []string{"--name=a", "--time_based="}},                                             // empty flag value
	{args: []string{"--name=a", "--nice=-21"}},                                                // both pieces of a negative number checked
	{args: []string{"--name=a", "--ioengine=foo"}},                                            // engine fio cannot load
	{args: []string{"--name=a", "--ioengine=psync", "--hipri"}},                               // option of another engine
	{args: []string{"--name=a", "--ioengine=io_uring", "--hipri=abc"}},                        // engine flag not a number
	{args: []string{"--name=a", "--ioengine=cpuio", "--cpumode=foo"}},                         // engine choice: valid values on stdout
	{args: []string{"--name=a", "--ioengine=filestat", "--stat_type=fstat"}},                  // engine choice
	{args: []string{"--name=a", "--ioengine=pvsync2", "--hipri_percentage=101"}},              // engine int out of range
	{args: []string{"--ioengine=libaio", "--name=a", "--ioengine=psync", "--userspace_reap"}}, // engine switched back
	{args: []string{"--name=a", "--ioengine=libaio", "--cmdprio=9"}},                          // engine option out of range
	{args: []string{"--name=a", "--rwmixcycle=3"}},                                            // deprecated option
	{args: []string{"--output-format=xml", "--name=a"}},                                       // unknown output format
	{args: []string{"--terse-version=7", "--name=a"}},                                         // terse version out of range
	{args: []string{"--latency-log=x"}},                                                       // deprecated fio option
	{args: []string{"--section=global"}},                                                      // global as only section
	{args: []string{"--profile=foo"}},                                                         // unknown profile
	{args: []string{"--idle-prof=foo"}},                                                       // unknown idle-prof mode
	{args: []string{"--trigger-timeout=abc"}},                                                 // bad time
	{args: []string{"--crctest=foo"}},                                                         // unknown checksum
	{args: []string{"--readonly", "--name=a", "--rw=write", "--parse-only"}},                  // write under --readonly
	{args: []string{"–group_reporting"}, hint: "gofio: '–group_reporting' starts with a non-ASCII dash; did you mean --group_reporting?\n"},                                    // en dash: a job file name
	{args: []string{"--name=a", "--size=1m", "--ioengine=null", "–time_based=1"}, hint: "gofio: '–time_based=1' starts with a non-ASCII dash; did you mean --time_based=1?\n"}, // the CLI job is announced first
	{args: []string{"--name=a", "--time_based", "1"}},                                // "1" is a job file, not a value
	{args: []string{"missing.fio"}},                                                  // missing job file
	{args: []string{"--size=1m"}},                                                    // no job: usage
	{args: []string{"--cmdhelp=hipri"}},                                              // engine options are unknown to --cmdhelp; exit 0
	{args: []string{"--enghelp=bogus"}},                                              // unknown engine
	{args: []string{"--enghelp=psync"}},                                              // engine without options
	{args: []string{"--enghelp=libaio,zz"}},                                          // unknown engine option
	{args: []string{"--name=a", "--ioengine=external:/nonexistent", "--parse-only"}}, // plugin path
	// Job files, read with --parse-only unless the args say otherwise.
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nfoo=bar\n"},                                        // unknown key: "Did you mean flow?"
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nBS=4k\n", hint: "gofio: did you mean bs?\n"},       // keys are case-sensitive: gofio hints at bs
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nrw=bogus\n"},                                       // bad choice
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nbs=abc\n"},                                         // not a number
	{args: []string{"--parse-only", "JOB"}, job: "[a]\niodepth=0\n"},                                      // under the minimum
	{args: []string{"--parse-only", "JOB"}, job: "[a]\ndirect=true\n"},                                    // no words for booleans
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nruntime=(2)\n", accepted: true},                    // arithmetic: Debian's fio lacks it; upstream fio and gofio read it
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nio_size=150%\n"},                                   // percentage over 100
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nbsrange=4k\n"},                                     // a range needs two ends
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nrandom_distribution=zoned:50/5:30/15\n"},           // zones must add up to 100
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nrwmixcycle=1\n"},                                   // deprecated: notice and failure
	{args: []string{"--parse-only", "JOB"}, job: "bs=4k\n[a]\n"},                                          // option before any section
	{args: []string{"--showcmd", "JOB"}, job: "bs=4k\n[a]\n"},                                             // the same with --showcmd: an empty line first
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nioengine=psync\nhipri\n"},                          // option of another engine
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nname=\n"},                                          // empty name
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nsize=4kz\n"},                                       // zone counts are plain numbers
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nbs=4k,8kz\n"},                                      // 'z' where zones make no sense
	{args: []string{"--parse-only", "JOB"}, job: "[a]\npercentile_list=101\n"},                            // float out of range
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nkb_base=512\n"},                                    // kb_base is 1024 or 1000
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nbuffer_pattern=abc\n"},                             // not a pattern
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nbssplit=abc\n"},                                    // not a split list
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nsize=${GOFIO_NOT_SET}\n"},                          // unset variable: empty value
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nioengine=http\nhttp_host=x\n"},                     // engine not in fio's build
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nbs=4k\ninclude missing.fio\n"},                     // missing include: job kept
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nsize=$ncpus*4k\n"},                                 // bc cannot compute units
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nsteadystate=iops\n"},                               // criterion without threshold
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nioengine=net\nport=abc\nfoo=1\n"},                  // engine option and bad key
	{args: []string{"--ioengine=null", "--size=4k", "JOB"}, job: "[a]\nwait_for=zz\n"},                    // unknown waitee (not checked in dry runs)
	{args: []string{"--ioengine=null", "--size=4k", "JOB"}, job: "[a]\nrw=read:abc\n"},                    // bad sequential postfix
	{args: []string{"--ioengine=null", "--size=4k", "JOB"}, job: "[a]\ndirectory=/nonexistent\n"},         // missing directory
	{args: []string{"--ioengine=null", "--size=4k", "JOB"}, job: "[a]\nignore_error=EFOO\n"},              // unknown error name
	{args: []string{"--ioengine=null", "--size=4k", "--warnings-fatal", "JOB"}, job: "[a]\ntime_based\n"}, // time_based without runtime
	// gofio's warnings for values fio misreads (fio is silent).
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nsize=1.5g\n", hint: "gofio: size=1.5g was read as 1 byte, as fio 3.33 reads it; write 1536m for 1.5 GiB\n"},
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nruntime=10sec\n", hint: "gofio: runtime=10sec was read as 10 µs, as fio 3.33 reads it; write 10s for 10 seconds\n"},
	// fio 3.33 crashes or misbehaves on these; gofio refuses them.
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nbuffer_pattern\n", crash: true, msg: "Option buffer_pattern requires an argument\nfio: failed parsing buffer_pattern\nfio: job a dropped\n"},
	{args: []string{"--parse-only", "JOB"}, job: "[a]\nverify_pattern=\"\"\n", crash: true, msg: "fio: failed parsing verify_pattern=\"\"\nfio: job a dropped\n"},
	{args: []string{"--parse-only", "JOB"}, job: "[a]\ninclude .\n", crash: true, msg: "fio: cannot include '.': it is a directory\n"},
}

// TestBadInput compares fio's and gofio's answers to bad input: the same
// messages and exit status, plus gofio's hints; where fio crashes, gofio
// exits 1 with a clear message.
func TestBadInput(t *testing.T) {
	if len(badInputs) < 40 {
		t.Fatalf("%d bad inputs; the table must keep at least 40", len(badInputs))
	}
	var dirs []string
	var lists [][]string
	for _, bi := range badInputs {
		dir := t.TempDir()
		args := append([]string(nil), bi.args...)
		for i, a := range args {
			if a == "JOB" {
				if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(bi.job), 0o644); err != nil {
					t.Fatal(err)
				}
				args[i] = "job.fio"
			}
		}
		dirs, lists = append(dirs, dir), append(lists, args)
	}
	res := bothEach(t, dirs, lists)
	for k, bi := range badInputs {
		want, got := res[k][0], res[k][1]
		label := fmt.Sprintf("fio %s (job %q)", strings.Join(bi.args, " "), bi.job)
		if bi.accepted {
			if want.rc == 0 || got.rc != 0 || got.stdout != "" || got.stderr != "" {
				t.Errorf("%s: fio exits %d; gofio exits %d with %q %q; want fio to refuse and gofio to accept", label, want.rc, got.rc, got.stdout, got.stderr)
			}
			continue
		}
		if bi.crash {
			if want.rc == 0 {
				t.Errorf("%s: fio exits 0 now; the row should become an ordinary one", label)
			}
			if got.rc != 1 || got.stderr != bi.msg || strings.Contains(got.stderr, "goroutine") {
				t.Errorf("%s: gofio exits %d with stderr %q; want 1 and %q", label, got.rc, got.stderr, bi.msg)
			}
			continue
		}
		if d := diffResults(want, got, bi.hint); d != "" {
			t.Errorf("%s: gofio's %s", label, d)
		}
	}
}
