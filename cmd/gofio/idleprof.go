package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// --idle-prof=system|percpu|calibrate, fio's idle profiling (fio's
// manual: "Report CPU idleness"). A unit of work is first timed on every
// CPU; while the jobs run, one thread per CPU at the lowest scheduling
// priority (SCHED_IDLE) does units of work as long as nothing else wants
// the CPU, and the CPU's idleness is the time those units took, as a
// share of the run. fio 3.33 prints, after the report (observed):
//
//	CPU idleness:
//	  system: 17.35%
//	  percpu: 48.28%, 1.99%          (percpu only)
//	  unit work: mean=10.27us, stddev=0.20
//
// and in JSON, last, "cpu_idleness": {"system", "cpu-N"..., "unit_mean",
// "unit_stddev"}; calibrate prints the first and last lines and exits.
// The values are the machine's.

const (
	idleCalibrations = 50      // units timed per CPU
	idleUnitRounds   = 1 << 13 // rounds of one unit of work
)

// idleSink keeps the units' results alive.
var idleSink atomic.Uint64

// idleUnit is one unit of work: integer mixing that stays in registers.
func idleUnit(seed uint64) uint64 {
	x := seed | 1
	for range idleUnitRounds {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// idleProfiler is the state of --idle-prof.
type idleProfiler struct {
	percpu bool
	cpus   []int
	unitNs []float64 // mean time of a unit per CPU, calibrated
	mean   float64   // µs over every calibration sample
	stddev float64

	stopc  chan struct{}
	wg     sync.WaitGroup
	units  []atomic.Uint64
	start  time.Time
	took   time.Duration
	failed atomic.Bool
}

// allowedCPUs are the CPUs this process may run on.
func allowedCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return []int{0}
	}
	var cpus []int
	for c := range 1024 {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}

// pinThread locks the calling goroutine to its thread and the thread to
// cpu.
func pinThread(cpu int) error {
	runtime.LockOSThread()
	var one unix.CPUSet
	one.Set(cpu)
	return unix.SchedSetaffinity(0, &one)
}

// calibrateIdle times units of work on every CPU.
func calibrateIdle(percpu bool) *idleProfiler {
	p := &idleProfiler{percpu: percpu, cpus: allowedCPUs()}
	p.unitNs = make([]float64, len(p.cpus))
	samples := make([][]float64, len(p.cpus))
	var wg sync.WaitGroup
	for i, cpu := range p.cpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The thread stays locked: it ends with the goroutine
			// instead of going back to Go's pool pinned to cpu.
			pinThread(cpu)
			s := make([]float64, idleCalibrations)
			var sum float64
			for k := range s {
				t := time.Now()
				idleSink.Add(idleUnit(uint64(k)))
				s[k] = float64(time.Since(t).Nanoseconds())
				sum += s[k]
			}
			samples[i], p.unitNs[i] = s, sum/idleCalibrations
		}()
	}
	wg.Wait()
	var n, sum, sq float64
	for _, s := range samples {
		for _, v := range s {
			n++
			sum += v / 1000
		}
	}
	p.mean = sum / n
	for _, s := range samples {
		for _, v := range s {
			sq += (v/1000 - p.mean) * (v/1000 - p.mean)
		}
	}
	if n > 1 {
		p.stddev = math.Sqrt(sq / (n - 1))
	}
	return p
}

// unitLine is the calibration's line of the report.
func (p *idleProfiler) unitLine() string {
	return fmt.Sprintf("  unit work: mean=%3.2fus, stddev=%3.2f\n", p.mean, p.stddev)
}

// idleCalibrate carries out --idle-prof=calibrate.
func idleCalibrate(stdout io.Writer) int {
	p := calibrateIdle(false)
	fmt.Fprint(stdout, "CPU idleness:\n"+p.unitLine())
	return 0
}

// run starts the idle threads.
func (p *idleProfiler) run() {
	p.stopc = make(chan struct{})
	p.units = make([]atomic.Uint64, len(p.cpus))
	p.start = time.Now()
	for i, cpu := range p.cpus {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			// The thread stays locked: it ends with the goroutine
			// instead of going back to Go's pool at SCHED_IDLE.
			if err := pinThread(cpu); err != nil {
				p.failed.Store(true)
				return
			}
			if err := unix.SchedSetAttr(0, &unix.SchedAttr{Policy: unix.SCHED_IDLE}, 0); err != nil {
				p.failed.Store(true)
				return
			}
			for k := uint64(0); ; k++ {
				select {
				case <-p.stopc:
					return
				default:
				}
				idleSink.Add(idleUnit(k))
				p.units[i].Add(1)
			}
		}()
	}
}

// stop ends the idle threads.
func (p *idleProfiler) stop() {
	p.took = time.Since(p.start)
	close(p.stopc)
	p.wg.Wait()
}

// idleness returns each CPU's idleness and their mean, in percent.
func (p *idleProfiler) idleness() (system float64, percpu []float64) {
	for i := range p.cpus {
		v := 0.0
		if p.took > 0 {
			v = min(100, 100*float64(p.units[i].Load())*p.unitNs[i]/float64(p.took.Nanoseconds()))
		}
		percpu = append(percpu, v)
		system += v
	}
	return system / float64(len(percpu)), percpu
}

// normal prints the report's "CPU idleness" section.
func (p *idleProfiler) normal(w io.Writer) {
	system, percpu := p.idleness()
	fmt.Fprintf(w, "\nCPU idleness:\n  system: %3.2f%%\n", system)
	if p.percpu {
		s := make([]string, len(percpu))
		for i, v := range percpu {
			s[i] = fmt.Sprintf("%3.2f%%", v)
		}
		fmt.Fprintf(w, "  percpu: %s\n", strings.Join(s, ", "))
	}
	fmt.Fprint(w, p.unitLine())
}

// addJSON adds "cpu_idleness" as the last key of a JSON report: doc is
// the report with its closing brace.
func (p *idleProfiler) addJSON(doc []byte) []byte {
	i := bytes.LastIndex(doc, []byte("\n}"))
	if i < 0 {
		return doc
	}
	system, percpu := p.idleness()
	var b bytes.Buffer
	b.Write(doc[:i])
	fmt.Fprintf(&b, ",\n  \"cpu_idleness\" : {\n    \"system\" : %f,\n", system)
	if p.percpu {
		for k, v := range percpu {
			fmt.Fprintf(&b, "    \"cpu-%d\" : %f,\n", p.cpus[k], v)
		}
	}
	fmt.Fprintf(&b, "    \"unit_mean\" : %f,\n    \"unit_stddev\" : %f\n  }", p.mean, p.stddev)
	b.Write(doc[i:])
	return b.Bytes()
}
