package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// loopCases are jobs whose I/O count depends on how fio 3.33 ends a loop
// and starts the next: a loop ends when its files are used up (a
// sequential direction at the end of the file, a full random map) or
// when the job's limit, io_size or size times loops over all loops, is
// reached, and with an asynchronous engine when it has queued the job's
// size; past the loops another runs while less than a loop's amount is
// done by at least the largest block size. Each runs on one file of
// fileSize bytes (F), unless fileSize is 0 (the job's own files).
var loopCases = []randomCase{
	// rw=rw: the first loop runs on until a direction reaches the end.
	{name: "rw-loops2", args: "--rw=rw --bs=4k --size=64k --loops=2", fileSize: 64 << 10},
	{name: "rw-loops5", args: "--rw=rw --bs=4k --size=64k --loops=5", fileSize: 64 << 10},
	{name: "rw-rwmix80-loops3", args: "--rw=rw --rwmixread=80 --bs=4k --size=64k --loops=3", fileSize: 64 << 10},
	{name: "rw-rwmix20-randseed", args: "--rw=rw --rwmixread=20 --bs=4k --size=32k --loops=3 --randseed=1", fileSize: 32 << 10},
	{name: "rw-iosize-loops2", args: "--rw=rw --bs=4k --size=32k --io_size=80k --loops=2", fileSize: 32 << 10},
	{name: "rw-iosize-above", args: "--rw=rw --bs=4k --size=64k --io_size=96k", fileSize: 64 << 10},
	{name: "rw-files-loops2", args: "--rw=rw --bs=4k --nrfiles=2 --size=64k --loops=2"},
	// io_size: the limit does not cut the last block.
	{name: "write-iosize-half-loops2", args: "--rw=write --bs=1m --size=8M --io_size=4M --loops=2", fileSize: 8 << 20},
	{name: "read-iosize-4k-loops2", args: "--rw=read --bs=4k --size=1M --io_size=512k --loops=2", fileSize: 1 << 20},
	{name: "read-iosize-uneven", args: "--rw=read --bs=4k --size=16k --io_size=10k", fileSize: 16 << 10},
	{name: "read-iosize-above-loops2", args: "--rw=read --bs=4k --size=32k --io_size=80k --loops=2", fileSize: 32 << 10},
	{name: "read-iosize-maxbs", args: "--rw=read --bs=4k,8k --size=16k --io_size=22k", fileSize: 16 << 10},
	{name: "read-iosize-4k-left", args: "--rw=read --bs=4k --size=16k --io_size=22k", fileSize: 16 << 10},
	{name: "read-bsrange-iosize-loops3", args: "--rw=read --bsrange=1k-8k --size=64k --io_size=10k --loops=3", fileSize: 64 << 10},
	{name: "randread-bsrange-iosize", args: "--rw=randread --bsrange=1k-8k --size=8k --io_size=12k", fileSize: 8 << 10},
	// rw=read:N: a skip past the end wraps, a block ending there ends
	// the loop.
	{name: "readskip-wrap-loops2", args: "--rw=read:4k --bs=4k --size=32k --loops=2", fileSize: 32 << 10},
	{name: "readskip-end-loops2", args: "--rw=read:4k --bs=4k --size=36k --loops=2", fileSize: 36 << 10},
	{name: "readskip-end-iosize", args: "--rw=read:4k --bs=4k --size=36k --io_size=100k --loops=2", fileSize: 36 << 10},
	{name: "readskip-back-loops2", args: "--rw=read:-4k --bs=4k --size=32k --loops=2", fileSize: 32 << 10},
	{name: "writeskip-iosize", args: "--rw=write:8k --bs=4k --size=64k --io_size=128k", fileSize: 64 << 10},
	// Without a random map nothing but the limit ends a loop: the
	// first does every loop's I/O, one offset stream.
	{name: "norandommap-loops3", args: "--rw=randread --norandommap --bs=4k --size=32k --loops=3", fileSize: 32 << 10},
	{name: "norandommap-randrw-loops2", args: "--rw=randrw --norandommap --bs=4k --size=64k --loops=2", fileSize: 64 << 10},
	{name: "norandommap-randseed-loops3", args: "--rw=randwrite --norandommap --bs=4k --size=32k --loops=3 --randseed=5", fileSize: 32 << 10},
	{name: "norandommap-bsrange-iosize", args: "--rw=randread --norandommap --bsrange=1k-8k --size=8k --io_size=12k", fileSize: 8 << 10},
	{name: "norandommap-files-loops2", args: "--rw=randread --norandommap --bs=4k --nrfiles=2 --size=64k --loops=2"},
	{name: "zipf-loops2", args: "--rw=randread --random_distribution=zipf --bs=4k --size=32k --loops=2", fileSize: 32 << 10},
	// With the map each loop uses the file up and repeats the first.
	{name: "randrw-loops3", args: "--rw=randrw --bs=4k --size=64k --loops=3", fileSize: 64 << 10},
	// An asynchronous engine also ends a loop once it has queued the
	// job's size (random writes under norandommap: io_size if larger).
	{name: "libaio-rw-loops2", args: "--ioengine=libaio --iodepth=4 --rw=rw --bs=4k --size=64k --loops=2", fileSize: 64 << 10},
	{name: "libaio-norandommap-loops3", args: "--ioengine=libaio --iodepth=2 --rw=randread --norandommap --bs=4k --size=32k --loops=3", fileSize: 32 << 10},
	{name: "libaio-norandommap-iosize", args: "--ioengine=libaio --rw=randread --norandommap --bs=4k --size=32k --io_size=48k", fileSize: 32 << 10},
	{name: "libaio-norandommap-write-iosize", args: "--ioengine=libaio --iodepth=2 --rw=randwrite --norandommap --bs=4k --size=32k --io_size=48k --loops=2", fileSize: 32 << 10},
	{name: "libaio-readskip-iosize-loops2", args: "--ioengine=libaio --rw=read:4k --bs=4k --size=32k --io_size=24k --loops=2", fileSize: 32 << 10},
	// Not with io_submit_mode=offload (fio writes no write_iolog then).
	{name: "libaio-offload-norandommap-iosize", args: "--ioengine=libaio --io_submit_mode=offload --rw=randread --norandommap --bs=4k --size=32k --io_size=48k --loops=2", fileSize: 32 << 10,
		noLog: "fio 3.33 writes an empty write_iolog with io_submit_mode=offload, or aborts"},
	{name: "libaio-write-iosize-half-loops2", args: "--ioengine=libaio --iodepth=4 --rw=write --bs=1m --size=8M --io_size=4M --loops=2", fileSize: 8 << 20},
	// Verifying jobs (fio closes and reopens the file for the verify
	// phase, so file actions are not compared: fileSize 0).
	{name: "verify-norandommap-loops2", args: "--rw=randwrite --norandommap --verify=crc32c --bs=4k --size=32k --loops=2"},
	{name: "verify-backlog-norandommap-loops2", args: "--rw=randwrite --norandommap --verify=crc32c --verify_backlog=3 --bs=4k --size=32k --loops=2"},
	{name: "verify-rw-loops2", args: "--rw=rw --verify=crc32c --bs=4k --size=32k --loops=2"},
	{name: "libaio-verify-norandommap-loops2", args: "--ioengine=libaio --iodepth=4 --rw=randwrite --norandommap --verify=crc32c --bs=4k --size=32k --loops=2"},
	{name: "verify-writeskip-loops2", args: "--rw=write:4k --verify=crc32c --bs=4k --size=32k --loops=2"},
	{name: "verify-writeskip-back", args: "--rw=write:-8k --verify=crc32c --bs=4k --size=32k"},
	{name: "libaio-verify-writeskip-loops2", args: "--ioengine=libaio --iodepth=4 --rw=write:4k --verify=crc32c --bs=4k --size=32k --loops=2"},
	{name: "libaio-verify-rw-loops2", args: "--ioengine=libaio --iodepth=4 --rw=rw --verify=crc32c --bs=4k --size=32k --loops=2"},
}

