package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// zbdNotes matches what the zbd jobs print besides the report: the
// regions cut to zones, the refusals and the write lines' zone resets.
var zbdNotes = regexp.MustCompile(`(?m)^(data: .*|.*zone.*|.*issued rwts.*)$`)

// TestZBDIolog compares fio's and gofio's traces, zone resets and
// messages for zonemode=zbd over a regular file (zones emulated): a 16
// MiB file cut into 1 MiB zones.
func TestZBDIolog(t *testing.T) {
	t.Parallel()
	const zbd = "--filename=data --zonemode=zbd --zonesize=1m --bs=16k "
	jobs := []string{
		zbd + "--name=seq --rw=write --size=16m --loops=2",
		zbd + "--name=cap --rw=write --size=4m --zonecapacity=768k --loops=2",
		zbd + "--name=region --rw=write --size=5m --offset=512k",
		zbd + "--name=rand --rw=randwrite --size=16m",
		zbd + "--name=norandommap --rw=randwrite --size=16m --norandommap",
		zbd + "--name=open --rw=randwrite --size=16m --max_open_zones=3",
		zbd + "--name=jobopen --rw=randwrite --size=8m --max_open_zones=4 --job_max_open_zones=2",
		zbd + "--name=mixed --rw=randrw --size=8m --max_open_zones=3",
		zbd + "--name=rw --rw=rw --size=4m",
		zbd + "--name=empty --rw=randread --size=16m",
		zbd + "--name=beyond --rw=read --size=4m --read_beyond_wp=1",
		zbd + "--name=gc --rw=randwrite --size=16m --zone_reset_threshold=0.2 --zone_reset_frequency=0.1 --loops=2",
		zbd + "--name=seqgc --rw=write --size=8m --zone_reset_threshold=0.25 --zone_reset_frequency=0.25",
		zbd + "--name=w --rw=write --size=2m --offset=1m --name=w2 --rw=write --size=1m --offset=8m --name=r --stonewall --rw=randread --size=16m --zonecapacity=512k",
		zbd + "--name=w --rw=write --size=3m --name=r --stonewall --rw=read --offset=0 --size=16m",
		zbd + "--name=w --rw=write --size=4m --offset=2m --name=rt --stonewall --rw=randtrim --bs=1m --size=16m --name=r --stonewall --rw=read --size=16m",
		zbd + "--name=w --rw=write --size=4m --offset=2m --name=st --stonewall --rw=trim --bs=1m --size=16m --name=r --stonewall --rw=randread --size=16m",
		zbd + "--name=trimbs --rw=trim --size=16m",
		zbd + "--name=skip --rw=write:48k --size=16m --zonecapacity=800k --loops=2",
		zbd + "--name=randskip --rw=randrw --size=16m --percentage_random=50",
		zbd + "--name=bsrange --rw=randwrite --size=16m --bsrange=4k-64k --zonecapacity=900k",
		zbd + "--name=rwrange --rw=randrw --size=16m --bsrange=4k-32k",
		zbd + "--name=split --rw=randrw --size=16m --bssplit=4k/50:64k/50 --max_open_zones=2",
		zbd + "--name=verifybs --rw=write --size=4m --bs=48k --verify=md5",
		"--filename=data --zonemode=zbd --zonesize=1 --bs=512 --name=tinyzone --rw=read --size=512",
		zbd + "--name=zoneskip --rw=write --size=4m --zoneskip=1",
		zbd + "--name=verifyloops --rw=randwrite --size=1m --loops=3 --verify=md5",
		zbd + "--name=verifyopen --rw=randwrite --size=4m --verify=md5 --max_open_zones=2 --bsrange=4k-32k",
		zbd + "--name=iosize --rw=write --size=2m --io_size=5m --bs=768k",
		zbd + "--name=small --rw=write --size=512k",
		zbd + "--name=nolimit --rw=randwrite --size=16m --job_max_open_zones=2",
		zbd + "--name=bigcap --rw=write --size=16m --zonecapacity=2m",
		"--filename=data --zonemode=zbd --bs=16k --name=nosize --rw=write --size=16m",
		"--filename=absent --zonemode=zbd --zonesize=1m --bs=16k --name=absent --rw=write --size=4m",
	}
	for _, job := range jobs {
		name := job[strings.Index(job, "--name=")+len("--name="):]
		name = strings.Fields(name)[0]
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each run in a directory of its own
			setup := func(dir string) {
				if err := os.WriteFile(filepath.Join(dir, "data"), nil, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(filepath.Join(dir, "data"), 16<<20); err != nil {
					t.Fatal(err)
				}
			}
			a := append(args(job), "--write_iolog=trace.log")
			fr, gr, ft, gt := replayRun(t, a, setup, func(dir string) string { return traceBody(dir, "trace.log") })
			if fr.rc != gr.rc || fr.stderr != gr.stderr {
				t.Fatalf("exit status: fio %d, gofio %d\nfio stderr:\n%s\ngofio stderr:\n%s", fr.rc, gr.rc, fr.stderr, gr.stderr)
			}
			if strings.Contains(job, "--verify=") || strings.Contains(job, "--io_size=5m") {
				// gofio opens the file once per loop of a verifying
				// job, fio for its writes and again for its verify
				// phase; and it counts io_size above the size in
				// loops of the size, each opening the file, where fio
				// keeps it open: not a zone matter.
				ft, gt = dropOpens(ft), dropOpens(gt)
			}
			if fr.rc == 0 && ft != gt {
				t.Errorf("traces differ:\nfio:\n%s\ngofio:\n%s", ft, gt)
			}
			fn := strings.Join(zbdNotes.FindAllString(fr.stdout, -1), "\n")
			gn := strings.Join(zbdNotes.FindAllString(gr.stdout, -1), "\n")
			fn, gn = zbdIOPS.ReplaceAllString(fn, ""), zbdIOPS.ReplaceAllString(gn, "")
			if fn != gn {
				t.Errorf("messages and counts differ:\nfio:\n%s\ngofio:\n%s", fn, gn)
			}
		})
	}
}

