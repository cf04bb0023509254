package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestActPrepJobs checks the jobs of --profile=act --prep (fio 3.33
// crashes on it): per device, a sequential write of 1 MiB zero blocks,
// then, stonewalled, a random write of 4 KiB blocks at iodepth 64 with
// libaio that salts the device; no read/write load and no runtime.
func TestActPrepJobs(t *testing.T) {
	for _, prep := range []string{"", "1", "8"} {
		opts, err := actJobs(profileValues{"device-names": "a.img,b.img", "prep": prep, "test-duration": "5"})
		if err != nil {
			t.Fatalf("prep=%q: %v", prep, err)
		}
		var got []string
		for _, o := range opts {
			if o.set {
				got = append(got, o.name)
			} else {
				got = append(got, o.name+"="+o.value)
			}
		}
		want := []string{"direct=1", "ioengine=sync", "random_generator=lfsr", "group_reporting=1", "thread"}
		for _, d := range []string{"a.img", "b.img"} {
			want = append(want,
				"name=act-prep-zeroes-"+d, "filename="+d, "bs=1048576", "zero_buffers", "rw=write",
				"name=act-prep-salt-"+d, "stonewall", "filename="+d, "bs=4096", "ioengine=libaio", "iodepth=64", "rw=randwrite")
		}
		if !slices.Equal(got, want) {
			t.Errorf("prep=%q:\n got %q\nwant %q", prep, got, want)
		}
	}
	// prep=0 is the test itself.
	opts, err := actJobs(profileValues{"device-names": "a.img", "prep": "0"})
	if err != nil || !slices.Contains(opts, profileOpt{name: "name", value: "act-read-a.img"}) {
		t.Errorf("prep=0: %v, %v; want the act jobs", opts, err)
	}
}

// TestActPrepRun runs ACT's prep on an 8 MiB file: the zero pass and the
// salt pass each write all of it, the salt leaves no 4 KiB block zero
// (each is written once, with random data), and no latency table is
// printed (nothing was measured).
func TestActPrepRun(t *testing.T) {
	dev := filepath.Join(t.TempDir(), "act.img")
	if err := os.WriteFile(dev, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	const size = 8 << 20
	if err := os.Truncate(dev, size); err != nil {
		t.Fatal(err)
	}
	status, out, errs := gofio(t, "--profile=act", "--device-names="+dev, "--prep", "--output-format=json")
	if status != 0 || strings.Contains(out+errs, "act: test complete") {
		t.Fatalf("gofio = %d, stderr %q:\n%s", status, errs, out)
	}
	var rep struct {
		Jobs []struct {
			Name  string `json:"jobname"`
			Error int    `json:"error"`
			Write struct {
				Bytes int64 `json:"io_bytes"`
			} `json:"write"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	var got []string
	for _, j := range rep.Jobs {
		if j.Error != 0 || j.Write.Bytes != size {
			t.Errorf("job %s: error %d, wrote %d bytes; want 0, %d", j.Name, j.Error, j.Write.Bytes, size)
		}
		got = append(got, j.Name)
	}
	if want := []string{"act-prep-zeroes-" + dev, "act-prep-salt-" + dev}; !slices.Equal(got, want) {
		t.Errorf("jobs %q, want %q", got, want)
	}
	data, err := os.ReadFile(dev)
	if err != nil {
		t.Fatal(err)
	}
	zero := make([]byte, 4096)
	for off := 0; off < len(data); off += 4096 {
		if bytes.Equal(data[off:off+4096], zero) {
			t.Errorf("block at %d is still zero after the salt pass", off)
			break
		}
	}
}
