package runner

// The steady state of the I/O loop allocates nothing: each test below
// builds a real worker (engine, units, files laid out), lets it run a
// first stretch of I/O so that everything done once per job is done, then
// counts the heap allocations of further stretches with
// testing.AllocsPerRun. Any allocation per I/O would show as thousands.

import (
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/runner/engine"
)

// steadyWorker builds the worker of one job, run in dir, with its files
// laid out, its clock started and a live-view slot attached, as Run and
// worker.run prepare it before the I/O loop. The job must be time_based
// with a long runtime: the tests end each stretch with number_ios.
func steadyWorker(tb testing.TB, dir string, args ...string) *worker {
	tb.Helper()
	j := jobOf(tb, append([]string{"directory=" + dir}, args...)...)
	info, err := engine.Lookup(j.IOEngine)
	if err != nil {
		tb.Fatal(err)
	}
	t := &task{job: j, info: info}
	if t.files, err = planFiles(j); err != nil {
		tb.Fatalf("planFiles: %v", err)
	}
	if !info.NoFiles {
		if err := layoutFiles(t, map[string]uint64{}, Config{Errors: io.Discard}); err != nil {
			tb.Fatalf("layout: %v", err)
		}
	}
	w, err := newWorker(j, info, t.files, nil)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
			tb.Skipf("engine unavailable here (seccomp or old kernel?): %v", err)
		}
		tb.Fatalf("newWorker: %v", err)
	}
	// The worker's thread: a thread-bound engine (io_uring) is driven
	// from it and closed on it (release) before it is unlocked.
	runtime.LockOSThread()
	tb.Cleanup(runtime.UnlockOSThread)
	tb.Cleanup(w.release)
	if b, ok := w.eng.(engine.ThreadBinder); ok {
		if err := b.BindThread(); err != nil {
			tb.Fatal(err)
		}
	}
	w.prog.jp = &jobProgress{}
	w.epoch = clock.Now()
	w.startMeasuring(w.epoch)
	w.progressStart()
	w.startLoop()
	return w
}

// jobOf builds the one job of a command line, like planOf, for tests and
// benchmarks alike.
func jobOf(tb testing.TB, args ...string) *jobspec.Job {
	tb.Helper()
	b := jobspec.NewBuilder(&jobspec.Config{Stderr: io.Discard})
	for _, a := range args {
		name, val, has := strings.Cut(a, "=")
		if err := b.CmdlineOption(parser.Option{Name: name, Value: val, HasValue: has}); err != nil {
			tb.Fatalf("option %s: %v", a, err)
		}
	}
	if err := b.EndCmdline(); err != nil {
		tb.Fatalf("EndCmdline: %v", err)
	}
	p, err := b.Plan()
	if err == nil {
		err = p.Unsupported()
	}
	if err != nil || len(p.Jobs) != 1 {
		tb.Fatalf("plan of %q: %v (%d jobs)", args, err, len(p.Jobs))
	}
	return p.Jobs[0]
}

// stretch runs n more I/Os through w's loop, as worker.run does within a
// loop.
func (w *worker) stretch(n uint64, stop <-chan struct{}) {
	w.job.NumberIOs = w.ios + n
	if w.reaper == nil {
		w.syncLoop(stop)
	} else {
		w.asyncLoop(stop)
	}
}

func TestSteadyStateAllocs(t *testing.T) {
	timed := []string{"time_based", "runtime=1h", "bs=4k"}
	for _, c := range []struct {
		name string
		n    uint64 // I/Os per measured stretch
		args []string
	}{
		// Framework overhead only: units complete in Queue.
		{"null-qd1", 20000, []string{"ioengine=null", "rw=randread", "size=1g", "norandommap"}},
		// No latency measured: the coarse clock (stamp.go).
		{"null-gtod_reduce", 20000, []string{"ioengine=null", "rw=randread", "size=1g", "norandommap", "gtod_reduce=1"}},
		// null deeper than 1 goes through commit and reap.
		{"null-qd32", 20000, []string{"ioengine=null", "rw=randrw", "size=1g", "iodepth=32"}},
		// The page-cache path with the random map and writes' buffers.
		{"psync-randrw", 5000, []string{"ioengine=psync", "rw=randrw", "size=1m", "filename=f"}},
		// Device-bound, the asynchronous engines at queue depth 32.
		{"libaio-qd32", 2000, []string{"ioengine=libaio", "rw=randread", "size=1m", "filename=f", "direct=1", "iodepth=32"}},
		{"io_uring-qd32", 2000, []string{"ioengine=io_uring", "rw=randread", "size=1m", "filename=f", "direct=1", "iodepth=32"}},
		// Batched submission and completion.
		{"io_uring-batch", 2000, []string{"ioengine=io_uring", "rw=randwrite", "size=1m", "filename=f", "iodepth=32",
			"iodepth_batch_submit=8", "iodepth_batch_complete_min=4", "iodepth_batch_complete_max=16"}},
		// Through a pipe.
		{"splice-randrw", 2000, []string{"ioengine=splice", "rw=randrw", "size=1m", "filename=f"}},
		// Datagrams to a port nobody reads (the loopback drops them).
		{"net-udp-write", 2000, []string{"ioengine=net", "protocol=udp", "hostname=127.0.0.1", "port=9", "rw=write", "size=1m"}},
		{"netsplice-udp-write", 2000, []string{"ioengine=netsplice", "protocol=udp", "hostname=127.0.0.1", "port=9", "rw=write", "size=1m"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := steadyWorker(t, t.TempDir(), append([]string{"name=" + c.name}, append(timed, c.args...)...)...)
			stop := make(chan struct{})
			w.stretch(c.n, stop) // warm up: open files, first publication
			before := w.ios
			allocs := testing.AllocsPerRun(2, func() { w.stretch(c.n, stop) })
			if w.err != 0 {
				t.Fatalf("job failed: %v in %s", w.err, w.errFunc)
			}
			if done := w.ios - before; done != 3*c.n {
				t.Fatalf("%d I/Os issued over 3 stretches; want %d", done, 3*c.n)
			}
			if allocs != 0 {
				t.Errorf("%v allocations per %d I/Os; want 0", allocs, c.n)
			}
		})
	}
}

func TestRunAllocsIndependentOfIOs(t *testing.T) {
	// The whole run, ticker and live view included: a job of a million
	// I/Os allocates no more than one of a thousand (a few allocations of
	// slack for the runtime's own bookkeeping).
	const slack = 64
	mallocs := func(n int) uint64 {
		p := planOf(t, "name=null", "ioengine=null", "rw=randread", "bs=4k", "size=16g", "norandommap",
			"number_ios="+strconv.Itoa(n))
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		oc, err := Run(p, Config{Errors: io.Discard, Log: io.Discard})
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if got := oc.Result.Jobs[0].Stats.Dir[0].TotalIOs; got != uint64(n) {
			t.Fatalf("number_ios=%d: %d I/Os issued", n, got)
		}
		return m1.Mallocs - m0.Mallocs
	}
	mallocs(1000) // warm-up: lazily initialised runtime and package state
	short, long := mallocs(1000), mallocs(1000000)
	t.Logf("allocations: %d for 10^3 I/Os, %d for 10^6", short, long)
	if long > short+slack {
		t.Errorf("a run of 10^6 I/Os made %d allocations, one of 10^3 made %d; want the same (±%d)", long, short, slack)
	}
}
