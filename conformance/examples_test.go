package conformance

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Issue 5's differential tests beyond the report comparisons of
// TestConformance: the files jobs leave behind, byte counts of jobs whose
// I/O count is random, failures, --readonly, and the shipped examples.

// run2 runs fio and gofio with args, each in a fresh directory prepared
// by setup (may be nil), and returns both results with the files each
// left (name, size, mode), before the directories are removed.
func run2(t *testing.T, args []string, setup func(dir string)) (fio, gof result, fioFiles, gofFiles []string) {
	t.Helper()
	gofio := requireGofio(t)
	base := t.TempDir()
	fd, gd := filepath.Join(base, "fio"), filepath.Join(base, "gofio")
	for _, d := range []string{fd, gd} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if setup != nil {
			setup(d)
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); fio = runIn(fioPath, fd, args); fioFiles = tree(fd) }()
	go func() { defer wg.Done(); gof = runIn(gofio, gd, args); gofFiles = tree(gd) }()
	wg.Wait()
	t.Logf("args: %q", args)
	return fio, gof, fioFiles, gofFiles
}

// tree lists the regular files under dir as "path size mode".
func tree(dir string) []string {
	var out []string
	filepath.Walk(dir, func(p string, st os.FileInfo, err error) error {
		if err == nil && st.Mode().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, fmt.Sprintf("%s %d %o", rel, st.Size(), st.Mode().Perm()))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// jsonOf parses the JSON document of a run's stdout, skipping the lines
// fio prints before it in every format (cpuio's announcement, notes).
func jsonOf(t *testing.T, who string, r result) *Node {
	t.Helper()
	i := strings.Index(r.stdout, "{\n")
	if i < 0 {
		t.Fatalf("%s printed no JSON (status %d):\n%s\n%s", who, r.rc, head(r.stdout), head(r.stderr))
	}
	n, err := ParseJSON([]byte(r.stdout[i:]))
	if err != nil {
		t.Fatalf("%s's JSON does not parse: %v", who, err)
	}
	return n
}

// jobBytes lists each job's name, error and bytes per direction.
func jobBytes(n *Node) []string {
	var out []string
	for _, j := range n.Get("jobs").Kids {
		line := j.Get("jobname").Text + " error=" + j.Get("error").Text
		for _, d := range []string{"read", "write", "trim"} {
			line += " " + d + "=" + j.Get(d, "io_bytes").Text
		}
		out = append(out, line)
	}
	return out
}

// jobTotals lists each job's name, error and bytes of all directions.
func jobTotals(n *Node) []string {
	var out []string
	for _, j := range n.Get("jobs").Kids {
		var sum uint64
		for _, d := range []string{"read", "write", "trim"} {
			sum += uintOf(j.Get(d, "io_bytes"))
		}
		out = append(out, fmt.Sprintf("%s error=%s bytes=%d", j.Get("jobname").Text, j.Get("error").Text, sum))
	}
	return out
}

// jobOutcomes lists each job's name and error only (time-based jobs).
func jobOutcomes(n *Node) []string {
	var out []string
	for _, j := range n.Get("jobs").Kids {
		out = append(out, j.Get("jobname").Text+" error="+j.Get("error").Text)
	}
	return out
}

// Jobs leave the same files, with the same names, sizes and modes, and
// move the same bytes; their I/O counts may differ where block sizes are
// random (bsrange, bssplit).
func TestFilesAndBytes(t *testing.T) {
	requireFio(t)
	cases := []struct {
		name string
		args string
	}{
		// filecreate: empty 0600 files; filedelete: none left.
		{"filecreate", "--name=fc --ioengine=filecreate --nrfiles=5 --filesize=8k --bs=2k"},
		{"filedelete", "--name=fd --ioengine=filedelete --nrfiles=5 --filesize=8k --rw=write"},
		// ftruncate: the size is the last write's offset.
		{"ftruncate", "--name=ft --ioengine=ftruncate --filesize=64k --rw=write"},
		// Names from filename lists, directories, filename_format, clones.
		{"filename list", "--name=fl --filename=a:b:c --size=48k --rw=write"},
		{"directory list", "--name=dl --directory=d1:d2 --nrfiles=2 --numjobs=2 --filesize=8k --rw=write"},
		{"filename_format", "--name=ff --filename_format=f.$jobnum.$filenum --nrfiles=3 --numjobs=2 --filesize=4k --rw=write"},
		// size with offset: the file holds offset+size.
		{"offset size", "--name=os --size=16k --offset=16k --rw=write"},
		{"offset_increment", "--name=oi --filename=f --size=16k --offset_increment=16k --numjobs=3 --rw=write"},
		// Files a write job creates when it opens them are 0600.
		{"create_on_open", "--name=co --create_on_open=1 --filesize=64k --rw=write"},
		{"unlink", "--name=ul --filesize=64k --rw=write --unlink=1"},
		{"unlink_each_loop", "--name=ue --filesize=64k --rw=write --loops=3 --unlink_each_loop=1"},
		{"overwrite", "--name=ow --filesize=64k --rw=randwrite --overwrite=1"},
		{"fallocate keep", "--name=fk --filesize=64k --rw=write --fallocate=keep"},
		// Random block sizes: the same bytes.
		{"bsrange", "--name=br --bsrange=1k-10k --filesize=256k"},
		{"bssplit", "--name=bs --bssplit=4k/10:64k/50:32k/40 --filesize=1m --rw=randwrite"},
		{"io_size loops", "--name=il --filesize=64k --io_size=192k --rw=randread --bsrange=4k-16k"},
		{"number_ios", "--name=ni --filesize=64k --number_ios=5"},
		// number_ios times loops, over the loops: one loop of 15, and
		// loops of 8 when the region (8 blocks) ends a loop first.
		{"number_ios loops", "--name=nl --filesize=64k --number_ios=5 --loops=3"},
		{"number_ios past region", "--name=np --filesize=32k --number_ios=12 --loops=2 --rw=write"},
		{"trimwrite on file", "--name=tw --ioengine=falloc --filesize=64k --rw=randtrimwrite"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			caseSlots <- struct{}{}
			defer func() { <-caseSlots }()
			a := append([]string{"--output-format=json"}, args(c.args)...)
			setup := func(dir string) {
				os.Mkdir(filepath.Join(dir, "d1"), 0o755)
				os.Mkdir(filepath.Join(dir, "d2"), 0o755)
			}
			fr, gr, ff, gf := run2(t, a, setup)
			if fr.rc != gr.rc {
				t.Fatalf("exit status: fio %d, gofio %d\n%s", fr.rc, gr.rc, head(gr.stderr))
			}
			if diff := cmp.Diff(ff, gf); diff != "" {
				t.Errorf("files (-fio +gofio):\n%s", diff)
			}
			if diff := cmp.Diff(jobBytes(jsonOf(t, "fio", fr)), jobBytes(jsonOf(t, "gofio", gr))); diff != "" {
				t.Errorf("bytes (-fio +gofio):\n%s", diff)
			}
		})
	}
}

// pidLine masks what differs between fio's and gofio's "fio: pid=" lines:
// the pid and the source location.
var pidLine = regexp.MustCompile(`pid=\d+|file:[^,]*,`)

// errLines returns the "fio: ..." message lines of both streams, masked,
// sorted (fio prints some on stdout, gofio on stderr). fio's complaint
// about invalidating a file it failed to extend under --readonly (its
// descriptor is closed) is a fio bug gofio does not copy.
func errLines(r result) []string {
	var out []string
	for _, l := range append(lines(r.stdout), lines(r.stderr)...) {
		if strings.HasPrefix(l, "fio: cache invalidation of ") {
			continue
		}
		if strings.HasPrefix(l, "fio: ") || strings.HasPrefix(l, "note: ") {
			out = append(out, pidLine.ReplaceAllString(l, "#"))
		}
	}
	sort.Strings(out)
	return out
}

// Jobs that fail do so with fio's error, in the same step.
func TestFailures(t *testing.T) {
	requireFio(t)
	cases := []struct {
		name string
		args string
	}{
		// A trim on a regular file is BLKDISCARD: ENOTTY in td_io_queue,
		// for every engine (mmap: func=trim).
		{"psync trim", "--name=tr --filesize=64k --rw=trim"},
		{"libaio randtrim", "--name=tr --ioengine=libaio --filesize=64k --rw=randtrim"},
		{"mmap trim", "--name=tr --ioengine=mmap --filesize=64k --rw=trim"},
		{"posixaio trimwrite", "--name=tr --ioengine=posixaio --filesize=64k --rw=trimwrite"},
		// ftruncate refuses reads.
		{"ftruncate read", "--name=ft --ioengine=ftruncate --filesize=64k"},
		// fio's RWF_UNCACHED is 0x40, which buffered I/O refuses today.
		{"pvsync2 uncached", "--name=un --ioengine=pvsync2 --uncached=1 --filesize=64k --rw=write"},
		// cmdprio_bssplit is read when the engine starts (fio's lines).
		{"io_uring cmdprio_bssplit format", "--name=cb --ioengine=io_uring --cmdprio_bssplit=4k/50/1 --filesize=64k"},
		{"libaio cmdprio_bssplit total", "--name=cb --ioengine=libaio --cmdprio_bssplit=4k/60:4k/50 --filesize=64k --rw=randrw"},
		{"libaio cmdprio exclusive", "--name=cb --ioengine=libaio --cmdprio_percentage=50 --cmdprio_bssplit=4k/10 --filesize=64k"},
		// cpuio needs cpuload.
		{"cpuio without cpuload", "--name=cp --ioengine=cpuio --runtime=1 --time_based"},
		// allow_file_create=0 and no file.
		{"allow_file_create", "--name=af --filesize=64k --allow_file_create=0"},
		// A file too small is unlinked before its layout: /proc/version
		// refuses (EPERM), a setup error (pid=0), not an I/O error.
		{"unlink refused", "--name=pv --filename=/proc/version --rw=write --size=4k"},
		// A file that cannot be created fails its layout's open.
		{"layout open", "--name=lo --filename=/proc/nofile --rw=write --size=4k"},
		// Missing parent directories are created (mode 0700); when one
		// cannot be, the job fails with error 0 and exit status 1.
		{"missing dirs", "--name=md --filename=d1/d2/f --rw=write --size=4k"},
		{"missing dirs, read", "--name=md --filename=d1/f --size=4k"},
		{"dir not creatable", "--name=dn --filename=/proc/version/sub/f --rw=write --size=4k"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			caseSlots <- struct{}{}
			defer func() { <-caseSlots }()
			fr, gr, ff, gf := run2(t, append([]string{"--output-format=json"}, args(c.args)...), nil)
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d\n%s", fr.rc, gr.rc, head(gr.stderr))
			}
			if strings.Contains(c.name, "cpuio") {
				// fio's text names its source file; the error is the same.
				if !strings.Contains(gr.stderr, "error=cpu thread needs rate (cpuload=)") {
					t.Errorf("gofio stderr lacks cpuio's error:\n%s", gr.stderr)
				}
				return
			}
			if diff := cmp.Diff(errLines(fr), errLines(gr)); diff != "" {
				t.Errorf("messages (-fio +gofio):\n%s", diff)
			}
			if diff := cmp.Diff(ff, gf); diff != "" {
				t.Errorf("files (-fio +gofio):\n%s", diff)
			}
			if fr.rc == 1 && strings.Contains(fr.stdout, "{\n") && !strings.Contains(c.name, "allow_file_create") {
				fj, gj := jsonOf(t, "fio", fr), jsonOf(t, "gofio", gr)
				if diff := cmp.Diff(jobOutcomes(fj), jobOutcomes(gj)); diff != "" {
					t.Errorf("job errors (-fio +gofio):\n%s", diff)
				}
			}
		})
	}
}

