package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fioMissing is the message every test that needs fio fails with when it
// is absent.
const fioMissing = "fio 3.33 not found: install it with `apt-get install -y fio fio-examples` (CI's .ci/run does this)"

var (
	fioPath string // real fio 3.33
	fioErr  error

	tmpRoot string // holds the gofio binary

	buildOnce  sync.Once
	gofioPath  string
	gofioBuild error
)

func TestMain(m *testing.M) {
	fioPath, fioErr = findFio()
	var err error
	tmpRoot, err = os.MkdirTemp("", "gofio-conformance-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(tmpRoot)
	os.Exit(code)
}

// findFio locates fio (on PATH, else /usr/bin/fio) and checks its version.
func findFio() (string, error) {
	p, err := exec.LookPath("fio")
	if err != nil {
		p = "/usr/bin/fio"
		if _, err := os.Stat(p); err != nil {
			return "", errors.New(fioMissing)
		}
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v\n%s", p, err, fioMissing)
	}
	if v := strings.TrimSpace(string(out)); v != "fio-3.33" {
		return "", fmt.Errorf("%s --version prints %q, want \"fio-3.33\"\n%s", p, v, fioMissing)
	}
	return p, nil
}

// requireFio fails the test when fio 3.33 is not available.
func requireFio(t *testing.T) {
	t.Helper()
	if fioErr != nil {
		t.Fatal(fioErr)
	}
}

// requireGofio builds gofio once per test run (go build -o TMP/gofio
// ./cmd/gofio from the module root, CGO_ENABLED=0) and fails the test if
// that failed.
func requireGofio(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		gofioPath, gofioBuild = buildGofio()
	})
	if gofioBuild != nil {
		t.Fatalf("building gofio: %v", gofioBuild)
	}
	return gofioPath
}

func buildGofio() (string, error) {
	// go test puts the go command's own GOROOT/bin first on the test's
	// PATH, so this finds the toolchain that runs the tests.
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("finding the go command: %w", err)
	}
	mod, err := exec.Command(goBin, "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(mod)))
	bin := filepath.Join(tmpRoot, "gofio")
	cmd := exec.Command(goBin, "build", "-o", bin, "./cmd/gofio")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/gofio: %v\n%s", err, out)
	}
	return bin, nil
}

// result is one program run.
type result struct {
	stdout, stderr string
	rc             int
	dir            string
	killed         bool // ran over runIn's limit
}

// runIn runs bin with args in dir (as cwd), replacing "{DIR}" in args by
// dir.
func runIn(bin, dir string, args []string) result {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	a := make([]string, len(args))
	for i, s := range args {
		a[i] = strings.ReplaceAll(s, "{DIR}", dir)
	}
	cmd := exec.CommandContext(ctx, bin, a...)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	r := result{stdout: so.String(), stderr: se.String(), dir: dir}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.rc = ee.ExitCode()
		if ctx.Err() != nil {
			r.killed = true
			r.stderr += "\n<killed: ran over 2 minutes>"
		}
	default:
		r.rc = -1
		r.stderr += "\n<could not run: " + err.Error() + ">"
	}
	return r
}

// lines splits s into lines (without the final empty one).
func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func hasLine(s, want string) bool {
	for _, l := range lines(s) {
		if l == want {
			return true
		}
	}
	return false
}

// head returns the start of s, for error messages.
func head(s string) string {
	const max = 2000
	if len(s) > max {
		return s[:max] + "\n<...>"
	}
	return s
}

type conformanceCase struct {
	name string
	// args follow --output-format=FMT; "{DIR}" is the scratch directory.
	args []string
	io   IOCheck
	// failLine, when set, is the line fio prints on stderr before exiting
	// with status 1; only exit status, that line and stdout are compared.
	failLine string
}

func args(s string) []string { return strings.Fields(s) }

