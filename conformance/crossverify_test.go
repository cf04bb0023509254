package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCrossVerify checks that fio 3.33 and gofio verify each other's
// files: a seeded job with random offsets writes the file (do_verify=0)
// with one program, and the same job with verify_only=1 checks it with
// both. Both must find every block good and read as much; after one byte
// of a block is flipped, both must report that block bad, alike.
func TestCrossVerify(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	cases := []struct {
		name, job string
	}{
		{"crc32c", "--rw=randwrite --bs=4k --verify=crc32c"},
		{"md5-interval", "--rw=randwrite --bs=8k --verify=md5 --verify_interval=1k"},
		{"crc32c-bsrange", "--rw=randwrite --bsrange=4k-32k --verify=crc32c"},
		{"md5-bssplit", "--rw=randwrite --bssplit=4k/50:16k/50 --verify=md5"},
		{"md5-lfsr-interval", "--rw=randwrite --bs=16k --verify=md5 --verify_interval=4k --random_generator=lfsr"},
		{"sha256-libaio", "--rw=randwrite --bs=4k --verify=sha256 --ioengine=libaio --iodepth=8"},
		{"crc32c-unaligned", "--rw=randwrite --bsrange=1000-5000 --bs_unaligned --verify=crc32c"},
	}
	progs := []struct{ name, bin string }{{"fio", fioPath}, {"gofio", gofio}}
	// corruptAt is a byte inside a block, past any block's header.
	const corruptAt = 300000
	for _, c := range cases {
		for _, w := range progs {
			t.Run(c.name+"/written-by-"+w.name, func(t *testing.T) {
				t.Parallel() // each run in a directory of its own
				job := "--name=job --ioengine=psync --filename=F --size=1m --randrepeat=1 --output-format=json " + c.job
				dir := t.TempDir()
				if r := runIn(w.bin, dir, args(job+" --do_verify=0")); r.rc != 0 {
					t.Fatalf("%s writing: exit %d: %s", w.name, r.rc, head(r.stderr))
				}
				written, err := os.ReadFile(filepath.Join(dir, "F"))
				if err != nil {
					t.Fatal(err)
				}
				verify := func(bin string, data []byte) result {
					vdir := t.TempDir()
					if err := os.WriteFile(filepath.Join(vdir, "F"), data, 0o644); err != nil {
						t.Fatal(err)
					}
					return runIn(bin, vdir, args(job+" --verify_only=1"))
				}
				var kib [2]uint64
				for i, v := range progs {
					r := verify(v.bin, written)
					var out struct {
						Jobs []struct {
							Read struct {
								KiB uint64 `json:"io_kbytes"`
							} `json:"read"`
						} `json:"jobs"`
					}
					if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Jobs) != 1 {
						t.Fatalf("%s verifying %s's file: exit %d, JSON %v: %s", v.name, w.name, r.rc, err, head(r.stderr))
					}
					kib[i] = out.Jobs[0].Read.KiB
					if r.rc != 0 || strings.Contains(r.stderr, "verify") {
						t.Errorf("%s verifying %s's file: exit %d, stderr:\n%s", v.name, w.name, r.rc, head(r.stderr))
					}
				}
				if kib[0] != kib[1] || kib[0] == 0 {
					t.Errorf("KiB verified: fio %d, gofio %d", kib[0], kib[1])
				}
				bad := append([]byte(nil), written...)
				bad[corruptAt] ^= 0xff
				var rcs [2]int
				var first [2]string
				for i, v := range progs {
					r := verify(v.bin, bad)
					rcs[i] = r.rc
					first[i], _, _ = strings.Cut(r.stderr, "\n")
					if !strings.Contains(first[i], "verif") || !strings.Contains(first[i], " at file F offset ") {
						t.Errorf("%s verifying %s's file with byte %d flipped: exit %d, no verify failure reported:\n%s", v.name, w.name, corruptAt, r.rc, head(r.stderr))
					}
				}
				if rcs[0] != rcs[1] || first[0] != first[1] {
					t.Errorf("on the flipped byte:\n fio:   exit %d, %s\n gofio: exit %d, %s", rcs[0], first[0], rcs[1], first[1])
				}
			})
		}
	}
}
