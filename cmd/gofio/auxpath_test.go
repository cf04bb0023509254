package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stateFiles returns the verify state files in dir, by name.
func stateFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), "-verify.state") {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = b
		}
	}
	return out
}

// TestAuxPathVsFio runs jobs that write with verify under fio 3.33 and
// gofio and compares the verify state files they leave (verify_state_save,
// on by default), byte for byte: in --aux-path's directory, or the
// working directory without it. The jobs cover sequential and random
// writes (the offset generator's state, Taus88 and Taus258, re-seeded
// before the verify phase under randrepeat), iodepth slots, clones and
// their index, a '/' in the name, trimwrite, randrw, verify_state_save=0.
func TestAuxPathVsFio(t *testing.T) {
	jobs := strings.Fields(`--name=x --rw=randwrite --bs=4k --size=16k --verify=crc32c --filename=vf
		--name=q --rw=randwrite --size=64k --verify=crc32c --iodepth=4 --ioengine=libaio --filename=f3 --randseed=7
		--name=h --rw=randwrite --size=8k --filename=fh --verify=crc32c --do_verify=0 --random_generator=tausworthe64
		--name=a/b --rw=write --size=64k --verify=md5 --filename=fa --numjobs=2 --do_verify=0
		--name=t --rw=trimwrite --bs=4k --size=16k --verify=crc32c --filename=vt
		--name=r --rw=randrw --size=16k --verify=crc32c --filename=vy
		--name=s --verify_state_save=0 --rw=write --size=4k --verify=crc32c --filename=vs
		--name=k --rw=randwrite --size=8k --iodepth=4 --ioengine=libaio --verify=crc32c --filename=vk`)
	for _, aux := range []string{"aux", ""} {
		var want, got map[string][]byte
		var statuses []int
		for _, prog := range []string{fioBinary(t), gofioBinary(t)} {
			dir := t.TempDir()
			args := jobs
			stateDir := dir
			if aux != "" {
				if err := os.Mkdir(filepath.Join(dir, aux), 0o755); err != nil {
					t.Fatal(err)
				}
				args = append([]string{"--aux-path=" + aux}, jobs...)
				stateDir = filepath.Join(dir, aux)
			}
			// trimwrite fails on a regular file (exit status 1).
			status, _, _ := runIn(t, prog, dir, args...)
			statuses = append(statuses, status)
			if prog == fioBinary(t) {
				want = stateFiles(t, stateDir)
			} else {
				got = stateFiles(t, stateDir)
			}
		}
		if statuses[0] != statuses[1] {
			t.Errorf("aux-path %q: exit status fio %d, gofio %d", aux, statuses[0], statuses[1])
		}
		names := func(m map[string][]byte) []string {
			var s []string
			for n := range m {
				s = append(s, n)
			}
			slices.Sort(s)
			return s
		}
		if !slices.Equal(names(got), names(want)) || len(want) != 8 {
			t.Fatalf("aux-path %q: gofio wrote %q, fio %q", aux, names(got), names(want))
		}
		for n, b := range want {
			if !bytes.Equal(got[n], b) {
				t.Errorf("aux-path %q: %s differs:\n got % x\nwant % x", aux, n, got[n], b)
			}
		}
	}
}

// TestAuxPathMissingVsFio compares what fio 3.33 and gofio print when
// the verify state file cannot be created (--aux-path names no
// directory): "fio: open state file: ..." and "fio: state file: PATH
// (for_write=1)" on stderr, the job itself unharmed.
func TestAuxPathMissingVsFio(t *testing.T) {
	args := func(dir string) []string {
		return []string{"--aux-path=" + filepath.Join(dir, "missing"), "--name=w", "--filename=" + filepath.Join(dir, "f"), "--size=8k", "--rw=write", "--verify=crc32c", "--output-format=terse"}
	}
	fd, gd := t.TempDir(), t.TempDir()
	fs, _, ferr := runIn(t, fioBinary(t), fd, args(fd)...)
	gs, _, gerr := runIn(t, gofioBinary(t), gd, args(gd)...)
	ferr, gerr = strings.ReplaceAll(ferr, fd, "DIR"), strings.ReplaceAll(gerr, gd, "DIR")
	if gs != fs || gerr != ferr || !strings.Contains(ferr, "state file") {
		t.Errorf("gofio = %d, %q; fio = %d, %q", gs, gerr, fs, ferr)
	}
}

// TestBandwidthLogVsFio compares the files --bandwidth-log leaves with
// fio 3.33's: the three empty aggregate logs after a run (a failed job
// included), none with --parse-only.
func TestBandwidthLogVsFio(t *testing.T) {
	for _, extra := range [][]string{
		{"--size=64k", "--filename=f"},
		{"--size=64k", "--filename=missing/f", "--allow_file_create=0"},
		{"--size=64k", "--filename=f", "--parse-only"},
	} {
		var left [2][]string
		for i, prog := range []string{fioBinary(t), gofioBinary(t)} {
			dir := t.TempDir()
			runIn(t, prog, dir, append([]string{"--bandwidth-log", "--name=x", "--output-format=terse"}, extra...)...)
			ents, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				if info, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), "agg-") {
					left[i] = append(left[i], fmt.Sprintf("%s %d", e.Name(), info.Size()))
				}
			}
		}
		if !slices.Equal(left[1], left[0]) || len(left[0]) == 0 && extra[len(extra)-1] != "--parse-only" {
			t.Errorf("%v: gofio left %q, fio %q", extra, left[1], left[0])
		}
	}
}
