package main

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// TestEveryEngineRunsOrIsUnavailable: every engine of fio 3.33's build is
// either run by gofio or listed, with the reason, as unavailable (a C
// library or hardware gofio cannot reach), so loadJobs never meets an
// engine it cannot explain.
func TestEveryEngineRunsOrIsUnavailable(t *testing.T) {
	for _, name := range jobspec.Engines() {
		_, err := engine.Lookup(name)
		_, unavailable := engine.Unavailable(name)
		switch {
		case err != nil && !unavailable:
			t.Errorf("ioengine %s: neither registered nor unavailable (%v)", name, err)
		case err == nil && unavailable:
			t.Errorf("ioengine %s: registered and listed as unavailable", name)
		}
	}
}
