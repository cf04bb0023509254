package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// rebuildJobFile turns a resolved-job dump back into a job file: a
// [global] section wherever a job inherits more global options than the
// job before it, then the job's own options; numjobs clones are left out
// (numjobs= makes them again).
func rebuildJobFile(doc resolvedDoc) string {
	var b strings.Builder
	var prev []resolvedOpt
	line := func(o resolvedOpt) {
		if o.Value == nil {
			b.WriteString(o.Name + "\n")
			return
		}
		b.WriteString(o.Name + "=" + *o.Value + "\n")
	}
	for _, j := range doc.Jobs {
		if j.JobNum != 0 {
			continue
		}
		var globals, own []resolvedOpt
		for _, o := range j.Options {
			if o.Global {
				globals = append(globals, o)
			} else {
				own = append(own, o)
			}
		}
		if len(globals) > len(prev) {
			b.WriteString("[global]\n")
			for _, o := range globals[len(prev):] {
				line(o)
			}
		}
		prev = globals
		b.WriteString("[" + j.Section + "]\n")
		for _, o := range own {
			line(o)
		}
	}
	return b.String()
}

// TestResolvedRoundTrip: the dump of each of fio's shipped examples is
// valid JSON, and a job file rebuilt from it gives, under real fio's
// --showcmd, the command line fio gives for the original.
func TestResolvedRoundTrip(t *testing.T) {
	fio, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed")
	}
	files, _ := filepath.Glob("/usr/share/doc/fio/examples/*.fio")
	if len(files) == 0 {
		t.Skip("fio's examples are not installed")
	}
	// The ${VAR}s the examples use.
	for k, v := range map[string]string{"FIO_BS": "4k", "FIO_IODEPTH": "4", "FIO_RW": "randread", "FIO_DIR": "/tmp", "GPU_DEV_IDS": "0", "POOL": "p", "CONT": "c", "SSE_KEY": "k", "STORAGE_CLASS": "s"} {
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	refused := 0
	// And one with what the examples lack: two [global] sections, an
	// include, a valueless option, a blank before a value.
	own := filepath.Join(t.TempDir(), "two-globals.fio")
	inc := filepath.Join(filepath.Dir(own), "inc.fio")
	os.WriteFile(inc, []byte("runtime=2m\nrw=randread\n"), 0o644)
	os.WriteFile(own, []byte("[global]\nbs=${FIO_BS}\nioengine=null\n[a]\nsize=1m\nnumjobs=2\ninclude "+inc+"\n[global]\ntime_based\nruntime = 5s\n[b]\nsize=2m\ndescription=two words\n"), 0o644)
	files = append(files, own)
	showcmd := func(file string) (string, error) {
		cmd := exec.Command(fio, "--showcmd", file)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("fio --showcmd %s: %v", file, err)
		}
		return string(out), nil
	}
	// fio's answers for the originals, several at a time: each call is
	// mostly fio's start-up, and the calls share nothing.
	type fioAnswer struct {
		ok   bool // fio --parse-only takes the file
		show string
		err  error
	}
	answers := make([]fioAnswer, len(files))
	inParallel(len(files), func(i int) {
		cmd := exec.Command(fio, "--parse-only", files[i])
		cmd.Dir = dir
		if cmd.Run() != nil {
			return // fio refuses it (an ioengine this build of fio lacks)
		}
		answers[i].ok = true
		answers[i].show, answers[i].err = showcmd(files[i])
	})
	rebuilt := make([]string, len(files))
	for i, f := range files {
		var out, errb bytes.Buffer
		code := run([]string{"--parse-only", "--output-format=json", f}, nil, &out, &errb)
		if !answers[i].ok {
			// fio refuses it too: no dump, as no job would run.
			refused++
			if code == 0 {
				t.Errorf("%s: fio refuses it, gofio printed a dump", f)
			}
			continue
		}
		if answers[i].err != nil {
			t.Fatal(answers[i].err)
		}
		if code != 0 {
			t.Errorf("%s: exit %d: %s", f, code, errb.String())
			continue
		}
		var doc resolvedDoc
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Errorf("%s: invalid JSON: %v", f, err)
			continue
		}
		if len(doc.Jobs) == 0 {
			t.Errorf("%s: no jobs in the dump", f)
			continue
		}
		rebuilt[i] = filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(rebuilt[i], []byte(rebuildJobFile(doc)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := make([]fioAnswer, len(files))
	inParallel(len(files), func(i int) {
		if rebuilt[i] != "" {
			got[i].show, got[i].err = showcmd(rebuilt[i])
		}
	})
	for i, f := range files {
		if rebuilt[i] == "" {
			continue
		}
		if got[i].err != nil {
			t.Fatal(got[i].err)
		}
		if got[i].show != answers[i].show {
			t.Errorf("%s: --showcmd of the rebuilt job file:\n%s\nof the original:\n%s", f, got[i].show, answers[i].show)
		}
	}
	t.Logf("%d job files, %d round-tripped, %d refused by fio and gofio alike", len(files), len(files)-refused, refused)
}

// inParallel calls f(0) … f(n-1), four at a time.
func inParallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}
