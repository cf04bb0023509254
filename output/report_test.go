package output

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gofio/gofio/stats"
)

func TestLatScale(t *testing.T) {
	acc := func(lo, hi uint64, sd float64) *stats.Accum {
		return &stats.Accum{Min: lo, Max: hi, N: 2, S: sd * sd}
	}
	tests := []struct {
		a    *stats.Accum
		unit string
	}{
		{acc(2001, 100000, 1000.5), "usec"},
		{acc(2000, 100000, 1000.5), "nsec"}, // min must exceed 2000
		{acc(2001, 99999, 1000.5), "nsec"},  // max must exceed 99999
		{acc(2001, 100000, 1000), "nsec"},   // stddev must exceed 1000
		{acc(36930, 36930, 0), "nsec"},      // constant latency
		{acc(2000001, 100000000, 1000001), "msec"},
		{acc(2000001, 99999999, 1000001), "usec"},
		{acc(2000001, 100000000, 1000000), "usec"},
	}
	for k, tc := range tests {
		if got, _ := latScale(tc.a); got != tc.unit {
			t.Errorf("case %d: unit %s, want %s", k, got, tc.unit)
		}
	}
}

func TestLatLine(t *testing.T) {
	tests := []struct {
		a    stats.Accum
		want string
	}{
		{stats.Accum{Min: 3252041000, Max: 20132000000, N: 2, Mean: 5e9, S: 4e18},
			"    clat (msec): min=3252, max=20132, avg=5000.00, stdev=2000.00\n"},
		{stats.Accum{Min: 3252041, Max: 20132000, N: 2, Mean: 5e6, S: 4e12},
			"    clat (usec): min=3252, max=20132, avg=5000.00, stdev=2000.00\n"},
		{stats.Accum{Min: 3252041, Max: 20132000, N: 1, Mean: 3252041},
			"    clat (nsec): min=3252.0k, max=20132k, avg=3252041.00, stdev= 0.00\n"},
		{stats.Accum{}, ""},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		writeLatLine(&b, "clat", &tc.a)
		if b.String() != tc.want {
			t.Errorf("got  %q\nwant %q", b.String(), tc.want)
		}
	}
}

func TestPercentileBlock(t *testing.T) {
	tests := []struct {
		name string
		vals []uint64
		list []float64
		prec int
		want string
	}{
		{"nsec width 7, three per row",
			[]uint64{1432, 1464, 1496, 2000, 1200000},
			[]float64{1, 5, 10, 50, 99.99}, 2,
			"    clat percentiles (nsec):\n" +
				"     |  1.00th=[   1432],  5.00th=[   1464], 10.00th=[   1496],\n" +
				"     | 50.00th=[   2000], 99.99th=[1200000]\n"},
		{"usec rounds up, exact multiple of a row",
			[]uint64{39168, 40000, 99999, 100001},
			[]float64{10, 50, 90, 99}, 0,
			"    clat percentiles (usec):\n" +
				"     |  10th=[   40],  50th=[   40],  90th=[  100],  99th=[  101]\n"},
		{"msec rounds up twice",
			[]uint64{6291456, 7000001, 240123456},
			[]float64{1, 5, 99.5}, 3,
			"    clat percentiles (msec):\n" +
				"     |  1.000th=[    7],  5.000th=[    8], 99.500th=[  241]\n"},
		{"usec needs both bounds",
			[]uint64{1999, 200000},
			[]float64{50, 99}, 2,
			"    clat percentiles (nsec):\n" +
				"     | 50.00th=[  1999], 99.00th=[200000]\n"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		writePercentiles(&b, "clat", tc.vals, tc.list, tc.prec)
		if b.String() != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, b.String(), tc.want)
		}
	}
}

func TestPerAgg(t *testing.T) {
	tests := []struct {
		mean float64
		agg  uint64
		want string
	}{
		{18693.67, 20158624, "94.955052"},     // mean truncated to int
		{177016, 174666702, "100.000000"},     // capped
		{5513732 * 1024, 5e11, "-439.804651"}, // beyond int32: -2^31
		{500, 1024, "100.000000"},             // aggregate ≤ 1024
	}
	for _, tc := range tests {
		if got := fmtF(perAgg(tc.mean, tc.agg), 6); got != tc.want {
			t.Errorf("perAgg(%v, %d) = %s, want %s", tc.mean, tc.agg, got, tc.want)
		}
	}
	if got := fmtF(tersePer(58552, 56177806), 6); got != "100.000000" {
		t.Errorf("tersePer capped: %s", got)
	}
	if got := fmtF(tersePer(40000, 43008000), 6); got != "95.238095" { // 43008000/1024 = 42000
		t.Errorf("tersePer: %s", got)
	}
	if got := fmtF(tersePer(0, 500), 6); got != "-nan" {
		t.Errorf("tersePer 0/0: %s", got)
	}
}

