package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestOutputFileJobLines compares where fio and gofio put the lines a job
// prints while it runs (a verify failure and the "fio: pid=N, err=84"
// line; exec_prerun's and exec_postrun's "Saving output" lines; the
// note on a synchronous engine's iodepth): on
// stdout, on stderr, or in --output's file, for each output format. With
// --output, fio's file holds the report alone for a job run as a process.
// (With json or terse on stdout, and for thread=1 jobs with json or terse
// in a file, gofio prints the "fio: pid=" and "Saving output" lines on
// stderr: docs/compat.md; those cases are left out.)
func TestOutputFileJobLines(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	verify := []string{"--name=v", "--filename=vf", "--rw=write", "--bs=4k", "--size=64k", "--verify=md5", "--verify_only"}
	note := []string{"--name=n", "--filename=nf", "--rw=write", "--bs=4k", "--size=16k", "--iodepth=4"} // psync's iodepth note
	exec := []string{"--name=p", "--filename=pf", "--rw=write", "--bs=4k", "--size=16k", "--exec_prerun=echo hi", "--exec_postrun=echo bye"}
	variants := []struct {
		name string
		args []string
	}{
		{"normal", []string{"--output-format=normal"}},
		{"normal file", []string{"--output-format=normal", "--output=out"}},
		{"json file", []string{"--output-format=json", "--output=out"}},
		{"json+ file", []string{"--output-format=json+", "--output=out"}},
		{"terse file", []string{"--output-format=terse", "--output=out"}},
		{"normal,json file", []string{"--output-format=normal,json", "--output=out"}},
		{"thread normal", []string{"--output-format=normal", "--thread"}},
		{"thread normal file", []string{"--output-format=normal", "--output=out", "--thread"}},
	}
	jobs := []struct {
		name string
		args []string
	}{{"verify", verify}, {"exec", exec}, {"note", note}}
	for _, job := range jobs {
		for _, v := range variants {
			t.Run(job.name+"/"+v.name, func(t *testing.T) {
				t.Parallel()
				var got [2]map[string][]string
				var rc [2]int
				for i, bin := range []string{fioPath, gofio} {
					dir := t.TempDir()
					if job.name == "verify" {
						writeCorrupt(t, dir)
					}
					r := runIn(bin, dir, slices.Concat(job.args, v.args))
					rc[i] = r.rc
					file, _ := os.ReadFile(filepath.Join(dir, "out"))
					got[i] = map[string][]string{
						"stdout": jobLines(r.stdout),
						"stderr": jobLines(r.stderr),
						"file":   jobLines(string(file)),
					}
				}
				if rc[0] != rc[1] {
					t.Errorf("exit status: fio %d, gofio %d", rc[0], rc[1])
				}
				for _, s := range []string{"stdout", "stderr", "file"} {
					f, g := strings.Join(got[0][s], "\n"), strings.Join(got[1][s], "\n")
					if f != g {
						t.Errorf("the job's lines on %s differ:\nfio:\n%s\ngofio:\n%s", s, f, g)
					}
				}
			})
		}
	}
}

// writeCorrupt has fio write vf in dir with verify=md5 headers, and
// changes a byte of its third block's data.
func writeCorrupt(t *testing.T, dir string) {
	t.Helper()
	w := runIn(fioPath, dir, []string{"--name=v", "--filename=vf", "--rw=write", "--bs=4k", "--size=64k", "--verify=md5", "--do_verify=0"})
	if w.rc != 0 {
		t.Fatalf("fio writing: rc=%d %s", w.rc, w.stderr)
	}
	f := filepath.Join(dir, "vf")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	data[8192+300] ^= 0x5a
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// jobLines are the lines of s a running job prints, with the pid and
// fio's source location masked.
func jobLines(s string) []string {
	loc := regexp.MustCompile(`pid=\d+, err=(\d+)/file:[^,]*,`)
	var out []string
	for _, l := range lines(s) {
		if strings.Contains(l, "verify failed") || strings.Contains(l, "CRC:") ||
			strings.HasPrefix(l, "fio: pid=") || strings.Contains(l, "Saving output of") ||
			strings.HasPrefix(l, "note: both iodepth") {
			out = append(out, loc.ReplaceAllString(l, "pid=P, err=$1/file:F,"))
		}
	}
	return out
}
