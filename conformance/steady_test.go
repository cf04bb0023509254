package conformance

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSteadyState runs a rate-limited null job with steady-state
// detection under fio 3.33 and gofio: one that meets its criterion at
// its second sample (about 1.9 s in) and ends there, and one whose
// runtime ends before its window fills. The JSON "steadystate" object
// must have fio's keys, kinds, order and array lengths, the same option
// echo, duration and outcome, and the normal report's steadystate line
// fio's words; the sampled numbers depend on timing and are masked.
func TestSteadyState(t *testing.T) {
	requireFio(t)
	g := requireGofio(t)
	tests := []struct {
		name     string
		args     []string
		attained string
	}{
		{"met", []string{"--ss=iops:20%", "--ss_dur=2", "--runtime=4"}, "1"},
		{"not met", []string{"--ss=iops_slope:0", "--ss_dur=2", "--runtime=1"}, "0"},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"--name=s", "--ioengine=null", "--size=1g", "--rate_iops=1000",
				"--time_based", "--output-format=normal,json"}, c.args...)
			fr, gr := runBoth(t, g, args)
			var trees [2][]string
			var lines [2]string
			for i, r := range []result{fr, gr} {
				f := SplitFormats(r.stdout)
				root, err := ParseJSON([]byte(f.JSON))
				if err != nil {
					t.Fatalf("run %d: JSON: %v\n%s", i, err, head(r.stdout))
				}
				ss := root.Get("jobs", "0", "steadystate")
				if ss == nil {
					t.Fatalf("run %d: no steadystate object", i)
				}
				trees[i] = KeyTree(ss)
				if got := text(ss.Get("attained")); got != c.attained {
					t.Errorf("run %d: attained %s; want %s", i, got, c.attained)
				}
				trees[i] = append(trees[i], "ss="+text(ss.Get("ss")), "duration="+text(ss.Get("duration")))
				for _, l := range strings.Split(f.Normal, "\n") {
					if strings.Contains(l, "steadystate  :") {
						lines[i] = maskNumbers(l)
					}
				}
			}
			if d := cmp.Diff(trees[0], trees[1]); d != "" {
				t.Errorf("steadystate JSON (-fio +gofio):\n%s", d)
			}
			if lines[0] == "" || lines[0] != lines[1] {
				t.Errorf("steadystate line: fio %q, gofio %q", lines[0], lines[1])
			}
		})
	}
}
