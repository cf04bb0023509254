package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/parser"
	"github.com/gofio/gofio/runner"
	"github.com/gofio/gofio/stats"
)

// fio's built-in profiles (--profile=tiobench, --profile=act) are
// command lines of job options fio generates from the profile's own
// options (fio --profile=NAME --cmdhelp; fio's manual, "Profiles").
// The option lists below are what fio 3.33 parses for each, in its order,
// as its --debug=parse shows.

// profileOpt is one generated option; a valueless one has no '='.
type profileOpt struct {
	name, value string
	set         bool // valueless
}

func (o profileOpt) option() parser.Option {
	return parser.Option{Name: o.name, Value: o.value, HasValue: !o.set}
}

// profileValues are the profile options given on the command line, by
// name, the last value of each.
type profileValues map[string]string

// int returns option name as an integer, or def when it is not given.
func (v profileValues) int(name string, def int64) (int64, error) {
	s, ok := v[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("fio: failed parsing %s=%s", name, s)
	}
	return n, nil
}

// profileOptionValues collects the options of profile from the command
// line's job options.
func profileOptionValues(cl *parser.CommandLine, profile string) profileValues {
	names := map[string]bool{}
	for _, o := range jobspec.ProfileOptions(profile) {
		names[o.Name] = true
	}
	v := profileValues{}
	for _, sec := range cl.Sections {
		for _, o := range sec.Options {
			if names[o.Name] {
				v[o.Name] = o.Value
			}
		}
	}
	return v
}

// tiobenchJobs are the jobs of --profile=tiobench: a sequential write, a
// random write, a sequential read and a random read, each waiting for the
// one before, over four files of the test directory. Without options they
// are fio 3.33's (size 4 KiB per MiB of memory). fio 3.33 ignores the
// profile's options (size, block, numruns, dir, threads); gofio honours
// them (docs/compat.md): size in MiB, block in bytes, numruns loops, dir
// the directory, threads the number of jobs.
func tiobenchJobs(v profileValues) ([]profileOpt, error) {
	size := "4*1024*$mb_memory"
	if s, ok := v["size"]; ok {
		mb, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("fio: failed parsing size=%s", s)
		}
		size = strconv.FormatUint(mb<<20, 10)
	}
	if size == "4*1024*$mb_memory" {
		size = strconv.FormatInt(4*1024*parser.HostKeywords().MBMemory, 10)
	}
	bs, err := v.int("block", 4096)
	if err != nil {
		return nil, err
	}
	loops, err := v.int("numruns", 1)
	if err != nil {
		return nil, err
	}
	threads, err := v.int("threads", 1)
	if err != nil {
		return nil, err
	}
	dir := "./"
	if d, ok := v["dir"]; ok {
		dir = d
	}
	return []profileOpt{
		{name: "buffered", value: "0"},
		{name: "size", value: size},
		{name: "bs", value: strconv.FormatInt(bs, 10)},
		{name: "loops", value: strconv.FormatInt(loops, 10)},
		{name: "directory", value: dir},
		{name: "numjobs", value: strconv.FormatInt(threads, 10)},
		{name: "timeout", value: "600"},
		{name: "group_reporting", set: true},
		{name: "thread", set: true},
		{name: "overwrite", value: "1"},
		{name: "filename", value: ".fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4"},
		{name: "ioengine", value: "sync"},
		{name: "name", value: "seqwrite"},
		{name: "rw", value: "write"},
		{name: "end_fsync", value: "1"},
		{name: "name", value: "randwrite"},
		{name: "stonewall", set: true},
		{name: "rw", value: "randwrite"},
		{name: "end_fsync", value: "1"},
		{name: "name", value: "seqread"},
		{name: "stonewall", set: true},
		{name: "rw", value: "read"},
		{name: "name", value: "randread"},
		{name: "stonewall", set: true},
		{name: "rw", value: "randread"},
	}, nil
}

