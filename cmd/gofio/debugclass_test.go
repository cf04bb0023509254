package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDebugClassesVsFio runs a small verifying random-write job under
// --debug=process,verify,random with fio 3.33 and gofio and compares the
// lines of those classes: random's "off rand N" (the offset stream's raw
// numbers, equal since gofio draws as fio does), verify's fill, loop,
// get_next_verify and check lines in order (io_u addresses masked), and
// process's run-state lines as a set (pids masked: the main thread's
// and the job's interleave differently).
func TestDebugClassesVsFio(t *testing.T) {
	unit := regexp.MustCompile(`0x[0-9a-f]+`)
	pid := regexp.MustCompile(`pid=[1-9]\d*|/\d+$`)
	job := func(dir string) []string {
		return []string{"--debug=process,verify,random", "--aux-path=" + dir, "--name=x", "--rw=randwrite", "--bs=4k", "--size=16k",
			"--verify=crc32c", "--filename=" + filepath.Join(dir, "vf")}
	}
	fd, gd := t.TempDir(), t.TempDir()
	fout, _ := runFio(t, fd, job(fd)...)
	status, gout, gerr := gofio(t, job(gd)...)
	if status != 0 {
		t.Fatalf("gofio = %d, %q", status, gerr)
	}
	all := func(string) bool { return true }
	for _, class := range []string{"random", "verify", "process"} {
		mask := func(lines []string) []string {
			for i, l := range lines {
				lines[i] = pid.ReplaceAllString(unit.ReplaceAllString(l, "0xADDR"), "PID")
			}
			if class == "process" {
				slices.Sort(lines)
			}
			return lines
		}
		got, want := mask(debugLines(t, gout, class, all)), mask(debugLines(t, fout, class, all))
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("--debug=%s lines differ:\n got %s\nwant %s", class, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
		}
	}
}

