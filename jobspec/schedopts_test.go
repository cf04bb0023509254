package jobspec

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestCPUList checks cpus_allowed parsing against fio 3.33 on a 2-CPU
// host (each row observed with strace on fio's sched_setaffinity).
func TestCPUList(t *testing.T) {
	tests := []struct {
		value    string
		cpus     []int
		tooLarge int
	}{
		{"0", []int{0}, -1},
		{"1", []int{1}, -1},
		{"0-1", []int{0, 1}, -1},
		{"1,0-0", []int{0, 1}, -1},
		{"0-1-1", []int{0, 1}, -1}, // text after a second '-' is ignored
		{"1-0", nil, -1},           // an empty range
		{"5-1", nil, -1},           // empty: no CPU checked
		{"1-abc", nil, -1},         // atoi("abc") is 0
		{"abc", []int{0}, -1},
		{"1,abc", []int{0, 1}, -1},
		{"1k", []int{1}, -1},
		{"0x1", []int{0}, -1},
		{"+1", []int{1}, -1},
		{" 1", []int{1}, -1},
		{"-1", []int{0}, -1}, // an empty start: the single CPU 0
		{"-5", []int{0}, -1},
		{"-", []int{0}, -1},
		{"1-", []int{1}, -1}, // an empty end: the single start CPU
		{"0--1", []int{0}, -1},
		{"0,,1", []int{0}, -1}, // an empty element ends the list
		{",1", nil, -1},
		{"", nil, -1},
		{"2", nil, 2},
		{"1-5", nil, 2}, // the first CPU too large is named
		{"0,1,7", nil, 7},
		{"9-", nil, 9},
		{"1024", nil, 1024},
		{"2-1030", nil, 2}, // CPUs are checked in order
		{"1030-1020", nil, -1},
	}
	for _, tt := range tests {
		cpus, bad := cpuList(tt.value, 2)
		if !reflect.DeepEqual(cpus, tt.cpus) || bad != tt.tooLarge {
			t.Errorf("cpuList(%q) = %v, %d; want %v, %d", tt.value, cpus, bad, tt.cpus, tt.tooLarge)
		}
	}
}

// TestThreadOptionSetters checks what the thread options store.
func TestThreadOptionSetters(t *testing.T) {
	tests := []struct {
		args []string
		want ThreadOptions
	}{
		{nil, ThreadOptions{}},
		{[]string{"cpus_allowed=0"}, ThreadOptions{CPUs: []int{0}, CPUsSet: true}},
		{[]string{"cpus_allowed=0", "cpus_allowed_policy=split"}, ThreadOptions{CPUs: []int{0}, CPUsSet: true, CPUsSplit: true}},
		{[]string{"cpus_allowed_policy=split", "cpus_allowed_policy=shared"}, ThreadOptions{}},
		{[]string{"cpus_allowed=1-0"}, ThreadOptions{CPUsSet: true}}, // an empty set fails when the job runs
		{[]string{"cpumask=1"}, ThreadOptions{CPUs: []int{0}, CPUsSet: true}},
		{[]string{"cpumask=0"}, ThreadOptions{CPUsSet: true}},
		{[]string{"cpumask=-1"}, ThreadOptions{CPUs: []int{0}, CPUsSet: true}},  // piece "1" wins
		{[]string{"cpus_allowed=0", "cpumask=0"}, ThreadOptions{CPUsSet: true}}, // the last one wins
		{[]string{"cpumask=0", "cpus_allowed=0"}, ThreadOptions{CPUs: []int{0}, CPUsSet: true}},
		{[]string{"nice=-5"}, ThreadOptions{Nice: -5}},
		{[]string{"nice=19"}, ThreadOptions{Nice: 19}},
		{[]string{"prio=3"}, ThreadOptions{Prio: 3, PrioSet: true}},
		{[]string{"prioclass=0"}, ThreadOptions{PrioClassSet: true}},
		{[]string{"prio=-1"}, ThreadOptions{Prio: -1, PrioSet: true}}, // no minimum: the kernel refuses it
		{[]string{"prioclass=3", "prio=7"}, ThreadOptions{Prio: 7, PrioSet: true, PrioClass: 3, PrioClassSet: true}},
		{[]string{"exec_prerun=echo a; echo b", "exec_postrun=true"}, ThreadOptions{ExecPrerun: "echo a; echo b", ExecPostrun: "true"}},
		{[]string{"lockmem=1m"}, ThreadOptions{LockMem: 1 << 20}},
		{[]string{"create_only=1"}, ThreadOptions{CreateOnly: true}},
		{[]string{"file_append=1"}, ThreadOptions{FileAppend: true}},
		{[]string{"write_hint=none"}, ThreadOptions{WriteHint: 1}},
		{[]string{"write_hint=extreme"}, ThreadOptions{WriteHint: 5}},
		{[]string{"write_hint=short", "write_hint=long"}, ThreadOptions{WriteHint: 4}},
	}
	for _, tt := range tests {
		s := &session{cmdline: append([]string{"name=a"}, tt.args...)}
		p, err := s.run(t)
		if err != nil {
			t.Errorf("%q: %v\n%s", tt.args, err, s.stderr.String())
			continue
		}
		j := p.Jobs[0]
		if err := p.Unsupported(); err != nil {
			t.Errorf("%q: %v", tt.args, err)
		}
		if !reflect.DeepEqual(j.ThreadOptions, tt.want) {
			t.Errorf("%q: got %+v; want %+v", tt.args, j.ThreadOptions, tt.want)
		}
	}
}

