package jobspec

import (
	"reflect"
	"strings"
	"testing"
)

// TestEngineOptionValues reads each engine option gofio runs into its
// typed value, with fio 3.33's rules for the row's kind.
func TestEngineOptionValues(t *testing.T) {
	tests := []struct {
		engine string
		opts   []string
		want   func(o *IOEngineOptions)
	}{
		{"cpuio", nil, func(o *IOEngineOptions) {}},
		{"cpuio", []string{"cpuload=25"}, func(o *IOEngineOptions) { o.CPULoad = 25 }},
		// cpuload has no bounds in fio: 150 is stored (the engine takes
		// it as 100); the first piece is the value.
		{"cpuio", []string{"cpuload=150,20"}, func(o *IOEngineOptions) { o.CPULoad = 150 }},
		{"cpuio", []string{"cpuchunks=2k"}, func(o *IOEngineOptions) { o.CPUChunks = 2048 }},
		{"cpuio", []string{"cpumode=qsort"}, func(o *IOEngineOptions) { o.CPUMode = CPUQsort }},
		{"cpuio", []string{"cpumode=qsort", "cpumode=noop"}, func(o *IOEngineOptions) { o.CPUMode = CPUNoop }},
		{"cpuio", []string{"exit_on_io_done=1"}, func(o *IOEngineOptions) { o.ExitOnIODone = true }},
		{"mmap", []string{"thp=1"}, func(o *IOEngineOptions) { o.THP = 1 }},
		{"pvsync2", []string{"hipri"}, func(o *IOEngineOptions) { o.HiPri = true }},
		{"pvsync2", []string{"hipri=0"}, func(o *IOEngineOptions) {}},
		{"pvsync2", []string{"hipri=7"}, func(o *IOEngineOptions) { o.HiPri = true }},
		{"pvsync2", []string{"hipri_percentage=50"}, func(o *IOEngineOptions) { o.HiPriPercentage = 50 }},
		// Out of range first piece, good second one: accepted, not
		// stored.
		{"pvsync2", []string{"hipri_percentage=101,50"}, func(o *IOEngineOptions) {}},
		{"pvsync2", []string{"uncached=1", "nowait=1"}, func(o *IOEngineOptions) { o.Uncached, o.NoWait = 1, true }},
		{"io_uring", []string{"hipri", "fixedbufs", "registerfiles=1", "sqthread_poll"}, func(o *IOEngineOptions) {
			o.HiPri, o.FixedBufs, o.RegisterFiles, o.SQThreadPoll = true, true, true, true
		}},
		{"io_uring", []string{"sqthread_poll_cpu=3", "nonvectored=0", "force_async=4", "nowait=1", "uncached=1"}, func(o *IOEngineOptions) {
			o.SQThreadPollCPU, o.NonVectored, o.ForceAsync, o.NoWait, o.Uncached = 3, 0, 4, true, 1
		}},
		{"io_uring", []string{"cmd_type=nvme"}, func(o *IOEngineOptions) {}},
		{"io_uring", []string{"cmdprio_percentage=30"}, func(o *IOEngineOptions) { o.CmdPrio.Percentage = [2]int{30, 30} }},
		// fio 3.33: reads 50, writes left at 0 by the piece out of range.
		{"io_uring", []string{"cmdprio_percentage=50,120"}, func(o *IOEngineOptions) { o.CmdPrio.Percentage = [2]int{50, 0} }},
		{"io_uring", []string{"cmdprio_percentage=120,50"}, func(o *IOEngineOptions) { o.CmdPrio.Percentage = [2]int{0, 50} }},
		{"io_uring", []string{"cmdprio_percentage=30,40,50"}, func(o *IOEngineOptions) { o.CmdPrio.Percentage = [2]int{30, 40} }},
		{"libaio", []string{"cmdprio_class=2,3", "cmdprio=7"}, func(o *IOEngineOptions) {
			o.CmdPrio.Class, o.CmdPrio.Level = [2]int{2, 3}, [2]int{7, 7}
		}},
		{"libaio", []string{"userspace_reap", "nowait=1"}, func(o *IOEngineOptions) { o.UserspaceReap, o.NoWait = true, true }},
		{"libaio", []string{"cmdprio_bssplit=64k/25/1/1:4k/75,8k/10"}, func(o *IOEngineOptions) {
			o.CmdPrio.BSSplitGiven = true
			o.CmdPrio.BSSplit = [2][]CmdPrioSplit{
				{{BS: 4096, Percent: 75}, {BS: 65536, Percent: 25, HasPrio: true, Class: 1, Level: 1}},
				{{BS: 8192, Percent: 10}},
			}
		}},
		{"filestat", []string{"stat_type=lstat"}, func(o *IOEngineOptions) { o.StatType = StatLstat }},
		{"filestat", []string{"stat_type=statx"}, func(o *IOEngineOptions) { o.StatType = StatStatx }},
		{"nbd", []string{"uri=nbd+unix:///?socket=/tmp/s"}, func(o *IOEngineOptions) { o.URI = "nbd+unix:///?socket=/tmp/s" }},
		{"e4defrag", []string{"donorname=d.def", "inplace=1"}, func(o *IOEngineOptions) { o.DonorName, o.InPlace = "d.def", 1 }},
		{"sg", []string{"hipri", "readfua=1", "writefua=1", "stream_id=7"}, func(o *IOEngineOptions) {
			o.HiPri, o.ReadFUA, o.WriteFUA, o.StreamID = true, true, true, 7
		}},
		{"sg", []string{"sg_write_mode=verify"}, func(o *IOEngineOptions) { o.SGWriteMode = SGWriteAndVerify }},
		{"sg", []string{"sg_write_mode=same"}, func(o *IOEngineOptions) { o.SGWriteMode = SGWriteSame }},
		{"sg", []string{"sg_write_mode=write_same_ndob"}, func(o *IOEngineOptions) { o.SGWriteMode = SGWriteSameNDOB }},
		{"sg", []string{"sg_write_mode=verify_bytchk_11"}, func(o *IOEngineOptions) { o.SGWriteMode = SGVerifyBytchk11 }},
		{"sg", []string{"sg_write_mode=write_stream"}, func(o *IOEngineOptions) { o.SGWriteMode = SGWriteStream }},
		{"io_uring_cmd", []string{"cmd_type=nvme", "fixedbufs", "nonvectored=0"}, func(o *IOEngineOptions) { o.FixedBufs, o.NonVectored = true, 0 }},
		{"net", []string{"hostname=h", "port=8765", "proto=udp", "port=8766"}, func(o *IOEngineOptions) {
			o.Hostname, o.Port, o.Protocol = "h", 8766, ProtoUDP
		}},
		{"netsplice", []string{"protocol=tcpv6", "listen", "pingpong=1", "nodelay=1", "window_size=64k", "mss=1400", "ttl=4", "interface=127.0.0.1"}, func(o *IOEngineOptions) {
			o.Protocol, o.Listen, o.PingPong, o.NoDelay = ProtoTCPv6, true, true, true
			o.WindowSize, o.MSS, o.TTL, o.Interface = 65536, 1400, 4, "127.0.0.1"
		}},
		{"net", []string{"protocol=udpv6"}, func(o *IOEngineOptions) { o.Protocol = ProtoUDPv6 }},
		{"net", []string{"proto=unix", "listen=0"}, func(o *IOEngineOptions) { o.Protocol = ProtoUnix }},
		{"exec", []string{"program=/bin/sh", "arguments=-c %n", "grace_time=3", "std_redirect=0"}, func(o *IOEngineOptions) {
			o.Program, o.Arguments, o.GraceTime, o.StdRedirect = "/bin/sh", "-c %n", 3, false
		}},
		// Engines gofio cannot run: checked, kept as written.
		{"rdma", []string{"hostname=h", "port=8765"}, func(o *IOEngineOptions) {
			o.Other = []RawOption{{"hostname", "h"}, {"port", "8765"}}
		}},
	}
	for _, tt := range tests {
		got, err := ParseEngineOptions(tt.engine, tt.opts...)
		if err != nil {
			t.Errorf("%s %v: %v", tt.engine, tt.opts, err)
			continue
		}
		want := defaultIOEngineOptions()
		tt.want(&want)
		want.given = got.given // checked below
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %v:\n got %+v\nwant %+v", tt.engine, tt.opts, got, want)
		}
		for _, kv := range tt.opts {
			name, _, _ := strings.Cut(kv, "=")
			def, _ := lookupEngineOption(tt.engine, name)
			if !got.Given(def.Name) {
				t.Errorf("%s %v: %s not recorded as given", tt.engine, tt.opts, def.Name)
			}
		}
	}
}

