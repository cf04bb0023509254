package gtod

import (
	"strings"
	"testing"
	"time"

	"github.com/gofio/gofio/jobspec"
)

// The thread runs when a job sets gtod_cpu, and a CPU it cannot be
// pinned to is reported without failing.
func TestGtod(t *testing.T) {
	tests := []struct {
		cpu  int // gtod_cpu, 0: not set
		msg  string
		runs bool
	}{
		{0, "", false},
		{1, "", true}, // gtod_cpu=0
		{4097, "gtod: setaffinity failed\n", true},    // gtod_cpu=4096
		{1 << 32, "gtod: setaffinity failed\n", true}, // gtod_cpu=-1: CPU 4294967295
	}
	for _, tt := range tests {
		plan := &jobspec.Plan{Jobs: []*jobspec.Job{{}}}
		plan.Jobs[0].Misc.GtodCPU = tt.cpu
		var errs strings.Builder
		before := Last()
		stop := Start(plan, &errs)
		if tt.runs {
			deadline := time.Now().Add(5 * time.Second)
			for Last() == before && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
		}
		stop()
		if ran := Last() != before; ran != tt.runs || errs.String() != tt.msg {
			t.Errorf("gtod_cpu+1 %d: ran %v, printed %q; want %v, %q", tt.cpu, ran, errs.String(), tt.runs, tt.msg)
		}
	}
}