// TestThreadOptionClones checks that numjobs clones get their own CPU
// list.
func TestThreadOptionClones(t *testing.T) {
	s := &session{cmdline: []string{"name=a", "cpus_allowed=0", "numjobs=2"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err)
	}
	p.Jobs[1].CPUs[0] = 7
	if p.Jobs[0].CPUs[0] != 0 {
		t.Errorf("a clone shares its CPU list with the job")
	}
}

// TestThreadOptionErrors checks fio 3.33's messages for bad values.
func TestThreadOptionErrors(t *testing.T) {
	n := runtime.NumCPU()
	tests := []struct {
		arg    string
		stderr string
		stdout string
	}{
		{"prio=8", "prio: max value out of range: 8 (7 max)\nfio: failed parsing prio=8\n", ""},
		{"prioclass=4", "prioclass: max value out of range: 4 (3 max)\nfio: failed parsing prioclass=4\n", ""},
		{"nice=20", "nice: max value out of range: 20 (19 max)\nfio: failed parsing nice=20\n", ""},
		{fmt.Sprintf("cpus_allowed=%d", n), fmt.Sprintf("fio: CPU %d too large (max=%d)\nfio: failed parsing cpus_allowed=%d\n", n, n-1, n), ""},
		{fmt.Sprintf("cpus_allowed=0-%d", n+3), fmt.Sprintf("fio: CPU %d too large (max=%d)\nfio: failed parsing cpus_allowed=0-%d\n", n, n-1, n+3), ""},
		{"cpus_allowed=0,1024", "fio: your OS only supports up to 1024 CPUs\nfio: failed parsing cpus_allowed=0,1024\n", ""},
		{"cpus_allowed_policy=bogus", "fio: failed parsing cpus_allowed_policy=bogus\n",
			"        valid values: shared     Mask shared between threads\n                    : split      Mask split between threads\n\n"},
	}
	for _, tt := range tests {
		s := &session{cmdline: []string{"name=a", tt.arg}}
		if _, err := s.run(t); err == nil {
			t.Errorf("%s: accepted", tt.arg)
		}
		if got := s.stderr.String(); got != tt.stderr {
			t.Errorf("%s: stderr %q; want %q", tt.arg, got, tt.stderr)
		}
		if got := s.stdout.String(); !strings.HasSuffix(got, tt.stdout) {
			t.Errorf("%s: stdout %q; want %q", tt.arg, got, tt.stdout)
		}
	}
}
