package netio

import (
	"reflect"
	"testing"
	"time"
)

// TestCommandsRoundTrip encodes and decodes every small command.
func TestCommandsRoundTrip(t *testing.T) {
	pr := ProbeRequest{Zlib: true, Server: "127.0.0.1"}
	if got, err := DecodeProbeRequest(pr.Encode()); err != nil || got != pr {
		t.Errorf("PROBE request: %+v, %v", got, err)
	}
	rep := ProbeReply{Hostname: "vm", FioVersion: "fio-3.33", OS: 1, Arch: 1, BPP: 8, CPUs: 2, Flags: 1}
	if got, err := DecodeProbeReply(rep.Encode()); err != nil || got != rep {
		t.Errorf("PROBE reply: %+v, %v", got, err)
	}
	if got, want := rep.Line(), "hostname=vm, be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.33, flags=1"; got != want {
		t.Errorf("probe line %q, want %q", got, want)
	}
	if got, err := DecodeJob(EncodeJob("[j]\nrw=read\n")); err != nil || got != "[j]\nrw=read\n" {
		t.Errorf("JOB: %q, %v", got, err)
	}
	argv := []string{"fio", "--output-format=json", ""}
	if got, err := DecodeJobLine(EncodeJobLine(argv)); err != nil || !reflect.DeepEqual(got, argv) {
		t.Errorf("JOBLINE: %q, %v", got, err)
	}
	if got, err := DecodeLoadFile(EncodeLoadFile("a.fio")); err != nil || got != "a.fio" {
		t.Errorf("LOAD_FILE: %q, %v", got, err)
	}
	if lvl, s, err := DecodeText(EncodeText(LevelError, "x\n", time.Now())); err != nil || lvl != LevelError || s != "x\n" {
		t.Errorf("TEXT: %d %q %v", lvl, s, err)
	}
	if a, b, err := DecodePair(EncodePair(3, 2)); err != nil || a != 3 || b != 2 {
		t.Errorf("START: %d %d %v", a, b, err)
	}
	o := JobOpt{Report: 2, Name: "rw", Value: "randread"}
	if got, err := DecodeJobOpt(o.Encode()); err != nil || got != o {
		t.Errorf("JOB_OPT: %+v, %v", got, err)
	}
	e := ETA{Running: 1, RateKiB: [3]uint64{692750}, IOPS: [3]uint32{173187}, ElapsedSec: 1, ETASec: ETAUnknown, IsPow2: 1, UnitBase: 4, SigFigs: 4, FilesOpen: 1, Threads: 1, RunStr: "R(1)"}
	p := e.Encode()
	if len(p) != 173 {
		t.Errorf("ETA payload %d bytes, want 173 (fio's for R(1))", len(p))
	}
	if got, err := DecodeETA(p); err != nil || got != e {
		t.Errorf("ETA: %+v, %v", got, err)
	}
	if n := len(ETA{}.Encode()); n != 168 {
		t.Errorf("empty ETA %d bytes, want 168", n)
	}
	// Length fields pointing past the payload are refused.
	bad := EncodeText(LevelInfo, "abc", time.Now())
	le(bad).put32(4, 100)
	if _, _, err := DecodeText(bad); err == nil {
		t.Error("TEXT with buf_len past the payload: no error")
	}
}

func TestParseAddr(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Addr
		err  bool
	}{
		{"", Addr{Network: "tcp4", Port: 8765}, false}, // wildcard, default port
		{"localhost", Addr{Network: "tcp4", Host: "localhost", Port: 8765}, false},
		{"ip:1.2.3.4,4444", Addr{Network: "tcp4", Host: "1.2.3.4", Port: 4444}, false},
		{"ip4:h,1", Addr{Network: "tcp4", Host: "h", Port: 1}, false},
		{"ip6:::1,4444", Addr{Network: "tcp6", Host: "::1", Port: 4444}, false}, // first comma splits
		{",4444", Addr{Network: "tcp4", Port: 4444}, false},
		{":4444", Addr{Network: "tcp4", Port: 4444}, false},
		{"sock:/tmp/s", Addr{Network: "unix", Path: "/tmp/s", Port: 8765}, false},
		{"h,0", Addr{}, true},      // fio: bad server port 0
		{"h,70000", Addr{}, true},  // out of range
		{"::1,8767", Addr{}, true}, // IPv6 needs ip6: (read as ":PORT")
	} {
		got, err := ParseAddr(c.in)
		if (err != nil) != c.err || !c.err && got != c.want {
			t.Errorf("ParseAddr(%q) = %+v, %v; want %+v, error %v", c.in, got, err, c.want, c.err)
		}
	}
}
