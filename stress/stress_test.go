package main

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestExtractCommands(t *testing.T) {
	doc := strings.Join([]string{
		"[root@DS13IOTEST ~]# fio --version",
		"fio-2.1.10",
		"[root@toolbox /]# fio --name=randread --ioengine=libaio --size=512M --numjobs=4",
		"randread: (g=0): rw=randread, bs=(R) 4096B-4096B",
		"  fio --name=seq --readwrite=read –group_reporting   ",
		"fio --randrepeat=1 --name=test --filename=rw.fio --bs=4k",
		"root@5969d1894047 /# yum install fio -y",
		"fio 是用来测试磁盘 IOPS 的工具",
		"$ fio --name=randread --ioengine=libaio --size=512M --numjobs=4", // a repeat
		"$ fio --filename=/dev/sdb --rw=read",                             // no --name
	}, "\n")
	got := extractCommands("doc", doc)
	want := []seedCmd{
		{"doc", "randread", []string{"--name=randread", "--ioengine=libaio", "--size=512M", "--numjobs=4"}},
		{"doc", "seq", []string{"--name=seq", "--readwrite=read", "–group_reporting"}},
		{"doc", "test", []string{"--randrepeat=1", "--name=test", "--filename=rw.fio", "--bs=4k"}},
		{"doc", "cmd4", []string{"--filename=/dev/sdb", "--rw=read"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("extractCommands:\n got %q\nwant %q", got, want)
	}
}

// The repository's seed file gives the seed documents' nine command lines.
func TestLoadSeeds(t *testing.T) {
	cmds, err := loadSeeds("seeds/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	want := "seq_read_bw seq_write_bw seq_read_iops seq_write_iops rnd_read_iops rnd_write_iops randread randwrite test"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("seed commands %q; want %q", got, want)
	}
}

func TestPrepare(t *testing.T) {
	lim := limits{maxSize: 32 << 20, maxRuntime: 5, maxBuffers: 256 << 20}
	tests := []struct {
		name    string
		args    string
		want    string
		runtime int
		changes string
	}{
		{"seed 002, 1M",
			"--name=a --directory=/mnt/x --blocksize=1M --filesize=10G --numjobs=8 --iodepth=1024 --runtime=60 --time_based=1",
			"--name=a --directory=/tmp/d --blocksize=1M --filesize=32M --numjobs=8 --iodepth=32 --runtime=5 --time_based=1 --output-format=json",
			5, "filesize=10G→32M, runtime=60→5, iodepth=1024→32 (buffers)"},
		{"within the limits: as written",
			"--name=b --bs=4k --size=16m --numjobs=2 --iodepth=16 --runtime=3 --output-format=normal –group_reporting",
			"--name=b --bs=4k --size=16m --numjobs=2 --iodepth=16 --runtime=3 –group_reporting --output-format=json",
			3, ""},
		{"no iodepth: depth 1",
			"--name=c --size=4G --io_size=64M",
			"--name=c --size=32M --io_size=32M --output-format=json",
			0, "size=4G→32M, io_size=64M→32M"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := prepare(seedCmd{name: "x", args: strings.Fields(tt.args)}, "/tmp/d", lim)
			if got := strings.Join(r.args, " "); got != tt.want {
				t.Errorf("args\n got %s\nwant %s", got, tt.want)
			}
			if r.runtime != tt.runtime {
				t.Errorf("runtime %d; want %d", r.runtime, tt.runtime)
			}
			if got := strings.Join(r.changes, ", "); got != tt.changes {
				t.Errorf("changes %q; want %q", got, tt.changes)
			}
		})
	}
}

func TestFixDashes(t *testing.T) {
	c, ok := fixDashes(seedCmd{name: "w", args: []string{"--name=w", "–group_reporting", "—time_based=1"}})
	if !ok || c.name != "w+dashes" || strings.Join(c.args, " ") != "--name=w --group_reporting --time_based=1" {
		t.Errorf("fixDashes = %q, %v", c, ok)
	}
	if _, ok := fixDashes(seedCmd{args: []string{"--name=w", "-x"}}); ok {
		t.Error("fixDashes found dashes in ASCII options")
	}
}

func TestParseNum(t *testing.T) {
	for in, want := range map[string]uint64{"4k": 4096, "4K": 4096, "1M": 1 << 20, "10G": 10 << 30, "512MiB": 512 << 20, "1024": 1024, "x": 7, "": 7} {
		if got := parseNum(in, 7); got != want {
			t.Errorf("parseNum(%q) = %d; want %d", in, got, want)
		}
	}
}

func TestParseMetrics(t *testing.T) {
	out := "fio: some message\n{\n \"jobs\": [\n" +
		`{"read": {"iops": 100.5, "bw_bytes": 1000}, "write": {"iops": 50, "bw_bytes": 500}, "trim": {"iops": 0, "bw_bytes": 0}},` +
		`{"read": {"iops": 10, "bw_bytes": 100}}` + "]}\n"
	m, err := parseMetrics([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if m != (metrics{iops: 160.5, bw: 1600}) {
		t.Errorf("parseMetrics = %+v", m)
	}
	for _, bad := range []string{"", "fio: unable to open job file\n", `{"jobs": []}`, `{"jobs": [`} {
		if _, err := parseMetrics([]byte(bad)); err == nil {
			t.Errorf("parseMetrics(%q): no error", bad)
		}
	}
}

func TestJudge(t *testing.T) {
	base := metrics{iops: 1000, bw: 4e6}
	tests := []struct {
		got  metrics
		want string // a part of the verdict; "" for none
	}{
		{metrics{iops: 1000, bw: 4e6}, ""},
		{metrics{iops: 501, bw: 2.1e6}, ""},  // just within 2×
		{metrics{iops: 1999, bw: 7.9e6}, ""}, // just within 2×
		{metrics{iops: 499, bw: 4e6}, "IOPS 499 vs 1000 unloaded (×0.50)"},
		{metrics{iops: 1000, bw: 9e6}, "bw 9e+06 vs 4e+06 unloaded (×2.25)"},
		{metrics{}, "IOPS 0 vs 1000"},
	}
	for _, tt := range tests {
		got := judge(base, tt.got)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("judge(%+v) = %q; want %q", tt.got, got, tt.want)
		}
	}
	if got := judge(metrics{}, metrics{iops: 5}); got != "" {
		t.Errorf("judge against a zero baseline = %q; want nothing", got)
	}
}

func TestReadTestEvents(t *testing.T) {
	stream := strings.Join([]string{
		`# github.com/x/broken`,
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"pass","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestB/sub","Output":"    b_test.go:9: a/b = 1.715\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestB/sub"}`,
		`{"Action":"fail","Package":"p","Test":"TestB"}`,
		`{"Action":"skip","Package":"p","Test":"TestC"}`,
		`{"Action":"fail","Package":"p"}`,
		`{"Action":"output","Package":"q","Output":"panic: test timed out after 30m0s\n"}`,
		`{"Action":"fail","Package":"q"}`,
		`{"Action":"pass","Package":"r"}`,
	}, "\n")
	s, err := readTestEvents(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	if s.passed != 1 || s.failed != 2 || s.skipped != 1 {
		t.Errorf("passed %d, failed %d, skipped %d; want 1, 2, 1", s.passed, s.failed, s.skipped)
	}
	want := []testFailure{
		{"p", "TestB/sub", "    b_test.go:9: a/b = 1.715\n"},
		{"p", "TestB", ""},
		{"q", "", "panic: test timed out after 30m0s\n"},
	}
	if !reflect.DeepEqual(s.failures, want) {
		t.Errorf("failures\n got %q\nwant %q", s.failures, want)
	}
}

func TestStatusField(t *testing.T) {
	st := "Name:\tfio\nVmHWM:\t   30000 kB\nVmRSS:\t   29596 kB\n"
	if got := statusField(st, "VmRSS:"); got != 29596 {
		t.Errorf("VmRSS = %d", got)
	}
	if got := statusField(st, "VmSwap:"); got != 0 {
		t.Errorf("VmSwap = %d; want 0 (absent)", got)
	}
}

// A run past its limit is killed with its whole process group and marked
// hung; the children's resident sets are summed.
func TestRunMeasured(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	o, err := runMeasured(t.TempDir(), "/bin/sh", []string{"-c", "sleep 60 & sleep 60 & wait"}, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if !o.hung || o.status != 128+9 {
		t.Errorf("hung %v, status %d; want a hang killed by SIGKILL", o.hung, o.status)
	}
	if o.wall > 20*time.Second {
		t.Errorf("took %v to kill", o.wall)
	}
	if o.peakRSS == 0 {
		t.Error("no RSS measured")
	}
	o, err = runMeasured(t.TempDir(), "/bin/sh", []string{"-c", "echo hi; exit 3"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if o.hung || o.status != 3 || string(o.stdout) != "hi\n" {
		t.Errorf("hung %v, status %d, stdout %q; want exit 3 and hi", o.hung, o.status, o.stdout)
	}
}
