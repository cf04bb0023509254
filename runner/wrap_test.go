package runner

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// adviceCounter counts the posix_fadvise(2) calls of the jobs run while
// it is installed, by advice.
type adviceCounter struct {
	mu sync.Mutex
	n  map[int]int
}

// countAdvice replaces fadvise with a counting wrapper for the rest of
// the test.
func countAdvice(t *testing.T) *adviceCounter {
	c := &adviceCounter{n: map[int]int{}}
	saved := fadvise
	fadvise = func(fd int, off, n int64, advice int) error {
		c.mu.Lock()
		c.n[advice]++
		c.mu.Unlock()
		return saved(fd, off, n, advice)
	}
	t.Cleanup(func() { fadvise = saved })
	return c
}

func (c *adviceCounter) reset() {
	c.mu.Lock()
	clear(c.n)
	c.mu.Unlock()
}

func (c *adviceCounter) get(advice int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[advice]
}

// A time_based job drops the file's cached pages (invalidate=1) each
// time its I/O wraps around the file, as fio 3.33 does (seen with strace
// -e trace=fadvise64): random I/O when the random map (or the lfsr
// cycle) is used up and sequential I/O that ended at the region's end,
// the file staying open; sequential I/O whose next block does not fit
// before the end, or that spans several files, closes and reopens the
// files instead (the open drops the pages and gives the advice again).
// norandommap and direct=1 drop them only at the open. Without this a
// small file was read from the page cache after the first pass.
func TestTimeBasedWrapDropsCache(t *testing.T) {
	type want struct{ drops, opens int }
	tests := []struct {
		name  string
		args  []string
		files []string
		// expect gives the drops and opens (FADV_RANDOM or
		// FADV_SEQUENTIAL advice) for the I/Os done.
		expect func(ios uint64) want
	}{
		{
			name: "randread", args: []string{"rw=randread", "bs=4k"},
			files:  []string{"f"},
			expect: func(ios uint64) want { return want{1 + int((ios-1)/16), 1} },
		},
		{
			name: "lfsr", args: []string{"rw=randread", "bs=4k", "random_generator=lfsr"},
			files:  []string{"f"},
			expect: func(ios uint64) want { return want{1 + int((ios-1)/16), 1} },
		},
		{
			name: "read", args: []string{"rw=read", "bs=4k"},
			files:  []string{"f"},
			expect: func(ios uint64) want { return want{1 + int((ios-1)/16), 1} },
		},
		{
			// 5 blocks a pass, 4 KiB left over: reopened each pass.
			name: "read-leftover", args: []string{"rw=read", "bs=12k"},
			files:  []string{"f"},
			expect: func(ios uint64) want { p := int((ios + 4) / 5); return want{p, p} },
		},
		{
			// Two files of 32 KiB, 8 blocks each, round robin: both
			// reopened each pass.
			name: "read-2files", args: []string{"rw=read", "bs=4k"},
			files: []string{"f", "g"},
			expect: func(ios uint64) want {
				p := 2 * int((ios+15)/16)
				if ios%16 == 1 {
					p-- // the last pass opened only the first file
				}
				return want{p, p}
			},
		},
		{
			name: "norandommap", args: []string{"rw=randread", "bs=4k", "norandommap"},
			files:  []string{"f"},
			expect: func(uint64) want { return want{1, 1} },
		},
		{
			name: "invalidate=0", args: []string{"rw=randread", "bs=4k", "invalidate=0"},
			files:  []string{"f"},
			expect: func(uint64) want { return want{0, 1} },
		},
	}
	c := countAdvice(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			names := ""
			for i, f := range tt.files {
				// Laid out beforehand, so the counts are the job's own.
				if err := os.WriteFile(filepath.Join(dir, f), make([]byte, 64<<10/len(tt.files)), 0o644); err != nil {
					t.Fatal(err)
				}
				if i > 0 {
					names += ":"
				}
				names += f
			}
			c.reset()
			args := append([]string{"name=w", "filename=" + names, "size=64k", "time_based", "runtime=300ms"}, tt.args...)
			oc, errs := runJobs(t, dir, args...)
			_, n := dirStats(&oc.Result.Jobs[0])
			ios := n[0]
			if ios < 40 || oc.Failed != 0 {
				t.Fatalf("%d I/Os in 300 ms (want >= 40, a few passes), failed %d: %s", ios, oc.Failed, errs)
			}
			got := want{c.get(unix.FADV_DONTNEED), c.get(unix.FADV_RANDOM) + c.get(unix.FADV_SEQUENTIAL)}
			if w := tt.expect(ios); got != w {
				t.Errorf("%d I/Os: %d page cache drops, %d opens; want %d, %d", ios, got.drops, got.opens, w.drops, w.opens)
			}
		})
	}
}
