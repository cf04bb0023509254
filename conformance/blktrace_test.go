package conformance

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A blktrace record (struct blk_io_trace of linux/blktrace_api.h), for
// crafting traces.
type blkRec struct {
	time, sector          uint64
	bytes, action, device uint32
	pdu                   int
	bigEndian             bool
}

// blktrace actions: the low half is the action, the high half its
// categories (READ 0, WRITE 1, FLUSH 2, QUEUE 4, COMPLETE 7, NOTIFY 10,
// AHEAD 11, META 12, DISCARD 13, FUA 15).
const (
	btQueue    = 1 | 1<<(16+4)
	btRead     = 1 << 16
	btWrite    = 1 << 17
	btFlush    = 1 << 18
	btDiscard  = 1 << (16 + 13)
	btComplete = 8 | 1<<(16+7)
	btNotify   = 1 << (16 + 10)
	btIssue    = 7 | 1<<(16+6)
	btDev      = 7 << 20 // 7:0, replayed through replay_redirect
)

// blktraceFile encodes records, each followed by its payload.
func blktraceFile(recs ...blkRec) []byte {
	var b []byte
	for i, r := range recs {
		var o binary.ByteOrder = binary.LittleEndian
		if r.bigEndian {
			o = binary.BigEndian
		}
		dev := r.device
		if dev == 0 {
			dev = btDev
		}
		for _, v := range []any{uint32(0x65617407), uint32(i), r.time, r.sector, r.bytes, r.action, uint32(100), dev, uint32(0),
			uint16(0), uint16(r.pdu)} {
			b, _ = binary.Append(b, o, v)
		}
		b = append(b, make([]byte, r.pdu)...)
	}
	return b
}

// Traces replayed by both programs.
var (
	// btMixed has reads and writes with flags, flushes, an I/O fio skips
	// for its zero length, a notify event with a payload, a back merge
	// and an issue event (neither replayed), over 1 ms.
	btMixed = []blkRec{
		{time: 1000, sector: 0, bytes: 4096, action: btQueue | btRead},
		{time: 5000, sector: 8, bytes: 4096, action: btIssue | btRead},
		{time: 9000, sector: 8, bytes: 4096, action: btQueue | btWrite | 1<<(16+3)},
		{time: 30000, action: btQueue | btFlush | btWrite},
		{time: 50000, sector: 64, action: btQueue | btRead},
		{time: 60000, action: btNotify, pdu: 8},
		{time: 70000, sector: 72, bytes: 512, action: btQueue | btRead | 1<<(16+11) | 1<<(16+12)},
		{time: 80000, sector: 80, bytes: 512, action: 2 | btRead | 1<<(16+4)},
		{time: 1080000, sector: 88, bytes: 1024, action: btQueue | btWrite | 1<<(16+15)},
		{time: 1090000, sector: 96, bytes: 3000, action: 1 | btWrite},
		{time: 1100000, sector: 33, bytes: 8192, action: 1},
	}
	// btTrims has all four kinds at odd sectors, for replay_skip,
	// replay_scale and replay_align.
	btTrims = []blkRec{
		{time: 1000, sector: 3, bytes: 4096, action: btQueue | btRead},
		{time: 2000, sector: 9, bytes: 4096, action: btQueue | btWrite},
		{time: 3000, sector: 17, bytes: 4096, action: btQueue | btDiscard | btWrite},
		{time: 4000, sector: 25, action: btQueue | btFlush},
		{time: 5000, sector: 33, bytes: 8192, action: btQueue | btRead},
	}
	// btDepth queues two reads, completes one, queues two more and
	// completes one: fio takes a queue depth of 2.
	btDepth = []blkRec{
		{time: 1000, sector: 0, bytes: 4096, action: btQueue | btRead},
		{time: 2000, sector: 8, bytes: 4096, action: btQueue | btRead},
		{time: 3000, sector: 8, bytes: 4096, action: btComplete | btRead},
		{time: 4000, sector: 16, bytes: 4096, action: btQueue | btRead},
		{time: 5000, sector: 24, bytes: 4096, action: btQueue | btWrite},
		{time: 6000, sector: 24, bytes: 4096, action: btQueue | btRead},
		{time: 7000, sector: 24, bytes: 4096, action: btComplete | btRead},
	}
)