// --readonly refuses every job that writes or trims as fio does, and
// leaves every file byte for byte as it was.
func TestReadOnly(t *testing.T) {
	requireFio(t)
	jobfile := "[w]\nrw=randwrite\nfilename=data\nsize=64k\n"
	cases := []struct {
		name string
		args []string
	}{
		{"write after rw", args("--name=a --filename=data --size=64k --rw=write --readonly")},
		{"trim after rw", args("--name=a --filename=data --size=64k --rw=randtrim --readonly")},
		{"trimwrite after rw", args("--name=a --filename=data --size=64k --rw=trimwrite --readonly")},
		{"rw before", args("--readonly --name=a --filename=data --size=64k --rw=randrw")},
		{"job file", args("--readonly job.fio")},
		{"read of a small file", args("--readonly --name=a --filename=data --size=128k")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setup := func(dir string) {
				data := make([]byte, 64<<10)
				for k := range data {
					data[k] = byte(k * 31)
				}
				os.WriteFile(filepath.Join(dir, "data"), data, 0o644)
				os.WriteFile(filepath.Join(dir, "job.fio"), []byte(jobfile), 0o644)
			}
			fr, gr, ff, gf := run2(t, c.args, setup)
			if fr.rc != gr.rc {
				t.Errorf("exit status: fio %d, gofio %d\n%s", fr.rc, gr.rc, head(gr.stderr))
			}
			if diff := cmp.Diff(errLines(fr), errLines(gr)); diff != "" {
				t.Errorf("messages (-fio +gofio):\n%s", diff)
			}
			if diff := cmp.Diff(ff, gf); diff != "" {
				t.Errorf("files (-fio +gofio):\n%s", diff)
			}
		})
	}
	// The checksums: gofio alone, on files of known content.
	gofio := requireGofio(t)
	for _, c := range cases {
		dir := t.TempDir()
		data := make([]byte, 64<<10)
		for k := range data {
			data[k] = byte(k*7 + 3)
		}
		os.WriteFile(filepath.Join(dir, "data"), data, 0o644)
		os.WriteFile(filepath.Join(dir, "job.fio"), []byte(jobfile), 0o644)
		before := sha256.Sum256(data)
		runIn(gofio, dir, c.args)
		after, err := os.ReadFile(filepath.Join(dir, "data"))
		if err != nil || sha256.Sum256(after) != before {
			t.Errorf("%s: data changed under --readonly (%v)", c.name, err)
		}
		if got := tree(dir); len(got) != 2 {
			t.Errorf("%s: files %v; want data and job.fio only", c.name, got)
		}
	}
}