// TestLoops runs each loopCases job with fio and gofio and compares
// their I/O: the counts and KiB per direction of the JSON report and
// the write_iolog traces, with each file's opens and closes, which show
// where a loop ends. The cases run in parallel, each in a directory of
// its own.
func TestLoops(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	for _, c := range loopCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fio, gof := runPair(t.TempDir(), gofio, func(bin, dir string) randomRun { return runLoop(bin, dir, c) })
			compareRuns(t, c, fio, gof)
		})
	}
}

// runLoop runs c with bin in dir: the JSON totals per direction and the
// write_iolog trace (file, action and, for I/O, offset and length; the
// file's add is left out).
func runLoop(bin, dir string, c randomCase) (r randomRun) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.err = err.Error()
		return r
	}
	a := []string{"--name=job", "--ioengine=psync", "--output-format=json"}
	if c.noLog == "" {
		a = append(a, "--write_iolog=io.log")
	}
	if c.fileSize > 0 {
		a = append(a, "--filename=F")
	}
	var res result
	for try := 0; try < 2; try++ {
		if c.fileSize > 0 {
			if err := os.WriteFile(filepath.Join(dir, "F"), make([]byte, c.fileSize), 0o644); err != nil {
				r.err = err.Error()
				return r
			}
		}
		res = runIn(bin, dir, append(a, args(c.args)...))
		// fio 3.33 with io_submit_mode=offload hangs now and then (seen
		// once under the suite's load, never alone): a run killed for
		// that is tried once more.
		if !res.killed || bin != fioPath {
			break
		}
	}
	if res.rc != 0 {
		r.err = fmt.Sprintf("exit %d: %s", res.rc, head(res.stderr))
		return r
	}
	var err error
	if r.totals, err = ioTotals(res.stdout); err != nil {
		r.err = err.Error()
		return r
	}
	if c.noLog != "" {
		return r
	}
	log, err := os.ReadFile(filepath.Join(dir, "io.log"))
	if err != nil {
		r.err = err.Error()
		return r
	}
	var ops []string
	for _, l := range lines(string(log)) {
		f := strings.Fields(l)
		// "TIME FILE ACTION [OFFSET LENGTH]". With several files their
		// opens and closes are left out: fio closes a file as soon as it
		// finds it used up, gofio at the end of the loop.
		if len(f) < 3 || f[0] == "fio" || f[2] == "add" || c.fileSize == 0 && len(f) < 5 {
			continue
		}
		ops = append(ops, strings.Join(f[1:], " "))
	}
	r.logs = map[string][]string{"io.log": ops}
	return r
}

