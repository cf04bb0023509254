package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOutputFileJobLines checks where the lines a job prints while it
// runs go with --output=FILE, as fio 3.33 does (observed): a job run as a
// process never gets them into the file (its errors reach stderr only,
// the rest is lost), so the file holds the report alone; a thread=1 job
// writes them into the file too.
func TestOutputFileJobLines(t *testing.T) {
	dir := t.TempDir()
	vf := filepath.Join(dir, "vf")
	verify := []string{"--name=v", "--filename=" + vf, "--rw=write", "--bs=4k", "--size=64k", "--verify=md5", "--aux-path=" + dir} // the verify state file goes to dir
	if st, _, errs := gofio(t, append(verify, "--do_verify=0", "--output-format=terse")...); st != 0 {
		t.Fatalf("writing %s: status %d\n%s", vf, st, errs)
	}
	data, err := os.ReadFile(vf)
	if err != nil {
		t.Fatal(err)
	}
	data[8192+300] ^= 0x5a
	if err := os.WriteFile(vf, data, 0o644); err != nil {
		t.Fatal(err)
	}
	verify = append(verify, "--verify_only")
	prerun := []string{"--name=" + filepath.Join(dir, "p"), "--ioengine=null", "--size=64k", "--exec_prerun=true", "--exec_postrun=true"}

	note := []string{"--name=" + filepath.Join(dir, "n"), "--size=16k", "--iodepth=4"} // psync's iodepth note
	const failed = "md5: verify failed at file "
	cases := []struct {
		name   string
		args   []string
		format string
		status int
		// inFile: lines the file must hold; stderr: lines stderr must
		// hold; never: lines neither may hold; notInFile: lines the
		// file may not hold.
		inFile, stderr, never, notInFile []string
	}{
		{"verify json", verify, "json", 1, nil, []string{failed}, []string{"fio: pid="}, []string{failed}},
		{"verify terse", verify, "terse", 1, nil, []string{failed}, []string{"fio: pid="}, []string{failed}},
		{"verify normal", verify, "normal", 1, nil, []string{failed}, []string{"fio: pid="}, []string{failed}},
		{"verify normal thread", slices.Concat(verify, []string{"--thread"}), "normal", 1, []string{failed, "fio: pid="}, []string{failed}, nil, nil},
		{"prerun json", prerun, "json", 0, nil, nil, []string{"Saving output of"}, nil},
		{"prerun terse", prerun, "terse", 0, nil, nil, []string{"Saving output of"}, nil},
		{"prerun normal", prerun, "normal", 0, nil, nil, []string{"Saving output of"}, nil},
		{"note json", note, "json", 0, nil, nil, []string{"note: both iodepth"}, nil},
		{"note normal thread", slices.Concat(note, []string{"--thread"}), "normal", 0, []string{"note: both iodepth"}, nil, nil, nil},
		{"prerun normal thread", slices.Concat(prerun, []string{"--thread"}), "normal", 0, []string{"Saving output of prerun", "Saving output of postrun"}, nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "out")
			st, stdout, stderr := gofio(t, slices.Concat(c.args, []string{"--output-format=" + c.format, "--output=" + out})...)
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			file := string(b)
			if st != c.status || stdout != "" {
				t.Errorf("status %d, stdout %q; want %d and nothing", st, stdout, c.status)
			}
			for _, l := range c.inFile {
				if !strings.Contains(file, l) {
					t.Errorf("the file lacks %q:\n%s", l, file)
				}
			}
			for _, l := range c.stderr {
				if !strings.Contains(stderr, l) {
					t.Errorf("stderr lacks %q:\n%s", l, stderr)
				}
			}
			for _, l := range c.never {
				if strings.Contains(file, l) || strings.Contains(stderr, l) {
					t.Errorf("%q printed:\nfile:\n%s\nstderr:\n%s", l, file, stderr)
				}
			}
			for _, l := range c.notInFile {
				if strings.Contains(file, l) {
					t.Errorf("the file holds %q:\n%s", l, file)
				}
			}
			switch c.format {
			case "json":
				var v map[string]any
				if err := json.Unmarshal(b, &v); err != nil {
					t.Errorf("the file is not JSON: %v\n%s", err, file)
				}
			case "terse":
				for _, l := range strings.Split(strings.TrimSuffix(file, "\n"), "\n") {
					if !strings.HasPrefix(l, "3;fio-3.33;") {
						t.Errorf("a line of the terse file is not a terse line: %q", l)
					}
				}
			}
		})
	}
}