// example is one shipped job file, shrunk for the test: edits holds
// pairs of texts to replace, in order.
type example struct {
	file  string
	edits []string
	// sizeBased: every job ends by size, so the bytes are compared (their
	// sum over the directions when mixed: the split is random).
	sizeBased, mixed bool
}

var examples = []example{
	{file: "null.fio", edits: []string{"size=100g", "size=64m"}, sizeBased: true},
	{file: "zipf.fio", edits: []string{"size=1280m", "size=64m"}, sizeBased: true},
	{file: "cpuio.fio", edits: []string{"runtime=15", "runtime=1"}},
	{file: "filecreate-ioengine.fio", edits: []string{"nrfiles=31250", "nrfiles=20"}, sizeBased: true},
	{file: "filestat-ioengine.fio", edits: []string{"nrfiles=200", "nrfiles=20"}, sizeBased: true},
	{file: "filedelete-ioengine.fio", edits: []string{"nrfiles=200", "nrfiles=20"}, sizeBased: true},
	{file: "ftruncate.fio", edits: []string{"directory=/scratch", "directory=.", "size=102404k ; 100Mb+4k", "size=1028k", "runtime=10s", "runtime=1s"}},
	{file: "falloc.fio", edits: []string{"directory=/scratch", "directory=.", "filesize=100M", "filesize=4M", "size=100M", "size=4M", "runtime=10", "runtime=1"}},
	{file: "aio-read.fio", edits: []string{"directory=/data1", "directory=.", "size=512m", "size=4m"}, sizeBased: true},
	{file: "backwards-read.fio", edits: []string{"filename=128m", "filename=backwards", "size=128m", "size=1m"}, sizeBased: true},
	{file: "fio-rand-RW.fio", edits: []string{"size=10G", "size=8m", "runtime=900", "runtime=1"}},
	{file: "fio-seq-RW.fio", edits: []string{"size=10G", "size=8m", "runtime=900", "runtime=1"}},
	{file: "fsx.fio", edits: []string{"loops=500000", "loops=20"}, sizeBased: true, mixed: true},
	{file: "exitwhat.fio", edits: []string{"filename=/tmp/test", "filename=exitwhat.dat", "filesize=1G", "filesize=8m", "number_ios=1000", "number_ios=20"}},
	{file: "tiobench-example.fio", edits: []string{"size=512m", "size=4m", "timeout=60", "timeout=2"}},
	{file: "rand-zones.fio", edits: []string{"size=2g", "size=16m"}, sizeBased: true},
	{file: "dedupe-global.fio", edits: []string{"size=100m", "size=4m"}, sizeBased: true},
	{file: "iometer-file-access-server.fio", edits: []string{"size=4g", "size=8m"}, sizeBased: true, mixed: true},
}

