package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Two real fio 3.33 normal reports of the same job
// (--name=randwrite --ioengine=libaio --iodepth=1 --rw=randwrite --bs=4k
// --direct=0 --size=16M --numjobs=2 --runtime=240 --group_reporting):
// different numbers, units, percentile row counts and latency buckets.
const normalA = `randwrite: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=1
...
fio-3.33
Starting 2 processes
randwrite: Laying out IO file (1 file / 16MiB)
randwrite: Laying out IO file (1 file / 16MiB)

randwrite: (groupid=0, jobs=2): err= 0: pid=10375: Sun Nov 29 19:58:06 2026
  write: IOPS=482k, BW=1882MiB/s (1974MB/s)(32.0MiB/17msec); 0 zone resets
    slat (nsec): min=1274, max=4173.5k, avg=3379.09, stdev=64945.01
    clat (nsec): min=183, max=6421, avg=247.82, stdev=249.33
     lat (nsec): min=1464, max=4177.6k, avg=3626.91, stdev=65015.76
    clat percentiles (nsec):
     |  1.00th=[  189],  5.00th=[  191], 10.00th=[  193], 20.00th=[  197],
     | 30.00th=[  199], 40.00th=[  201], 50.00th=[  205], 60.00th=[  207],
     | 70.00th=[  211], 80.00th=[  217], 90.00th=[  229], 95.00th=[  450],
     | 99.00th=[  796], 99.50th=[ 1080], 99.90th=[ 3728], 99.95th=[ 4320],
     | 99.99th=[ 6432]
  lat (nsec)   : 250=91.88%, 500=3.33%, 750=2.05%, 1000=2.16%
  lat (usec)   : 2=0.16%, 4=0.33%, 10=0.09%
  cpu          : usr=0.00%, sys=70.00%, ctx=3, majf=0, minf=19
  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%
     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
     issued rwts: total=0,8192,0,0 short=0,0,0,0 dropped=0,0,0,0
     latency   : target=0, window=0, percentile=100.00%, depth=1

Run status group 0 (all jobs):
  WRITE: bw=1882MiB/s (1974MB/s), 1882MiB/s-1882MiB/s (1974MB/s-1974MB/s), io=32.0MiB (33.6MB), run=17-17msec

Disk stats (read/write):
  vda: ios=0/0, merge=0/0, ticks=0/0, in_queue=0, util=0.00%
`

const normalB = `randwrite: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=1
...
fio-3.33
Starting 2 processes
randwrite: Laying out IO file (1 file / 16MiB)
randwrite: Laying out IO file (1 file / 16MiB)

randwrite: (groupid=0, jobs=2): err= 0: pid=10207: Sun Nov 29 19:58:03 2026
  write: IOPS=328k, BW=1280MiB/s (1342MB/s)(32.0MiB/25msec); 0 zone resets
    slat (nsec): min=1312, max=5503.8k, avg=3990.56, stdev=79022.40
    clat (nsec): min=193, max=4045.5k, avg=1009.45, stdev=50586.16
     lat (nsec): min=1526, max=5507.1k, avg=5000.02, stdev=93860.30
    clat percentiles (nsec):
     |  1.00th=[    197],  5.00th=[    201], 10.00th=[    203],
     | 20.00th=[    205], 30.00th=[    207], 40.00th=[    209],
     | 50.00th=[    211], 60.00th=[    213], 70.00th=[    215],
     | 80.00th=[    217], 90.00th=[    231], 95.00th=[    458],
     | 99.00th=[    796], 99.50th=[   1320], 99.90th=[   4640],
     | 99.95th=[   5408], 99.99th=[4046848]
  lat (nsec)   : 250=92.86%, 500=2.21%, 750=0.78%, 1000=3.53%
  lat (usec)   : 2=0.13%, 4=0.37%, 10=0.10%
  lat (msec)   : 4=0.01%, 10=0.01%
  cpu          : usr=22.73%, sys=25.00%, ctx=8, majf=0, minf=19
  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%
     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
     issued rwts: total=0,8192,0,0 short=0,0,0,0 dropped=0,0,0,0
     latency   : target=0, window=0, percentile=100.00%, depth=1

Run status group 0 (all jobs):
  WRITE: bw=1280MiB/s (1342MB/s), 1280MiB/s-1280MiB/s (1342MB/s-1342MB/s), io=32.0MiB (33.6MB), run=25-25msec

Disk stats (read/write):
  vda: ios=0/0, merge=0/0, ticks=0/0, in_queue=0, util=0.00%
`