// TestDebugNetVsFio runs fio 3.33's client and gofio's against one real
// fio server under --debug=net and compares their lines: connecting,
// the probe, the command line and job file sent, one pair of lines per
// message received with its op and payload length, the steady-state
// flags of TS, the end. Masked: the socket's descriptor number (Go holds
// descriptors of its own), TEXT lengths (the server's texts name the
// client) and fio's ETA requests, which depend on timing.
func TestDebugNetVsFio(t *testing.T) {
	dir := t.TempDir()
	_, sock := startServer(t, fioBinary(t), dir)
	job := filepath.Join(dir, "n.fio")
	if err := os.WriteFile(job, []byte("[a]\nsize=8k\nioengine=null\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd := regexp.MustCompile(`connected \d+$`)
	text := regexp.MustCompile(`op TEXT (.*)\(pdu=\d+\)$`)
	lines := func(out string) []string {
		var keep []string
		for _, l := range debugLines(t, out, "net", func(string) bool { return true }) {
			if strings.Contains(l, "eta") || strings.Contains(l, " op ETA ") {
				continue
			}
			l = text.ReplaceAllString(fd.ReplaceAllString(l, "connected FD"), "op TEXT ${1}(pdu=N)")
			keep = append(keep, l)
		}
		// A message fio's ETA request brought drops its handle line.
		return slices.Compact(keep)
	}
	args := []string{"--client=sock:" + sock, "--debug=net", job}
	r := client(t, dir, sock, args[1:]...)
	status, out, errs := gofio(t, args...)
	got, want := lines(out), lines(r.stdout)
	if status != r.status || len(want) < 20 || !slices.Equal(got, want) {
		t.Errorf("gofio %v = %d, %q\n got %s\nwant %s", args, status, errs, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// TestDebugFileVsFio compares gofio's --debug=file lines with fio
// 3.33's for a job that lays out its file to read it and one that writes
// it: the file added to the job, its setup and size check, the layout
// (unlink, open with its flags, fallocate, the truncate of a file filled
// for reading), the descriptor opened and closed, the job closing its
// files. fio's lines about its own file table and reference counts
// (dup files, resize file array, trying file, hash lookups, get/put
// file, goodf, get_next_file) are left out, and addresses masked.
func TestDebugFileVsFio(t *testing.T) {
	internal := []string{"dup files", "resize file array", "trying file", "in hash", "get file /", "put file", "goodf=", "get_next_file"}
	keep := func(msg string) bool {
		for _, p := range internal {
			if strings.Contains(msg, p) {
				return false
			}
		}
		return true
	}
	addr := regexp.MustCompile(`0x[0-9a-f]+`)
	for _, rw := range []string{"read", "write"} {
		lines := func(prog func(dir string, args ...string) string) []string {
			dir := t.TempDir()
			out := prog(dir, "--debug=file", "--aux-path="+dir, "--name=r", "--rw="+rw, "--size=16k", "--filename="+filepath.Join(dir, "f"))
			l := debugLines(t, out, "file", keep)
			for i := range l {
				l[i] = strings.ReplaceAll(addr.ReplaceAllString(l[i], "0xP"), dir, "DIR")
			}
			return l
		}
		want := lines(func(dir string, args ...string) string { out, _ := runFio(t, dir, args...); return out })
		got := lines(func(dir string, args ...string) string {
			status, out, errs := gofio(t, args...)
			if status != 0 {
				t.Fatalf("gofio %v = %d, %q", args, status, errs)
			}
			return out
		})
		if len(want) < 8 || !slices.Equal(got, want) {
			t.Errorf("rw=%s:\n got %s\nwant %s", rw, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
		}
	}
}

// TestDebugIOVsFio compares gofio's --debug=io lines with fio 3.33's for
// a psync job and a libaio job at iodepth 2: the engine loaded, closed
// and freed by the job, and per I/O its fill, prep, queue and complete
// lines with offset, length, direction and file. Left out: what fio's
// engines do inside (libaio's prep result, commit, getevents, reaping),
// its page-cache hints, the engine table freed at exit, and the default
// engine fio loads while it parses a job naming another; addresses are
// masked.
func TestDebugIOVsFio(t *testing.T) {
	skip := []string{"unregistered", "declare unneeded", "ret=0", "commit", "getevents", "io_u_queued_complete"}
	addr := regexp.MustCompile(`0x[0-9a-f]{6,}`)
	for _, e := range []string{"psync", "libaio"} {
		lines := func(prog func(dir string, args ...string) string) []string {
			dir := t.TempDir()
			out := prog(dir, "--debug=io", "--name=x", "--rw=randread", "--size=8k", "--iodepth=2", "--ioengine="+e, "--filename="+filepath.Join(dir, "f"))
			l := debugLines(t, out, "io", func(msg string) bool {
				for _, s := range skip {
					if strings.Contains(msg, s) {
						return false
					}
				}
				return true
			})
			for i := range l {
				l[i] = strings.ReplaceAll(addr.ReplaceAllString(l[i], "0xP"), dir, "DIR")
			}
			if e == "libaio" && len(l) > 3 && l[0] == "io load ioengine psync" {
				l = l[3:] // fio's parse loads psync, then libaio, frees psync
			}
			return l
		}
		want := lines(func(dir string, args ...string) string { out, _ := runFio(t, dir, args...); return out })
		got := lines(func(dir string, args ...string) string {
			status, out, errs := gofio(t, args...)
			if status != 0 {
				t.Fatalf("gofio %v = %d, %q", args, status, errs)
			}
			return out
		})
		if len(want) < 10 || !slices.Equal(got, want) {
			t.Errorf("ioengine=%s:\n got %s\nwant %s", e, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
		}
	}
}

// TestDebugVerifyKindsVsFio compares --debug=verify lines with fio
// 3.33's for the kinds of verify a write job can do: a pattern (no
// random fill, no checksum line), verify_interval (a line per chunk),
// meta (no checksum lines); addresses masked.
func TestDebugVerifyKindsVsFio(t *testing.T) {
	addr := regexp.MustCompile(`0x[0-9a-f]{6,}`)
	all := func(string) bool { return true }
	for _, opts := range []string{"--verify_pattern=0x55aa", "--verify=md5 --verify_interval=1024", "--verify=meta", "--verify=sha256 --rw=randwrite"} {
		lines := func(out string) []string {
			l := debugLines(t, out, "verify", all)
			for i := range l {
				l[i] = addr.ReplaceAllString(l[i], "0xP")
			}
			return l
		}
		args := func(dir string) []string {
			return append([]string{"--debug=verify", "--aux-path=" + dir, "--name=x", "--rw=write", "--bs=4k", "--size=8k", "--filename=" + filepath.Join(dir, "f")}, strings.Fields(opts)...)
		}
		fd, gd := t.TempDir(), t.TempDir()
		fout, _ := runFio(t, fd, args(fd)...)
		status, gout, errs := gofio(t, args(gd)...)
		if got, want := lines(gout), lines(fout); status != 0 || len(want) < 4 || !slices.Equal(got, want) {
			t.Errorf("%s: gofio = %d, %q\n got %s\nwant %s", opts, status, errs, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
		}
	}
}
