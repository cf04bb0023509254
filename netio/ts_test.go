package netio

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// readGolden reads a payload captured from a real fio 3.33 server
// (testdata/fio-*: the TS, GS and first JOB_OPT of a null-engine randrw
// job with lat_percentiles=1, 1 MiB in 4 KiB blocks).
func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if len(name) > 3 && name[len(name)-3:] == ".gz" {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return data
}

// TestTSGolden decodes fio's own TS and re-encodes it: every byte must
// come back, except the fields gofio's model does not carry.
func TestTSGolden(t *testing.T) {
	p := readGolden(t, "fio-ts.bin.gz")
	ts, err := DecodeTS(p)
	if err != nil {
		t.Fatal(err)
	}
	j := &ts.Job
	checks := []struct {
		what      string
		got, want any
	}{
		{"name", j.Name, "cap"},
		{"thread", ts.Thread, 1},
		{"members", j.Stats.Members, 1},
		{"read+write bytes", j.Stats.Dir[0].IOBytes + j.Stats.Dir[1].IOBytes, uint64(1 << 20)},
		{"ios", j.Stats.Dir[0].TotalIOs + j.Stats.Dir[1].TotalIOs, uint64(256)},
		{"clat samples", j.Stats.Dir[0].Clat.N, j.Stats.Dir[0].TotalIOs},
		{"lat_percentiles", j.LatPercentiles, true},
		{"clat_percentiles", j.ClatPercentiles, true},
		{"default list", j.Percentiles == nil, true},
		{"kb_base", j.KBBase, 1024},
		{"sig_figs", j.SigFigs, 4},
		{"depth", j.Depth, 1},
		{"latency percentile", j.LatencyPercentile, 100.0},
		{"group kb_base", ts.Group.KBBase, 1024},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	var hist uint64
	for _, c := range j.Stats.Dir[0].ClatHist {
		hist += c
	}
	if hist != j.Stats.Dir[0].Clat.N {
		t.Errorf("read clat histogram holds %d samples, want %d", hist, j.Stats.Dir[0].Clat.N)
	}

	back := EncodeTS(j, ts.Thread, &ts.Group)
	// Not in gofio's model: ss_* and the fields after latency_window
	// other than sig_figs (ioprio, offsets, cachehit/miss), block_infos.
	skip := func(off int) bool {
		return off >= 183732 && off < tsSize || off >= 150904 && off < 183680
	}
	n := 0
	for i := range p {
		if p[i] != back[i] && !skip(i) {
			t.Errorf("re-encoded TS differs at offset %d: %#x, fio sent %#x", i, back[i], p[i])
			if n++; n == 10 {
				break
			}
		}
	}
}

func TestGSGolden(t *testing.T) {
	p := readGolden(t, "fio-gs.bin")
	g, err := DecodeGS(p)
	if err != nil {
		t.Fatal(err)
	}
	if back := EncodeGS(&g); !bytes.Equal(back, p) {
		t.Errorf("re-encoded GS:\n% x\nfio sent:\n% x", back, p)
	}
}

func TestJobOptGolden(t *testing.T) {
	p := readGolden(t, "fio-jobopt.bin")
	o, err := DecodeJobOpt(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := (JobOpt{Global: true, Name: "ioengine", Value: "null"}); o != want {
		t.Errorf("JOB_OPT = %+v, want %+v", o, want)
	}
	if back := o.Encode(); !bytes.Equal(back, p) {
		t.Errorf("re-encoded JOB_OPT:\n% x\nfio sent:\n% x", back, p)
	}
}

// TestTSZoneResets checks that the zone resets travel where fio 3.33 puts
// nr_zone_resets (checked against a real fio server and client with a
// zonemode=zbd job).
func TestTSZoneResets(t *testing.T) {
	ts, err := DecodeTS(readGolden(t, "fio-ts.bin.gz"))
	if err != nil {
		t.Fatal(err)
	}
	ts.Job.Stats.ZoneResets = 7
	p := EncodeTS(&ts.Job, ts.Thread, &ts.Group)
	if got := le(p).u64(150896); got != 7 {
		t.Errorf("nr_zone_resets = %d, want 7", got)
	}
	back, err := DecodeTS(p)
	if err != nil {
		t.Fatal(err)
	}
	if back.Job.Stats.ZoneResets != 7 {
		t.Errorf("decoded zone resets = %d, want 7", back.Job.Stats.ZoneResets)
	}
}
