package output

import (
	"bytes"
	"strings"
	"testing"
)

func bs(n uint64) ([3]uint64, [3]uint64) { return [3]uint64{n, n, n}, [3]uint64{n, n, n} }

func hdr(name string, g int, rw, engine string, depth, clones int) Header {
	lo, hi := bs(4096)
	return Header{Name: name, GroupID: g, RW: rw, BSMin: lo, BSMax: hi, IOEngine: engine, IODepth: depth, Clones: clones}
}

// TestPreamble rebuilds the lines fio printed before each captured run
// (testdata/*.pre) from JobHeader, Version, Starting and LayingOut.
func TestPreamble(t *testing.T) {
	const mib = 1 << 20
	kb := hdr("kb", 0, "randread", "psync", 1, 1)
	kb.BSMin, kb.BSMax = bs(64000)
	kb.KBBase = 1000
	ssKB := hdr("ss", 0, "read", "null", 1, 1)
	ssKB.KBBase = 1000
	slow := hdr("slow", 0, "read", "psync", 1, 1)
	slow.BSMin, _ = bs(4 << 20)
	_, slow.BSMax = bs(64 << 20)
	type lay struct {
		name  string
		files int
		bytes uint64
	}
	tests := []struct {
		name       string
		headers    []Header
		threads    int
		processes  int
		layouts    []lay
		extraLines int // runtime messages after our lines, not ours
	}{
		{"psync_randread", []Header{hdr("psrr", 0, "randread", "psync", 1, 1)}, 0, 1, []lay{{"psrr", 1, 16 * mib}}, 0},
		{"libaio_group", []Header{hdr("aiogrp", 0, "randread", "libaio", 16, 4)}, 0, 4,
			[]lay{{"aiogrp", 1, 16 * mib}, {"aiogrp", 1, 16 * mib}, {"aiogrp", 1, 16 * mib}, {"aiogrp", 1, 16 * mib}}, 0},
		{"libaio_randrw_gtod", []Header{hdr("rwgtod", 0, "randrw", "libaio", 8, 1)}, 0, 1, []lay{{"rwgtod", 1, 16 * mib}}, 0},
		{"numjobs2", []Header{hdr("nj", 0, "randread", "psync", 1, 2)}, 0, 2, []lay{{"nj", 1, 8 * mib}, {"nj", 1, 8 * mib}}, 0},
		{"write_fsync", []Header{hdr("wfs", 0, "write", "psync", 1, 1)}, 0, 1, []lay{{"wfs", 2, 4 * mib}}, 0},
		{"null_pct", []Header{hdr("nullp", 0, "randrw", "null", 4, 1)}, 0, 1, nil, 0},
		{"unified_mixed", []Header{hdr("mix", 0, "randrw", "psync", 1, 1)}, 0, 1, []lay{{"mix", 1, 16 * mib}}, 0},
		{"kb_base1000", []Header{kb}, 0, 1, []lay{{"kb", 1, 16000000}}, 0},
		{"unified_both", []Header{hdr("both", 0, "randrw", "psync", 1, 1)}, 0, 1, []lay{{"both", 1, 16 * mib}}, 0},
		{"terse_v2", []Header{hdr("tv", 0, "randrw", "null", 1, 1)}, 0, 1, nil, 0},
		{"twogroups", []Header{hdr("writer", 0, "write", "psync", 1, 1), hdr("readers", 1, "randread", "psync", 1, 2)}, 2, 1,
			[]lay{{"writer", 2, 4 * mib}, {"readers", 1, 4 * mib}, {"readers", 1, 4 * mib}}, 0},
		{"unit_bits", []Header{hdr("bits", 0, "read", "null", 1, 1)}, 0, 1, nil, 0},
		{"devfull", []Header{hdr("full", 0, "write", "psync", 1, 1)}, 0, 1, nil, 1},
		{"devfull_coe", []Header{hdr("coe", 0, "write", "psync", 1, 1)}, 0, 1, nil, 1},
		{"setup_fail", []Header{hdr("k", 0, "read", "psync", 1, 1)}, 0, 1, nil, 0},
		{"msec_urandom", []Header{slow}, 0, 1, nil, 0},
		{"ss_iops", []Header{hdr("ss", 0, "read", "null", 1, 1)}, 0, 1, nil, 0},
		{"ss_bwslope", []Header{hdr("ss", 0, "read", "null", 1, 1)}, 0, 1, nil, 0},
		{"ss_nan", []Header{ssKB}, 0, 1, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := loadCapture(t, tc.name)
			var b bytes.Buffer
			for _, h := range tc.headers {
				if err := JobHeader(&b, h); err != nil {
					t.Fatal(err)
				}
			}
			Version(&b)
			Starting(&b, tc.threads, tc.processes)
			for _, l := range tc.layouts {
				LayingOut(&b, l.name, l.files, l.bytes)
			}
			want := c.pre
			if tc.extraLines > 0 {
				lines := strings.SplitAfter(want, "\n")
				want = strings.Join(lines[:len(lines)-1-tc.extraLines], "")
			}
			if d := diffText(want, b.String()); d != "" {
				t.Errorf("preamble differs:\n%s", d)
			}
		})
	}
}

