package verify

import (
	"encoding/hex"
	"strings"
	"testing"
)

// fioState is the state file fio 3.33 wrote for
// --name=v --size=32k --bs=4k --rw=write --verify=md5 (8 writes, iodepth 1).
var fioState = "0300000000000000a800000000000000d85a661e00000000" +
	"0100000000000000" + "01000000" + "01000000" + "0800000000000000" + "0000000000000000" +
	strings.Repeat("00", 56) + // random state
	"76" + strings.Repeat("00", 63) + // name
	"0000000000000000" + "0070000000000000" // file 0, offset 28672

func TestStateMarshal(t *testing.T) {
	tr := NewStateTracker(1, 1)
	for i := range 8 {
		tr.Completed(0, int64(i)*4096)
	}
	got := hex.EncodeToString(tr.State("v", 0).Marshal())
	if got != fioState {
		t.Errorf("state file:\n%s\nfio's:\n%s", got, fioState)
	}
	b, _ := hex.DecodeString(fioState)
	s, err := ParseState(b)
	if err != nil || s.Name != "v" || s.NumberIO != 8 || s.Depth != 1 || s.Files != 1 || len(s.Comps) != 1 || s.Comps[0] != (Comp{0, 28672}) {
		t.Errorf("ParseState(fio's file) = %+v, %v", s, err)
	}
}

func TestStateTracker(t *testing.T) {
	tr := NewStateTracker(2, 2)
	for _, w := range []struct {
		file int
		off  int64
	}{{0, 0}, {1, 0}, {0, 4096}, {0, 8192}, {1, 4096}} {
		tr.Completed(w.file, w.off)
	}
	s := tr.State("a", 3)
	want := []Comp{{0, 8192}, {0, 4096}, {1, 4096}, {1, 0}} // newest first, file by file
	if s.NumberIO != 5 || s.JobNum != 3 || len(s.Comps) != len(want) {
		t.Fatalf("state %+v", s)
	}
	for i := range want {
		if s.Comps[i] != want[i] {
			t.Errorf("completion %d: %v, want %v", i, s.Comps[i], want[i])
		}
	}
	// Room for iodepth × files completions, as fio leaves.
	if n := len(NewStateTracker(4, 1).State("a", 0).Marshal()); n != stateHdrLen+stateFixed+4*16 {
		t.Errorf("empty state of iodepth 4: %d bytes", n)
	}
}

func TestParseStateErrors(t *testing.T) {
	good, _ := hex.DecodeString(fioState)
	tests := []struct {
		name string
		edit func(b []byte) []byte
		want string
	}{
		{"short", func(b []byte) []byte { return b[:10] }, "fio: failed reading verify state header"},
		{"version", func(b []byte) []byte { b[0] = 2; return b }, "fio: unsupported (2) version in verify state header"},
		{"crc", func(b []byte) []byte { b[40] ^= 1; return b }, "fio: verify state is corrupt"},
		{"truncated", func(b []byte) []byte { return b[:100] }, "fio: verify state is corrupt"},
	}
	for _, tt := range tests {
		b := append([]byte(nil), good...)
		_, err := ParseState(tt.edit(b))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestStateAllows: the I/Os a job that loaded a state checks, as fio
// 3.33 does (observed with crafted state files, writes of 10 blocks of
// 4 KiB at iodepth 4).
func TestStateAllows(t *testing.T) {
	tests := []struct {
		numberIO uint64
		comps    []uint64
		want     int // I/Os of a sequential read job checked
	}{
		{10, []uint64{20480, 24576, 28672, 36864}, 8},
		{10, []uint64{28672, 32768, 36864, 999424}, 6},
		{10, []uint64{36864, 32768, 28672, 24576}, 10},
		{10, nil, 6},
		{3, []uint64{0, 4096, 8192, 12288}, 4},
		{3, []uint64{4096, 8192, 0}, 3},
	}
	for _, tt := range tests {
		s := &State{Depth: 4, Files: 1, NumberIO: tt.numberIO}
		for _, o := range tt.comps {
			s.Comps = append(s.Comps, Comp{0, o})
		}
		n := 0
		for n < 32 && s.Allows(uint64(n), 0, int64(n)*4096) {
			n++
		}
		if n != tt.want {
			t.Errorf("numberio %d, completions %v: %d checked, want %d", tt.numberIO, tt.comps, n, tt.want)
		}
	}
}

// TestStateRandom: the offset generator's state where fio 3.33 writes it
// (its file of a randwrite job: 3d ad b9 cc f8 27 a3 05 c8 67 7e 13 at
// byte 64; with tausworthe64, use64 at byte 56 and five words at 64).
func TestStateRandom(t *testing.T) {
	s := &State{Depth: 1, Files: 1, RandWords: []uint64{0xccb9ad3d, 0x05a327f8, 0x137e67c8}}
	b := s.Marshal()
	if got := hex.EncodeToString(b[56:80]); got != "00000000000000003dadb9ccf827a305c8677e1300000000" {
		t.Errorf("32-bit state: %s", got)
	}
	s = &State{Depth: 1, Files: 1, RandUse64: true, RandWords: []uint64{1, 2, 3, 4, 5}}
	b = s.Marshal()
	want := "0100000000000000" + "0100000000000000" + "0200000000000000" + "0300000000000000" +
		"0400000000000000" + "0500000000000000" + strings.Repeat("00", 8)
	if got := hex.EncodeToString(b[56:112]); got != want {
		t.Errorf("64-bit state: %s", got)
	}
}
