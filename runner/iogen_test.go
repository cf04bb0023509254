package runner

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/gofio/gofio/runner/engine"
)

// ioRec is one unit as an engine received it.
type ioRec struct {
	op   engine.Op
	file int
	off  int64
	len  int
}

func (r ioRec) String() string { return fmt.Sprintf("%d:%d@%d+%d", r.op, r.file, r.off, r.len) }

// recEngine completes every unit at once and records it (jobs run
// concurrently: the log has a lock).
type recEngine struct {
	mu  *sync.Mutex
	log *[]ioRec
}

func (e recEngine) Queue(u *engine.IOUnit) engine.Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	*e.log = append(*e.log, ioRec{u.Op, u.File, u.Offset, len(u.Buf)})
	u.Result, u.Err = len(u.Buf), 0
	return engine.Completed
}

// recordJob runs a command line's single job on the recording engine
// (standing in for null: no files are touched) and returns the units.
func recordJob(t *testing.T, args ...string) []ioRec {
	t.Helper()
	var log []ioRec
	var mu sync.Mutex
	engines := engine.Registered() // the registry itself: null's entry is swapped
	for i := range engines {
		if engines[i].Name == "null" {
			saved := engines[i]
			engines[i].New = func(engine.Config) (engine.Engine, error) { return recEngine{&mu, &log}, nil }
			engines[i].Sync = true
			defer func() { engines[i] = saved }()
		}
	}
	p := planOf(t, append([]string{"name=rec", "ioengine=null"}, args...)...)
	var errs strings.Builder
	oc, err := Run(p, Config{Errors: &errs, Info: &errs, Log: io.Discard})
	if err != nil || oc.Failed != 0 {
		t.Fatalf("Run(%q): %v, %d failed\n%s", args, err, oc.Failed, errs.String())
	}
	return log
}

// unitOffsets lists the offsets of the units of op.
func unitOffsets(log []ioRec, op engine.Op) []int64 {
	var out []int64
	for _, r := range log {
		if r.op == op {
			out = append(out, r.off)
		}
	}
	return out
}

func seq(from, step int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = from + int64(i)*step
	}
	return out
}

func equalInts(a, b []int64) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// Sequential patterns visit their offsets in fio's order.
func TestSequentialOffsets(t *testing.T) {
	cases := []struct {
		args []string
		op   engine.Op
		want []int64
	}{
		// Plain sequential writes: 0, 4k, ... 60k.
		{[]string{"rw=write", "size=64k"}, engine.OpWrite, seq(0, 4096, 16)},
		// rw=read:4k skips 4k after each block and wraps at the end until
		// the size is done (observed with fio 3.33).
		{[]string{"rw=read:4k", "size=64k"}, engine.OpRead, append(seq(0, 8192, 8), seq(0, 8192, 8)...)},
		// A block that no longer fits before the end ends the pass, and
		// the job, rather than wrapping (fio's t0007 at a smaller scale:
		// offsets 0, 6k, ... 48k of a 56k file, then 54k does not fit).
		{[]string{"rw=read:2k", "size=56k"}, engine.OpRead, seq(0, 6144, 9)},
		// So does a block that ends at the end (rw=read:8k, 64k file).
		{[]string{"rw=read:8k", "size=64k"}, engine.OpRead, seq(0, 12288, 6)},
		// loops repeat the shortened pass.
		{[]string{"rw=read:2k", "size=56k", "loops=2"}, engine.OpRead, append(seq(0, 6144, 9), seq(0, 6144, 9)...)},
		// rw=read:-8k reads backwards: from the first block, wrapping to
		// the end (backwards-read.fio; fio's offsets).
		{[]string{"rw=read:-8k", "size=64k"}, engine.OpRead, append([]int64{0}, seq(57344, -4096, 15)...)},
		// offset= starts the region there; size= is its length.
		{[]string{"rw=read", "size=16k", "offset=16k"}, engine.OpRead, seq(16384, 4096, 4)},
		// percentage_random=0 turns a random pattern sequential.
		{[]string{"rw=randread", "size=32k", "percentage_random=0"}, engine.OpRead, seq(0, 4096, 8)},
	}
	for _, c := range cases {
		got := unitOffsets(recordJob(t, c.args...), c.op)
		if !equalInts(got, c.want) {
			t.Errorf("%v: offsets %v; want %v", c.args, got, c.want)
		}
	}
}

