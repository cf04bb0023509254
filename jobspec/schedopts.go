package jobspec

import (
	"fmt"
	"runtime"
	"strings"
)

// ThreadOptions are the options that set up a job's thread around its
// I/O: CPU affinity, CPU and I/O priorities, the disks' I/O scheduler,
// commands run before and after the job, locked memory; and the
// create_only, file_append and write_hint switches. Job embeds it; the runner applies the thread
// settings on the job's own OS thread, so each applies to that job only.
type ThreadOptions struct {
	// CPUs are the CPUs the job may run on (cpus_allowed or cpumask,
	// whichever came last), in increasing order; CPUsSet says one of
	// them was given. An empty set is fio's: the job fails with EINVAL.
	CPUs    []int
	CPUsSet bool
	// CPUsSplit is cpus_allowed_policy=split: each job gets one CPU of
	// the set, by its number in the run (round robin).
	CPUsSplit bool

	Nice         int // nice: added to the thread's nice value, as nice(2) does
	Prio         int // prio: I/O priority level, 0 (highest) to 7
	PrioSet      bool
	PrioClass    int // prioclass: 0 (none: best effort), 1 realtime, 2 best effort, 3 idle
	PrioClassSet bool

	ExecPrerun  string // exec_prerun: shell command run before the job
	ExecPostrun string // exec_postrun: shell command run after the job
	LockMem     uint64 // lockmem: bytes mlock'ed for the job's duration
	CreateOnly  bool   // create_only: lay out the files, do no I/O
	FileAppend  bool   // file_append: I/O starts at the end of regular files
	// WriteHint is write_hint as Linux numbers the write life times
	// (RWH_WRITE_LIFE_NONE 1 … EXTREME 5); 0 when unset.
	WriteHint int
	// IOScheduler is ioscheduler: the I/O scheduler the job selects on
	// the disks of its files before its I/O.
	IOScheduler string
}

func (o ThreadOptions) clone() ThreadOptions {
	o.CPUs = append([]int(nil), o.CPUs...)
	return o
}

// cpuList reads a cpus_allowed value as fio 3.33 does (observed): a list
// of CPUs and A-B ranges separated by ','; an empty element ends the
// list. Numbers are read as C's atoi reads them (so "abc" is CPU 0); in
// "A-B" only the text up to a second '-' counts, and an empty A or B
// makes it the single CPU A ("-5" is CPU 0, "1-" CPU 1); a range whose
// end is below its start adds nothing. Every CPU added must be below
// ncpu: the first that is not is returned as tooLarge (-1 when all fit);
// fio names it, or says the OS has only maxCPUs when it is that large.
func cpuList(value string, ncpu int) (cpus []int, tooLarge int) {
	seen := map[int]bool{}
	for _, el := range strings.Split(value, ",") {
		if el == "" {
			break
		}
		lo, hi := atoi(el), 0
		if i := strings.IndexByte(el, '-'); i >= 0 {
			a, b := el[:i], el[i+1:]
			if k := strings.IndexByte(b, '-'); k >= 0 {
				b = b[:k]
			}
			lo = atoi(a)
			if a == "" || b == "" {
				hi = lo
			} else {
				hi = atoi(b)
			}
		} else {
			hi = lo
		}
		for c := lo; c <= hi; c++ {
			if c >= ncpu || c >= maxCPUs {
				return nil, c
			}
			if c >= 0 && !seen[c] {
				seen[c] = true
				cpus = append(cpus, c)
			}
		}
	}
	sortInts(cpus)
	return cpus, -1
}

// atoi is C's atoi: leading white space, a sign, decimal digits; 0 when
// there are none.
func atoi(s string) int {
	v, _, _ := cStrtoll(s, 10)
	return int(int32(v))
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for k := i; k > 0 && a[k] < a[k-1]; k-- {
			a[k], a[k-1] = a[k-1], a[k]
		}
	}
}

// maxCPUs is the size of the kernel's CPU set as glibc declares it
// (CPU_SETSIZE): fio refuses CPUs beyond it.
const maxCPUs = 1024

// cpuListError is fio's message for the CPU cpuList found too large.
func cpuListError(cpu, ncpu int) string {
	if cpu >= maxCPUs {
		return fmt.Sprintf("fio: your OS only supports up to %d CPUs", maxCPUs)
	}
	return fmt.Sprintf("fio: CPU %d too large (max=%d)", cpu, ncpu-1)
}

// maskCPUs returns the CPUs of a cpumask, and whether all are below ncpu.
func maskCPUs(mask uint64, ncpu int) ([]int, bool) {
	var cpus []int
	for c := 0; c < 64; c++ {
		if mask&(1<<c) == 0 {
			continue
		}
		if c >= ncpu {
			return nil, false
		}
		cpus = append(cpus, c)
	}
	return cpus, true
}

// setCPUsAllowed stores cpus_allowed. The reader has checked the CPUs
// against this host.
func setCPUsAllowed(j *Job, value string) error {
	cpus, _ := cpuList(value, runtime.NumCPU())
	j.CPUs, j.CPUsSet = cpus, true
	return nil
}

// setCPUMask stores cpumask: fio runs its handler on every piece, and the
// last piece whose CPUs all exist here wins ("cpumask=-1" is refused for
// its first piece and sets CPU 0 with its second, "1").
func setCPUMask(j *Job, value string) error {
	ok := false
	for _, p := range pieces(value, true) {
		s, err := parseSize(p.Text, j.KBBase)
		if err != nil {
			continue
		}
		cpus, fits := maskCPUs(uint64(s.plain()), runtime.NumCPU())
		if !fits {
			continue
		}
		j.CPUs, j.CPUsSet = cpus, true
		ok = true
	}
	if !ok {
		return errNoNumber
	}
	return nil
}

var storeCPUsAllowedPolicy = storeChoice(func(j *Job) *bool { return &j.CPUsSplit }, false, true)

// setIntFlag returns a setter like setInt that also records that the
// option was given (prio and prioclass change the I/O priority only
// then).
func setIntFlag(name string, field func(*Job) (*int, *bool)) func(*Job, string) error {
	return func(j *Job, value string) error {
		v, err := intPiece(name, value, j.KBBase)
		if err != nil {
			if anyPiece(value, j.KBBase) {
				return nil
			}
			return err
		}
		p, set := field(j)
		*p, *set = int(v), true
		return nil
	}
}

var (
	// A minimum of 0 is none to fio: prio=-1 is stored, and the kernel
	// refuses it when the job runs.
	setPrio      = setIntFlag("prio", func(j *Job) (*int, *bool) { return &j.Prio, &j.PrioSet })
	setPrioClass = setIntFlag("prioclass", func(j *Job) (*int, *bool) { return &j.PrioClass, &j.PrioClassSet })
)

// storeWriteHint stores write_hint as Linux numbers the write life times:
// RWH_WRITE_LIFE_NONE (1) to RWH_WRITE_LIFE_EXTREME (5), in the order of
// the row's words.
var storeWriteHint = storeChoice(func(j *Job) *int { return &j.WriteHint }, 1, 2, 3, 4, 5)