func bigEndian(recs []blkRec) []blkRec {
	out := slices.Clone(recs)
	for i := range out {
		out[i].bigEndian = true
	}
	return out
}

// queueLine matches fio's --debug=io line for an issued I/O.
var queueLine = regexp.MustCompile(`queue: io_u \S+: (off=\S+)`)

// debugLine matches a --debug line (class, thread id).
var debugLine = regexp.MustCompile(`^(io|blktrace|file|process) +\d+ `)

// blktraceRun splits a run's output into the I/Os it issued (from
// --debug=io), its other messages (sorted: fio prints some on stdout
// that gofio prints on stderr), and its JSON report.
func blktraceRun(r result) (ios, msgs []string, report string) {
	all := strings.ReplaceAll(r.stdout+"\n"+r.stderr, r.dir, "{DIR}")
	var js []string
	inJSON := false
	for _, l := range lines(all) {
		switch {
		case l == "{" && !inJSON:
			inJSON = true
			js = append(js, l)
		case inJSON:
			js = append(js, l)
			if l == "}" {
				inJSON = false
			}
		case queueLine.MatchString(l):
			ios = append(ios, queueLine.FindStringSubmatch(l)[1])
		case debugLine.MatchString(l), strings.HasPrefix(l, "fio: set debug option"),
			strings.HasPrefix(l, "fio: pid="), strings.TrimSpace(l) == "":
		default:
			msgs = append(msgs, l)
		}
	}
	slices.Sort(msgs)
	return ios, msgs, strings.Join(js, "\n")
}

