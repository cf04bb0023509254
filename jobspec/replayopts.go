package jobspec

import (
	"fmt"
	"strings"
)

// ReplayOptions are the I/O trace options: write_iolog records the I/Os a
// job issues, read_iolog replays a recorded trace instead of generating
// I/O (runner/iolog_replay.go, runner/iolog_write.go).
type ReplayOptions struct {
	// WriteIolog is write_iolog: the trace file the job appends to.
	WriteIolog string
	// ReadIolog is read_iolog: the traces to replay, one per clone
	// (':'-separated, "\:" a literal colon); "-" is stdin.
	ReadIolog []string
	// ReadIologChunked is read_iolog_chunked: read the trace as it is
	// replayed rather than all before the job starts.
	ReadIologChunked bool
	// ReplayNoStall is replay_no_stall: ignore the trace's timing.
	ReplayNoStall bool
	// ReplayRedirect is replay_redirect: the one file every traced I/O
	// goes to.
	ReplayRedirect string
	// ReplayScale is replay_scale: offsets are divided by it (1: as
	// traced).
	ReplayScale uint64
	// ReplayAlign is replay_align: offsets are aligned down to it (a power
	// of 2; 0: as traced).
	ReplayAlign uint64
	// ReplayTimeScale is replay_time_scale, a percentage of the trace's
	// speed (200 replays twice as fast).
	ReplayTimeScale uint64
	// ReplaySkip is replay_skip: the traced I/O kinds not replayed.
	ReplaySkip ReplaySkip
	// MergeBlktraceFile is merge_blktrace_file: the blktraces of
	// read_iolog are merged into it, and it is replayed.
	MergeBlktraceFile string
	// MergeBlktraceScalars is merge_blktrace_scalars: each trace's time
	// scale in percent, in read_iolog's order (empty: 100 each).
	MergeBlktraceScalars []float64
	// MergeBlktraceIters is merge_blktrace_iters: each trace's number of
	// iterations (empty: 1 each).
	MergeBlktraceIters []float64
}

// ReplaySkip is a set of traced I/O kinds (replay_skip).
type ReplaySkip uint8

// The kinds replay_skip names.
const (
	SkipRead ReplaySkip = 1 << iota
	SkipWrite
	SkipTrim
	SkipSync
)

// IologFor returns the trace clone jobnum replays: the traces are handed
// to the clones in turn. It returns "" without read_iolog.
func (r *ReplayOptions) IologFor(jobnum int) string {
	if len(r.ReadIolog) == 0 {
		return ""
	}
	return r.ReadIolog[jobnum%len(r.ReadIolog)]
}

func setReadIolog(j *Job, value string) error {
	j.ReadIolog = j.ReadIolog[:0]
	for _, n := range splitNames(value) {
		if n != "" {
			j.ReadIolog = append(j.ReadIolog, n)
		}
	}
	return nil
}

// splitNames splits a ':'-separated list of names; "\:" is a literal
// colon.
func splitNames(value string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		switch {
		case value[i] == '\\' && i+1 < len(value) && value[i+1] == ':':
			b.WriteByte(':')
			i++
		case value[i] == ':':
			out = append(out, b.String())
			b.Reset()
		default:
			b.WriteByte(value[i])
		}
	}
	return append(out, b.String())
}

func setReplaySkip(j *Job, value string) error {
	var s ReplaySkip
	for _, w := range strings.Split(value, ",") {
		switch w {
		case "read":
			s |= SkipRead
		case "write":
			s |= SkipWrite
		case "trim":
			s |= SkipTrim
		case "sync":
			s |= SkipSync
		default:
			return fmt.Errorf("Unknown skip type: %s", w)
		}
	}
	j.ReplaySkip = s
	return nil
}

func setReplayUint(name string, field func(*Job) *uint64) func(*Job, string) error {
	return func(j *Job, value string) error {
		v, err := intPiece(name, value, j.KBBase)
		if err != nil {
			if anyPiece(value, j.KBBase) {
				return nil
			}
			return err
		}
		*field(j) = uint64(uint32(v))
		return nil
	}
}

// setFloatList returns the setter of a ':'-separated list of numbers
// (merge_blktrace_scalars, merge_blktrace_iters); the reader has checked
// them.
func setFloatList(field func(*Job) *[]float64) func(*Job, string) error {
	return func(j *Job, value string) error {
		var list []float64
		for _, p := range strings.Split(value, ":") {
			if f, n := cStrtod(p); n > 0 {
				list = append(list, f)
			}
		}
		*field(j) = list
		return nil
	}
}
