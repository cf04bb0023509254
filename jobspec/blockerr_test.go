package jobspec

import (
	"strings"
	"testing"
)

// TestBlockErrorPercentiles checks that block_error_percentiles is kept
// for a job that does not trim and refused for one that does (fio 3.33
// aborts on an assertion there).
func TestBlockErrorPercentiles(t *testing.T) {
	tests := []struct {
		file string
		err  string
	}{
		{"[a]\nrw=randrw\nblock_error_percentiles=1\n", ""},
		{"[a]\nrw=randtrim\nblock_error_percentiles=1\n", "gofio: job a: block_error_percentiles=1 with a job that trims is refused: fio 3.33 aborts on an assertion (block_state_category) there, and gofio does not track trim-block lifetimes; leave block_error_percentiles out (the trim counts and latencies are in the report)"},
		{"[a]\nblock_error_percentiles=1\nrw=trimwrite\n", "gofio: job a: block_error_percentiles=1 with a job that trims is refused: "},
		{"[a]\nrw=randtrim\nblock_error_percentiles=0\n", ""},
	}
	for _, tt := range tests {
		got := fileErr(t, tt.file)
		if (tt.err == "") != (got == "") || !strings.Contains(got, tt.err) {
			t.Errorf("%q: error %q, want %q", tt.file, got, tt.err)
		}
	}
}