// zbdIOPS matches the rates of a write line, which differ by run.
var zbdIOPS = regexp.MustCompile(`IOPS=[^;]*;`)

// TestZBDLoopDevice compares fio's and gofio's traces and zone resets for
// zonemode=zbd on a block device that is not zoned (a loop device over a
// 16 MiB file): zones emulated as over a regular file. The jobs run one
// after the other on the same device.
func TestZBDLoopDevice(t *testing.T) {
	requireFio(t)
	bin := requireGofio(t)
	back := filepath.Join(t.TempDir(), "back")
	if err := os.WriteFile(back, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(back, 16<<20); err != nil {
		t.Fatal(err)
	}
	dev := loopOver(t, back)
	job := "--filename=" + dev + " --zonemode=zbd --zonesize=1m --bs=16k --direct=1 " +
		"--name=w --rw=randwrite --size=8m --max_open_zones=3 --loops=2 " +
		"--name=r --stonewall --rw=randread --size=16m"
	var traces [2]string
	var notes [2]string
	for i, b := range []string{fioPath, bin} {
		dir := t.TempDir()
		r := runIn(b, dir, append(args(job), "--write_iolog=trace.log"))
		if r.rc != 0 {
			t.Fatalf("%s: exit %d\n%s%s", b, r.rc, r.stdout, r.stderr)
		}
		traces[i] = traceBody(dir, "trace.log")
		notes[i] = zbdIOPS.ReplaceAllString(strings.Join(zbdNotes.FindAllString(r.stdout, -1), "\n"), "")
	}
	if traces[0] != traces[1] {
		t.Errorf("traces differ:\nfio:\n%s\ngofio:\n%s", traces[0], traces[1])
	}
	if notes[0] != notes[1] {
		t.Errorf("zone resets and counts differ:\nfio:\n%s\ngofio:\n%s", notes[0], notes[1])
	}
}

// dropOpens removes a trace's open and close lines.
func dropOpens(trace string) string {
	var out []string
	for _, l := range strings.Split(trace, "\n") {
		if !strings.HasSuffix(l, " open") && !strings.HasSuffix(l, " close") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
