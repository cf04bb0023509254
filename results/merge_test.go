package results

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// ioJob is a crafted job: the clat of each I/O per direction, 4 KiB each,
// over runtimeMS.
func ioJob(name string, runtimeMS uint64, lats [stats.NDirs][]uint64) output.Job {
	j := output.Job{Name: name, ClatPercentiles: true, Depth: 1}
	j.Stats.Members = 1
	for d, ls := range lats {
		s := &j.Stats.Dir[d]
		for _, ns := range ls {
			j.Stats.AddClat(stats.Dir(d), ns, true)
			j.Stats.AddLat(stats.Dir(d), ns+100, false)
			s.TotalIOs++
			s.IOBytes += 4096
			j.Stats.AddDepth(1, 1)
		}
		if len(ls) > 0 {
			s.RuntimeUS = runtimeMS * 1000
		}
	}
	j.Stats.RuntimeMS = runtimeMS
	return j
}

// jsonPlus writes jobs as a JSON+ document and reads it back.
func jsonPlus(t *testing.T, name string, jobs ...output.Job) *Document {
	t.Helper()
	var b bytes.Buffer
	if err := output.JSON(&b, &output.Result{Time: time.Unix(1796000000, 0), Jobs: jobs}, true); err != nil {
		t.Fatal(err)
	}
	d, err := Read(b.Bytes())
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, b.String())
	}
	d.Name = name
	return d
}

// lognormal draws n latencies spread over several histogram groups.
func lognormal(r *rand.Rand, n int, median float64) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(median * math.Exp(r.NormFloat64()*1.5))
	}
	return out
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

// checkSame fails unless got's direction statistics are those of want:
// histograms, counts, min, max and printed percentiles equal, mean and
// stddev equal to the printed precision.
func checkSame(t *testing.T, got, want *Job) {
	t.Helper()
	for d := range stats.NDirs {
		g, w := &got.Report.Stats.Dir[d], &want.Report.Stats.Dir[d]
		if g.ClatHist != w.ClatHist {
			t.Errorf("dir %d: merged histogram differs from the whole's", d)
		}
		if g.Clat.N != w.Clat.N || g.Clat.Min != w.Clat.Min || g.Clat.Max != w.Clat.Max || g.TotalIOs != w.TotalIOs || g.IOBytes != w.IOBytes {
			t.Errorf("dir %d: N/min/max/ios/bytes %d/%d/%d/%d/%d, want %d/%d/%d/%d/%d", d,
				g.Clat.N, g.Clat.Min, g.Clat.Max, g.TotalIOs, g.IOBytes, w.Clat.N, w.Clat.Min, w.Clat.Max, w.TotalIOs, w.IOBytes)
		}
		if !closeTo(g.Clat.Mean, w.Clat.Mean) || !closeTo(g.Clat.Stddev(), w.Clat.Stddev()) {
			t.Errorf("dir %d: mean/stddev %f/%f, want %f/%f", d, g.Clat.Mean, g.Clat.Stddev(), w.Clat.Mean, w.Clat.Stddev())
		}
		if len(got.Clat[d]) != len(want.Clat[d]) {
			t.Errorf("dir %d: %d percentiles, want %d", d, len(got.Clat[d]), len(want.Clat[d]))
		}
		for p, v := range want.Clat[d] {
			if got.Clat[d][p] != v {
				t.Errorf("dir %d: p%g = %d, want %d", d, p, got.Clat[d][p], v)
			}
		}
	}
}

// TestMergeEqualsWhole splits crafted I/O into parts, writes each part as
// a JSON+ document, merges them and checks the result against the JSON+
// document of one job holding all the I/O.
func TestMergeEqualsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name  string
		parts []int // read I/Os per part (writes: half as many)
	}{
		{"halves", []int{5000, 5000}},
		{"uneven thirds", []int{10, 3000, 7000}},
		{"one empty part", []int{4000, 0}},
		{"single", []int{1234}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var whole [stats.NDirs][]uint64
			var docs []*Document
			for k, n := range tt.parts {
				var lats [stats.NDirs][]uint64
				lats[stats.Read] = lognormal(r, n, float64(20000*(k+1)))
				lats[stats.Write] = lognormal(r, n/2, 50000)
				for d := range lats {
					whole[d] = append(whole[d], lats[d]...)
				}
				docs = append(docs, jsonPlus(t, "part", ioJob("j", 1000, lats)))
			}
			m, err := Merge(docs)
			if err != nil {
				t.Fatal(err)
			}
			got := jsonPlus(t, "merged", m.Jobs...)
			want := jsonPlus(t, "whole", ioJob("j", 1000, whole))
			if len(got.Jobs) != 1 {
				t.Fatalf("merged %d jobs, want 1", len(got.Jobs))
			}
			checkSame(t, &got.Jobs[0], &want.Jobs[0])
			// Parts run one after the other: runtimes add up.
			busy := 0
			for _, n := range tt.parts {
				if n > 0 {
					busy++
				}
			}
			if rt, want := got.Jobs[0].Report.Stats.Dir[stats.Read].RuntimeUS, uint64(1000*1000*busy); rt != want {
				t.Errorf("merged read runtime %d µs, want %d", rt, want)
			}
		})
	}
}