// ioTotals reads each job's name, I/O count and KiB per direction from a
// JSON report, sorted (the clones of a job report in no fixed order).
func ioTotals(out string) ([]string, error) {
	var raw struct {
		Jobs []map[string]json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		return nil, fmt.Errorf("JSON: %v\n%s", err, head(out))
	}
	var totals []string
	for _, j := range raw.Jobs {
		var s string
		if err := json.Unmarshal(j["jobname"], &s); err != nil {
			return nil, fmt.Errorf("JSON jobname: %v", err)
		}
		for _, d := range []string{"read", "write", "trim"} {
			var io struct {
				TotalIOs uint64 `json:"total_ios"`
				KiB      uint64 `json:"io_kbytes"`
			}
			if err := json.Unmarshal(j[d], &io); err != nil {
				return nil, fmt.Errorf("JSON %s: %v", d, err)
			}
			s += fmt.Sprintf(" %s=%d/%dKiB", d, io.TotalIOs, io.KiB)
		}
		totals = append(totals, s)
	}
	sort.Strings(totals)
	return totals, nil
}

// verifyOnlyCases are written by fio, then checked with verify_only: fio
// 3.33 reports the writes it skips as done (write io_kbytes and
// total_ios, runtime and bandwidth 0), so no write line prints.
var verifyOnlyCases = []randomCase{
	{name: "write", args: "--rw=write --bs=4k --size=64k"},
	{name: "randwrite-loops2", args: "--rw=randwrite --bs=4k --size=64k --loops=2"},
	{name: "write-iosize", args: "--rw=write --bs=4k --size=64k --io_size=32k"},
	{name: "randwrite-bsrange", args: "--rw=randwrite --bsrange=1k-8k --size=64k"},
}

// TestLoopsVerifyOnly compares the counts of verify_only runs of fio and
// gofio (JSON), and the write lines of their normal output (none).
func TestLoopsVerifyOnly(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	for _, c := range verifyOnlyCases {
		t.Run(c.name, func(t *testing.T) {
			job := append([]string{"--name=job", "--filename=F", "--verify=crc32c"}, args(c.args)...)
			run := func(b, dir string) (out [2]string) {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					out[0] = err.Error()
					return out
				}
				if r := runIn(fioPath, dir, job); r.rc != 0 {
					out[0] = fmt.Sprintf("writing with fio: exit %d: %s", r.rc, head(r.stderr))
					return out
				}
				for i, format := range []string{"json", "normal"} {
					r := runIn(b, dir, append(job, "--verify_only", "--output-format="+format))
					if r.rc != 0 {
						out[i] = fmt.Sprintf("exit %d: %s", r.rc, head(r.stderr))
						continue
					}
					if format == "json" {
						totals, err := ioTotals(r.stdout)
						out[i] = fmt.Sprint(totals, err)
						continue
					}
					for _, l := range lines(r.stdout) {
						f := strings.Fields(l)
						if len(f) == 0 {
							continue
						}
						switch f[0] {
						case "write:", "WRITE:": // fio: none (read's may be missing too in a job under 1 ms)
							out[i] += f[0] + " "
						}
					}
				}
				return out
			}
			fio, gof := runPair(t.TempDir(), gofio, run)
			if fio != gof {
				t.Errorf("JSON counts, then normal output's direction lines:\n fio:   %q\n gofio: %q", fio, gof)
			}
		})
	}
}