// TestBlktraceReplay replays crafted blktraces with fio and gofio and
// compares the I/Os issued (fio's --debug=io queue lines, in order), the
// messages, the exit status and the JSON I/O counts and queue depth.
func TestBlktraceReplay(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		trace []blkRec
		opts  string
	}{
		{"mixed", btMixed, "--replay_redirect=target"},
		{"mixed no stall", btMixed, "--replay_redirect=target --replay_no_stall=1"},
		{"mixed time scale", btMixed, "--replay_redirect=target --replay_time_scale=200"},
		{"big-endian", bigEndian(btMixed), "--replay_redirect=target"},
		{"trims", btTrims, "--replay_redirect=target --ioengine=null"},
		{"scale", btTrims, "--replay_redirect=target --ioengine=null --replay_scale=3"},
		{"align", btTrims, "--replay_redirect=target --ioengine=null --replay_align=4096"},
		{"scale and align", btTrims, "--replay_redirect=target --ioengine=null --replay_scale=3 --replay_align=1024"},
		{"skip read", btTrims, "--replay_redirect=target --ioengine=null --replay_skip=read"},
		{"skip write,trim,sync", btTrims, "--replay_redirect=target --ioengine=null --replay_skip=write,trim,sync"},
		{"readonly", btTrims, "--replay_redirect=target --ioengine=null --readonly"},
		{"depth", btDepth, "--replay_redirect=target"},
		{"depth, iodepth given", btDepth, "--replay_redirect=target --iodepth=3"},
		{"write_iolog overridden", btDepth, "--replay_redirect=target --write_iolog=out.log"},
		{"zero lengths, one message", []blkRec{{time: 1000, bytes: 4096, action: btQueue | btRead}, {time: 2000, action: btQueue | btWrite},
			{time: 3000, action: btQueue | btRead}, {time: 4000, sector: 8, bytes: 4096, action: btQueue | btRead}}, "--replay_redirect=target"},
		{"zero length only", []blkRec{{time: 1, action: btQueue | btRead}}, "--replay_redirect=target"},
		{"unknown device", []blkRec{{time: 1, bytes: 512, action: btQueue | btRead, device: 250<<20 | 7}}, ""},
		{"empty file", nil, "--replay_redirect=target"},
		{"devices looked up", []blkRec{{time: 1000, sector: 8, bytes: 4096, action: btQueue | btRead},
			{time: 2000, sector: 16, bytes: 4096, action: btQueue | btRead, device: 7<<20 | 1},
			{time: 3000, sector: 24, bytes: 4096, action: btQueue | btRead}}, "--ioengine=null --iodepth=1"},
		{"partial record at the end", btTrims, "--replay_redirect=target --ioengine=null --partial"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.name == "devices looked up" {
				// Loop devices 7:0 and 7:1, only looked up: the null
				// engine neither opens nor reads them.
				for _, d := range []string{"/dev/loop0", "/dev/loop1"} {
					if fi, err := os.Stat(d); err != nil || fi.Mode()&os.ModeDevice == 0 || fi.Mode()&os.ModeCharDevice != 0 {
						t.Skipf("no block device %s", d)
					}
				}
			}
			data := blktraceFile(c.trace...)
			opts := c.opts
			if strings.Contains(opts, "--partial") {
				opts = strings.ReplaceAll(opts, " --partial", "")
				data = append(data, data[:30]...)
			}
			setup := func(dir string) {
				must(t, os.WriteFile(filepath.Join(dir, "trace.bin"), data, 0o644))
				must(t, os.WriteFile(filepath.Join(dir, "target"), make([]byte, 64<<10), 0o644))
			}
			a := append([]string{"--name=r", "--read_iolog=trace.bin", "--output-format=json", "--debug=io"}, args(opts)...)
			fr, gr, fo, gofOut := replayRun(t, a, setup, func(dir string) string {
				_, err := os.Stat(filepath.Join(dir, "out.log"))
				return existence(err)
			})
			if fr.rc != gr.rc {
				t.Fatalf("exit status: fio %d, gofio %d\nfio stderr:\n%s\ngofio stderr:\n%s", fr.rc, gr.rc, fr.stderr, gr.stderr)
			}
			if fo != gofOut {
				t.Errorf("write_iolog: fio %s, gofio %s", fo, gofOut)
			}
			fios, fmsgs, fjs := blktraceRun(fr)
			gios, gmsgs, gjs := blktraceRun(gr)
			if !reflect.DeepEqual(fios, gios) {
				t.Errorf("I/Os issued:\nfio   %q\ngofio %q", fios, gios)
			}
			if !reflect.DeepEqual(fmsgs, gmsgs) {
				t.Errorf("messages:\nfio   %q\ngofio %q", fmsgs, gmsgs)
			}
			if fr.rc != 0 {
				return
			}
			fj, gj := blktraceJSON(t, fjs), blktraceJSON(t, gjs)
			if !reflect.DeepEqual(fj, gj) {
				t.Errorf("JSON differs:\nfio   %q\ngofio %q", fj, gj)
			}
		})
	}
}

