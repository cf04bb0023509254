package runner

// Benchmarks of the I/O loop per I/O: one op is one I/O of a real worker
// in its steady state (see steadyWorker), so ns/op is gofio's cost per
// I/O with the engine's system calls included, and allocs/op must be 0.
//
//	go test -run '^$' -bench Loop -benchmem ./runner

import "testing"

func BenchmarkLoop(b *testing.B) {
	for _, c := range []struct {
		name string
		args []string
	}{
		// The framework alone: fio's null engine, completed in Queue.
		{"null", []string{"ioengine=null", "rw=randread", "size=1g", "norandommap"}},
		// gtod_reduce: no clock read per I/O.
		{"null-gtod_reduce", []string{"ioengine=null", "rw=randread", "size=1g", "norandommap", "gtod_reduce=1"}},
		// null at depth 32: queue, commit and reap.
		{"null-qd32", []string{"ioengine=null", "rw=randread", "size=1g", "norandommap", "iodepth=32"}},
		// pread(2) from the page cache.
		{"psync-cached", []string{"ioengine=psync", "rw=randread", "size=16m", "filename=f", "invalidate=0"}},
		// io_uring on the page cache: ring handling without the device.
		{"io_uring-qd32-cached", []string{"ioengine=io_uring", "rw=randread", "size=16m", "filename=f", "iodepth=32"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			args := append([]string{"name=" + c.name, "time_based", "runtime=1h", "bs=4k"}, c.args...)
			w := steadyWorker(b, b.TempDir(), args...)
			stop := make(chan struct{})
			w.stretch(1000, stop) // warm up: open files, fill caches
			b.ReportAllocs()
			b.ResetTimer()
			w.stretch(uint64(b.N), stop)
			b.StopTimer()
			if w.err != 0 {
				b.Fatalf("job failed: %v in %s", w.err, w.errFunc)
			}
		})
	}
}