// seed builds the seed-002 command lines (time_based, 2 s, 8 jobs); dash
// is the prefix of the last two options, "--" or the en dash the seed
// document has in two of them.
func seed(name, bs, rw, dash string) []string {
	return args("--name=" + name + " --ioengine=libaio --directory={DIR} --direct=1 --blocksize=" + bs +
		" --readwrite=" + rw + " --filesize=32M --end_fsync=1 --numjobs=8 --iodepth=1024 --runtime=2 " +
		dash + "group_reporting " + dash + "time_based=1")
}

const enDash = "\u2013"

var cases = []conformanceCase{
	{
		// Four buffered libaio random readers of 16 MiB each (files laid
		// out by the job), queue depth 16, reported as one group.
		name: "randread_libaio_buffered_4jobs",
		args: args("--name=randread --ioengine=libaio --iodepth=16 --rw=randread --bs=4k --direct=0 --size=16M --numjobs=4 --runtime=240 --group_reporting"),
		io:   IOPerDir,
	},
	{
		// Two buffered libaio random writers of 16 MiB each at queue depth
		// 1, grouped.
		name: "randwrite_libaio_qd1_2jobs",
		args: args("--name=randwrite --ioengine=libaio --iodepth=1 --rw=randwrite --bs=4k --direct=0 --size=16M --numjobs=2 --runtime=240 --group_reporting"),
		io:   IOPerDir,
	},
	{
		// 75/25 direct random read/write mix over a named 32 MiB file at
		// queue depth 64 with gtod_reduce (no latency lines), options
		// before --name (global options).
		name: "randrw_direct_gtod_reduce",
		args: args("--randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --name=test --filename=random_read_write.fio --bs=4k --iodepth=64 --size=32M --readwrite=randrw --rwmixread=75"),
		io:   IOTotal,
	},
	{
		// Seed 002: 8 direct sequential 1 MiB readers for 2 s, queue
		// depth 1024, end_fsync, grouped.
		name: "seed_seq_read_bw",
		args: seed("seq_read_bw", "1M", "read", "--"),
	},
	{
		// Seed 002: 8 direct sequential 4 KiB writers for 2 s.
		name: "seed_seq_write_iops",
		args: seed("seq_write_iops", "4K", "write", "--"),
	},
	{
		// Seed 002: 8 direct random 4 KiB readers for 2 s.
		name: "seed_rnd_read_iops",
		args: seed("rnd_read_iops", "4K", "randread", "--"),
	},
	{
		// Seed 002: 8 direct random 4 KiB writers for 2 s.
		name: "seed_rnd_write_iops",
		args: seed("rnd_write_iops", "4K", "randwrite", "--"),
	},
	{
		// seq_write_iops as typed in the seed document: the last two
		// options start with an en dash, so fio takes them as job file
		// names and fails on the first.
		name:     "seed_seq_write_iops_en_dash",
		args:     seed("seq_write_iops", "4K", "write", enDash),
		failLine: "fio: unable to open '" + enDash + "group_reporting' job file",
	},
	{
		// rnd_write_iops as typed in the seed document, en dashes
		// included.
		name:     "seed_rnd_write_iops_en_dash",
		args:     seed("rnd_write_iops", "4K", "randwrite", enDash),
		failLine: "fio: unable to open '" + enDash + "group_reporting' job file",
	},
	{
		// One psync random reader over 8 MiB (sync engine: no slat).
		name: "psync_randread_8m",
		args: args("--name=psync_randread --ioengine=psync --rw=randread --bs=4k --size=8M"),
		io:   IOPerDir,
	},
	{
		// The null engine: no file, no disk statistics.
		name: "null_randread_64m",
		args: args("--name=null_randread --ioengine=null --size=64M --bs=4k --rw=randread"),
		io:   IOPerDir,
	},
	{
		// io_uring random reads, direct, queue depth 32, 16 MiB.
		name: "io_uring_randread_qd32",
		args: args("--name=uring_randread --ioengine=io_uring --rw=randread --iodepth=32 --direct=1 --bs=4k --size=16M"),
		io:   IOPerDir,
	},
	// Issue 5: every engine and the workload and file options, small,
	// several jobs per case to keep the runs few.
	{
		// The sync family: vsync (lseek + writev), pvsync (preadv) and
		// pvsync2 with hipri (ignored by buffered files).
		name: "sync_family_1m",
		args: args("--name=vsync --ioengine=vsync --rw=write --bs=4k --size=1M --name=pvsync --ioengine=pvsync --rw=randread --size=1M " +
			"--name=pvsync2 --ioengine=pvsync2 --hipri --rw=read --bs=8k --size=1M"),
		io: IOPerDir,
	},
	{
		// pvsync2 nowait: fio drops a file's pages from the cache after
		// laying it out, invalidate=0 or not, so the first RWF_NOWAIT
		// read fails with EAGAIN and the job with it.
		name: "pvsync2_nowait_uncached",
		args: args("--name=pvsync2 --ioengine=pvsync2 --nowait=1 --invalidate=0 --rw=read --bs=8k --size=256k"),
		io:   IOPerDir,
	},
	{
		// mmap random writes through a shared mapping; posixaio at depth 8.
		name: "mmap_posixaio_1m",
		args: args("--name=mmap --ioengine=mmap --rw=randwrite --bs=4k --size=1M --name=posixaio --ioengine=posixaio --iodepth=8 --rw=randread --size=1M"),
		io:   IOPerDir,
	},
	{
		// The file engines as the shipped examples set them up, 20 files
		// each: filecreate, filestat (lstat), filedelete.
		name: "file_engines_20_files",
		args: args("--name=fc --ioengine=filecreate --create_on_open=1 --nrfiles=20 --fallocate=none --filesize=4k --openfiles=1 " +
			"--name=fs --ioengine=filestat --stat_type=lstat --nrfiles=20 --filesize=4k --name=fd --ioengine=filedelete --nrfiles=20 --filesize=4k --unlink=0"),
		io: IOPerDir,
	},
	{
		// ftruncate: sequential writes set the size; falloc: random
		// allocations, then punched holes in the same file.
		name: "ftruncate_falloc",
		args: args("--name=ft --ioengine=ftruncate --rw=write --bs=4k --size=256k --name=fa --ioengine=falloc --rw=randwrite --bs=4k --size=1M --filename=falloc.dat " +
			"--name=fb --stonewall --ioengine=falloc --rw=trim --bs=16k --size=1M --filename=falloc.dat"),
		io: IOPerDir,
	},
	{
		// Offsets: backwards reads (backwards-read.fio, smaller), LFSR
		// and 64-bit Tausworthe random offsets (randrepeat off), three
		// clones at offset_increment in one file.
		name: "offsets_generators_increment",
		args: args("--name=back --rw=read:-8k --bs=4k --size=1M --name=lfsr --random_generator=lfsr --rw=randread --bs=4k --size=1M " +
			"--name=t64 --random_generator=tausworthe64 --randrepeat=0 --rw=randread --size=1M " +
			"--name=oi --filename=shared.dat --size=256k --offset_increment=256k --numjobs=3 --rw=write --bs=4k"),
		io: IOPerDir,
	},
	{
		// Four files, two open at a time, one after the other; syncs
		// every 4 writes with O_DSYNC, fsync on close and at the end.
		name: "files_and_syncs",
		args: args("--name=nf --nrfiles=4 --openfiles=2 --file_service_type=sequential --rw=write --bs=4k --size=1M " +
			"--name=sy --fsync=4 --sync=dsync --fsync_on_close=1 --end_fsync=1 --rw=write --bs=4k --size=256k"),
		io: IOPerDir,
	},
	{
		// Buffer contents: compressible, deduplicated, refilled, from a
		// shared memory segment, with three loops.
		name: "buffers_compress_dedupe_shm_loops",
		args: args("--name=bu --buffer_compress_percentage=50 --dedupe_percentage=30 --refill_buffers --mem=shm --loops=3 --rw=randwrite --bs=4k --size=256k"),
		io:   IOPerDir,
	},
	{
		// From fio's own test suite: rw=read:512k with bs=1m stops where
		// a block no longer fits (t0007, smaller: 11 MiB of 16 MiB);
		// bsrange with ':' and a bssplit-like list, overriding a later
		// bs (t0002, t0023); verify_interval above the block size
		// (t0004).
		name: "fio_testsuite_skip_bsrange_verify_interval",
		args: args("--name=skip --rw=read:512k --bs=1m --size=16m " +
			"--name=bsr --rw=write --bsrange=4k/25:4k:25:8k/50 --bs=8k --size=256k " +
			"--name=vi --rw=write --bs=512 --verify=md5 --verify_interval=1M --size=64k"),
		io: IOPerDir,
	},
}