// coverage checks that the units of op cover [0, size) exactly once and
// returns how many units there were.
func coverage(t *testing.T, what string, log []ioRec, op engine.Op, size int64) int {
	t.Helper()
	const grain = 512
	seen := make([]int, size/grain)
	n := 0
	for _, r := range log {
		if r.op != op {
			continue
		}
		n++
		for b := r.off / grain; b < (r.off+int64(r.len))/grain; b++ {
			seen[b]++
		}
	}
	for b, c := range seen {
		if c != 1 {
			t.Errorf("%s: block at %d done %d times; want once", what, int64(b)*grain, c)
			break
		}
	}
	return n
}

// Random jobs without norandommap do every block once, whatever the
// generator and block sizes.
func TestRandomCoverage(t *testing.T) {
	cases := [][]string{
		{"rw=randread", "size=1m"},                                  // tausworthe and the random map
		{"rw=randread", "size=1m", "random_generator=lfsr"},         // no map: a full cycle
		{"rw=randread", "size=1m", "random_generator=tausworthe64"}, // 64-bit generator, map
		{"rw=randwrite", "size=1m", "bssplit=4k/50:64k/30:16k/20"},  // mixed sizes cut at used blocks
		{"rw=randwrite", "size=1m", "bsrange=4k-32k"},               // ranges too
		{"rw=randread", "size=1m", "nrfiles=3"},                     // per file
	}
	for _, c := range cases {
		log := recordJob(t, c...)
		op := engine.OpRead
		if strings.Contains(c[0], "write") {
			op = engine.OpWrite
		}
		nfiles := 1
		if strings.Contains(strings.Join(c, " "), "nrfiles=3") {
			nfiles = 3
		}
		for f := 0; f < nfiles; f++ {
			var per []ioRec
			for _, r := range log {
				if r.file == f {
					per = append(per, r)
				}
			}
			coverage(t, strings.Join(c, " "), per, op, (1<<20)/int64(nfiles)/4096*4096)
		}
		if sorted := unitOffsets(log, op); len(sorted) > 8 && equalInts(sorted[:8], seq(0, 4096, 8)) {
			t.Errorf("%v: the first offsets are sequential; want random", c)
		}
	}
}

// rw=randread:N issues N I/Os per random offset: following it, or at the
// same offset with rw_sequencer=identical.
func TestRandomSequencer(t *testing.T) {
	log := unitOffsets(recordJob(t, "rw=randread:4", "rw_sequencer=identical", "size=64k"), engine.OpRead)
	if len(log) != 16 {
		t.Fatalf("identical: %d units; want 16", len(log))
	}
	for i := 0; i < 16; i += 4 {
		if log[i] != log[i+1] || log[i] != log[i+3] {
			t.Errorf("identical: offsets %v; want runs of 4 equal offsets", log)
			break
		}
	}
	log = unitOffsets(recordJob(t, "rw=randread:4", "size=64k"), engine.OpRead)
	if log[1] != log[0]+4096 || log[2] != log[1]+4096 {
		t.Errorf("sequential: offsets %v; want runs of 4 consecutive blocks", log[:4])
	}
}

// Block sizes stay within bsrange, in multiples of the smallest size
// unless bs_unaligned; bssplit uses only its sizes.
func TestBlockSizes(t *testing.T) {
	check := func(args []string, ok func(int) bool) {
		t.Helper()
		sizes := map[int]bool{}
		total := 0
		for _, r := range recordJob(t, args...) {
			if !ok(r.len) {
				t.Errorf("%v: block size %d", args, r.len)
				return
			}
			sizes[r.len] = true
			total += r.len
		}
		if total > 256<<10 || total <= 256<<10-1000 {
			t.Errorf("%v: %d bytes; want 256 KiB, less what no block fits", args, total)
		}
		if len(sizes) < 2 {
			t.Errorf("%v: only sizes %v", args, sizes)
		}
	}
	check([]string{"rw=read", "size=256k", "bsrange=1k-10k"}, func(n int) bool { return n >= 1024 && n <= 10240 && n%1024 == 0 })
	check([]string{"rw=read", "size=256k", "bsrange=1000-3000", "bs_unaligned"}, func(n int) bool { return n >= 1 && n <= 3000 })
	check([]string{"rw=write", "size=256k", "bssplit=4k/25:8k/75"}, func(n int) bool { return n == 4096 || n == 8192 })
	// bs_is_seq_rand: the read size for sequential I/O.
	for _, r := range recordJob(t, "rw=write", "size=64k", "bs=2k,8k", "bs_is_seq_rand=1") {
		if r.len != 2048 {
			t.Fatalf("bs_is_seq_rand sequential write of %d bytes; want 2048", r.len)
		}
	}
}