func TestJobHeaderForms(t *testing.T) {
	h := Header{Name: "h", RW: "rw", BSMin: [3]uint64{512, 512, 512}, BSMax: [3]uint64{65536, 65536, 65536},
		IOEngine: "null", IODepth: 1}
	h2 := Header{Name: "h", RW: "randrw", BSMin: [3]uint64{4096, 65536}, BSMax: [3]uint64{4096, 65536},
		BSIsSeqRand: true, IOEngine: "null", IODepth: 1}
	h3 := Header{Name: "job1", RW: "randrw", BSMin: [3]uint64{4096, 8192, 1536}, BSMax: [3]uint64{4096, 8192, 1536},
		IOEngine: "psync", IODepth: 1, Clones: 3}
	tests := []struct {
		h    Header
		want string
	}{
		{h, "h: (g=0): rw=rw, bs=(R) 512B-64.0KiB, (W) 512B-64.0KiB, (T) 512B-64.0KiB, ioengine=null, iodepth=1\n"},
		{h2, "h: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 64.0KiB-64.0KiB, bs_is_seq_rand, ioengine=null, iodepth=1\n"},
		{h3, "job1: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 8192B-8192B, (T) 1536B-1536B, ioengine=psync, iodepth=1\n...\n"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		JobHeader(&b, tc.h)
		if b.String() != tc.want {
			t.Errorf("got %q\nwant %q", b.String(), tc.want)
		}
	}
}

func TestStarting(t *testing.T) {
	tests := []struct {
		threads, procs int
		want           string
	}{
		{0, 1, "Starting 1 process\n"},
		{0, 3, "Starting 3 processes\n"},
		{1, 0, "Starting 1 thread\n"},
		{2, 0, "Starting 2 threads\n"},
		{2, 1, "Starting 2 threads and 1 process\n"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		Starting(&b, tc.threads, tc.procs)
		if b.String() != tc.want {
			t.Errorf("Starting(%d, %d) = %q, want %q", tc.threads, tc.procs, b.String(), tc.want)
		}
	}
}

func TestLayingOut(t *testing.T) {
	tests := []struct {
		files int
		bytes uint64
		want  string
	}{
		{1, 32 << 20, "j: Laying out IO file (1 file / 32MiB)\n"},
		{2, 4 << 20, "j: Laying out IO files (2 files / total 4MiB)\n"},
		{1, 65536, "j: Laying out IO file (1 file / 0MiB)\n"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		LayingOut(&b, "j", tc.files, tc.bytes)
		if b.String() != tc.want {
			t.Errorf("got %q, want %q", b.String(), tc.want)
		}
	}
}
