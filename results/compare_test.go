package results

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gofio/gofio/stats"
)

// flat is a crafted read job of n I/Os over 1 s, each of clat ns.
func flat(t *testing.T, name string, n int, ns uint64) *Document {
	t.Helper()
	lats := make([]uint64, n)
	for i := range lats {
		lats[i] = ns
	}
	return jsonPlus(t, name, ioJob("j", 1000, [stats.NDirs][]uint64{lats}))
}

func TestParseGates(t *testing.T) {
	tests := []struct {
		in   string
		want []Gate
		bad  bool
	}{
		{in: "iops=-5%,p99=+10%", want: []Gate{{"iops", -5, -1}, {"p99", 10, 1}}},
		{in: "P99.9=7", want: []Gate{{"p99.9", 7, 0}}},
		{in: "bw=-0%,mean=+2.5%", want: []Gate{{"bw", math.Copysign(0, -1), -1}, {"mean", 2.5, 1}}},
		{in: "iops", bad: true},
		{in: "lat=5%", bad: true},
		{in: "iops=-x%", bad: true},
		{in: "iops=nan", bad: true},
		{in: "", bad: true},
	}
	for _, tt := range tests {
		got, err := ParseGates(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseGates(%q) = %v; want an error", tt.in, got)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Errorf("ParseGates(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			continue
		}
		for k := range got {
			if got[k] != tt.want[k] {
				t.Errorf("ParseGates(%q)[%d] = %+v, want %+v", tt.in, k, got[k], tt.want[k])
			}
		}
	}
}

func TestGateCrossed(t *testing.T) {
	tests := []struct {
		gate    string
		pct     float64
		crossed bool
	}{
		{"iops=-5%", -5.01, true},
		{"iops=-5%", -5, false},
		{"iops=-5%", -4.99, false},
		{"iops=-5%", 50, false},
		{"p99=+10%", 10.01, true},
		{"p99=+10%", 10, false},
		{"p99=+10%", -50, false},
		{"p99=10%", -10.5, true},
		{"p99=10%", 10.5, true},
		{"p99=10%", 9, false},
		{"bw=-0%", -0.001, true},
		{"bw=-0%", 0, false},
		{"p99=+10%", math.Inf(1), true},
		{"p99=10%", math.NaN(), false},
	}
	for _, tt := range tests {
		gs, err := ParseGates(tt.gate)
		if err != nil {
			t.Fatal(err)
		}
		if got := gs[0].Crossed(tt.pct); got != tt.crossed {
			t.Errorf("%s crossed by %g%% = %v, want %v", tt.gate, tt.pct, got, tt.crossed)
		}
	}
}

func TestCompareGates(t *testing.T) {
	base := flat(t, "base", 1000, 10000) // 1000 IOPS, p99 = bucket of 10000 ns
	tests := []struct {
		name    string
		cur     *Document
		gates   string
		crossed bool
	}{
		{"same", flat(t, "same", 1000, 10000), "iops=-0%,p99=+0%,mean=0%", false},
		{"iops -10% against -5%", flat(t, "drop", 900, 10000), "iops=-5%", true},
		{"iops -4% against -5%", flat(t, "dip", 960, 10000), "iops=-5%", false},
		{"iops +10% against -5%", flat(t, "up", 1100, 10000), "iops=-5%", false},
		{"p99 +20% against +10%", flat(t, "slow", 1000, 12000), "iops=-5%,p99=+10%", true},
		{"p99 +20% against +25%", flat(t, "slow", 1000, 12000), "p99=+25%", false},
		{"p99 -20% against either way 10%", flat(t, "fast", 1000, 8000), "p99=10%", true},
		{"bw -10% against -5%", flat(t, "drop", 900, 10000), "bw=-5%", true},
		{"no gates", flat(t, "drop", 100, 90000), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gates []Gate
			if tt.gates != "" {
				var err error
				if gates, err = ParseGates(tt.gates); err != nil {
					t.Fatal(err)
				}
			}
			c, err := Compare([]*Document{base}, tt.cur, gates)
			if err != nil {
				t.Fatal(err)
			}
			if c.Crossed != tt.crossed {
				var b strings.Builder
				c.WriteTable(&b)
				t.Errorf("crossed = %v, want %v\n%s", c.Crossed, tt.crossed, b.String())
			}
			if len(c.Rows) != 1 || c.Rows[0].Dir != "read" || len(c.Rows[0].Metrics) != len(Metrics) {
				t.Fatalf("rows %+v; want one read row with every metric", c.Rows)
			}
		})
	}
}