// TestEngineOptionBadValues checks that values fio 3.33 refuses fail
// when the options are read, with fio's lines (fio --name=x
// --ioengine=ENGINE --OPTION=VALUE --size=1m).
func TestEngineOptionBadValues(t *testing.T) {
	tests := []struct {
		engine, opt, want string
	}{
		{"io_uring", "hipri=abc", "fio: failed parsing hipri=abc"},
		{"io_uring", "nowait=2", "max value out of range: 2 (1 max)\nfio: failed parsing nowait=2"},
		{"io_uring", "sqthread_poll_cpu=abc", "fio: failed parsing sqthread_poll_cpu=abc"},
		{"io_uring", "cmdprio_percentage=101", "cmdprio_percentage: max value out of range: 101 (100 max)\nfio: failed parsing cmdprio_percentage=101"},
		{"io_uring", "cmdprio_class=0", "cmdprio_class: min value out of range: 0 (1 min)\nfio: failed parsing cmdprio_class=0"},
		{"libaio", "cmdprio=x", "fio: failed parsing cmdprio=x"},
		{"libaio", "cmdprio=8", "cmdprio: max value out of range: 8 (7 max)\nfio: failed parsing cmdprio=8"},
		{"cpuio", "cpuload=abc", "fio: failed parsing cpuload=abc"},
		{"cpuio", "cpumode=foo", "fio: failed parsing cpumode=foo"},
		{"mmap", "thp=x", "fio: failed parsing thp=x"},
		{"pvsync2", "hipri_percentage=101", "hipri_percentage: max value out of range: 101 (100 max)\nfio: failed parsing hipri_percentage=101"},
		{"filestat", "stat_type=fstat", "fio: failed parsing stat_type=fstat"},
		{"net", "port=0", "port: min value out of range: 0 (1 min)\nfio: failed parsing port=0"},
		{"libaio", "hipri=1", "Bad option <hipri=1>"},
		{"e4defrag", "inplace=2", "inplace: max value out of range: 2 (1 max)\nfio: failed parsing inplace=2"},
		{"io_uring_cmd", "cmd_type=scsi", "fio: failed parsing cmd_type=scsi"},
	}
	for _, tt := range tests {
		_, err := ParseEngineOptions(tt.engine, tt.opt)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s %s: error %v; want %q", tt.engine, tt.opt, err, tt.want)
		}
	}
}

