package main

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"
)

// endlessJobs is a job file of n sections of 15 options, made as it is
// read; atEOF is called when the reader reaches its end.
type endlessJobs struct {
	n, next int
	buf     bytes.Buffer
	atEOF   func()
}

func (g *endlessJobs) Read(b []byte) (int, error) {
	for g.buf.Len() == 0 {
		if g.next == g.n {
			if g.atEOF != nil {
				g.atEOF()
				g.atEOF = nil
			}
			return 0, io.EOF
		}
		fmt.Fprintf(&g.buf, "[job%d]\nbs=4k\nrw=randread\niodepth=16\nsize=1m\nfilename=/dev/null\n"+
			"ioengine=psync\nnumjobs=1\nruntime=10\ntime_based\ndirect=0\nrwmixread=70\n"+
			"thread\ngroup_reporting\nnorandommap\nrandrepeat=0\n", g.next)
		g.next++
	}
	return g.buf.Read(b)
}

// TestParseOnlyHoldsOneSection: --parse-only of a big job file handles
// it section by section, as fio does, instead of reading it whole first.
// When the reader reaches the end of 20000 sections (about 4 MB of job
// file; holding them takes about 50 MB) little more than the last section
// is live. The 8 MiB bound is loose: it does not depend on timing.
func TestParseOnlyHoldsOneSection(t *testing.T) {
	// A first run builds the option tables and other lazy state.
	if code := run([]string{"--parse-only", "-"}, &endlessJobs{n: 10}, io.Discard, io.Discard); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	var before, atEOF runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	gen := &endlessJobs{n: 20000, atEOF: func() {
		runtime.GC()
		runtime.ReadMemStats(&atEOF)
	}}
	if code := run([]string{"--parse-only", "-"}, gen, io.Discard, io.Discard); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	live := int64(atEOF.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d bytes live at the end of the job file", live)
	if live > 8<<20 {
		t.Errorf("%d MiB live at the end of a job file of 20000 sections, want at most 8 MiB", live>>20)
	}
}