// TestCompareValues checks the numbers of one comparison: the change of
// each metric from the printed values, and the spread of several
// baseline runs.
func TestCompareValues(t *testing.T) {
	runs := []*Document{flat(t, "b1", 1000, 10000), flat(t, "b2", 1100, 10000), flat(t, "b3", 1200, 10000)}
	c, err := Compare(runs, flat(t, "new", 1300, 10000), nil)
	if err != nil {
		t.Fatal(err)
	}
	iops := c.Rows[0].Metrics[0]
	if iops.Metric != "iops" || iops.Baseline != 1100 || iops.Min != 1000 || iops.Max != 1200 || !closeTo(iops.Stddev, 100) || !iops.Beyond || !closeTo(iops.Pct, 200.0/11) {
		t.Errorf("iops change %+v; want baseline 1100 in 1000..1200, stddev 100, beyond, +18.18%%", iops)
	}
	bw := c.Rows[0].Metrics[1]
	if bw.New != 1300*4 || !closeTo(bw.Pct, 200.0/11) {
		t.Errorf("bw change %+v; want 5200 KiB/s, +18.18%%", bw)
	}
	c, _ = Compare(runs, flat(t, "new", 1150, 10000), nil)
	if c.Rows[0].Metrics[0].Beyond {
		t.Errorf("1150 IOPS is within the runs' 1000..1200; reported beyond")
	}
	p99 := c.Rows[0].Metrics[4]
	want := float64(stats.HistValue(stats.HistIndex(10000)))
	if p99.Metric != "p99" || p99.New != want || p99.Baseline != want || p99.Pct != 0 {
		t.Errorf("p99 %+v; want %v unchanged", p99, want)
	}
	var b bytes.Buffer
	if err := c.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Errorf("WriteJSON is not JSON: %v\n%s", err, b.String())
	}
}

func TestCompareMatching(t *testing.T) {
	r := func(name string) *Document {
		d := flat(t, "x", 100, 1000)
		d.Jobs[0].Report.Name = name
		return d
	}
	if _, err := Compare([]*Document{r("a")}, r("b"), nil); err == nil {
		t.Error("comparing documents with no job in common succeeded; want an error")
	}
	base := r("a")
	base.Jobs = append(base.Jobs, r("gone").Jobs[0])
	c, err := Compare([]*Document{base}, r("a"), nil)
	if err != nil || len(c.Rows) != 1 || len(c.OnlyBaseline) != 1 || c.OnlyBaseline[0] != "gone" {
		t.Errorf("Compare = %+v, %v; want job a compared and gone only in the baseline", c, err)
	}
	// A zero baseline gives an infinite change, which JSON writes as null.
	zero := flat(t, "zero", 0, 0)
	zero.Jobs[0].Report.Stats.Dir[0].RuntimeUS = 1000
	c, err = Compare([]*Document{zero}, flat(t, "new", 10, 1000), []Gate{{"iops", 5, 1}})
	if err != nil || !c.Crossed || !math.IsInf(c.Rows[0].Metrics[0].Pct, 1) {
		t.Errorf("from zero IOPS: %+v, %v; want +inf crossing iops=+5%%", c, err)
	}
	var b bytes.Buffer
	if err := c.WriteJSON(&b); err != nil || !strings.Contains(b.String(), `"change_pct": null`) {
		t.Errorf("JSON of an infinite change: %v\n%s", err, b.String())
	}
}
