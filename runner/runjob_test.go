package runner

import (
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/parser"
)

// planOf builds the jobs of a command line: each argument is one
// "--name=value" option without its dashes ("rw=write", "time_based").
func planOf(t *testing.T, args ...string) *jobspec.Plan {
	t.Helper()
	var errs strings.Builder
	b := jobspec.NewBuilder(&jobspec.Config{Stderr: &errs})
	for _, a := range args {
		name, val, has := strings.Cut(a, "=")
		if err := b.CmdlineOption(parser.Option{Name: name, Value: val, HasValue: has}); err != nil {
			t.Fatalf("option %s: %v\n%s", a, err, errs.String())
		}
	}
	if err := b.EndCmdline(); err != nil {
		t.Fatalf("EndCmdline: %v\n%s", err, errs.String())
	}
	p, err := b.Plan()
	if err != nil {
		t.Fatalf("Plan: %v\n%s", err, errs.String())
	}
	if err := p.Unsupported(); err != nil {
		t.Fatalf("Plan(%q): %v", args, err)
	}
	return p
}

// runJobs runs a command line's jobs in dir and returns the result and
// what was printed on the error and info streams.
func runJobs(t *testing.T, dir string, args ...string) (*Outcome, string) {
	t.Helper()
	full := append([]string{"directory=" + dir}, args...)
	p := planOf(t, full...)
	var errs strings.Builder
	oc, err := Run(p, Config{Errors: &errs, Info: &errs, Log: io.Discard, AuxPath: dir})
	if err != nil {
		t.Fatalf("Run(%q): %v\n%s", args, err, errs.String())
	}
	return oc, errs.String()
}

// dirStats returns a job's I/O bytes and I/O counts per direction.
func dirStats(j *output.Job) (bytes, ios [3]uint64) {
	for d := range 3 {
		bytes[d] = j.Stats.Dir[d].IOBytes
		ios[d] = j.Stats.Dir[d].TotalIOs
	}
	return bytes, ios
}

func TestRunSmoke(t *testing.T) {
	dir := t.TempDir()
	oc, errs := runJobs(t, dir, "name=a", "rw=write", "size=64k", "ioengine=pvsync2")
	b, n := dirStats(&oc.Result.Jobs[0])
	if b != [3]uint64{0, 64 << 10, 0} || n != [3]uint64{0, 16, 0} || errs != "" {
		t.Errorf("64 KiB of 4 KiB writes: bytes %v, I/Os %v, errors %q", b, n, errs)
	}
}

func TestDiskUtilOff(t *testing.T) {
	dir := t.TempDir()
	oc, _ := runJobs(t, dir, "name=a", "rw=write", "size=64k")
	if len(oc.Result.Disks) == 0 {
		t.Skip("the temporary directory is on no block device with stats (tmpfs?); nothing to switch off")
	}
	oc, _ = runJobs(t, dir, "name=a", "rw=write", "size=64k", "disk_util=0")
	if len(oc.Result.Disks) != 0 {
		t.Errorf("disk_util=0: disk stats %+v, want none", oc.Result.Disks)
	}
}

func TestFadviseFor(t *testing.T) {
	tests := []struct {
		rw     string
		hint   string
		advice int
		ok     bool
	}{
		{rw: "randread", advice: unix.FADV_RANDOM, ok: true},
		{rw: "randrw", advice: unix.FADV_RANDOM, ok: true},
		{rw: "read", advice: unix.FADV_SEQUENTIAL, ok: true},
		{rw: "trim", advice: unix.FADV_SEQUENTIAL, ok: true},
		{rw: "randread", hint: "0"},
		{rw: "read", hint: "random", advice: unix.FADV_RANDOM, ok: true},
		{rw: "randwrite", hint: "sequential", advice: unix.FADV_SEQUENTIAL, ok: true},
	}
	for _, tt := range tests {
		args := []string{"name=a", "rw=" + tt.rw}
		if tt.hint != "" {
			args = append(args, "fadvise_hint="+tt.hint)
		}
		advice, ok := fadviseFor(planOf(t, args...).Jobs[0])
		if advice != tt.advice || ok != tt.ok {
			t.Errorf("%v: fadviseFor = %d, %v; want %d, %v", args, advice, ok, tt.advice, tt.ok)
		}
	}
}

// A job whose files are each smaller than a block has nothing to do; it
// ends at once with nothing done, as in fio (it used to spin forever).
func TestNoBlockFits(t *testing.T) {
	for _, extra := range [][]string{nil, {"time_based", "runtime=2"}} {
		dir := t.TempDir()
		done := make(chan *Outcome, 1)
		go func() {
			oc, _ := runJobs(t, dir, append([]string{"name=x", "filename=a:b:c", "size=8k", "bs=4k"}, extra...)...)
			done <- oc
		}()
		select {
		case oc := <-done:
			if _, n := dirStats(&oc.Result.Jobs[0]); n != [3]uint64{} || oc.Failed != 0 {
				t.Errorf("%v: I/Os %v, failed %d; want none", extra, n, oc.Failed)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: still running after 10 s", extra)
		}
	}
}
