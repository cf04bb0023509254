package statlog

import (
	"fmt"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// log_compression_cpus: fio's manual has the chunks compressed by threads
// allowed on those CPUs only. gofio compresses a full chunk when it is
// filled; with the option set, the job hands it to a compression thread
// pinned to the CPUs (one per set of CPUs, shared by the run's jobs) and
// waits for it, so the compression's CPU time is spent there.

// compressTask is one compression for a compression thread.
type compressTask struct {
	f    func()
	done chan struct{}
}

// compressors holds a channel to the thread of each CPU set, by the set
// as fmt prints it.
var compressors sync.Map

// compressOn runs f on the compression thread of cpus and waits for it.
func compressOn(cpus []int, f func()) {
	key := fmt.Sprint(cpus)
	c, ok := compressors.Load(key)
	if !ok {
		var loaded bool
		ch := make(chan compressTask)
		if c, loaded = compressors.LoadOrStore(key, ch); !loaded {
			go compressThread(cpus, ch)
		}
	}
	t := compressTask{f: f, done: make(chan struct{})}
	c.(chan compressTask) <- t
	<-t.done
}

// compressThread runs the tasks of in on a thread allowed on cpus only.
func compressThread(cpus []int, in chan compressTask) {
	runtime.LockOSThread() // never unlocked: the thread keeps its mask
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	unix.SchedSetaffinity(0, &set) // CPUs the reader checked exist
	for t := range in {
		t.f()
		close(t.done)
	}
}
