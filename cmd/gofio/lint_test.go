package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintMisreads: each value fio 3.33 silently misreads (a unit word it
// does not know, a fraction before a unit, a blank before the number) is
// an error with file:line under --lint, and only a warning without it.
func TestLintMisreads(t *testing.T) {
	cases := []struct{ line, want string }{
		{"size=1.5g", "size=1.5g was read as 1 byte"},
		{"offset=1.5m", "offset=1.5m was read as 1 byte"},
		{"io_size=2.5g", "io_size=2.5g was read as 2 bytes"},
		{"filesize=1.5m", "filesize=1.5m was read as 1 byte"},
		{"iodepth=1.5k", "iodepth=1.5k was read as 1,"},
		{"rate_iops=1.5k", "rate_iops=1.5k was read as 1,"},
		{"nrfiles=1.5k", "nrfiles=1.5k was read as 1,"},
		{"thinktime_spin=1.5ms", "thinktime_spin=1.5ms was read as 1 µs"},
		{"max_latency=1.5ms", "max_latency=1.5ms was read as 1 µs"},
		{"ss_dur=1.5m", "ss_dur=1.5m was read as 1 s"},
		{"runtime=10sec", "runtime=10sec was read as 10 µs"},
		{"runtime=2min", "runtime=2min was read as 2 µs"},
		{"runtime=2days", "runtime=2days was read as 2 µs"},
		{"ramp_time=1minute", "ramp_time=1minute was read as 1 µs"},
		{"startdelay=3secs", "startdelay=3secs was read as 3 µs"},
		{"thinktime=5sec", "thinktime=5sec was read as 5 µs"},
		{"timeout=1hour", "timeout=1hour was read as 1 µs"},
		{"latency_target=10sec", "latency_target=10sec was read as 10 µs"},
		{"bs = 4k", "bs= 4k was read as 4 bytes"},
		{"size = 1g", "size= 1g was read as 1 byte"},
		{"rate= 1m", "rate= 1m was read as 1 byte"},
		// A blank between the number and the unit (fio 3.33's
		// --debug=parse: out=1, out=4).
		{"size=1 g", "size=1 g was read as 1 byte"},
		{"bs=4 k", "bs=4 k was read as 4 bytes"},
	}
	dir := t.TempDir()
	for i, c := range cases {
		f := filepath.Join(dir, fmt.Sprintf("j%d.fio", i))
		if err := os.WriteFile(f, []byte("; a comment\n[a]\n"+c.line+"\nrw=read\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := run([]string{"--lint", "--parse-only", f}, nil, &out, &errb)
		want := f + ":3: error: " + c.want
		if code != 1 || !strings.Contains(errb.String(), want) {
			t.Errorf("--lint %q: exit %d, stderr %q; want 1 and %q", c.line, code, errb.String(), want)
		}
		errb.Reset()
		code = run([]string{"--parse-only", f}, nil, &out, &errb)
		if code != 0 || !strings.Contains(errb.String(), "gofio: "+c.want) {
			t.Errorf("without --lint %q: exit %d, stderr %q; want 0 and the warning", c.line, code, errb.String())
		}
	}

	// A value from an included file names that file; one from the
	// command line names its argument; a job without misreads passes.
	inc := filepath.Join(dir, "inc.fio")
	os.WriteFile(inc, []byte("bs=4k\nruntime=5mins\n"), 0o644)
	main := filepath.Join(dir, "main.fio")
	os.WriteFile(main, []byte("[a]\ninclude "+inc+"\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"--lint", "--parse-only", main}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), inc+":2: error: runtime=5mins") {
		t.Errorf("include: exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"--lint", "--parse-only", "--name=x", "--size=1.5m"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "<cmdline>: argument 4: error: size=1.5m") {
		t.Errorf("command line: exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"--lint", "--parse-only", "--name=x", "--size=1536k", "--runtime=5m"}, nil, &out, &errb); code != 0 || errb.Len() != 0 {
		t.Errorf("clean job: exit %d, stderr %q", code, errb.String())
	}
}

// TestResolvedJobs: the dump follows numjobs, include files, ${VAR},
// [global] inheritance and --section, with typed values and positions.
func TestResolvedJobs(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOFIO_TEST_BS", "8k")
	inc := filepath.Join(dir, "inc.fio")
	os.WriteFile(inc, []byte("runtime=2m\n"), 0o644)
	f := filepath.Join(dir, "j.fio")
	os.WriteFile(f, []byte("[global]\nbs=${GOFIO_TEST_BS}\nrwmixread=70\n[a]\nnumjobs=2\ninclude "+inc+"\nsize=1g\ntime_based\n[b]\nsize=10%\n[c]\nrw=write\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"--parse-only", "--output-format=json", "--section=a", "--section=b", f}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc resolvedDoc
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	type row struct {
		job  string
		num  int
		opts string
	}
	var got []row
	for _, j := range doc.Jobs {
		var opts []string
		for _, o := range j.Options {
			s := fmt.Sprintf("%s@%s:%d", o.Name, filepath.Base(o.File), o.Line)
			if o.Global {
				s = "g:" + s
			}
			for _, ty := range o.Typed {
				b, _ := json.Marshal(ty)
				s += string(b)
			}
			opts = append(opts, s)
		}
		got = append(got, row{j.Name, j.JobNum, strings.Join(opts, " ")})
	}
	aOpts := `g:bs@j.fio:2{"bytes":8192} g:rwmixread@j.fio:3{"percent":70} numjobs@j.fio:5{"count":2} runtime@inc.fio:1{"ns":120000000000} size@j.fio:7{"bytes":1073741824} time_based@j.fio:8`
	want := []row{
		{"a", 0, aOpts},
		{"a", 1, aOpts},
		{"b", 0, `g:bs@j.fio:2{"bytes":8192} g:rwmixread@j.fio:3{"percent":70} size@j.fio:10{"percent":10}`},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
	if v := doc.Jobs[0].Effective["bs"]; v != "8k" {
		t.Errorf(`"job options" bs = %q, want 8k`, v)
	}

	// A job given before --parse-only is fio's to run: no dump. The dump
	// is decided at the first job option, by the formats given before
	// it: a plain --parse-only holds one section at a time, as fio does
	// (TestParseOnlyHoldsOneSection).
	out.Reset()
	errb.Reset()
	if code := run([]string{"--name=x", "--size=64k", "--ioengine=null", "--parse-only", "--output-format=json"}, nil, &out, &errb); code != 0 || out.Len() != 0 {
		t.Errorf("job before --parse-only: exit %d, stdout %q, stderr %q; want 0 and nothing", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"--parse-only", "--output-format=json", "--name=x", "--size=64k"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), `"jobname": "x"`) {
		t.Errorf("job after --parse-only: exit %d, stdout %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"--parse-only", "--name=x", "--size=64k", "--output-format=json"}, nil, &out, &errb); code != 0 || out.Len() != 0 {
		t.Errorf("format after the job: exit %d, stdout %q; want 0 and nothing", code, out.String())
	}
}
