package conformance

import (
	"testing"
)

// TestFlowRatio runs two null jobs of one flow group, flow=3 and flow=1,
// for a second under fio 3.33 and gofio: both must do I/Os in the ratio
// 3:1 (within 10%), and a third job of flow=-2 beside one of flow=1
// starves the latter in both (fio's weights are unsigned).
func TestFlowRatio(t *testing.T) {
	requireFio(t)
	g := requireGofio(t)
	tests := []struct {
		name   string
		flows  [2]string
		lo, hi float64 // the first job's I/Os over the second's
	}{
		{"3:1", [2]string{"--flow=3", "--flow=1"}, 2.7, 3.3},
		{"negative", [2]string{"--flow=-2", "--flow=1"}, 1000, 1e18},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"--ioengine=null", "--size=1g", "--time_based", "--runtime=1", "--flow_id=1",
				"--output-format=json", "--name=a", c.flows[0], "--name=b", c.flows[1]}
			fr, gr := runBoth(t, g, args)
			for i, r := range []result{fr, gr} {
				root, err := ParseJSON([]byte(SplitFormats(r.stdout).JSON))
				if err != nil {
					t.Fatalf("run %d: JSON: %v\n%s", i, err, head(r.stdout))
				}
				a := float64(uintOf(root.Get("jobs", "0", "read", "total_ios")))
				b := float64(uintOf(root.Get("jobs", "1", "read", "total_ios")))
				if r := a / max(b, 1); r < c.lo || r > c.hi {
					t.Errorf("run %d (0 fio, 1 gofio): I/Os %.0f and %.0f, ratio %.3f; want %g to %g", i, a, b, r, c.lo, c.hi)
				}
			}
		})
	}
}