// TestMergeSideBySide merges the hosts of a client/server document (and
// numjobs clones) as fio's group_reporting does: runtime the longest,
// bandwidth samples summed, latencies pooled.
func TestMergeSideBySide(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	a := ioJob("j", 1000, [stats.NDirs][]uint64{lognormal(r, 3000, 30000)})
	b := ioJob("j", 2000, [stats.NDirs][]uint64{lognormal(r, 2000, 90000)})
	a.Stats.Dir[0].BW = stats.Accum{Min: 10, Max: 20, N: 4, Mean: 15, S: 30}
	b.Stats.Dir[0].BW = stats.Accum{Min: 11, Max: 30, N: 5, Mean: 18, S: 40}
	a.Remote = &output.Remote{Hostname: "h1", Port: 8765}
	b.Remote = &output.Remote{Hostname: "h2", Port: 8765}
	var buf bytes.Buffer
	if err := output.ClientJSON(&buf, &output.Result{Time: time.Unix(1796000000, 0), Jobs: []output.Job{a, b}}, true); err != nil {
		t.Fatal(err)
	}
	d, err := Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !d.Client || len(d.Jobs) != 2 || d.Jobs[1].Host() != "h2" {
		t.Fatalf("client document read as client=%v with %d jobs", d.Client, len(d.Jobs))
	}
	m, err := Merge([]*Document{d})
	if err != nil {
		t.Fatal(err)
	}
	want := a.Stats
	want.Merge(&b.Stats)
	got := jsonPlus(t, "merged", m.Jobs...)
	whole := jsonPlus(t, "whole", output.Job{Name: "j", ClatPercentiles: true, Depth: 1, Stats: want})
	checkSame(t, &got.Jobs[0], &whole.Jobs[0])
	g := got.Jobs[0].Report.Stats.Dir[0]
	if g.RuntimeUS != 2000*1000 || g.BW.Min != 21 || g.BW.Max != 50 || g.BW.N != 9 || !closeTo(g.BW.Mean, 33) {
		t.Errorf("side-by-side runtime %d, bw %+v; want 2000000 and the sums", g.RuntimeUS, g.BW)
	}
}

// TestMergeRoundTrip merges one real document alone: the JSON+ written
// back is the same document, byte for byte.
func TestMergeRoundTrip(t *testing.T) {
	for _, f := range []string{"fio-null-randrw.json", "gofio-null-randrw.json", "fio-null-numjobs2.json"} {
		t.Run(f, func(t *testing.T) {
			path := filepath.Join("testdata", f)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if f == "fio-null-numjobs2.json" {
				// Two clones: keep only the first to round-trip.
				d.Jobs = d.Jobs[:1]
				data = data[:bytes.Index(data, []byte("\n    },\n    {\n"))]
			}
			m, err := Merge([]*Document{d})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := output.JSON(&b, m, true); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b.Bytes(), data) {
				t.Errorf("merged alone, %s is not written back as it was:\n%s", f, b.String())
			}
		})
	}
}