// ACT's 1x load: 2000 reads and 1000 writes' worth of read-sized blocks
// per second and device, and its pass criteria: at most 5% of the reads
// over 1 ms, 1% over 8 ms and 0.1% over 64 ms.
const (
	actReadLoad  = 2000
	actWriteLoad = 1000
)

var actCriteria = []struct {
	ms      int
	maxPerc float64
}{{1, 5}, {8, 1}, {64, 0.1}}

// actGlobal are the global options of every --profile=act run.
var actGlobal = []profileOpt{
	{name: "direct", value: "1"},
	{name: "ioengine", value: "sync"},
	{name: "random_generator", value: "lfsr"},
	{name: "group_reporting", value: "1"},
	{name: "thread", set: true},
}

// actPrep reports whether the act profile's prep option is on: given
// without a value, or with a first piece that is a number other than 0
// (a flag, as fio reads it).
func (v profileValues) actPrep() bool {
	s, ok := v["prep"]
	if !ok {
		return false
	}
	if s == "" {
		return true
	}
	first, _, _ := strings.Cut(s, ",")
	n, err := strconv.ParseInt(strings.TrimSpace(first), 0, 64)
	return err == nil && n != 0
}

// actPrepJobs are the jobs of --profile=act --prep, ACT's prep phase (its
// act_prep tool), which fio 3.33 crashes on (a buffer overflow): per
// device, a sequential write of 1 MiB zero-filled blocks over the whole
// device, then, once that is done, a random write of 4 KiB blocks (fio's
// random buffers, iodepth 64 with libaio; the lfsr generator writes each
// block once) that salts it. These are the jobs fio's act profile
// generates for prep; like ACT's act_prep, the prep runs alone, without
// the read and write load (run --profile=act again without --prep for
// the test), and prints no latency table.
func actPrepJobs(devs []string) []profileOpt {
	opts := slices.Clone(actGlobal)
	for _, d := range devs {
		opts = append(opts,
			profileOpt{name: "name", value: "act-prep-zeroes-" + d},
			profileOpt{name: "filename", value: d},
			profileOpt{name: "bs", value: "1048576"},
			profileOpt{name: "zero_buffers", set: true},
			profileOpt{name: "rw", value: "write"},
			profileOpt{name: "name", value: "act-prep-salt-" + d},
			profileOpt{name: "stonewall", set: true},
			profileOpt{name: "filename", value: d},
			profileOpt{name: "bs", value: "4096"},
			profileOpt{name: "ioengine", value: "libaio"},
			profileOpt{name: "iodepth", value: "64"},
			profileOpt{name: "rw", value: "randwrite"},
		)
	}
	return opts
}