// caseSlots bounds the seed cases run at once (each runs fio and gofio
// side by side): the seed jobs take 8×1024 libaio events per program and
// /proc/sys/fs/aio-max-nr is 65536 by default. The other cases, a few
// dozen events each at most, run as go test's -parallel lets them.
var caseSlots = make(chan struct{}, 2)

// manyEvents reports whether c is a seed job (iodepth=1024, 8 jobs).
func manyEvents(c conformanceCase) bool {
	return strings.Contains(strings.Join(c.args, " "), "--iodepth=1024")
}

var formats = []string{"json", "normal", "terse"}

func TestConformance(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	// Started in this order (go test's time): seed_rnd_write_iops first,
	// the longest by far (its direct writes flush what its files' layout
	// left in the page cache), then the short cases beside it, and the
	// other seed cases last, so that none waits for a seed slot while
	// holding one of go test's -parallel slots for long.
	rank := func(c conformanceCase) int {
		switch {
		case c.name == "seed_rnd_write_iops":
			return 0
		case manyEvents(c):
			return 2
		}
		return 1
	}
	order := slices.Clone(cases)
	slices.SortStableFunc(order, func(a, b conformanceCase) int { return rank(a) - rank(b) })
	for _, c := range order {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if manyEvents(c) {
				caseSlots <- struct{}{}
				defer func() { <-caseSlots }()
			}
			for _, f := range formats {
				t.Run(f, func(t *testing.T) {
					fr, gr := runBoth(t, gofio, append([]string{"--output-format=" + f}, c.args...))
					if c.failLine != "" {
						compareFailure(t, c, fr, gr)
						return
					}
					if fr.rc != gr.rc {
						t.Errorf("exit status: fio %d, gofio %d\ngofio stderr:\n%s", fr.rc, gr.rc, head(gr.stderr))
					}
					if fr.rc != 0 {
						t.Logf("fio failed (status %d), only the exit status and stderr are compared:\n%s", fr.rc, fr.stderr)
						for _, l := range lines(fr.stderr) {
							if !hasLine(gr.stderr, l) {
								t.Errorf("gofio stderr lacks fio's line %q", l)
							}
						}
						return
					}
					if gr.stderr != "" && fr.stderr == "" {
						t.Errorf("gofio stderr is not empty on success:\n%s", head(gr.stderr))
					}
					switch f {
					case "json":
						compareJSON(t, c, fr, gr)
					case "normal":
						compareNormal(t, fr, gr)
					case "terse":
						compareTerse(t, c, fr, gr)
					}
				})
			}
		})
	}
}

