package netio

import (
	"bytes"
	"strings"
	"testing"
)

// TestIOLogGolden decodes an IOLOG captured from a real fio 3.33 server
// that negotiated zlib: a bandwidth log (write_bw_log=bw, log_offset=1,
// log_avg_msec=200) in a zlib stream fio does not terminate.
func TestIOLogGolden(t *testing.T) {
	l, err := DecodeIOLog(readGolden(t, "fio-iolog-zlib.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "bw_bw.1.log" || l.Type != 4 || l.Compressed != 1 || l.Thread != 1 {
		t.Errorf("header: %+v", l)
	}
	var b bytes.Buffer
	if err := l.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if uint64(len(lines)) != l.Samples || l.Samples == 0 {
		t.Fatalf("%d lines for %d samples:\n%s", len(lines), l.Samples, b.String())
	}
	for _, line := range lines {
		// time, value, ddir (read), bs, offset, prio
		if f := strings.Split(line, ", "); len(f) != 6 || f[2] != "0" {
			t.Errorf("line %q: want 6 fields of a read sample", line)
		}
	}
}

// TestIOLogText checks the text of raw records: 32-byte records, and
// 40-byte records with an offset; priorities as fio logs them.
func TestIOLogText(t *testing.T) {
	hdr := le(make([]byte, iologHeader))
	hdr.put64(0, 3)
	hdr.put32(12, 2)
	hdr.putStr(32, 256, "x_clat.1.log")
	rec := func(tm, val uint64, ddir uint32, prio uint16, bs uint64, off ...uint64) []byte {
		r := le(make([]byte, 32+8*len(off)))
		r.put64(0, tm)
		r.put64(8, val)
		r.put32(16, ddir)
		r.put16(20, prio)
		r.put64(24, bs)
		if len(off) > 0 {
			r.put64(32, off[0])
		}
		return r
	}
	p := append([]byte(hdr), rec(100, 21, 1, 0, 4096)...)
	p = append(p, rec(200, 22, 0|SampleOffset, 1<<13|3, 4096, 8192)...)        // RT class, no log_prio: 1
	p = append(p, rec(300, 23, 0|SampleOffset|SamplePrio, 2<<13|4, 512, 0)...) // log_prio: the value
	l, err := DecodeIOLog(p)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := l.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "100, 21, 1, 4096, 0\n200, 22, 0, 4096, 8192, 1\n300, 23, 0, 512, 0, 0x4004\n"
	if b.String() != want {
		t.Errorf("got:\n%swant:\n%s", b.String(), want)
	}
}

// TestIOLogEncode round-trips records through Encode and DecodeIOLog,
// raw and zlib-compressed, and writes a histogram log with coarseness.
func TestIOLogEncode(t *testing.T) {
	var data []byte
	data = AppendSample(data, 100, 5000, 1|SampleOffset, 0, 4096, 8192)
	data = AppendSample(data, 200, 6000, 0|SamplePrio, 0x4003, 4096, 0)
	for _, z := range []bool{false, true} {
		l, err := DecodeIOLog((&IOLog{Samples: 2, Thread: 3, Type: LogBW, Name: "x_bw.3.log", Data: data}).Encode(z))
		if err != nil {
			t.Fatal(err)
		}
		if want := uint32(0); z {
			want = 1
			if l.Compressed != want {
				t.Errorf("zlib %v: compressed %d", z, l.Compressed)
			}
		}
		var b bytes.Buffer
		l.WriteText(&b)
		if want := "100, 5000, 1, 4096, 8192, 0\n200, 6000, 0, 4096, 0x4003\n"; b.String() != want || l.Thread != 3 || l.Name != "x_bw.3.log" {
			t.Errorf("zlib %v: %+v\n%q, want %q", z, l, b.String(), want)
		}
	}
	rec := AppendSample(nil, 300, 0, 1, 0, 4096, 0)
	hist := make([]byte, HistEntrySize)
	for k := range HistBuckets {
		le(hist[16:]).put64(8*k, uint64(k%3))
	}
	l, err := DecodeIOLog((&IOLog{Samples: 1, Type: LogHist, Coarseness: 1, Name: "h_clat_hist.1.log", Data: append(rec, hist...)}).Encode(true))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	l.WriteText(&b)
	f := strings.Split(strings.TrimSuffix(b.String(), "\n"), ", ")
	// Bins of 2 buckets: 0+1, 2+0, 1+2, ...
	if len(f) != 3+HistBuckets/2 || strings.Join(f[:6], ",") != "300,1,4096,1,2,3" {
		t.Errorf("histogram line: %d fields, %v", len(f), f[:min(len(f), 6)])
	}
}
