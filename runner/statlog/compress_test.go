package statlog

import (
	"bytes"
	"compress/zlib"
	"errors"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestCompressOn checks that log_compression_cpus compresses on a thread
// allowed on those CPUs only.
func TestCompressOn(t *testing.T) {
	cpu := runtime.NumCPU() - 1
	var set unix.CPUSet
	var err error
	compressOn([]int{cpu}, func() { err = unix.SchedGetaffinity(0, &set) })
	if err != nil {
		t.Fatal(err)
	}
	if set.Count() != 1 || !set.IsSet(cpu) {
		t.Errorf("the compression thread may run on %d CPUs (CPU %d: %v); want CPU %d only", set.Count(), cpu, set.IsSet(cpu), cpu)
	}
}

// TestLogCompression checks that a log kept in zlib chunks
// (log_compression) gives back every entry in order, whole, with and
// without offsets, and that the chunks are compressed.
func TestLogCompression(t *testing.T) {
	last := []int{runtime.NumCPU() - 1}
	for _, c := range []struct {
		offset bool
		cpus   []int
	}{{false, nil}, {true, nil}, {true, last}} {
		offset := c.offset
		l := newIOLog("bw", 1024)
		l.setCompression(1024, offset, c.cpus) // 25 or 32 entries a chunk
		const n = 1000
		for i := range n {
			l.add(logEntry{at: int64(i) * 1e6, val: uint64(i), off: uint64(i) * 4096, bs: 4096, dir: uint8(i % 3), prio: uint16(i)})
		}
		if len(l.zip.chunks) < n/40 {
			t.Errorf("offset=%v: %d compressed chunks for %d entries", offset, len(l.zip.chunks), n)
		}
		if l.len() > l.zip.per {
			t.Errorf("offset=%v: %d entries left uncompressed, chunks hold %d", offset, l.len(), l.zip.per)
		}
		i := 0
		l.entries(func(e *logEntry) {
			want := logEntry{at: int64(i) * 1e6, val: uint64(i), bs: 4096, dir: uint8(i % 3), prio: uint16(i)}
			if offset || e.off != 0 {
				want.off = uint64(i) * 4096 // kept also when not compressed
			}
			if *e != want {
				t.Fatalf("offset=%v: entry %d is %+v, want %+v", offset, i, *e, want)
			}
			i++
		})
		if i != n {
			t.Errorf("offset=%v: %d entries, want %d", offset, i, n)
		}
	}
}

// zstream compresses the samples b as one zlib stream.
func zstream(b []byte) []byte {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestInflateLog checks --inflate-log's text against the lines fio 3.33
// printed for the same samples (observed), and its handling of several
// streams and of damaged data.
func TestInflateLog(t *testing.T) {
	e := logEntry{val: 30567164, dir: 1, bs: 131072, off: 131072}
	rt := logEntry{val: 4106, dir: 0, bs: 131072, prio: 1<<13 | 3}
	var s1, s2 []byte
	s1 = appendSample(s1, &e, 0, true, false)
	s1 = appendSample(s1, &rt, 99, false, true)
	s2 = appendSample(s2, &rt, 100, false, false)
	const want = "0, 30567164, 1, 131072, 131072, 0\n99, 4106, 0, 131072, 0x2003\n100, 4106, 0, 131072, 1\n"
	good := append(zstream(s1), zstream(s2)...)
	split := append(zstream(s1[:50]), zstream(append(s1[50:], s2...))...) // a sample across two streams
	tests := []struct {
		name string
		data []byte
		want string
		err  error
	}{
		{"two streams", good, want, nil},
		{"split sample", split, want, nil},
		{"truncated", good[:len(zstream(s1))+5], "0, 30567164, 1, 131072, 131072, 0\n99, 4106, 0, 131072, 0x2003\n", nil},
		{"one byte", good[:1], "", nil},
		{"not zlib", []byte("hello\n"), "", ErrInflate},
		{"trailing junk", append(bytes.Clone(good), "junk"...), want, ErrInflate},
		{"corrupt stream", append(bytes.Clone(good), 0x78, 0x9c, 0xff, 0xff, 0xff, 0xff), want, ErrInflate},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		err := InflateLog(&out, bytes.NewReader(tt.data))
		if out.String() != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("%s: %q, %v; want %q, %v", tt.name, out.String(), err, tt.want, tt.err)
		}
	}
}