// A real fio 3.33 terse line (psync randread, 1 MiB, one disk).
const terseLine = `3;fio-3.33;psync;0;0;1024;19320;4830;53;0;0;0.000000;0.000000;54;643;203.955195;132.698546;1.000000%=62;5.000000%=72;10.000000%=78;20.000000%=82;30.000000%=84;40.000000%=86;50.000000%=120;60.000000%=284;70.000000%=305;80.000000%=329;90.000000%=378;95.000000%=415;99.000000%=477;99.500000%=522;99.900000%=643;99.950000%=643;99.990000%=643;0%=0;0%=0;0%=0;54;643;204.023039;132.713380;0;0;0.000000%;0.000000;0.000000;0;0;0;0;0;0;0.000000;0.000000;0;0;0.000000;0.000000;1.000000%=0;5.000000%=0;10.000000%=0;20.000000%=0;30.000000%=0;40.000000%=0;50.000000%=0;60.000000%=0;70.000000%=0;80.000000%=0;90.000000%=0;95.000000%=0;99.000000%=0;99.500000%=0;99.900000%=0;99.950000%=0;99.990000%=0;0%=0;0%=0;0%=0;0;0;0.000000;0.000000;0;0;0.000000%;0.000000;0.000000;7.692308%;9.615385%;256;0;10;100.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.00%;0.00%;0.00%;0.00%;0.00%;49.61%;5.47%;44.14%;0.78%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;vda;0;0;0;0;0;0;0;0.00%
`

func TestMaskNormalSameJobSameSkeleton(t *testing.T) {
	a, b := MaskNormal(normalA), MaskNormal(normalB)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("skeletons differ (-A +B):\n%s", diff)
	}
}

func TestMaskNormalRules(t *testing.T) {
	want := []string{
		"randwrite: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=1",
		"...",
		"fio-3.33",
		"Starting 2 processes",
		"randwrite: Laying out IO file (1 file / 16MiB)",
		"randwrite: Laying out IO file (1 file / 16MiB)",
		"",
		"randwrite: (groupid=#, jobs=#): err=#: pid=#: <date>",
		"  write: IOPS=#, BW=# (#)(#/#); # zone resets",
		"    slat (U): min=#, max=#, avg=#, stdev=#",
		"    clat (U): min=#, max=#, avg=#, stdev=#",
		"     lat (U): min=#, max=#, avg=#, stdev=#",
		"    clat percentiles (U):",
		"     | 17 percentiles",
		"  lat (U) : <distribution>",
		"  cpu : usr=#, sys=#, ctx=#, majf=#, minf=#",
		"  IO depths : #=#, #=#, #=#, #=#, #=#, #=#, >=#=#",
		"     submit : #=#, #=#, #=#, #=#, #=#, #=#, >=#=#",
		"     complete : #=#, #=#, #=#, #=#, #=#, #=#, >=#=#",
		"     issued rwts: total=#,#,#,# short=#,#,#,# dropped=#,#,#,#",
		"     latency : target=#, window=#, percentile=#, depth=#",
		"",
		"Run status group # (all jobs):",
		"  WRITE: bw=# (#), #-# (#-#), io=# (#), run=#-#",
		"",
		"Disk stats (read/write):",
		"  vda: ios=#/#, merge=#/#, ticks=#/#, in_queue=#, util=#",
	}
	if diff := cmp.Diff(want, MaskNormal(normalA)); diff != "" {
		t.Errorf("skeleton (-want +got):\n%s", diff)
	}
}

