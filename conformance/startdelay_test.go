package conformance

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestStartDelayRange checks that a job with startdelay=low-high starts
// when fio 3.33 starts it: the delay is drawn from the job's seeded
// stream, so fio and gofio wait alike. Each run has the delayed job and
// one without delay; the delay is the time between their first I/Os
// (epoch stamps of their latency logs). fio looks for jobs to start
// every few tens of ms, so the two may differ by 300 ms at most; the
// draws of these cases lie 0.6 s or more from the range's low end.
func TestStartDelayRange(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	t.Parallel()
	for _, extra := range []string{
		"--startdelay=1-3",
		"--startdelay=1-3 --randseed=3",
		"--startdelay=1-3 --allrandrepeat=1",
		"--startdelay=1-3 --random_generator=tausworthe64",
		"--startdelay=500ms-2s",
	} {
		t.Run(extra, func(t *testing.T) {
			t.Parallel() // mostly waiting out the delays, in directories of their own
			a := args("--ioengine=null --size=4k --rw=read --write_lat_log=x --log_unix_epoch=1 --name=b " + extra + " --name=a")
			var got [2]int64
			var wg sync.WaitGroup
			for i, bin := range []string{fioPath, gofio} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					dir := t.TempDir()
					if r := runIn(bin, dir, a); r.rc != 0 {
						t.Errorf("%s: exit %d: %s", bin, r.rc, head(r.stderr))
						return
					}
					b, errB := firstStamp(filepath.Join(dir, "x_lat.1.log"))
					a, errA := firstStamp(filepath.Join(dir, "x_lat.2.log"))
					if errA != nil || errB != nil {
						t.Errorf("%s: %v %v", bin, errA, errB)
						return
					}
					got[i] = b - a
				}()
			}
			wg.Wait()
			if d := got[1] - got[0]; d < -300 || d > 300 {
				t.Errorf("the delayed job started %d ms after the other with fio, %d ms with gofio", got[0], got[1])
			}
		})
	}
}

// firstStamp is the time stamp of a log's first entry.
func firstStamp(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	f, _, _ := strings.Cut(string(b), ",")
	return strconv.ParseInt(strings.TrimSpace(f), 10, 64)
}

// TestPoissonRate compares the gaps rate_process=poisson draws, as
// --debug=rate prints them: fio 3.33 draws them from a seeded stream per
// direction. Timing may move an I/O from one direction to the other, so
// the directions' sequences are compared as far as both go.
func TestPoissonRate(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	t.Parallel()
	for _, extra := range []string{
		"--rw=randrw --bs=4k --rate_iops=1000,500",
		"--rw=randrw --bsrange=4k-16k --rate_iops=1000",
		"--rw=randrw --bs=4k,8k --rate=1m,3m",
		"--rw=randread --bs=3k --rate=1000k",
		// Across a loop boundary one direction only: a randrw job's
		// split of its I/Os between the directions at the boundary
		// depends on timing, and each loop's draws start over.
		"--rw=randread --bs=4k --rate_iops=800 --loops=2",
		"--rw=randwrite --bs=8k --rate_iops=800 --loops=3",
		"--rw=randrw --bs=4k --rate_iops=800 --randseed=5",
		"--rw=randwrite --bs=4k --rate_iops=2000 --random_generator=tausworthe64",
	} {
		t.Run(extra, func(t *testing.T) {
			a := args("--name=j --ioengine=null --size=256k --rate_process=poisson --debug=rate " + extra)
			var seqs [2][3][]string
			for i, bin := range []string{fioPath, gofio} {
				r := runIn(bin, t.TempDir(), a)
				if r.rc != 0 {
					t.Fatalf("%s: exit %d: %s", bin, r.rc, head(r.stderr))
				}
				for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
					_, rest, ok := strings.Cut(l, "poisson rate ")
					if !ok {
						continue
					}
					iops, dir, _ := strings.Cut(rest, ", ddir=")
					if d, err := strconv.Atoi(dir); err == nil && d >= 0 && d < 3 {
						seqs[i][d] = append(seqs[i][d], iops)
					}
				}
			}
			total := 0
			for d := range 3 {
				f, g := seqs[0][d], seqs[1][d]
				n := min(len(f), len(g))
				total += n
				if strings.Join(f[:n], " ") != strings.Join(g[:n], " ") {
					t.Errorf("direction %d:\n fio:   %v\n gofio: %v", d, f, g)
				}
			}
			if total < 16 {
				t.Errorf("only %d gaps to compare: fio %v, gofio %v", total, seqs[0], seqs[1])
			}
		})
	}
}