// TestMergeClones merges the two numjobs clones of a real fio document
// (custom percentile list, lat percentiles) into one job whose histograms
// are the sums.
func TestMergeClones(t *testing.T) {
	d, err := ReadFile("testdata/fio-null-numjobs2.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Merge([]*Document{d})
	if err != nil {
		t.Fatal(err)
	}
	got := jsonPlus(t, "merged", m.Jobs...)
	j := got.Jobs[0]
	a, b := d.Jobs[0].Report.Stats.Dir[0], d.Jobs[1].Report.Stats.Dir[0]
	a.ClatHist.Merge(&b.ClatHist)
	a.LatHist.Merge(&b.LatHist)
	s := j.Report.Stats.Dir[0]
	if s.ClatHist != a.ClatHist || s.LatHist != a.LatHist || s.Clat.N != 512 {
		t.Errorf("clone histograms not summed (N %d)", s.Clat.N)
	}
	if !j.Report.LatPercentiles || len(j.Clat[0]) != 2 {
		t.Errorf("lat_percentiles %v, %d clat percentiles; want the document's 50 and 99.999", j.Report.LatPercentiles, len(j.Clat[0]))
	}
	want := stats.Percentiles(&a.ClatHist, 512, []float64{50, 99.999})
	if j.Clat[0][50] != want[0] || j.Clat[0][99.999] != want[1] {
		t.Errorf("merged percentiles %v, want %v", j.Clat[0], want)
	}
}

func TestMergeNeedsBins(t *testing.T) {
	var b bytes.Buffer
	j := ioJob("j", 1000, [stats.NDirs][]uint64{{100, 200, 300}})
	if err := output.JSON(&b, &output.Result{Jobs: []output.Job{j}}, false); err != nil {
		t.Fatal(err)
	}
	d, err := Read(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge([]*Document{d}); err == nil {
		t.Error("merging plain JSON (percentiles without bins) succeeded; want an error asking for json+")
	}
}

func TestReadBad(t *testing.T) {
	for _, in := range []string{"", "no json here", "{\"jobs\": []}", "{ \"fio version\" : \"fio-3.33\", \"jobs\" : [ { \"read\" : { \"clat_ns\" : { \"N\" : 1, \"bins\" : { \"130\" : 1 } } } } ] }"} {
		if _, err := Read([]byte(in)); err == nil {
			t.Errorf("Read(%q) succeeded; want an error", in)
		}
	}
}

// TestMergeRealClient merges the two servers of a real fio client/server
// JSON+ document: the histograms are summed, and the pooled latency
// moments are those fio printed for its own "All clients" sum.
func TestMergeRealClient(t *testing.T) {
	d, err := ReadFile("testdata/fio-client-2servers.json")
	if err != nil {
		t.Fatal(err)
	}
	if !d.Client || len(d.Jobs) != 2 || d.AllClients == nil || d.Jobs[0].Host() == d.Jobs[1].Host() {
		t.Fatalf("read %d jobs (client %v, All clients %v); want two servers' jobs and the sum", len(d.Jobs), d.Client, d.AllClients != nil)
	}
	m, err := Merge([]*Document{d})
	if err != nil {
		t.Fatal(err)
	}
	got := jsonPlus(t, "merged", m.Jobs...)
	if len(got.Jobs) != 1 {
		t.Fatalf("merged into %d jobs, want 1", len(got.Jobs))
	}
	g, all := got.Jobs[0].Report.Stats.Dir[0], d.AllClients.Report.Stats.Dir[0]
	h := d.Jobs[0].Report.Stats.Dir[0].ClatHist
	h.Merge(&d.Jobs[1].Report.Stats.Dir[0].ClatHist)
	if g.ClatHist != h {
		t.Error("merged histogram is not the servers' sum")
	}
	for _, x := range []struct {
		name      string
		got, want *stats.Accum
	}{{"clat", &g.Clat, &all.Clat}, {"lat", &g.Lat, &all.Lat}} {
		if x.got.N != x.want.N || x.got.Min != x.want.Min || x.got.Max != x.want.Max ||
			!closeTo(x.got.Mean, x.want.Mean) || !closeTo(x.got.Stddev(), x.want.Stddev()) {
			t.Errorf("%s: merged %+v (stddev %f), fio's All clients %+v (stddev %f)", x.name, *x.got, x.got.Stddev(), *x.want, x.want.Stddev())
		}
	}
	if g.TotalIOs != all.TotalIOs || g.IOBytes != all.IOBytes || g.RuntimeUS != all.RuntimeUS {
		t.Errorf("merged ios/bytes/runtime %d/%d/%d, fio's All clients %d/%d/%d", g.TotalIOs, g.IOBytes, g.RuntimeUS, all.TotalIOs, all.IOBytes, all.RuntimeUS)
	}
	// Compared with itself, the document matches both servers and the sum.
	c, err := Compare([]*Document{d}, d, nil)
	if err != nil || len(c.Rows) != 3 || c.Rows[2].Job != "All clients" || c.Rows[0].Host == "" {
		t.Errorf("Compare of the client document with itself: %+v, %v", c, err)
	}
}

// TestReadLastDocument reads the final report of a file that holds text
// and several documents (--status-interval prints one per interval).
func TestReadLastDocument(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("notice: something\n")
	for _, n := range []int{10, 20} {
		j := ioJob("j", 1000, [stats.NDirs][]uint64{make([]uint64, n)})
		if err := output.JSON(&b, &output.Result{Jobs: []output.Job{j}}, true); err != nil {
			t.Fatal(err)
		}
		b.WriteString("j: (groupid=0, jobs=1): err= 0\n")
	}
	d, err := Read(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if n := d.Jobs[0].Report.Stats.Dir[0].TotalIOs; n != 20 {
		t.Errorf("read the document with %d I/Os, want the last one's 20", n)
	}
}
