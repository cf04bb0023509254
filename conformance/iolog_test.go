package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// iologJob writes every kind of I/O log fio 3.33 has besides the
// histogram one: per-I/O logs with and without log_offset and log_prio,
// clones (numjobs: the ".N" job numbers count every job of the run),
// per_job_logs=0, trims, an async engine (which fills the slat log) and
// windowed logs (log_avg_msec) on a rate-limited job whose windows hold
// a known number of I/Os; and histogram logs (write_hist_log), one of
// them empty for want of log_hist_msec.
const iologJob = `[global]
ioengine=null
size=64k
bs=4k
[r]
rw=read
write_bw_log
write_iops_log
write_lat_log
log_offset=1
[w]
rw=write
numjobs=2
write_lat_log=lat
write_bw_log=lat
log_prio=1
[t]
rw=trimwrite
write_iops_log=tw
write_bw_log=tw
per_job_logs=0
[a]
ioengine=libaio
iodepth=4
rw=randread
filename=data
write_lat_log=aio
log_offset=1
[win]
rw=read
size=20k
rate_iops=10
log_avg_msec=250
write_lat_log=win
[hist]
rw=read
size=20k
rate_iops=10
write_hist_log
log_hist_msec=150
log_hist_coarseness=4
[nohist]
rw=read
write_hist_log
`

// logFile is one log file, split into lines of fields.
type logFile [][]string

func readLogs(t *testing.T, dir string) map[string]logFile {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	logs := map[string]logFile{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		var f logFile
		for _, l := range lines(string(b)) {
			f = append(f, strings.Split(l, ", "))
		}
		logs[filepath.Base(n)] = f
	}
	return logs
}

// TestIOLogs runs fio and gofio on iologJob and compares the log files:
// their names, line counts and column counts, and the columns that do
// not depend on timing (direction, block size, offset of sequential
// jobs, priority, the iops value 1). It also checks that the per-I/O
// bw and iops logs are the JSON bw/iops samples (one per I/O).
func TestIOLogs(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	base := t.TempDir()
	var wg sync.WaitGroup
	res := map[string]result{}
	var mu sync.Mutex
	for name, bin := range map[string]string{"fio": fioPath, "gofio": gofio} {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(iologJob), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := runIn(bin, dir, []string{"--output-format=json", "job.fio"})
			mu.Lock()
			res[name] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	fr, gr := res["fio"], res["gofio"]
	if fr.rc != 0 || gr.rc != 0 {
		t.Fatalf("fio rc=%d stderr=%q; gofio rc=%d stderr=%q", fr.rc, fr.stderr, gr.rc, gr.stderr)
	}
	fl, gl := readLogs(t, fr.dir), readLogs(t, gr.dir)
	names := func(m map[string]logFile) []string {
		var s []string
		for n := range m {
			s = append(s, n)
		}
		sort.Strings(s)
		return s
	}
	if f, g := strings.Join(names(fl), " "), strings.Join(names(gl), " "); f != g {
		t.Fatalf("log files:\nfio:   %s\ngofio: %s", f, g)
	}
	if len(fl) != 23 {
		t.Errorf("fio wrote %d logs, want 23: %s", len(fl), names(fl))
	}
	for _, n := range names(fl) {
		f, g := fl[n], gl[n]
		if strings.Contains(n, "_clat_hist") {
			compareHistLogs(t, n, f, g)
			continue
		}
		if len(f) != len(g) {
			t.Errorf("%s: fio %d lines, gofio %d", n, len(f), len(g))
			continue
		}
		for i := range f {
			if len(f[i]) != len(g[i]) {
				t.Errorf("%s line %d: fio %q, gofio %q: column counts differ", n, i+1, f[i], g[i])
				break
			}
			// Direction, block size, offset (sequential jobs only) and
			// priority are deterministic; so is an iops value of 1.
			from := 2
			if strings.HasPrefix(n, "aio_") {
				from = 4 // random offsets: the generators differ
				if len(f[i]) == 6 {
					f[i][4], g[i][4] = "", ""
				}
			}
			if strings.Contains(n, "_iops") {
				from = 1
			}
			if strings.Join(f[i][from:], ",") != strings.Join(g[i][from:], ",") {
				t.Errorf("%s line %d: fio %q, gofio %q", n, i+1, f[i], g[i])
				break
			}
		}
	}
	// Per-I/O bw and iops logs make the JSON samples per I/O.
	samples := func(r result) map[string][2]int {
		var doc struct {
			Jobs []struct {
				Name              string `json:"jobname"`
				Read, Write, Trim map[string]any
			} `json:"jobs"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("JSON: %v", err)
		}
		out := map[string][2]int{}
		for i, j := range doc.Jobs {
			for d, m := range map[string]map[string]any{"read": j.Read, "write": j.Write, "trim": j.Trim} {
				bw, _ := m["bw_samples"].(float64)
				iops, _ := m["iops_samples"].(float64)
				out[j.Name+"."+string(rune('0'+i))+"."+d] = [2]int{int(bw), int(iops)}
			}
		}
		return out
	}
	fs, gs := samples(fr), samples(gr)
	for _, k := range []string{"r.0.read", "w.1.write", "w.2.write", "t.3.write", "t.3.trim"} {
		if fs[k] != gs[k] {
			t.Errorf("%s bw/iops samples: fio %v, gofio %v", k, fs[k], gs[k])
		}
	}
	if fs["r.0.read"] != [2]int{16, 16} {
		t.Errorf("fio r read samples %v, want [16 16]", fs["r.0.read"])
	}
}

// compareHistLogs compares two histogram logs (write_hist_log). A line
// is written when an I/O completes at least log_hist_msec after the last
// line, so how the job's I/Os fall into lines follows the clock: fio 3.33
// itself writes the hist job's five completions as one line (405 ms) or
// two (300 and 400 ms) from run to run, and on a busy machine as few as
// four of them (observed: lines at 200 and 315 ms holding 3 and 1). So
// the lines' direction and block size must agree, gofio's lines must
// hold every completion of the job, and fio's no more than that.
func compareHistLogs(t *testing.T, name string, f, g logFile) {
	t.Helper()
	if (len(f) == 0) != (len(g) == 0) {
		t.Errorf("%s: fio %d lines, gofio %d", name, len(f), len(g))
		return
	}
	fsum, gsum := 0, 0
	for i, l := range f {
		if strings.Join(l[1:3], ",") != strings.Join(g[0][1:3], ",") {
			t.Errorf("%s line %d: fio %q…, gofio %q…: direction or block size differ", name, i+1, l[:3], g[0][:3])
		}
		fsum += binSum(l)
	}
	for i, l := range g {
		if strings.Join(l[1:3], ",") != strings.Join(g[0][1:3], ",") {
			t.Errorf("%s line %d: gofio %q…: direction or block size changed", name, i+1, l[:3])
		}
		gsum += binSum(l)
	}
	// The hist job reads 20k in 4k blocks.
	if len(g) > 0 && (gsum != 5 || fsum > 5 || fsum == 0) {
		t.Errorf("%s: completions in the lines: fio %d, gofio %d; want gofio 5 and fio 1 to 5", name, fsum, gsum)
	}
}

// binSum adds the bins of a histogram log line.
func binSum(fields []string) int {
	sum := 0
	for _, f := range fields[3:] {
		n, _ := strconv.Atoi(f)
		sum += n
	}
	return sum
}
