package conformance

import (
	"testing"
)

// TestFlowRatio runs two null jobs of one flow group under fio 3.33 and
// gofio: a does a fixed 12288 I/Os and ends the group (exitall) while b,
// time_based, would run on. With flow=3 and flow=1, b must have done a
// third of a's count within 2 I/Os (fio does 12288 and 4097): neither job
// may get more than one I/O ahead of its share, so the count does not
// depend on how the two were scheduled. Comparing I/Os done in a time
// instead (both jobs time_based) lets the job that ends last run alone,
// unheld, for as long as the starts were apart, which on a loaded machine
// is far from the weights. With flow=-2 beside flow=1 the latter starves
// in both (fio's weights are unsigned): a couple of I/Os at most.
func TestFlowRatio(t *testing.T) {
	requireFio(t)
	g := requireGofio(t)
	tests := []struct {
		name   string
		flows  [2]string
		lo, hi uint64 // b's I/Os while a does 12288
	}{
		{"3:1", [2]string{"--flow=3", "--flow=1"}, 4096 - 2, 4096 + 2},
		{"negative", [2]string{"--flow=-2", "--flow=1"}, 0, 4},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"--ioengine=null", "--flow_id=1", "--output-format=json",
				"--name=a", c.flows[0], "--size=48m", "--exitall",
				"--name=b", c.flows[1], "--size=1g", "--time_based", "--runtime=60"}
			fr, gr := runBoth(t, g, args)
			for i, r := range []result{fr, gr} {
				root, err := ParseJSON([]byte(SplitFormats(r.stdout).JSON))
				if err != nil {
					t.Fatalf("run %d: JSON: %v\n%s", i, err, head(r.stdout))
				}
				a := uintOf(root.Get("jobs", "0", "read", "total_ios"))
				b := uintOf(root.Get("jobs", "1", "read", "total_ios"))
				if a != 12288 || b < c.lo || b > c.hi {
					t.Errorf("run %d (0 fio, 1 gofio): I/Os %d and %d; want 12288 and %d to %d", i, a, b, c.lo, c.hi)
				}
			}
		})
	}
}