// actJobs are the jobs of --profile=act: per device a random-read job of
// threads-per-queue threads sharing the read load, and a random-write job
// of large blocks; with prep, ACT's prep phase instead (actPrepJobs).
// fio 3.33 crashes for more than one device, a load other than 1 and
// with prep (observed); gofio runs them. As in fio, large-block-op-kbytes
// is in bytes (its default 131072 is ACT's 128 KiB block).
func actJobs(v profileValues) ([]profileOpt, error) {
	devs := strings.Split(v["device-names"], ",")
	devs = slices.DeleteFunc(devs, func(d string) bool { return d == "" })
	if len(devs) == 0 {
		return nil, fmt.Errorf("act: you need to set IO target(s) with the device-names option.\nfio: profile act prep failed")
	}
	if v.actPrep() {
		return actPrepJobs(devs), nil
	}
	load, err := v.int("load", 1)
	if err != nil {
		return nil, err
	}
	tpq, err := v.int("threads-per-queue", 8)
	if err != nil {
		return nil, err
	}
	blocks, err := v.int("read-req-num-512-blocks", 3)
	if err != nil {
		return nil, err
	}
	wsize, err := v.int("large-block-op-kbytes", 131072)
	if err != nil {
		return nil, err
	}
	us, err := jobspec.ParseSeconds(v.get("test-duration", "24h"))
	if err != nil {
		return nil, fmt.Errorf("fio: failed parsing test-duration=%s", v["test-duration"])
	}
	rsize := blocks * 512
	switch {
	case tpq == 0:
		return nil, fmt.Errorf("gofio: act: threads-per-queue must be at least 1 (fio 3.33 crashes)")
	case rsize == 0 || wsize < rsize:
		return nil, fmt.Errorf("gofio: act: large-block-op-kbytes (%d bytes) must be at least the read size (%d bytes; fio 3.33 crashes)", wsize, rsize)
	}
	perWrite := wsize / rsize
	opts := append(slices.Clone(actGlobal),
		profileOpt{name: "runtime", value: fmt.Sprintf("%ds", us/1000000)},
		profileOpt{name: "time_based", value: "1"},
	)
	for _, d := range devs {
		opts = append(opts,
			profileOpt{name: "name", value: "act-read-" + d},
			profileOpt{name: "filename", value: d},
			profileOpt{name: "rw", value: "randread"},
			profileOpt{name: "numjobs", value: strconv.FormatInt(tpq, 10)},
			profileOpt{name: "rate_iops", value: strconv.FormatInt(load*actReadLoad/tpq, 10)},
			profileOpt{name: "bs", value: strconv.FormatInt(rsize, 10)},
			profileOpt{name: "name", value: "act-write-" + d},
			profileOpt{name: "filename", value: d},
			profileOpt{name: "rw", value: "randwrite"},
			profileOpt{name: "rate_iops", value: strconv.FormatInt((load*actWriteLoad+perWrite-1)/perWrite, 10)},
			profileOpt{name: "bs", value: strconv.FormatInt(wsize, 10)},
		)
	}
	return opts, nil
}

// get returns option name's value, or def when it is not given.
func (v profileValues) get(name, def string) string {
	if s, ok := v[name]; ok {
		return s
	}
	return def
}

// profileJobs returns the options profile generates from the profile
// options on the command line.
func profileJobs(profile string, cl *parser.CommandLine) ([]profileOpt, error) {
	v := profileOptionValues(cl, profile)
	if profile == "act" {
		return actJobs(v)
	}
	return tiobenchJobs(v)
}

// addProfile adds the jobs of --profile: the profile's global options,
// then the command line's own job options other than the profile's (so
// that --runtime or --ioengine given with a profile apply to its jobs,
// docs/compat.md), then the profile's jobs. A profile runs alone: other
// command-line jobs and job files are refused. Errors are printed on
// stderr before they are returned.
func (s *settings) addProfile(b *jobspec.Builder, cl *parser.CommandLine, stderr io.Writer) error {
	err := s.addProfileJobs(b, cl)
	var je *jobspec.Error
	if err != nil && !errors.As(err, &je) {
		fmt.Fprintln(stderr, err) // the builder's errors are printed
	}
	return err
}

func (s *settings) addProfileJobs(b *jobspec.Builder, cl *parser.CommandLine) error {
	profile := s.parse.profile
	for _, sec := range cl.Sections {
		if len(sec.Options) > 0 && sec.Options[0].Name == "name" && !strings.HasPrefix(sec.Options[0].Value, "global") {
			return fmt.Errorf("gofio: --profile=%s runs alone: job --name=%s cannot be added to it", profile, sec.Options[0].Value)
		}
	}
	if len(cl.JobFiles) > 0 {
		return fmt.Errorf("gofio: --profile=%s runs alone: job file %s cannot be added to it", profile, cl.JobFiles[0])
	}
	opts, err := profileJobs(profile, cl)
	if err != nil {
		return err
	}
	s.parse.actPrep = profile == "act" && profileOptionValues(cl, profile).actPrep()
	own := map[string]bool{}
	for _, o := range jobspec.ProfileOptions(profile) {
		own[o.Name] = true
	}
	first := slices.IndexFunc(opts, func(o profileOpt) bool { return o.name == "name" })
	for _, o := range opts[:first] {
		if err := b.CmdlineOption(o.option()); err != nil {
			return err
		}
	}
	for _, sec := range cl.Sections {
		for _, o := range sec.Options {
			if !own[o.Name] && o.Name != "name" {
				if err := b.CmdlineOption(o); err != nil {
					return err
				}
			}
		}
	}
	for _, o := range opts[first:] {
		if err := b.CmdlineOption(o.option()); err != nil {
			return err
		}
	}
	return nil
}