// TestEngineOptionsInJobs applies engine options from a job file: typed
// values, the record of what was given, and fio's message for a bad one.
func TestEngineOptionsInJobs(t *testing.T) {
	s := &session{files: []string{"[a]\nioengine=io_uring\nfixedbufs\ncmdprio_percentage=10,20\n"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err, s.stderr.String())
	}
	o := p.Jobs[0].EngineOptions
	if !o.FixedBufs || o.CmdPrio.Percentage != [2]int{10, 20} || !o.Given("fixedbufs") || o.Given("hipri") {
		t.Errorf("engine options %+v", o)
	}
	s = &session{files: []string{"[a]\nioengine=io_uring\nhipri=abc\n"}}
	if _, err := s.run(t); err == nil || !strings.Contains(s.stderr.String(), "fio: failed parsing hipri\n") {
		t.Errorf("hipri=abc: %v, stderr %q", err, s.stderr.String())
	}
}

// TestCmdPrioBSSplitValues reads cmdprio_bssplit values as fio 3.33 does
// when the engine starts (observed with --cmdprio_bssplit=VALUE and the
// per-priority counts of its JSON output).
func TestCmdPrioBSSplitValues(t *testing.T) {
	e := func(bs uint64, pct int) CmdPrioSplit { return CmdPrioSplit{BS: bs, Percent: pct} }
	p := func(bs uint64, pct, class, level int) CmdPrioSplit {
		return CmdPrioSplit{BS: bs, Percent: pct, HasPrio: true, Class: class, Level: level}
	}
	tests := []struct {
		value string
		want  [2][]CmdPrioSplit
		err   string
	}{
		{value: "4k/50", want: [2][]CmdPrioSplit{{e(4096, 50)}, {e(4096, 50)}}},
		{value: " 4k/ 50 ", want: [2][]CmdPrioSplit{{e(4096, 50)}, {e(4096, 50)}}},
		{value: "0x1000/50", want: [2][]CmdPrioSplit{{e(4096, 50)}, {e(4096, 50)}}},
		// No percentage, or one that does not read: 0, left out.
		{value: "4k", want: [2][]CmdPrioSplit{nil, nil}},
		{value: "4k/", want: [2][]CmdPrioSplit{nil, nil}},
		{value: "4k/abc", want: [2][]CmdPrioSplit{nil, nil}},
		// Unknown unit letters multiply by 1, as for bs.
		{value: "4q/50", want: [2][]CmdPrioSplit{{e(4, 50)}, {e(4, 50)}}},
		// Over the maximum: 100 percent, class 3, level 7.
		{value: "4k/150", want: [2][]CmdPrioSplit{{e(4096, 100)}, {e(4096, 100)}}},
		{value: "4k/-5", want: [2][]CmdPrioSplit{{e(4096, 100)}, {e(4096, 100)}}},
		{value: "4k/50/9/9", want: [2][]CmdPrioSplit{{p(4096, 50, 3, 7)}, {p(4096, 50, 3, 7)}}},
		{value: "4k/50/1/2/3", want: [2][]CmdPrioSplit{{p(4096, 50, 1, 2)}, {p(4096, 50, 1, 2)}}},
		// Sorted by size; the list ends at an empty entry.
		{value: "64k/10:4k/20::8k/30", want: [2][]CmdPrioSplit{{e(4096, 20), e(65536, 10)}, {e(4096, 20), e(65536, 10)}}},
		// Reads, writes, trims (ignored, even when bad).
		{value: "4k/50,8k/20,4k/50/1", want: [2][]CmdPrioSplit{{e(4096, 50)}, {e(8192, 20)}}},
		{value: "4k/50,8k/20,16k/10,32k/5", want: [2][]CmdPrioSplit{{e(4096, 50)}, {e(8192, 20)}}},
		{value: ",8k/20", want: [2][]CmdPrioSplit{nil, {e(8192, 20)}}},
		{value: "4k/50/1", err: "fio: invalid cmdprio_bssplit format\nfio: failed to parse cmdprio_bssplit entry"},
		{value: "/50", err: "fio: invalid cmdprio_bssplit format\nfio: failed to parse cmdprio_bssplit entry"},
		{value: "4k/50,/50", err: "fio: invalid cmdprio_bssplit format\nfio: failed to parse cmdprio_bssplit entry"},
		{value: "abc/50", err: "fio: split conversion failed\nfio: failed to parse cmdprio_bssplit entry"},
		{value: strings.Repeat("4k/1:", 65), err: "fio: too many cmdprio_bssplit entries"},
	}
	for _, tt := range tests {
		o, err := ParseEngineOptions("io_uring", "cmdprio_bssplit="+tt.value)
		if err != nil {
			t.Errorf("%q: %v", tt.value, err)
			continue
		}
		c := o.CmdPrio
		if got := c.SplitError([2]bool{true, true}); got != tt.err {
			t.Errorf("%q: error %q; want %q", tt.value, got, tt.err)
		}
		if !c.BSSplitGiven || tt.err == "" && !reflect.DeepEqual(c.BSSplit, tt.want) {
			t.Errorf("%q: entries %+v; want %+v", tt.value, c.BSSplit, tt.want)
		}
	}
	// Entries of one size adding up to more than 100 percent fail only
	// in a direction the job does.
	o, _ := ParseEngineOptions("libaio", "cmdprio_bssplit=4k/60,4k/60:4k/50")
	if got := o.CmdPrio.SplitError([2]bool{true, false}); got != "" {
		t.Errorf("reads only: %q", got)
	}
	if got, want := o.CmdPrio.SplitError([2]bool{true, true}), "fio: cmdprio_bssplit total percentage for bs: 4096 exceeds 100"; got != want {
		t.Errorf("reads and writes: %q; want %q", got, want)
	}
}

// TestEngineOptionsDroppedWithEngine: a later ioengine line that changes
// the engine drops the options given for the old one.
func TestEngineOptionsDroppedWithEngine(t *testing.T) {
	s := &session{files: []string{"[global]\nioengine=pvsync2\nhipri\n[a]\nioengine=libaio\n[b]\n"}}
	p, err := s.run(t)
	if err != nil {
		t.Fatal(err, s.stderr.String())
	}
	if o := p.Jobs[0].EngineOptions; !reflect.DeepEqual(o, defaultIOEngineOptions()) {
		t.Errorf("a: %+v; want the defaults", o)
	}
	if o := p.Jobs[1].EngineOptions; !o.HiPri || !o.Given("hipri") {
		t.Errorf("b: %+v; want hipri", o)
	}
}