// blktraceJSON is what must match in a blktrace replay's JSON report:
// replayJSON's and the queue depth.
func blktraceJSON(t *testing.T, out string) []string {
	t.Helper()
	v := replayJSON(t, out)
	root, err := ParseJSON([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range root.Get("jobs").Kids {
		v = append(v, "latency_depth="+text(j.Get("latency_depth")))
	}
	return v
}

// TestMergeBlktrace compares merge_blktrace_file runs with fio's where
// they agree. fio 3.33 never merges (its merge always fails with "fio:
// iolog short read", leaving the merged file empty, and the job replays
// the first trace); gofio merges as the manual says (docs/compat.md), so
// for a valid merge only the job line, the exit status and gofio's
// merged file are checked.
func TestMergeBlktrace(t *testing.T) {
	t.Parallel()
	setup := func(dir string) {
		must(t, os.WriteFile(filepath.Join(dir, "a.bin"), blktraceFile(btTrims[:2]...), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "b.bin"), blktraceFile(btDepth...), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "target"), make([]byte, 64<<10), 0o644))
	}
	merged := func(dir string) string {
		b, err := os.ReadFile(filepath.Join(dir, "m.bin"))
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return string(b)
	}
	t.Run("merge only", func(t *testing.T) {
		t.Parallel()
		a := []string{"--name=m", "--read_iolog=a.bin:b.bin", "--merge_blktrace_file=m.bin", "--merge-blktrace-only",
			"--merge_blktrace_scalars=50:100", "--merge_blktrace_iters=2:1"}
		fr, gr, fm, gm := replayRun(t, a, setup, merged)
		if fr.rc != gr.rc || fr.stdout != gr.stdout {
			t.Errorf("fio: status %d, stdout %q\ngofio: status %d, stdout %q", fr.rc, fr.stdout, gr.rc, gr.stdout)
		}
		if fm != "" || !strings.Contains(fr.stderr, "fio: iolog short read") {
			t.Logf("fio 3.33 merged after all (%d bytes): compare the files", len(fm))
		}
		// a's two I/Os at 0.5 and 1 µs, then again 1 µs later; b's five
		// queue events at 1 to 6 µs.
		if n := len(gm); n != 9*48 {
			t.Errorf("gofio's merged file: %d bytes, want 9 records of 48", n)
		}
	})
	for _, c := range []struct{ name, opts string }{
		{"scalars count", "--merge_blktrace_scalars=50"},
		{"iters count", "--merge_blktrace_iters=1:2:3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, only := range []bool{true, false} {
				a := []string{"--name=m", "--read_iolog=a.bin:b.bin", "--merge_blktrace_file=m.bin", "--replay_redirect=target",
					"--output-format=json", c.opts}
				if only {
					a = append(a, "--merge-blktrace-only")
				}
				fr, gr, _, _ := replayRun(t, a, setup, nil)
				if fr.rc != gr.rc || fr.stderr != gr.stderr {
					t.Errorf("only=%v: fio: status %d, stderr %q\ngofio: status %d, stderr %q", only, fr.rc, fr.stderr, gr.rc, gr.stderr)
				}
				if !only && fr.rc == 0 {
					if fj, gj := replayJSON(t, fr.stdout), replayJSON(t, gr.stdout); !reflect.DeepEqual(fj, gj) {
						t.Errorf("JSON differs:\nfio   %q\ngofio %q", fj, gj)
					}
				}
			}
		})
	}
}

// TestBlktraceTiming checks that both programs keep a blktrace's timing,
// scaled by replay_time_scale: the job's runtime (JSON, ms) is at least
// the trace's scaled span less 5%, and at most 500 ms more (a loaded
// machine).
func TestBlktraceTiming(t *testing.T) {
	t.Parallel()
	trace := blktraceFile(
		blkRec{time: 1e9, sector: 0, bytes: 4096, action: btQueue | btRead},
		blkRec{time: 1e9 + 100e6, sector: 8, bytes: 4096, action: btQueue | btWrite},
		blkRec{time: 1e9 + 200e6, sector: 16, bytes: 4096, action: btQueue | btRead})
	setup := func(dir string) {
		must(t, os.WriteFile(filepath.Join(dir, "trace.bin"), trace, 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "target"), make([]byte, 64<<10), 0o644))
	}
	for _, c := range []struct {
		scale string
		ms    float64
	}{{"100", 200}, {"200", 100}, {"50", 400}} {
		t.Run(c.scale, func(t *testing.T) {
			t.Parallel()
			a := []string{"--name=r", "--read_iolog=trace.bin", "--replay_redirect=target", "--output-format=json", "--replay_time_scale=" + c.scale}
			fr, gr, _, _ := replayRun(t, a, setup, nil)
			for _, r := range []struct {
				who string
				res result
			}{{"fio", fr}, {"gofio", gr}} {
				root, err := ParseJSON([]byte(r.res.stdout))
				if err != nil {
					t.Fatalf("%s: %v\n%s", r.who, err, head(r.res.stdout))
				}
				var ms float64
				for _, d := range []string{"read", "write"} {
					v, err := strconv.ParseFloat(text(root.Get("jobs").Kids[0].Get(d, "runtime")), 64)
					if err != nil {
						t.Fatalf("%s: %s runtime: %v", r.who, d, err)
					}
					ms = max(ms, v)
				}
				if ms < c.ms*0.95 || ms > c.ms+500 {
					t.Errorf("%s: runtime %v ms, want %v ms (-5%%, +500 ms)", r.who, ms, c.ms)
				}
			}
		})
	}
}
