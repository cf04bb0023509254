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
// 1019th to 1021st file, depending on what else it holds open. gofio
// fails at the 1019th whatever the ulimit, with a
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
	// How many files fio gets through depends on how many descriptors it
	// holds open besides the chain, which differs from machine to machine
	// (1019 files here, 1021 on CI), so read the depth from fio's message.
	var depth int
	if _, err := fmt.Sscanf(want.stderr, "fio: unable to open 'inc%d.fio' job file\n", &depth); err != nil || depth < 1000 || depth >= n {
		t.Fatalf("fio under ulimit -n 1024 now prints %q", head(want.stderr))
	}
	chain := func(from int) string {
		var b strings.Builder
		for i := from; i >= 1; i-- {
			fmt.Fprintf(&b, "Error 1 while parsing include file inc%d.fio\n", i)
		}
		return b.String()
	}
	fioHead := fmt.Sprintf("fio: unable to open 'inc%d.fio' job file\n", depth) + chain(depth)
	if !strings.HasPrefix(want.stderr, fioHead) {
		t.Fatalf("fio under ulimit -n 1024 now prints %q", head(want.stderr))
	}
	rest := strings.TrimPrefix(want.stderr, fioHead)
	wantStderr := "fio: unable to include 'inc1019.fio': includes are nested more than 1018 levels deep\n" + chain(1019) + rest
	if got.rc != want.rc || got.stdout != want.stdout || got.stderr != wantStderr {
		t.Errorf("gofio exits %d with %q %q; want exit %d with %q %q (fio stopped at inc%d.fio)", got.rc, head(got.stdout), head(got.stderr), want.rc, head(want.stdout), head(wantStderr), depth)
	}
}