// shrink applies an example's edits to the job file's text; an edit that
// matches no line is an error (the copy changed).
func shrink(t *testing.T, ex example) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "examples", ex.file))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for i := 0; i+1 < len(ex.edits); i += 2 {
		from, to := ex.edits[i], ex.edits[i+1]
		if !strings.Contains(text, from) {
			t.Fatalf("%s: no %q to shrink", ex.file, from)
		}
		text = strings.ReplaceAll(text, from, to)
	}
	return text
}

// The acceptance list of issue 5: shipped examples, shrunk, give the same
// outcome under gofio as under fio: the same exit status and job errors,
// and for size-based ones the same bytes and files.
func TestShippedExamples(t *testing.T) {
	requireFio(t)
	for _, ex := range examples {
		t.Run(strings.TrimSuffix(ex.file, ".fio"), func(t *testing.T) {
			t.Parallel()
			caseSlots <- struct{}{}
			defer func() { <-caseSlots }()
			text := shrink(t, ex)
			setup := func(dir string) { os.WriteFile(filepath.Join(dir, "job.fio"), []byte(text), 0o644) }
			fr, gr, ff, gf := run2(t, []string{"--output-format=json", "job.fio"}, setup)
			if fr.rc != gr.rc {
				t.Fatalf("exit status: fio %d, gofio %d\n%s", fr.rc, gr.rc, head(gr.stderr))
			}
			fj, gj := jsonOf(t, "fio", fr), jsonOf(t, "gofio", gr)
			if diff := cmp.Diff(jobOutcomes(fj), jobOutcomes(gj)); diff != "" {
				t.Errorf("jobs (-fio +gofio):\n%s", diff)
			}
			if !ex.sizeBased {
				return
			}
			bytes := jobBytes
			if ex.mixed {
				bytes = jobTotals
			}
			if diff := cmp.Diff(bytes(fj), bytes(gj)); diff != "" {
				t.Errorf("bytes (-fio +gofio):\n%s", diff)
			}
			if diff := cmp.Diff(ff, gf); diff != "" {
				t.Errorf("files (-fio +gofio):\n%s", diff)
			}
		})
	}
}
