package runner

// The cpuio engine burns CPU instead of doing I/O. Each unit is one cycle:
// cpuchunks µs of work (cpumode=noop: a spin on the clock; qsort: sorting
// an array of random numbers, again and again), then a pause long enough
// that the work takes cpuload percent of the time. The work is the unit's
// latency; the pause is think time, outside it (Thinker). Units move no
// data (EngineInfo.NoIO), so only runtime ends a cpuio job, as in fio.
//
// cpuload is required; exit_on_io_done is not supported yet.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Thinker is implemented by engines that pause between units: the runner
// sleeps ThinkTime nanoseconds after each completion, outside the unit's
// latency.
type Thinker interface {
	ThinkTime() int64
}

// cpuQsortLen is the length of the array cpumode=qsort sorts.
const cpuQsortLen = 4096

type cpuEngine struct {
	load  int   // cpuload, percent
	chunk int64 // cpuchunks, µs
	qsort bool
	arr   []uint32
	rng   taus88
}

var (
	_ Engine  = (*cpuEngine)(nil)
	_ Thinker = (*cpuEngine)(nil)
	_ Noticer = (*cpuEngine)(nil)
)

// errCPULoad is fio's message for a cpuio job without cpuload.
var errCPULoad = errors.New("fio: pid=0, err=22/file:engines/cpu.c, func=cpuio, error=cpu thread needs rate (cpuload=)\nfio: io engine cpuio init failed.")

func newCPUIO(cfg EngineConfig) (Engine, error) {
	e := &cpuEngine{chunk: 50000}
	e.rng.seed(cfg.Seed ^ 0xc9)
	for name, val := range cfg.Options {
		v := strings.TrimSpace(val)
		switch name {
		case "cpuload":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 100 {
				return nil, fmt.Errorf("cpuio: option cpuload: bad value %q (0-100)", val)
			}
			e.load = n
		case "cpuchunks":
			n, err := strconv.ParseInt(v, 0, 64)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("cpuio: option cpuchunks: bad value %q", val)
			}
			e.chunk = n
		case "cpumode":
			switch strings.ToLower(v) {
			case "noop":
				e.qsort = false
			case "qsort":
				e.qsort = true
			default:
				return nil, fmt.Errorf("cpuio: option cpumode: %q is not noop or qsort", val)
			}
		case "exit_on_io_done":
			if b, err := asyncOptBool("cpuio", name, val); err != nil || b {
				return nil, errors.New("gofio: cpuio option exit_on_io_done is not supported yet")
			}
		default:
			return nil, fmt.Errorf("cpuio: option %s is not supported", name)
		}
	}
	if e.load == 0 {
		return nil, errCPULoad
	}
	if e.qsort {
		e.arr = make([]uint32, cpuQsortLen)
	}
	return e, nil
}

// Notice is the line fio prints when a cpuio job starts.
func (e *cpuEngine) Notice(job string) string {
	mode := "noop"
	if e.qsort {
		mode = "qsort"
	}
	return fmt.Sprintf("%s (%s): ioengine=cpuio, cpuload=%d, cpucycle=%d", job, mode, e.load, e.chunk)
}

// ThinkTime is the pause after each cycle that brings the load to
// cpuload percent.
func (e *cpuEngine) ThinkTime() int64 {
	return e.chunk * int64(100-e.load) / int64(e.load) * 1000
}

// Queue works for cpuchunks µs.
func (e *cpuEngine) Queue(u *IOUnit) Status {
	end := nanotime() + e.chunk*1000
	for nanotime() < end {
		if e.qsort {
			e.sortRound()
		}
	}
	u.Result, u.Err = len(u.Buf), 0 // counted as no bytes (NoIO)
	return Completed
}

// sortRound fills the array with random numbers and sorts it (heap sort:
// in place, no allocation).
func (e *cpuEngine) sortRound() {
	a := e.arr
	for i := range a {
		a[i] = e.rng.next()
	}
	n := len(a)
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(a, i, n)
	}
	for end := n - 1; end > 0; end-- {
		a[0], a[end] = a[end], a[0]
		siftDown(a, 0, end)
	}
}

func siftDown(a []uint32, root, n int) {
	for {
		child := 2*root + 1
		if child >= n {
			return
		}
		if child+1 < n && a[child+1] > a[child] {
			child++
		}
		if a[root] >= a[child] {
			return
		}
		a[root], a[child] = a[child], a[root]
		root = child
	}
}

// sleepNS sleeps ns nanoseconds on the calling thread. The call is raw,
// as the I/O loop's are (sys_rw_linux.go): the job keeps its P, so waking
// up costs no scheduler round trip before the next I/O is issued. A
// signal ends the sleep early and it goes on for the rest.
func sleepNS(ns int64) {
	ts := unix.NsecToTimespec(ns)
	for {
		_, _, e := unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), uintptr(unsafe.Pointer(&ts)), 0)
		if e != unix.EINTR {
			return
		}
	}
}
