package parser

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/examples.golden")

// showcmdLike renders a job file's sections roughly the way fio --showcmd
// does, but without fio's priority sort and alias resolution: "fio ", then
// "--name=SECTION " for job sections and "--OPTION " for every option.
// For the 67 examples that fio 3.33 parses, the golden lines were checked
// against fio --showcmd (same options per job, up to order and aliases).
func showcmdLike(secs []Section) string {
	var b strings.Builder
	b.WriteString("fio ")
	for _, s := range secs {
		if !s.Global {
			fmt.Fprintf(&b, "--name=%s ", s.Name)
		}
		for _, o := range s.Options {
			fmt.Fprintf(&b, "--%s ", o.Line())
		}
	}
	return b.String()
}

func exampleConfig() *Config {
	return &Config{Keywords: &testKW} // no environment variables set
}

func TestExamples(t *testing.T) {
	files, err := filepath.Glob("testdata/examples/*.fio")
	if err != nil || len(files) != 86 {
		t.Fatalf("%d example files, %v", len(files), err)
	}
	var golden strings.Builder
	for _, f := range files {
		secs, err := exampleConfig().ParseJobFile(f, nil)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(secs) == 0 {
			t.Errorf("%s: no sections", f)
		}
		for _, s := range secs {
			if len(s.Notes) > 0 || s.IncludeErr != nil {
				t.Errorf("%s [%s]: notes %q", f, s.Name, s.Notes)
			}
			for _, o := range s.Options {
				if o.MathFailed || o.Name == "" || strings.ContainsAny(o.Line(), ";#\n") {
					t.Errorf("%s [%s]: odd option %+v", f, s.Name, o)
				}
			}
		}
		fmt.Fprintf(&golden, "%s\t%s\n", filepath.Base(f), showcmdLike(secs))
	}
	const goldenFile = "testdata/examples.golden"
	if *update {
		if err := os.WriteFile(goldenFile, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := string(readFile(goldenFile))
	if got := golden.String(); got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Errorf("golden mismatch:\n got  %.300s\n want %.300s", gl[i], wl[i])
				break
			}
		}
	}
}

func TestExampleDetails(t *testing.T) {
	parse := func(name string) []Section {
		t.Helper()
		secs, err := exampleConfig().ParseJobFile("testdata/examples/"+name, nil)
		if err != nil {
			t.Fatal(err)
		}
		return secs
	}
	names := func(secs []Section) (n []string) {
		for _, s := range secs {
			n = append(n, s.Name)
		}
		return n
	}
	opts := func(s Section) (l []string) {
		for _, o := range s.Options {
			l = append(l, o.Line())
		}
		return l
	}

	// tiobench-example.fio: aliases, a ';' comment after a value,
	// valueless stonewall.
	secs := parse("tiobench-example.fio")
	if got := names(secs); !reflect.DeepEqual(got, []string{"global", "f1", "f2", "f3", "f4"}) {
		t.Errorf("tiobench sections %q", got)
	}
	if got := opts(secs[0]); !reflect.DeepEqual(got, []string{"direct=1", "size=512m", "bsrange=4k-4k", "timeout=60", "numjobs=4"}) {
		t.Errorf("tiobench [global] %q", got)
	}
	if !secs[0].Global || secs[1].Global {
		t.Error("tiobench: Global flags")
	}
	if got := opts(secs[2]); !reflect.DeepEqual(got, []string{"stonewall", "rw=randwrite"}) || secs[2].Options[0].HasValue {
		t.Errorf("tiobench [f2] %q", got)
	}
	if p := secs[0].Options[4].Pos; p.Line != 9 || p.File != "testdata/examples/tiobench-example.fio" {
		t.Errorf("tiobench numjobs at %v", p)
	}

	// ftruncate.fio: comments inside [global], valueless options.
	secs = parse("ftruncate.fio")
	if got := opts(secs[0]); !reflect.DeepEqual(got, []string{"ioengine=ftruncate", "directory=/scratch", "size=102404k",
		"stonewall", "filename=truncate", "runtime=10s", "time_based", "direct=1", "bs=4k"}) {
		t.Errorf("ftruncate [global] %q", got)
	}
	if got := opts(secs[2]); !reflect.DeepEqual(got, []string{"rw=randwrite", "norandommap"}) {
		t.Errorf("ftruncate [rand-truncate] %q", got)
	}

	// nbd.fio: ${unixsocket} is unset, so it expands to nothing; the
	// commented-out ${uri} line is gone.
	secs = parse("nbd.fio")
	if got := secs[0].Options[1]; got.Line() != "uri=nbd+unix:///?socket=" || got.Raw != "uri=nbd+unix:///?socket=${unixsocket}" {
		t.Errorf("nbd uri %+v", got)
	}
	c := exampleConfig()
	c.Env = mapEnv(map[string]string{"unixsocket": "/tmp/nbd.sock"})
	secs, _ = c.ParseJobFile("testdata/examples/nbd.fio", nil)
	if got := secs[0].Options[1].Value; got != "nbd+unix:///?socket=/tmp/nbd.sock" {
		t.Errorf("nbd uri with env: %q", got)
	}

	// librpma_apm-client.fio: '#' comments after values.
	secs = parse("librpma_apm-client.fio")
	for _, o := range secs[0].Options {
		if strings.ContainsAny(o.Value, "# ") {
			t.Errorf("librpma: %q", o.Line())
		}
	}

	// --section: only [default] of xnvme-compare.fio (the [override]
	// section with its ${FIO_RW} values is skipped).
	c = exampleConfig()
	c.Sections = []string{"default"}
	secs, _ = c.ParseJobFile("testdata/examples/xnvme-compare.fio", nil)
	if got := names(secs); !reflect.DeepEqual(got, []string{"global", "default"}) {
		t.Errorf("xnvme-compare --section=default: %q", got)
	}
}