// runBoth runs fio and gofio side by side, each in a fresh empty directory,
// which is removed afterwards (the seed jobs lay out 256 MiB each).
func runBoth(t *testing.T, gofio string, a []string) (fio, gof result) {
	t.Helper()
	base := t.TempDir()
	fd, gd := filepath.Join(base, "fio"), filepath.Join(base, "gofio")
	for _, d := range []string{fd, gd} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); fio = runIn(fioPath, fd, a) }()
	go func() { defer wg.Done(); gof = runIn(gofio, gd, a) }()
	wg.Wait()
	os.RemoveAll(fd)
	os.RemoveAll(gd)
	t.Logf("args: %q", a)
	return fio, gof
}

func compareFailure(t *testing.T, c conformanceCase, fr, gr result) {
	t.Helper()
	if fr.rc != 1 || !hasLine(fr.stderr, c.failLine) {
		t.Fatalf("fio did not fail as expected: status %d, stderr:\n%s", fr.rc, fr.stderr)
	}
	if gr.rc != fr.rc {
		t.Errorf("exit status: fio %d, gofio %d", fr.rc, gr.rc)
	}
	if !hasLine(gr.stderr, c.failLine) {
		t.Errorf("gofio stderr lacks the line %q; it is:\n%s", c.failLine, head(gr.stderr))
	}
	if diff := cmp.Diff(lines(fr.stdout), lines(gr.stdout)); diff != "" {
		t.Errorf("stdout (-fio +gofio):\n%s", diff)
	}
}

