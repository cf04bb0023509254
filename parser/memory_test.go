package parser

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"
)

// bigJobOptions are the lines of each generated job section.
var bigJobOptions = []string{"bs=4k", "rw=randread", "iodepth=16", "size=1m", "filename=/dev/null",
	"ioengine=psync", "numjobs=1", "runtime=10", "time_based", "direct=0", "rwmixread=70",
	"thread", "group_reporting", "norandommap", "randrepeat=0"}

// genJobFile is a reader of a job file of n sections of bigJobOptions,
// made as it is read. atEOF, if set, is called when the reader reaches
// its end.
type genJobFile struct {
	n, next int
	buf     bytes.Buffer
	atEOF   func()
}

func (g *genJobFile) Read(b []byte) (int, error) {
	for g.buf.Len() == 0 {
		if g.next == g.n {
			if g.atEOF != nil {
				g.atEOF()
				g.atEOF = nil
			}
			return 0, io.EOF
		}
		fmt.Fprintf(&g.buf, "[job%d]\n", g.next)
		for _, o := range bigJobOptions {
			g.buf.WriteString(o + " ; a comment\n")
		}
		g.next++
	}
	return g.buf.Read(b)
}

// TestParseAllocations bounds what parsing costs per section, and shows
// that JobFile.Sections holds one section at a time: when the reader
// reaches the end of a file of 20000 sections, the sections before the
// last are garbage. (Holding them all takes about 40 MB.) The bounds are
// generous: about 3 times what is needed.
func TestParseAllocations(t *testing.T) {
	const n = 20000
	c := &Config{Keywords: &testKW}
	var before, atEOF, after runtime.MemStats
	gen := &genJobFile{n: n, atEOF: func() {
		runtime.GC()
		runtime.ReadMemStats(&atEOF)
	}}
	runtime.GC()
	runtime.ReadMemStats(&before)
	jf, err := c.OpenJobFile("big.fio", gen)
	if err != nil {
		t.Fatal(err)
	}
	count, options := 0, 0
	for sec := range jf.Sections() {
		count++
		options += len(sec.Options)
	}
	runtime.ReadMemStats(&after)
	if err := jf.Err(); err != nil || count != n || options != n*len(bigJobOptions) {
		t.Fatalf("%d sections, %d options, %v", count, options, err)
	}
	perSection := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("%d bytes allocated per section of %d options; %d bytes live at the end", perSection, len(bigJobOptions), int64(atEOF.HeapAlloc)-int64(before.HeapAlloc))
	if perSection > 12<<10 {
		t.Errorf("parsing allocates %d bytes per section of %d options, want at most 12 KiB", perSection, len(bigJobOptions))
	}
	if live := int64(atEOF.HeapAlloc) - int64(before.HeapAlloc); live > 4<<20 {
		t.Errorf("%d bytes live at the end of the file, want at most 4 MiB (one section at a time)", live)
	}
}
