package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMiscOptions runs short jobs with fill_device, ignore_error,
// opendir, lockfile, serialize_overlap and the options gofio honours as
// fio does without visible effect, and compares exit status, stderr, the
// normal report's skeleton and the JSON's deterministic values and
// error counts. /dev/full fails every write with ENOSPC. gtod_cpu is left
// out: fio 3.33 sometimes crashes on exit with it (SIGSEGV).
func TestMiscOptions(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	full := "--name=f --filename=/dev/full --rw=write --bs=4k --size=64k "
	small := "--name=s --filename=s --rw=write --bs=4k --size=64k "
	cases := []struct {
		name string
		args string
		io   IOCheck
	}{
		{"fill_device", full + "--fill_device=1", IOPerDir},
		{"fill_fs", full + "--fill_fs=1 --ioengine=sync", IOPerDir},
		{"ignore write", full + "--ignore_error=,ENOSPC", IOPerDir},
		{"ignore number", full + "--ignore_error=,28 --ioengine=io_uring --iodepth=4", IOPerDir},
		{"ignore dump", full + "--ignore_error=,ENOSPC --error_dump=1", IOPerDir},
		{"ignore other class", full + "--ignore_error=ENOSPC", IOPerDir},
		{"ignore other error", full + "--ignore_error=,EIO", IOPerDir},
		{"ignore with coe", full + "--ignore_error=,EIO --continue_on_error=write", IOPerDir},
		{"opendir", "--name=o --opendir=od --rw=read --bs=4k", IOPerDir},
		{"opendir size", "--name=o --opendir=od --rw=read --bs=4k --size=12k", IOPerDir},
		{"lockfile", small + "--lockfile=exclusive --numjobs=2", IOPerDir},
		{"lockfile rw", small + "--lockfile=readwrite --rw=randrw --numjobs=2", IOTotal},
		{"lockfile libaio", small + "--lockfile=exclusive --numjobs=2 --ioengine=libaio --iodepth=4", IOPerDir},
		{"lockfile rw io_uring", small + "--lockfile=readwrite --rw=randrw --numjobs=2 --ioengine=io_uring --iodepth=8", IOTotal},
		{"serialize_overlap", small + "--rw=randwrite --norandommap --ioengine=io_uring --iodepth=8 --serialize_overlap=1", IOPerDir},
		{"block_error_percentiles", small + "--block_error_percentiles=1 --name=r --filename=s --rw=read --bs=4k --size=64k", IOPerDir},
		{"unused clock id", small + "--log_alternate_epoch_clock_id=99 --write_bw_log=x", IOPerDir},
		{"quiet options", small + "--atomic=1 --write_barrier=2 --unique_filename=0 --hugepage-size=4m --clocksource=clock_gettime --io_submit_mode=inline", IOPerDir},
	}
	pid := regexp.MustCompile(`pid=\d+`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, format := range []string{"normal", "json"} {
				a := append(args(c.args), "--output-format="+format)
				fr, gr := runMisc(t, gofio, a)
				if fr.rc != gr.rc {
					t.Errorf("%s: exit status: fio %d, gofio %d\n%s", format, fr.rc, gr.rc, gr.stderr)
				}
				fe, ge := pid.ReplaceAllString(fr.stderr, "pid=N"), pid.ReplaceAllString(gr.stderr, "pid=N")
				fe = regexp.MustCompile(`file:[a-z_./]+:\d+`).ReplaceAllString(fe, "file:runner")
				if format == "json" {
					// fio prints a job's fatal error line on stdout
					// before the JSON; gofio keeps stdout one JSON
					// document and prints it on stderr.
					ge = dropPrefixed(ge, "fio: pid=N, err=")
				}
				if diff := cmp.Diff(lines(fe), lines(ge)); diff != "" {
					t.Errorf("%s: stderr (-fio +gofio):\n%s", format, diff)
				}
				if format == "normal" {
					fs, gs := DropSampleLines(MaskNormal(fr.stdout)), DropSampleLines(MaskNormal(gr.stdout))
					fs, gs = maskErrFile(fs), maskErrFile(gs)
					if diff := cmp.Diff(fs, gs); diff != "" {
						t.Errorf("normal report skeleton (-fio +gofio):\n%s\ngofio stdout:\n%s", diff, head(gr.stdout))
					}
					continue
				}
				fj, err := ParseJSON([]byte(jsonPart(fr.stdout)))
				if err != nil {
					t.Fatalf("fio's JSON: %v\n%s", err, head(fr.stdout))
				}
				gj, err := ParseJSON([]byte(jsonPart(gr.stdout)))
				if err != nil {
					t.Fatalf("gofio's JSON: %v\n%s", err, head(gr.stdout))
				}
				fv := append(DeterministicJSON(fj, c.io, fr.dir, "{DIR}"), errorCounts(fj)...)
				gv := append(DeterministicJSON(gj, c.io, gr.dir, "{DIR}"), errorCounts(gj)...)
				if diff := cmp.Diff(fv, gv); diff != "" {
					t.Errorf("JSON values (-fio +gofio):\n%s", diff)
				}
			}
		})
	}
}

// runMisc runs both programs in scratch directories holding "od", a tree
// of files for opendir.
func runMisc(t *testing.T, gofio string, a []string) (fio, gof result) {
	t.Helper()
	base := t.TempDir()
	var res [2]result
	for i, bin := range []string{fioPath, gofio} {
		dir := filepath.Join(base, filepath.Base(bin)+string(rune('0'+i)))
		for name, n := range map[string]int{"od/a": 8192, "od/sub/b": 16384, "od/sub/deep/c": 4096} {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res[i] = runIn(bin, dir, a)
	}
	return res[0], res[1]
}

// jsonPart drops what precedes the JSON document ("fio: opendir added 3
// files" is printed on stdout first).
func jsonPart(s string) string {
	if i := strings.Index(s, "{\n"); i > 0 {
		return s[i:]
	}
	return s
}

// maskErrFile names fio's source file in err= texts the way gofio does
// ("file:runner") and masks the pid of the error lines before the report.
func maskErrFile(sk []string) []string {
	file := regexp.MustCompile(`file:[a-z_./]+:(#|\d+)`)
	pid := regexp.MustCompile(`pid=\d+`)
	out := make([]string, len(sk))
	for i, l := range sk {
		out[i] = pid.ReplaceAllString(file.ReplaceAllString(l, "file:runner"), "pid=#")
	}
	return out
}

// errorCounts lists each job's error, total_err and first_error.
func errorCounts(root *Node) []string {
	var out []string
	jobs := root.Get("jobs")
	if jobs == nil {
		return nil
	}
	for _, j := range jobs.Kids {
		for _, k := range []string{"error", "total_err", "first_error"} {
			if n := j.Get(k); n != nil {
				out = append(out, k+"="+n.Text)
			}
		}
	}
	return out
}

// dropPrefixed drops the lines of s that start with prefix.
func dropPrefixed(s, prefix string) string {
	var b strings.Builder
	for _, l := range lines(s) {
		if !strings.HasPrefix(l, prefix) {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