func compareJSON(t *testing.T, c conformanceCase, fr, gr result) {
	t.Helper()
	fj, err := ParseJSON([]byte(fr.stdout))
	if err != nil {
		t.Fatalf("fio's JSON does not parse: %v\n%s", err, head(fr.stdout))
	}
	gj, err := ParseJSON([]byte(gr.stdout))
	if err != nil {
		t.Fatalf("gofio's stdout is not exactly one JSON document: %v\n%s", err, head(gr.stdout))
	}
	if !strings.HasPrefix(gr.stdout, "{") || !strings.HasSuffix(gr.stdout, "}\n") {
		t.Errorf("gofio's JSON should start with '{' and end with \"}\\n\" as fio's does")
	}
	if diff := cmp.Diff(KeyTree(fj), KeyTree(gj)); diff != "" {
		t.Errorf("JSON key tree (-fio +gofio):\n%s", diff)
	}
	fv := DeterministicJSON(fj, c.io, fr.dir, "{DIR}")
	gv := DeterministicJSON(gj, c.io, gr.dir, "{DIR}")
	if diff := cmp.Diff(fv, gv); diff != "" {
		t.Errorf("JSON deterministic values (-fio +gofio):\n%s", diff)
	}
}

func compareNormal(t *testing.T, fr, gr result) {
	t.Helper()
	fs, gs := MaskNormal(fr.stdout), MaskNormal(gr.stdout)
	if count(fs, IsSampleLine) != count(gs, IsSampleLine) {
		// Whether a bw sample was taken (every 500 ms) is timing.
		t.Logf("bw/iops line presence differs (fio %d, gofio %d lines); compared without them",
			count(fs, IsSampleLine), count(gs, IsSampleLine))
		fs, gs = DropSampleLines(fs), DropSampleLines(gs)
	}
	if diff := cmp.Diff(fs, gs); diff != "" {
		t.Errorf("normal report skeleton (-fio +gofio):\n%s\ngofio stdout:\n%s", diff, head(gr.stdout))
	}
}

func count(list []string, f func(string) bool) int {
	n := 0
	for _, s := range list {
		if f(s) {
			n++
		}
	}
	return n
}

func compareTerse(t *testing.T, c conformanceCase, fr, gr result) {
	t.Helper()
	frows, grows := SplitTerse(fr.stdout), SplitTerse(gr.stdout)
	if len(frows) == 0 {
		t.Fatalf("fio printed no terse line")
	}
	for i, f := range frows {
		if len(f) < TerseV3Fields {
			t.Fatalf("fio terse line %d has %d fields", i, len(f))
		}
	}
	if diff := cmp.Diff(DeterministicTerse(frows, c.io), DeterministicTerse(grows, c.io)); diff != "" {
		t.Errorf("terse fields (-fio +gofio):\n%s\ngofio stdout:\n%s", diff, head(gr.stdout))
	}
}