// actSlice is the span of one row of ACT's latency table: ACT checks
// its criteria every hour.
var actSlice = time.Hour

// actRow is one row of ACT's table: reads, and those over each
// criterion's threshold.
type actRow struct {
	total uint64
	over  [3]uint64
}

// actReadHist is the histogram of the completion latencies of all reads
// in r.
func actReadHist(r *output.Result) stats.Hist {
	var h stats.Hist
	if r == nil {
		return h
	}
	for i := range r.Jobs {
		h.Merge(&r.Jobs[i].Stats.Dir[stats.Read].ClatHist)
	}
	return h
}

// row counts the reads of h not in prev.
func actRowOf(h, prev *stats.Hist) actRow {
	var row actRow
	for i := range h {
		n := h[i] - prev[i]
		if n == 0 {
			continue
		}
		row.total += n
		v := stats.HistValue(i)
		for c, crit := range actCriteria {
			if v > uint64(crit.ms)*1000000 {
				row.over[c] += n
			}
		}
	}
	return row
}

// actSlices takes ACT's rows while an act profile runs: at the end of
// each slice, the reads completed in it, from the live report.
type actSlices struct {
	max  int // slices in test-duration
	rows []actRow
	prev stats.Hist
	stop chan struct{}
	done chan struct{}
}

// startActSlices starts taking rows of a run of duration d.
func startActSlices(prog *runner.Progress, d time.Duration) *actSlices {
	a := &actSlices{max: max(1, int((d+actSlice-1)/actSlice)), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(a.done)
		select {
		case <-prog.Started():
		case <-a.stop:
			return
		}
		t := time.NewTicker(actSlice)
		defer t.Stop()
		for len(a.rows) < a.max-1 {
			select {
			case <-t.C:
				h := actReadHist(prog.Report(time.Second))
				a.rows = append(a.rows, actRowOf(&h, &a.prev))
				a.prev = h
			case <-a.stop:
				return
			}
		}
	}()
	return a
}

// finish ends the rows with the reads of the final report not counted
// yet.
func (a *actSlices) finish(final *output.Result) []actRow {
	close(a.stop)
	<-a.done
	h := actReadHist(final)
	return append(a.rows, actRowOf(&h, &a.prev))
}

// actReport prints ACT's latency table after an act profile's run, as
// fio 3.33 does before its report: per slice (an hour) the share of
// reads over 1, 8 and 64 ms, once for the transactions and once for the
// device (the same reads: fio prints both), then the verdict against
// ACT's criteria. A read counts under every threshold it exceeds.
func actReport(w io.Writer, rows []actRow) {
	fmt.Fprint(w, "        trans                   device\n        %>(ms)                  %>(ms)\n slice")
	for range 2 {
		for _, crit := range actCriteria {
			fmt.Fprintf(w, "\t %2d", crit.ms)
		}
	}
	fmt.Fprint(w, "\n -----  -----   -----  ------   -----   -----  ------\n")
	failed := false
	for i, row := range rows {
		fmt.Fprintf(w, "   %2d", i+1)
		for range 2 {
			for c, crit := range actCriteria {
				perc := 0.0
				if row.total > 0 {
					perc = 100 * float64(row.over[c]) / float64(row.total)
				}
				if perc >= crit.maxPerc {
					failed = true
				}
				fmt.Fprintf(w, "\t%2.2f", perc)
			}
		}
		fmt.Fprintln(w)
	}
	verdict := "PASSED"
	if failed {
		verdict = "FAILED"
	}
	fmt.Fprintf(w, "\nact: test complete, device(s): %s\n", verdict)
}
