package main

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// runFioStatus runs real fio with args in dir and returns its exit
// status too.
func runFioStatus(t *testing.T, dir string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(fioBinary(t), args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	} else if err != nil {
		t.Fatalf("fio %v: %v", args, err)
	}
	return 0, out.String(), errb.String()
}

// vsFio runs fio (in a directory of its own) and gofio (in this process)
// with args side by side, for go test's time, and returns fio's exit
// status and output, then gofio's.
func vsFio(t *testing.T, args ...string) (fs int, fout, ferr string, gs int, gout, gerr string) {
	t.Helper()
	fio, dir := fioBinary(t), t.TempDir()
	var err error
	done := make(chan struct{})
	go func() { defer close(done); fs, fout, ferr, err = runInErr(fio, dir, args...) }()
	gs, gout, gerr = gofio(t, args...)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	return fs, fout, ferr, gs, gout, gerr
}

// crcRate is the rate in a --crctest line, which differs from machine to
// machine.
var crcRate = regexp.MustCompile(`(?m)^([a-z0-9-]+:\t+) *\d+\.\d\d MiB/sec$`)

// TestCrcTestVsFio compares --crctest's lines with fio 3.33's, rates
// masked: names, order, tabs, the exit status and the messages for bad
// lists. fio's full run takes about a minute, so the lists are short.
func TestCrcTestVsFio(t *testing.T) {
	for _, list := range []string{"crc7,md5", "crc7,,murmur3", ",sha3-224,fnv", "md5,", "sha512,jhash,crc32c,xxhash", "", "bogus", "crc32c-intel"} {
		args := []string{"--crctest=" + list}
		fs, fout, ferr, gs, gout, gerr := vsFio(t, args...)
		mask := func(s string) string { return crcRate.ReplaceAllString(s, "${1}RATE MiB/sec") }
		if gs != fs || mask(gout) != mask(fout) || gerr != ferr {
			t.Errorf("gofio %v = %d, %q, %q; fio: %d, %q, %q", args, gs, mask(gout), gerr, fs, mask(fout), ferr)
		}
		if fs == 0 && !strings.Contains(gout, "MiB/sec") {
			t.Errorf("gofio %v printed no rate: %q", args, gout)
		}
	}
}

// TestCrcHashes checks the two hashes --crctest times that verify does
// not use against their published test values (MurmurHash3 x86_32;
// lookup3's hashlittle, from its self-test).
func TestCrcHashes(t *testing.T) {
	if got := murmur3([]byte("The quick brown fox jumps over the lazy dog"), 0); got != 0x2e4ff723 {
		t.Errorf("murmur3 = %#x, want 0x2e4ff723", got)
	}
	if got := murmur3(nil, 0); got != 0 {
		t.Errorf("murmur3(empty) = %#x, want 0", got)
	}
	for _, tt := range []struct {
		init uint32
		want uint32
	}{{0, 0x17770551}, {1, 0xcd628161}} {
		if got := jhash([]byte("Four score and seven years ago"), tt.init); got != tt.want {
			t.Errorf("jhash(initval %d) = %#x, want %#x", tt.init, got, tt.want)
		}
	}
}

// memcpyRate is the rate in a --memcpytest line.
var memcpyRate = regexp.MustCompile(`(?m)^(\t\d+ bytes:\t) *\d+\.\d\d MiB/sec$`)

// TestMemcpyTestVsFio compares --memcpytest's lines with fio 3.33's,
// rates masked: the variant's name, one line per size, the exit status
// and fio's message for a bad name (fio takes about 17 s per variant,
// so one variant is run).
func TestMemcpyTestVsFio(t *testing.T) {
	for _, list := range []string{"memmove", "bogus", ""} {
		args := []string{"--memcpytest=" + list}
		fs, fout, ferr, gs, gout, gerr := vsFio(t, args...)
		mask := func(s string) string { return memcpyRate.ReplaceAllString(s, "${1}RATE MiB/sec") }
		if gs != fs || mask(gout) != mask(fout) || gerr != ferr {
			t.Errorf("gofio %v = %d, %q, %q; fio: %d, %q, %q", args, gs, mask(gout), gerr, fs, mask(fout), ferr)
		}
	}
}