func TestMaskNormalDetectsChanges(t *testing.T) {
	base := MaskNormal(normalA)
	for _, tc := range []struct{ name, old, new string }{
		{"label", "IOPS=482k", "iops=482k"},
		{"missing line", "     lat (nsec): min=1464, max=4177.6k, avg=3626.91, stdev=65015.76\n", ""},
		{"indentation", "\n  cpu ", "\n   cpu "},
		{"percentile count", " 99.99th=[ 6432]", ""},
		{"device name", "  vda:", "  vdb:"},
		{"separator", "ctx=3, majf=0", "ctx=3 majf=0"},
		{"preamble", "Starting 2 processes", "Starting 2 threads"},
	} {
		changed := strings.Replace(normalA, tc.old, tc.new, 1)
		if changed == normalA {
			t.Fatalf("%s: fixture lacks %q", tc.name, tc.old)
		}
		if cmp.Equal(base, MaskNormal(changed)) {
			t.Errorf("%s: change not detected", tc.name)
		}
	}
}

func TestMaskNumbers(t *testing.T) {
	for in, want := range map[string]string{
		"IOPS=37.1k, BW=145MiB/s (152MB/s)(64.0MiB/442msec)": "IOPS=#, BW=# (#)(#/#)",
		"run=2032-2032msec":               "run=#-#",
		">=64=99.9%":                      ">=#=#",
		"|  1.00th=[ 1188]":               "|  #=[ #]",
		"nvme0n1: ios=1/2":                "nvme0n1: ios=#/#",
		"dm-0: util=91.17%":               "dm-#: util=#",
		"per=-42.34%":                     "per=#",
		"bw=1882MiB/s, 1882MiB/s-1882MiB": "bw=#, #-#",
		"io=8332KiB (8532kB)":             "io=# (#)",
	} {
		if got := maskNumbers(in); got != want {
			t.Errorf("maskNumbers(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMaskNormalSampleLines(t *testing.T) {
	withBW := strings.Replace(normalA, "\n  lat (nsec)   :", "\n   bw (  MiB/s): min= 1225, max= 1873, per=97.04%, avg=1525.27, stdev=41.78, samples=28\n"+
		"   iops        : min=313615, max=479733, avg=390468.25, stdev=10696.16, samples=28\n  lat (nsec)   :", 1)
	sk := MaskNormal(withBW)
	if n := count(sk, IsSampleLine); n != 2 {
		t.Fatalf("%d sample lines, want 2:\n%s", n, strings.Join(sk, "\n"))
	}
	for _, l := range sk {
		if IsSampleLine(l) && !strings.Contains(l, "samples=#") {
			t.Errorf("sample line not masked: %q", l)
		}
	}
	if diff := cmp.Diff(MaskNormal(normalA), DropSampleLines(sk)); diff != "" {
		t.Errorf("DropSampleLines (-want +got):\n%s", diff)
	}
}

const smallJSON = `{
  "fio version" : "fio-3.33",
  "jobs" : [
    {
      "jobname" : "x",
      "groupid" : 0,
      "job options" : {
        "name" : "x",
        "bs" : "4k",
        "bs" : "8k"
      },
      "read" : {
        "io_bytes" : 4096,
        "total_ios" : 1,
        "iops" : 1.000000,
        "clat_ns" : {
          "N" : 1,
          "percentile" : {
            "1.000000" : 528384,
            "50.000000" : 528384
          },
          "bins" : {
            "528384" : 1
          }
        }
      }
    }
  ],
  "disk_util" : [
    {
      "name" : "vda",
      "util" : 0.000000
    }
  ]
}
`

func TestKeyTree(t *testing.T) {
	n, err := ParseJSON([]byte(smallJSON))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/ object",
		"/fio version string",
		"/jobs array[1]",
		"/jobs[0] object",
		"/jobs[0]/jobname string",
		"/jobs[0]/groupid int",
		"/jobs[0]/job options object",
		"/jobs[0]/job options/name string",
		"/jobs[0]/job options/bs string",
		"/jobs[0]/job options/bs string",
		"/jobs[0]/read object",
		"/jobs[0]/read/io_bytes int",
		"/jobs[0]/read/total_ios int",
		"/jobs[0]/read/iops float",
		"/jobs[0]/read/clat_ns object",
		"/jobs[0]/read/clat_ns/N int",
		"/jobs[0]/read/clat_ns/percentile map[2] float-keys->int",
		"/jobs[0]/read/clat_ns/bins map float-keys->int",
		"/disk_util array[1]",
		"/disk_util[0] object",
		"/disk_util[0]/name string",
		"/disk_util[0]/util float",
	}
	if diff := cmp.Diff(want, KeyTree(n)); diff != "" {
		t.Errorf("KeyTree (-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"removed key", "\"groupid\" : 0,\n", ""},
		{"int became float", "\"total_ios\" : 1,", "\"total_ios\" : 1.000000,"},
		{"order", "\"io_bytes\" : 4096,\n        \"total_ios\" : 1,", "\"total_ios\" : 1,\n        \"io_bytes\" : 4096,"},
		{"percentile count", "\"1.000000\" : 528384,\n", ""},
		{"string number", "\"groupid\" : 0", "\"groupid\" : \"0\""},
	} {
		changed := strings.Replace(smallJSON, tc.old, tc.new, 1)
		if changed == smallJSON {
			t.Fatalf("%s: fixture lacks %q", tc.name, tc.old)
		}
		m, err := ParseJSON([]byte(changed))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if cmp.Equal(KeyTree(n), KeyTree(m)) {
			t.Errorf("%s: change not detected", tc.name)
		}
	}
	// The number of bins is data, not structure.
	m, _ := ParseJSON([]byte(strings.Replace(smallJSON, "\"528384\" : 1", "\"528384\" : 1,\n \"600000\" : 2", 1)))
	if diff := cmp.Diff(KeyTree(n), KeyTree(m)); diff != "" {
		t.Errorf("bins count changed the tree:\n%s", diff)
	}
}

func TestParseJSONOneDocument(t *testing.T) {
	for _, bad := range []string{
		"",
		"fio: pid=1, err=28\n{}\n",
		"{}\n{}\n",
		"{}\nx",
		"{\"a\" : 1",
	} {
		if _, err := ParseJSON([]byte(bad)); err == nil {
			t.Errorf("ParseJSON(%q) accepted", bad)
		}
	}
	if _, err := ParseJSON([]byte("{\n}\n\n")); err != nil {
		t.Errorf("trailing white space rejected: %v", err)
	}
}

func TestDeterministicJSON(t *testing.T) {
	n, err := ParseJSON([]byte(strings.Replace(smallJSON, `"name" : "x",`, `"name" : "x", "directory" : "/tmp/abc",`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	got := DeterministicJSON(n, IOPerDir, "/tmp/abc", "{DIR}")
	want := []string{
		"fio version=fio-3.33",
		"jobs[0]/jobname=x",
		"jobs[0]/groupid=0",
		"jobs[0]/error <missing>",
		"jobs[0]/job options/name=x",
		"jobs[0]/job options/directory={DIR}",
		"jobs[0]/job options/bs=4k",
		"jobs[0]/job options/bs=8k",
		"jobs[0]/read/io_bytes=4096",
		"jobs[0]/read/total_ios=1",
		"jobs[0]/write/io_bytes <missing>",
		"jobs[0]/write/total_ios <missing>",
		"jobs[0]/trim/io_bytes <missing>",
		"jobs[0]/trim/total_ios <missing>",
		"disk_util[0]/name=vda",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	tot := DeterministicJSON(n, IOTotal)
	if !containsStr(tot, "jobs[0]/sum of io_bytes=4096") || !containsStr(tot, "jobs[0]/sum of total_ios=1") {
		t.Errorf("IOTotal: %q", tot)
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestTerse(t *testing.T) {
	rows := SplitTerse(terseLine)
	if len(rows) != 1 || len(rows[0]) != 130 {
		t.Fatalf("rows %d, fields %d; want 1 line of 130", len(rows), len(rows[0]))
	}
	want := []string{
		"line 0: fields=130",
		"line 0: terse version=3",
		"line 0: fio version=fio-3.33",
		"line 0: jobname=psync",
		"line 0: groupid=0",
		"line 0: error=0",
		"line 0: read KiB=1024",
		"line 0: write KiB=0",
		"line 0: disks=vda",
	}
	if diff := cmp.Diff(want, DeterministicTerse(rows, IOPerDir)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A device with slaves has 18 fields, its slaves follow as their own.
	f := append([]string(nil), rows[0][:TerseFirstDisk]...)
	f = append(f, "dm-0", "1", "2", "3", "4", "5", "6", "7", "8.00%",
		"slaves", "1", "2", "3", "4", "5", "6", "7", "8.00%",
		"sda", "1", "2", "3", "4", "5", "6", "7", "8.00%")
	if diff := cmp.Diff([]string{"dm-0", "sda"}, TerseDiskNames(f)); diff != "" {
		t.Errorf("TerseDiskNames (-want +got):\n%s", diff)
	}
}

// TestHelpersOnRealFio checks the helpers against live fio runs: two
// runs of one job give the same skeleton, key tree, deterministic values
// and terse layout.
func TestHelpersOnRealFio(t *testing.T) {
	requireFio(t)
	job := []string{"--name=h", "--ioengine=psync", "--rw=randread", "--bs=4k", "--size=2M", "--filename=h.dat"}
	run2 := func(format string) (a, b result) {
		t.Helper()
		a = runIn(fioPath, mkdir(t), append([]string{"--output-format=" + format}, job...))
		b = runIn(fioPath, mkdir(t), append([]string{"--output-format=" + format}, job...))
		for _, r := range []result{a, b} {
			if r.rc != 0 || r.stderr != "" {
				t.Fatalf("fio: status %d, stderr:\n%s", r.rc, r.stderr)
			}
		}
		return a, b
	}

	a, b := run2("normal")
	sa, sb := MaskNormal(a.stdout), MaskNormal(b.stdout)
	// Whether a bandwidth sample was taken depends on timing (a 2M job
	// can end either side of the first 500 ms sample), so the bw/iops
	// lines are compared only when both runs have them, as in the
	// differential tests.
	if len(sa) != len(sb) {
		sa, sb = DropSampleLines(sa), DropSampleLines(sb)
	}
	if diff := cmp.Diff(sa, sb); diff != "" {
		t.Errorf("normal skeletons of two runs differ (-1 +2):\n%s", diff)
	}

	a, b = run2("json")
	ja, err := ParseJSON([]byte(a.stdout))
	if err != nil {
		t.Fatalf("fio JSON: %v", err)
	}
	jb, err := ParseJSON([]byte(b.stdout))
	if err != nil {
		t.Fatalf("fio JSON: %v", err)
	}
	if diff := cmp.Diff(KeyTree(ja), KeyTree(jb)); diff != "" {
		t.Errorf("key trees of two runs differ (-1 +2):\n%s", diff)
	}
	if diff := cmp.Diff(DeterministicJSON(ja, IOPerDir), DeterministicJSON(jb, IOPerDir)); diff != "" {
		t.Errorf("deterministic values of two runs differ (-1 +2):\n%s", diff)
	}
	removed := strings.Replace(a.stdout, "\"short_ios\" : 0,\n", "", 1)
	jr, err := ParseJSON([]byte(removed))
	if err != nil || removed == a.stdout {
		t.Fatalf("removing a key: %v", err)
	}
	if cmp.Equal(KeyTree(ja), KeyTree(jr)) {
		t.Error("removing a key did not change the key tree")
	}

	a, b = run2("terse")
	if diff := cmp.Diff(DeterministicTerse(SplitTerse(a.stdout), IOPerDir), DeterministicTerse(SplitTerse(b.stdout), IOPerDir)); diff != "" {
		t.Errorf("terse fields of two runs differ (-1 +2):\n%s", diff)
	}
}

func mkdir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp(t.TempDir(), "run")
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Clean(d)
}

func TestSplitFormats(t *testing.T) {
	out := "x: (g=0): rw=read, ...\nfio-3.33\nStarting 1 process\n" +
		"3;fio-3.33;x;0;0\n3;fio-3.33;y;0;0\n" +
		"{\n  \"jobs\" : [\n\n  ]\n}\n" +
		"\nx: (groupid=0, jobs=1): err= 0: pid=1: date\n"
	got := SplitFormats(out)
	want := Formats{
		Pre:    "x: (g=0): rw=read, ...\nfio-3.33\nStarting 1 process\n",
		Terse:  "3;fio-3.33;x;0;0\n3;fio-3.33;y;0;0\n",
		JSON:   "{\n  \"jobs\" : [\n\n  ]\n}\n",
		Normal: "\nx: (groupid=0, jobs=1): err= 0: pid=1: date\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SplitFormats (-want +got):\n%s", diff)
	}
	// The parts put back together are the input.
	if s := got.Pre + got.Terse + got.JSON + got.Normal; s != out {
		t.Errorf("parts do not add up to the input:\n%q", s)
	}
}

// synthTerse builds a version 3 terse line with one direction block
// per entry of kib (its I/O KiB), percentile slots "P%=1", the
// depth fields "D<k>" and one disk "vda".
func synthTerse(kib []string) []string {
	f := []string{"3", "fio-3.33", "j", "0", "0"}
	for _, k := range kib {
		blk := make([]string, terseBlock)
		for i := range blk {
			blk[i] = "0"
		}
		blk[0] = k
		for s := range 20 {
			blk[12+s] = fmt.Sprintf("%d.000000%%=1", s+1)
		}
		f = append(f, blk...)
	}
	tail := make([]string, terseTail)
	for i := range tail {
		tail[i] = "0"
	}
	for k := range 7 {
		tail[5+k] = fmt.Sprintf("D%d", k)
	}
	f = append(f, tail...)
	return append(f, "vda", "1", "2", "3", "4", "5", "6", "7", "8%")
}

func TestTerseValuesLayouts(t *testing.T) {
	tests := []struct {
		name string
		c    Checks
		kib  []string
		want []string // the lines of interest
	}{
		// No unified reporting: READ and WRITE blocks, 130 fields with a disk.
		{"none", Checks{IO: IOPerDir, Depth: true}, []string{"10", "20"},
			[]string{"line 0: fields=130", "line 0: block 0 KiB=10", "line 0: block 1 KiB=20", "line 0: IO depths=D0;D1;D2;D3;D4;D5;D6", "line 0: disks=vda"}},
		// mixed: one block; the depth fields move up by 41.
		{"mixed", Checks{IO: IOTotal, Unified: 1, Depth: true}, []string{"30"},
			[]string{"line 0: fields=89", "line 0: blocks KiB=30", "line 0: IO depths=D0;D1;D2;D3;D4;D5;D6", "line 0: disks=vda"}},
		// both: the merged third block is left out of the sum.
		{"both", Checks{IO: IOTotal, Unified: 2}, []string{"10", "20", "30"},
			[]string{"line 0: fields=171", "line 0: blocks KiB=30", "line 0: disks=vda"}},
	}
	for _, tt := range tests {
		got := TerseValues([][]string{synthTerse(tt.kib)}, tt.c)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: TerseValues lacks %q:\n%s", tt.name, w, strings.Join(got, "\n"))
			}
		}
		label := "line 0: block 0 percentile labels=1.000000%;2.000000%"
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, label) }) {
			t.Errorf("%s: TerseValues lacks the percentile labels:\n%s", tt.name, strings.Join(got, "\n"))
		}
	}
}

func TestExtraJSON(t *testing.T) {
	doc := `{"jobs": [{"read": {"short_ios": 0, "drop_ios": 0,
		"slat_ns": {"N": 0}, "clat_ns": {"N": 4, "percentile": {"50.000000": 7, "99.000000": 9}}, "lat_ns": {"N": 4}},
		"write": {"short_ios": 1, "drop_ios": 0, "slat_ns": {"N": 0}, "clat_ns": {"N": 2}, "lat_ns": {"N": 2}},
		"sync": {"total_ios": 0}, "latency_depth": 1, "latency_target": 0, "latency_percentile": 100.000000, "latency_window": 0,
		"iodepth_level": {"1": 100.000000, ">=64": 0.000000}, "iodepth_submit": {"4": 100.000000}, "iodepth_complete": {"4": 100.000000}}]}`
	root, err := ParseJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := ExtraJSON(root, Checks{IO: IOTotal, Depth: true})
	for _, w := range []string{
		"jobs[0]/directions=read,write",
		"jobs[0]/read/clat_ns/percentile keys=50.000000,99.000000",
		"jobs[0]/sum of short_ios=1",
		"jobs[0]/sum of clat_ns=6",
		"jobs[0]/iodepth_level: 1=100.000000, >=64=0.000000",
		"jobs[0]/latency_percentile=100.000000",
	} {
		if !slices.Contains(got, w) {
			t.Errorf("ExtraJSON lacks %q:\n%s", w, strings.Join(got, "\n"))
		}
	}
}