func TestDistPct(t *testing.T) {
	tests := []struct {
		c, total uint64
		floor    float64
		want     string
	}{
		{1, 100000, depthFloor, "0.1"},
		{0, 100000, depthFloor, "0.0"},
		{1151, 1024, depthFloor, "112.4"},
		{1, 0, depthFloor, "0.0"},
		{1, 1000000, latFloor, "0.01"},
		{50, 100, latFloor, "50.00"},
	}
	for _, tc := range tests {
		prec := 1
		if tc.floor == latFloor {
			prec = 2
		}
		if got := fmtF(distPct(tc.c, tc.total, tc.floor), prec); got != tc.want {
			t.Errorf("distPct(%d, %d) = %s, want %s", tc.c, tc.total, got, tc.want)
		}
	}
}

// synthetic builds a one-job Result whose job read 1 MiB in 1000 ms.
func synthetic() *Result {
	j := Job{Name: "j", Pid: 42, KBBase: 1024, SigFigs: 4, ClatPercentiles: true, Depth: 1, LatencyPercentile: 100}
	d := &j.Stats.Dir[stats.Read]
	d.IOBytes, d.TotalIOs, d.RuntimeUS = 1<<20, 256, 1000000
	for k := range 256 {
		j.Stats.AddClat(stats.Read, uint64(1000+k), true)
		j.Stats.AddLat(stats.Read, uint64(1100+k), false)
		j.Stats.AddDepth(1, 1)
		j.Stats.AddSubmit(1)
		j.Stats.AddComplete(1)
	}
	j.Stats.RuntimeMS, j.Stats.Members = 1000, 1
	return &Result{
		Time:   time.Date(2026, 11, 5, 8, 4, 9, 0, time.UTC),
		Jobs:   []Job{j},
		Groups: []Group{{ID: 0, KBBase: 1024, SigFigs: 4}},
	}
}

func TestDisks(t *testing.T) {
	r := synthetic()
	r.Disks = []Disk{
		{Name: "dm-0", ReadIOs: 10, WriteIOs: 20, ReadMerges: 1, WriteMerges: 2, ReadTicks: 3, WriteTicks: 4,
			InQueue: 7, Util: 50.5,
			Slaves: &DiskAggregate{ReadIOs: 5, WriteIOs: 10, ReadMerges: 0, WriteMerges: 1, ReadTicks: 1,
				WriteTicks: 2, InQueue: 3, Util: 60.25}},
		{Name: "sda", ReadIOs: 10, WriteIOs: 20, Util: 100},
	}
	var nb bytes.Buffer
	Normal(&nb, r)
	wantN := "\nDisk stats (read/write):\n" +
		"    dm-0: ios=10/20, merge=1/2, ticks=3/4, in_queue=7, util=50.50%, aggrios=5/10, aggrmerge=0/1, aggrticks=1/2, aggrin_queue=3, aggrutil=60.25%\n" +
		"  sda: ios=10/20, merge=0/0, ticks=0/0, in_queue=0, util=100.00%\n"
	if !strings.HasSuffix(nb.String(), wantN) {
		t.Errorf("normal disk section:\n%s", nb.String())
	}

	var tb bytes.Buffer
	Terse(&tb, r, 3)
	wantT := ";dm-0;10;20;1;2;3;4;7;50.50%;slaves;5;10;0;1;1;2;3;60.25%;sda;10;20;0;0;0;0;0;100.00%\n"
	if !strings.HasSuffix(tb.String(), wantT) {
		t.Errorf("terse disk trailer:\n%s", tb.String())
	}
	tb.Reset()
	Terse(&tb, r, 2)
	if strings.Contains(tb.String(), "dm-0") {
		t.Errorf("terse v2 has disk fields:\n%s", tb.String())
	}

	var jb bytes.Buffer
	JSON(&jb, r, false)
	wantJ := `      "util" : 50.500000,
      "aggr_read_ios" : 5,
      "aggr_write_ios" : 10,
      "aggr_read_merges" : 0,
      "aggr_write_merge" : 1,
      "aggr_read_ticks" : 1,
      "aggr_write_ticks" : 2,
      "aggr_in_queue" : 3,
      "aggr_util" : 60.250000
    },
    {
      "name" : "sda",`
	if !strings.Contains(jb.String(), wantJ) {
		t.Errorf("JSON disk_util:\n%s", jb.String())
	}
}

