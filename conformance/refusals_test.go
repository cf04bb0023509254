package conformance

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// terseIO is the job name, error and read and write totals (KiB) of each
// job of a terse v3 report: fields that do not depend on timing.
func terseIO(out string) []string {
	var rows []string
	for l := range strings.SplitSeq(out, "\n") {
		f := strings.Split(l, ";")
		if len(f) < 130 || f[0] != "3" {
			continue
		}
		rows = append(rows, strings.Join([]string{f[2], f[4], f[5], f[46]}, ";"))
	}
	return rows
}

// TestProfileOptionInJobVsFio: profile= in a job file is stored (shown in
// the JSON "job options") and otherwise does nothing, for any word, in
// fio 3.33 and gofio alike: the job reads its 1 MiB as a plain read job.
func TestProfileOptionInJobVsFio(t *testing.T) {
	requireFio(t)
	for _, word := range []string{"tiobench", "act", "nonesuch"} {
		job := "[j]\nprofile=" + word + "\nsize=1m\nfilename=data\n"
		setup := func(dir string) { os.WriteFile(filepath.Join(dir, "job.fio"), []byte(job), 0o644) }
		for _, format := range []string{"json", "terse"} {
			fr, gr, _, _ := run2(t, []string{"--output-format=" + format, "job.fio"}, setup)
			if fr.rc != 0 || gr.rc != 0 {
				t.Fatalf("profile=%s: status fio %d, gofio %d\n%s", word, fr.rc, gr.rc, head(gr.stderr))
			}
			if format == "terse" {
				if f, g := terseIO(fr.stdout), terseIO(gr.stdout); len(f) != 1 || !slices.Equal(f, g) {
					t.Errorf("profile=%s: terse I/O fio %q, gofio %q", word, f, g)
				}
				continue
			}
			fj, gj := jsonOf(t, "fio", fr), jsonOf(t, "gofio", gr)
			fo, go_ := fj.Get("jobs", "0", "job options").Pairs(), gj.Get("jobs", "0", "job options").Pairs()
			if !slices.Contains(fo, "profile="+word) || !slices.Equal(fo, go_) {
				t.Errorf("profile=%s: job options fio %q, gofio %q", word, fo, go_)
			}
			if f, g := jobBytes(fj), jobBytes(gj); !slices.Equal(f, g) {
				t.Errorf("profile=%s: jobs fio %q, gofio %q", word, f, g)
			}
		}
	}
}

// TestFirstPieceVsFio: size options fio stores without a handler keep
// their first piece (number_ios=5,10 is 5 I/Os), a first piece that does
// not read sets nothing (number_ios=x,5), a percentage is no limit
// (number_ios=50%); a flag keeps its first piece too (hipri=abc,1 runs).
// gofio refused or misread each of these before.
func TestFirstPieceVsFio(t *testing.T) {
	requireFio(t)
	for _, opts := range [][]string{
		{"--number_ios=5,10"},
		{"--number_ios=x,5"},
		{"--number_ios=50%"},
		{"--verify_backlog=50%,4", "--rw=write", "--verify=crc32c"},
		{"--ioengine=pvsync2", "--hipri=abc,1"},
		{"--norandommap=abc,1", "--rw=randread"},
	} {
		args := append([]string{"--name=j", "--filename=data", "--size=256k", "--bs=4k", "--output-format=terse"}, opts...)
		fr, gr, _, _ := run2(t, args, nil)
		if fr.rc != gr.rc || gr.stderr != fr.stderr {
			t.Errorf("%q: status fio %d, gofio %d; stderr fio %q, gofio %q", opts, fr.rc, gr.rc, fr.stderr, gr.stderr)
			continue
		}
		if f, g := terseIO(fr.stdout), terseIO(gr.stdout); len(f) != 1 || !slices.Equal(f, g) {
			t.Errorf("%q: terse I/O fio %q, gofio %q", opts, f, g)
		}
	}
}