// trimwrite trims a block, then writes it; the job moves twice its size.
func TestTrimWritePairs(t *testing.T) {
	for _, rw := range []string{"trimwrite", "randtrimwrite"} {
		log := recordJob(t, "rw="+rw, "size=64k")
		if len(log) != 32 {
			t.Fatalf("%s: %d units; want 32", rw, len(log))
		}
		for i := 0; i < len(log); i += 2 {
			if log[i].op != engine.OpTrim || log[i+1].op != engine.OpWrite || log[i].off != log[i+1].off {
				t.Fatalf("%s: units %v %v; want a trim then a write of the same block", rw, log[i], log[i+1])
			}
		}
	}
}

// fsync=N, fdatasync=N and sync_file_range=...:N sync after every N
// writes, not after the last one (fio 3.33: 3 syncs for 16 writes at 4).
func TestSyncEveryN(t *testing.T) {
	for _, c := range []struct {
		opt string
		op  engine.Op
	}{{"fsync=4", engine.OpFsync}, {"fdatasync=4", engine.OpFdatasync}, {"sync_file_range=write:4", engine.OpSyncFileRange}} {
		log := recordJob(t, "rw=write", "size=64k", c.opt)
		var pattern strings.Builder
		for _, r := range log {
			if r.op == engine.OpWrite {
				pattern.WriteByte('w')
			} else if r.op == c.op {
				pattern.WriteByte('s')
			}
		}
		if want := "wwwwswwwwswwwwswwww"; c.op != engine.OpSyncFileRange && pattern.String() != want {
			t.Errorf("%s: units %s; want %s", c.opt, pattern.String(), want)
		}
	}
}

// file_service_type and openfiles decide the file of each I/O.
func TestFileService(t *testing.T) {
	files := func(args ...string) string {
		var b strings.Builder
		for _, r := range recordJob(t, append([]string{"rw=write", "nrfiles=3", "filesize=8k"}, args...)...) {
			b.WriteByte('0' + byte(r.file))
		}
		return b.String()
	}
	cases := []struct {
		args []string
		want string
	}{
		{nil, "012012"}, // round robin, one I/O each
		{[]string{"file_service_type=sequential"}, "001122"}, // one file until done
		{[]string{"file_service_type=roundrobin:2"}, "001122"},
		{[]string{"openfiles=1"}, "001122"}, // one open file: done before the next
		{[]string{"openfiles=2"}, "010122"},
	}
	for _, c := range cases {
		if got := files(c.args...); got != c.want {
			t.Errorf("%v: files %s; want %s", c.args, got, c.want)
		}
	}
	if got := files("file_service_type=random"); len(got) != 6 || strings.Count(got, "0") != 2 || strings.Count(got, "2") != 2 {
		t.Errorf("random: files %s; want each twice", got)
	}
}

// offset_increment moves each clone's region.
func TestOffsetIncrement(t *testing.T) {
	log := recordJob(t, "rw=write", "filename=f", "filesize=64k", "size=16k", "offset_increment=16k", "numjobs=3")
	seen := map[int64]bool{}
	for _, r := range log {
		seen[r.off] = true
	}
	for _, off := range seq(0, 4096, 12) {
		if !seen[off] {
			t.Errorf("offset %d not written; want the three clones to cover 0-48k", off)
		}
	}
	if len(log) != 12 {
		t.Errorf("%d units; want 12", len(log))
	}
}

// The generator allocates nothing per I/O, whatever the options.
func TestNextAllocs(t *testing.T) {
	for _, args := range [][]string{
		{"rw=randrw", "size=64m", "bssplit=4k/50:64k/50", "refill_buffers"},
		{"rw=write", "size=64m", "nrfiles=4", "fsync=8", "buffer_compress_percentage=50", "dedupe_percentage=20"},
		{"rw=randtrimwrite", "size=64m", "random_generator=lfsr"},
		{"rw=randread:4", "size=64m", "norandommap", "percentage_random=50"},
	} {
		p := planOf(t, append([]string{"name=a", "ioengine=null"}, args...)...)
		j := p.Jobs[0]
		info, _ := engine.Lookup("null")
		files, err := planFiles(j)
		if err != nil {
			t.Fatal(err)
		}
		w, err := newWorker(j, info, files, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.startLoop()
		u := w.units[0]
		n := testing.AllocsPerRun(2000, func() {
			if w.next(u, 0) {
				w.queue(u)
				w.complete(u, 0, 0, 0, true)
			}
		})
		w.release()
		if n != 0 {
			t.Errorf("%v: %v allocations per I/O", args, n)
		}
	}
}
