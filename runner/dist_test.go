package runner

import (
	"testing"

	"github.com/gofio/gofio/jobspec"
)

// random_distribution values reach the job per direction.
func TestRandomDistributionOption(t *testing.T) {
	// fio 3.33 refuses ','-separated zoned lists, so one list serves
	// every direction.
	p := planOf(t, "name=a", "rw=randread", "random_distribution=zoned:50/5:30/15:20/")
	for dir, d := range p.Jobs[0].RandomDist {
		if len(d.Zones) != 3 || d.Zones[2].Size != 80 || d.Zones[0].Access != 50 {
			t.Errorf("direction %d: zones %+v; want 3, the last sized 80%%", dir, d.Zones)
		}
	}
	p = planOf(t, "name=a", "rw=randread", "random_distribution=zipf:1.2:0.25")
	if z := p.Jobs[0].RandomDist[1]; z.Kind != jobspec.DistZipf || z.Param != 1.2 || !z.HasCenter || z.Center != 0.25 {
		t.Errorf("zipf:1.2:0.25 read as %+v", z)
	}
}

// A job with a non-uniform distribution moves its size, on random
// offsets without the random map (as fio).
func TestDistributionJob(t *testing.T) {
	oc, _ := runJobs(t, t.TempDir(), "name=z", "ioengine=null", "rw=randread", "size=4m", "random_distribution=zipf:1.2")
	if b, _ := dirStats(&oc.Result.Jobs[0]); b[0] != 4<<20 {
		t.Errorf("read %d bytes; want 4 MiB", b[0])
	}
}

// file_service_type=zipf runs its I/Os (its shape: offsets.TestDistFiles).
func TestFileServiceZipf(t *testing.T) {
	const ios = 4000
	oc, _ := runJobs(t, t.TempDir(), "name=fz", "ioengine=null", "rw=randread", "nrfiles=20", "filesize=1g",
		"norandommap", "number_ios=4000", "file_service_type=zipf:1.2")
	if _, n := dirStats(&oc.Result.Jobs[0]); n[0] != ios {
		t.Fatalf("%d I/Os; want %d", n[0], ios)
	}
}
