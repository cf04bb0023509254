package parser

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
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
// about 4 times what is needed; before sections were kept compactly,
// parsing allocated 4.7 KiB per section.
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
		options += sec.NumOptions()
		if o := sec.Option(1); o.Name != "rw" || o.Value != "randread" || o.Raw != "rw=randread" || o.Pos != (Pos{"big.fio", 16*(count-1) + 3}) {
			t.Fatalf("option 1 of %s: %+v", sec.Name, o)
		}
	}
	runtime.ReadMemStats(&after)
	if err := jf.Err(); err != nil || count != n || options != n*len(bigJobOptions) {
		t.Fatalf("%d sections, %d options, %v", count, options, err)
	}
	perSection := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("%d bytes allocated per section of %d options; %d bytes live at the end", perSection, len(bigJobOptions), int64(atEOF.HeapAlloc)-int64(before.HeapAlloc))
	if perSection > 4<<10 {
		t.Errorf("parsing allocates %d bytes per section of %d options, want at most 4 KiB", perSection, len(bigJobOptions))
	}
	if live := int64(atEOF.HeapAlloc) - int64(before.HeapAlloc); live > 4<<20 {
		t.Errorf("%d bytes live at the end of the file, want at most 4 MiB (one section at a time)", live)
	}
}

// TestPackedOptions: the options JobFile.Sections keeps compactly are the
// Options the full substitution path makes of their lines, across text
// blocks, included files (one of which is forgotten for its section
// header), lines with variables and keywords, and lines of up to 8191
// bytes.
func TestPackedOptions(t *testing.T) {
	fs := memFS{
		"inc.fio":    "iodepth=4\ninclude deeper.fio\nrw=read\n",
		"deeper.fio": "numjobs=2\n",
		"hdr.fio":    "bs=1k\nnumjobs=3\n[x]\n",
	}
	var b bytes.Buffer
	var want []string // the Raw of each option, in order
	line := func(s string) {
		b.WriteString(s + "\n")
		want = append(want, s)
	}
	b.WriteString("[a]\n")
	for i := range 3000 {
		switch i % 10 {
		case 0:
			line(fmt.Sprintf("description=%s", bytes.Repeat([]byte{'d'}, 8191-len("description="))))
		case 1:
			line("size=${S}")
		case 2:
			line("size=$ncpus*4k")
		case 3:
			b.WriteString("include inc.fio\n")
			want = append(want, "iodepth=4", "numjobs=2", "rw=read")
		case 4:
			line("rw=write ; a comment")
			want[len(want)-1] = "rw=write"
		case 5:
			line(fmt.Sprintf("bs  = %dk", i))
		default:
			line("time_based")
		}
	}
	// A failed include ends the section; what hdr.fio added is dropped.
	b.WriteString("include hdr.fio\n")
	c := fs.config(map[string]string{"S": "1m"})
	c.Math = func(e string) (string, []string, bool) { return "8192", []string{"note " + e}, true }
	jf, err := c.OpenJobFile("t.fio", &b)
	if err != nil {
		t.Fatal(err)
	}
	full := &jobParser{cfg: c, kw: testKW}
	for sec := range jf.Sections() {
		if sec.Options != nil || sec.NumOptions() != len(want) {
			t.Fatalf("%d options (Options %d), want %d", sec.NumOptions(), len(sec.Options), len(want))
		}
		for i := range sec.NumOptions() {
			o := sec.Option(i)
			if o.Raw != want[i] {
				t.Fatalf("option %d: %q, want %q", i, o.Raw, want[i])
			}
			if ref := full.option(o.Raw, o.Pos); !reflect.DeepEqual(o, ref) {
				t.Fatalf("option %d: %+v, the full path makes %+v", i, o, ref)
			}
		}
		if len(sec.packed.blocks) < 3 {
			t.Errorf("%d text blocks; the test means to cross blocks", len(sec.packed.blocks))
		}
	}
	if err := jf.Err(); err != nil {
		t.Fatal(err)
	}
}
