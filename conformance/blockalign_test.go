package conformance

import "testing"

// TestBlockAlignNotice compares fio's and gofio's stderr (and exit status)
// for jobs where a blockalign other than a direction's smallest block
// size turns the random map off, which fio 3.33 announces once per job
// given: any direction counts, used or not, and nothing is said for
// sequential jobs, under norandommap, or when blockalign is the block
// size.
func TestBlockAlignNotice(t *testing.T) {
	cases := []string{
		"--rw=randread --blockalign=8k",
		"--rw=randread --blockalign=4k,8k",
		"--rw=randwrite --blockalign=2k",
		"--rw=randread --blockalign=8k --numjobs=2",
		"--rw=randread --blockalign=8k --time_based",
		"--rw=read --blockalign=8k",
		"--rw=randread --blockalign=8k --norandommap",
		"--rw=randread --blockalign=4k",
		"--rw=randread --blockalign=2k --bsrange=2k-4k",
		"--rw=randread --blockalign=4k,2k --bs=4k,2k",
	}
	var dirs []string
	var lists [][]string
	for _, c := range cases {
		dirs = append(dirs, t.TempDir())
		lists = append(lists, args("--name=j --size=64k --filename=f --bs=4k --output-format=terse "+c))
	}
	for i, r := range bothEach(t, dirs, lists) {
		fio, gofio := r[0], r[1]
		if fio.stderr != gofio.stderr || fio.rc != gofio.rc {
			t.Errorf("%s:\n fio   (exit %d): %q\n gofio (exit %d): %q", cases[i], fio.rc, fio.stderr, gofio.rc, gofio.stderr)
		}
	}
}
