package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIncludeDepth: fio 3.33 has no include depth limit of its own; it
// keeps each file of a chain open and fails when it runs out of file
// descriptors, so under the usual ulimit -n of 1024 it fails to open the
// 1019th file. gofio fails at the same file whatever the ulimit, with a
// message that says why (docs/compat.md); everything else is fio's.
func TestIncludeDepth(t *testing.T) {
	requireFio(t)
	g := requireGofio(t)
	dir := t.TempDir()
	const n = 1100
	for i := 1; i <= n; i++ {
		body := fmt.Sprintf("include inc%d.fio\n", i+1)
		if i == n {
			body = "bs=4k\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("inc%d.fio", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte("[a]\nbs=4k\ninclude inc1.fio\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := runIn("/bin/sh", dir, []string{"-c", "ulimit -n 1024 && exec " + fioPath + " --parse-only job.fio"})
	got := runIn(g, dir, []string{"--parse-only", "job.fio"})
	fioFirst := "fio: unable to open 'inc1019.fio' job file\n"
	ourFirst := "fio: unable to include 'inc1019.fio': includes are nested more than 1018 levels deep\n"
	if !strings.HasPrefix(want.stderr, fioFirst) {
		t.Fatalf("fio under ulimit -n 1024 now prints %q", head(want.stderr))
	}
	if got.rc != want.rc || got.stdout != want.stdout || !strings.HasPrefix(got.stderr, ourFirst) ||
		strings.TrimPrefix(got.stderr, ourFirst) != strings.TrimPrefix(want.stderr, fioFirst) {
		t.Errorf("gofio exits %d with %q %q; fio exits %d with %q %q", got.rc, head(got.stdout), head(got.stderr), want.rc, head(want.stdout), head(want.stderr))
	}
}