func TestJSONShapes(t *testing.T) {
	r := synthetic()
	r.GlobalOptions = []Option{{"time_based", ""}}
	r.Jobs[0].Options = []Option{{"name", "j"}, {"description", `a "b" \c`}}
	r.Jobs[0].Description = `a "b" \c`
	r.Jobs[0].Percentiles = []float64{0, 50}
	r.Jobs = append(r.Jobs, Job{GroupID: -1})
	r.ElapsedMS = 2001
	var b bytes.Buffer
	JSON(&b, r, true)
	out := b.String()
	for _, want := range []string{
		"  \"global options\" : {\n\n  },\n",
		"        \"description\" : \"a \\\"b\\\" \\\\c\"\n",
		"          \"percentile\" : {\n\n          },\n          \"bins\" : {\n",
		"      \"groupid\" : 4294967295,\n",
		"      \"eta\" : 0,\n      \"elapsed\" : 3,\n",
		"      \"desc\" : \"a \\\"b\\\" \\\\c\"\n    },\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("JSON lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, `"bins"`) != 1 {
		t.Errorf("bins printed without percentiles")
	}
	// The bogus job has no name, no options and no latency_* keys.
	tail := out[strings.LastIndex(out, "    {\n"):]
	for _, bad := range []string{"jobname", "job options", "latency_depth"} {
		if strings.Contains(tail, bad) {
			t.Errorf("empty job has %q:\n%s", bad, tail)
		}
	}
}

func TestNormalBlockSelection(t *testing.T) {
	r := synthetic()
	r.Jobs = append(r.Jobs, Job{Name: "idle", Depth: 1})
	r.Jobs[0].Description = "desc"
	var b bytes.Buffer
	Normal(&b, r)
	out := b.String()
	if strings.Contains(out, "idle") {
		t.Errorf("job without I/O has a block:\n%s", out)
	}
	for _, want := range []string{
		"\nj: (groupid=0, jobs=1): err= 0: pid=42: Thu Nov  5 08:04:09 2026\n  Description  : [desc]\n",
		"  read: IOPS=256, BW=1024KiB/s (1049kB/s)(1024KiB/1000msec)\n",
		"    clat (nsec): min=1000, max=1255, avg=1127.50, stdev=74.05\n",
		"  lat (usec)   : 2=100.00%\n",
		"   READ: bw=1024KiB/s (1049kB/s), 1024KiB/s-1024KiB/s (1049kB/s-1049kB/s), io=1024KiB (1049kB), run=1000-1000msec\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("normal report lacks %q:\n%s", want, out)
		}
	}

	var tb bytes.Buffer
	Terse(&tb, r, 3)
	lines := strings.Split(strings.TrimSuffix(tb.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], ";desc") {
		t.Errorf("terse lines:\n%s", tb.String())
	}
	if f := strings.Split(lines[1], ";"); f[99] != "-nan%" || len(f) != 121 {
		t.Errorf("idle terse line: %d fields, field 100 %q", len(f), f[99])
	}
	if err := Terse(&tb, r, 6); err == nil {
		t.Error("terse version 6 accepted")
	}
}

func TestBWLineUnits(t *testing.T) {
	r := synthetic()
	d := &r.Jobs[0].Stats.Dir[stats.Read]
	d.BW = stats.Accum{Min: 1000000, Max: 1200000, N: 2, Mean: 1100000, S: 2e10}
	d.IOPS = stats.Accum{Min: 250000, Max: 300000, N: 2, Mean: 275000, S: 1.25e9}
	var b bytes.Buffer
	Normal(&b, r)
	want := "   bw (  MiB/s): min=  976, max= 1171, per=100.00%, avg=1074.22, stdev=138.11, samples=2\n" +
		"   iops        : min=250000, max=300000, avg=275000.00, stdev=35355.34, samples=2\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("bw/iops lines:\n%s", b.String())
	}
	r.Jobs[0].KBBase = 1000
	d.BW = stats.Accum{Min: 900, Max: 1100, N: 2, Mean: 1000, S: 20000}
	b.Reset()
	Normal(&b, r)
	if !strings.Contains(b.String(), "   bw (   kB/s): min=  900, max= 1100, per=97.66%, avg=1000.00, stdev=141.42, samples=2\n") {
		t.Errorf("kB bw line:\n%s", b.String())
	}
	if math.IsNaN(perAgg(1, 2000)) {
		t.Error("NaN per")
	}
}
