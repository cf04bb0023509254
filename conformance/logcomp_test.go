package conformance

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// logCompJob writes logs with log_compression (text files at the end)
// and with log_store_compressed (NAME.log.fz files), with offsets, with
// log_prio, with several chunks per log (1 KiB: 25 or 32 samples) and
// with two clones appending to one .fz (per_job_logs=0), and with the
// compression on CPU 0 only (log_compression_cpus).
const logCompJob = `[global]
ioengine=null
size=256k
bs=4k
rw=write
log_offset=1
[plain]
write_bw_log=plain
write_iops_log=plain
write_lat_log=plain
log_compression=1k
log_compression_cpus=0
[stored]
write_bw_log=stored
write_iops_log=stored
write_lat_log=stored
log_compression=1k
log_store_compressed=1
log_prio=1
prio=3
[shared]
numjobs=2
write_iops_log=shared
log_offset=0
per_job_logs=0
log_store_compressed=1
`

// TestCompressedLogs runs logCompJob with fio and gofio, then checks
// that both write the same files, that fio's --inflate-log reads
// gofio's .fz files and gofio's reads fio's, each printing what the
// other prints for the same file, and that the logs agree in the columns
// that do not depend on timing (direction, block size, offset,
// priority, the iops value 1).
func TestCompressedLogs(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	base := t.TempDir()
	bins := map[string]string{"fio": fioPath, "gofio": gofio}
	var wg sync.WaitGroup
	var mu sync.Mutex
	res := map[string]result{}
	for name, bin := range bins {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(logCompJob), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := runIn(bin, dir, []string{"--output=out", "job.fio"})
			mu.Lock()
			res[name] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	for name, r := range res {
		if r.rc != 0 {
			t.Fatalf("%s: rc=%d stderr=%q", name, r.rc, r.stderr)
		}
	}
	files := func(dir string) []string {
		var s []string
		for _, pat := range []string{"*.log", "*.fz"} {
			m, _ := filepath.Glob(filepath.Join(dir, pat))
			for _, n := range m {
				s = append(s, filepath.Base(n))
			}
		}
		sort.Strings(s)
		return s
	}
	fdir, gdir := filepath.Join(base, "fio"), filepath.Join(base, "gofio")
	names := files(fdir)
	if f, g := strings.Join(names, " "), strings.Join(files(gdir), " "); f != g {
		t.Fatalf("log files:\nfio:   %s\ngofio: %s", f, g)
	}
	if len(names) != 11 {
		t.Errorf("fio wrote %d logs, want 11: %s", len(names), names)
	}
	// text returns log n of dir as text: the file itself, or for a .fz
	// what fio's --inflate-log prints, after checking that gofio's
	// --inflate-log prints the same (for an empty .fz, the slat log of a
	// sync engine, both fail with "short read").
	text := func(dir, n string) string {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(n, ".fz") {
			return string(b)
		}
		fr := runIn(fioPath, dir, []string{"--inflate-log=" + n})
		gr := runIn(gofio, dir, []string{"--inflate-log=" + n})
		if fr.stdout != gr.stdout || fr.stderr != gr.stderr || fr.rc != gr.rc {
			t.Errorf("--inflate-log=%s/%s: fio rc=%d stderr=%q stdout:\n%s\ngofio rc=%d stderr=%q stdout:\n%s",
				filepath.Base(dir), n, fr.rc, fr.stderr, head(fr.stdout), gr.rc, gr.stderr, head(gr.stdout))
		}
		return fr.stdout
	}
	for _, n := range names {
		f, g := lines(text(fdir, n)), lines(text(gdir, n))
		if len(f) != len(g) {
			t.Errorf("%s: fio %d lines, gofio %d", n, len(f), len(g))
			continue
		}
		if want := map[bool]int{true: 0, false: 64}[strings.Contains(n, "_slat")]; strings.HasPrefix(n, "shared") {
			want = 128
			sort.Strings(f) // the clones' order follows which ended first
			sort.Strings(g)
			if len(f) != want {
				t.Errorf("%s: fio %d lines, want %d", n, len(f), want)
			}
		} else if len(f) != want {
			t.Errorf("%s: fio %d lines, want %d", n, len(f), want)
		}
		for i := range f {
			fc, gc := strings.Split(f[i], ", "), strings.Split(g[i], ", ")
			from := 2
			if strings.Contains(n, "_iops") {
				from = 1
			}
			if len(fc) != len(gc) || len(fc) <= from || strings.Join(fc[from:], ",") != strings.Join(gc[from:], ",") {
				t.Errorf("%s line %d: fio %q, gofio %q", n, i+1, f[i], g[i])
				break
			}
		}
	}
}

// TestInflateLogErrors gives fio's and gofio's --inflate-log files that
// are not whole compressed logs: the output, messages and exit statuses
// must be fio's.
func TestInflateLogErrors(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	dir := t.TempDir()
	// A good file first, from fio itself.
	r := runIn(fioPath, dir, args("--name=j --ioengine=null --size=64k --bs=4k --rw=write --write_iops_log=g --log_store_compressed=1 --output=out"))
	if r.rc != 0 {
		t.Fatalf("fio: rc=%d stderr=%q", r.rc, r.stderr)
	}
	good, err := os.ReadFile(filepath.Join(dir, "g_iops.1.log.fz"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"empty":      nil,
		"text":       []byte("hello\n"),
		"trailing":   append(append([]byte{}, good...), "junk\n"...),
		"corrupt":    append(append([]byte{}, good...), 0x78, 0x9c, 0xff, 0xff, 0xff, 0xff),
		"onebyte":    good[:1],
		"nochecksum": good[:len(good)-4],
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"missing", "adir", "empty", "text", "trailing", "corrupt", "onebyte", "nochecksum"} {
		fr := runIn(fioPath, dir, []string{"--inflate-log=" + n})
		gr := runIn(gofio, dir, []string{"--inflate-log=" + n})
		if fr.rc != gr.rc || fr.stdout != gr.stdout || fr.stderr != gr.stderr {
			t.Errorf("--inflate-log=%s: fio rc=%d stderr=%q stdout %d bytes; gofio rc=%d stderr=%q stdout %d bytes",
				n, fr.rc, fr.stderr, len(fr.stdout), gr.rc, gr.stderr, len(gr.stdout))
		}
	}
}
