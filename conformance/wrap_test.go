package conformance

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A time_based job drops its file's cached pages each time its I/O wraps
// around the file (invalidate=1): both programs run under strace, and
// each gives one POSIX_FADV_DONTNEED at the open and one per pass after
// the first (a pass: 16 blocks of 4 KiB; 5 of 12 KiB, the file then
// reopened). Tolerance: one call, for a pass that ends with the run.
func TestTimeBasedWrapInvalidates(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("no strace")
	}
	cases := []struct {
		rw, bs string
		pass   uint64 // I/Os per pass
	}{
		{"randread", "4k", 16},
		{"read", "4k", 16},
		{"read", "12k", 5},
	}
	for _, c := range cases {
		for _, bin := range []string{fioPath, gofio} {
			t.Run(filepath.Base(bin)+"/"+c.rw+"/"+c.bs, func(t *testing.T) {
				t.Parallel() // each run in a directory of its own
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 64<<10), 0o644); err != nil {
					t.Fatal(err)
				}
				log := filepath.Join(dir, "strace.log")
				r := runIn(strace, dir, []string{"-f", "-o", log, "-e", "trace=fadvise64", bin,
					"--name=w", "--filename=f", "--size=64k", "--bs=" + c.bs, "--rw=" + c.rw,
					"--time_based", "--runtime=1", "--output-format=json"})
				if r.rc != 0 {
					t.Fatalf("%s %s: exit status %d\n%s", bin, c.rw, r.rc, head(r.stderr))
				}
				ios, _ := strconv.ParseUint(jsonOf(t, bin, r).Get("jobs").Kids[0].Get("read", "total_ios").Text, 10, 64)
				data, err := os.ReadFile(log)
				if err != nil {
					t.Fatal(err)
				}
				drops := uint64(strings.Count(string(data), "POSIX_FADV_DONTNEED"))
				want := (ios + c.pass - 1) / c.pass // one per pass begun
				if ios < 3*c.pass || drops+1 < want || drops > want+1 {
					t.Errorf("%s rw=%s bs=%s: %d I/Os, %d page cache drops; want %d (±1), and a few passes",
						filepath.Base(bin), c.rw, c.bs, ios, drops, want)
				}
			})
		}
	}
}
