package engine

import "testing"

func TestOnHangProneFS(t *testing.T) {
	// The test machine's temporary directory is local; a path not created
	// yet is judged by the directory it would be created in.
	dir := t.TempDir()
	for _, p := range []string{dir, dir + "/not/yet/created", "/proc/self"} {
		if OnHangProneFS(p) {
			t.Errorf("onHangProneFS(%q) = true, want false (local)", p)
		}
	}
}
