package output

import (
	"math"
	"strconv"
	"strings"

	"github.com/gofio/gofio/stats"
)

// ETAUnknown is fio's marker for an ETA it cannot tell yet (the largest
// 32-bit signed integer): a status line with it has no bracket part.
const ETAUnknown = math.MaxInt32

// StatusSnapshot is what one status line (fio's ETA line, "Jobs: 1
// (f=1): [r(1)][45.0%][r=56.2MiB/s][r=14.4k IOPS][eta 00m:11s]") shows:
// the run as sampled at one moment, its estimates and its rates over the
// interval since the previous line.
type StatusSnapshot struct {
	Running int // jobs running, ramp_time included
	Files   int // files the running jobs have open

	// States holds one status character per job, in job order: P
	// pending, I setting up, / ramping, R/r W/w M/m D/d doing I/O
	// (read, write, mixed, trim; upper case sequential), F fsyncing, f
	// finishing, X failed, _ done.
	States []byte

	// Percent is how far the run is, in percent; with PercentUnknown
	// the line shows "-.-%" instead.
	Percent        float64
	PercentUnknown bool

	ETA uint64 // seconds left, or ETAUnknown

	// KiBps and IOPS are the rates of each direction (read, write,
	// trim) since the previous line; a direction with both zero is left
	// out, and the rate parts altogether when all are.
	KiBps, IOPS [stats.NDirs]uint64

	Pow2 bool // bandwidths in powers of 2 (kb_base=1024): KiB/s, MiB/s
	Bits bool // bandwidths in bit/s (unit_base=1)
}

// Detailed reports whether the line has its bracket part: some job
// runs and the ETA is known.
func (s *StatusSnapshot) Detailed() bool {
	return s.Running > 0 && s.ETA != ETAUnknown
}

// StatusLine returns the status line for s as fio 3.33 prints it, without
// the padding, carriage return and newlines that place it on a terminal.
func StatusLine(s *StatusSnapshot) string {
	var b strings.Builder
	b.WriteString("Jobs: " + strconv.Itoa(s.Running) + " (f=" + strconv.Itoa(s.Files) + ")")
	if !s.Detailed() {
		return b.String()
	}
	b.WriteString(": [" + CondenseStates(s.States) + "][")
	if s.PercentUnknown {
		b.WriteString("-.-%")
	} else {
		b.WriteString(strconv.FormatFloat(s.Percent, 'f', 1, 64) + "%")
	}
	b.WriteString("]")
	b.WriteString(statusRates(s))
	b.WriteString("[eta " + etaString(s.ETA) + "]")
	return b.String()
}

// statusRates returns the bandwidth and IOPS part of a status line
// ("[r=55.9MiB/s,w=1676KiB/s][r=14.3k,w=419 IOPS]"), empty when every
// direction is idle.
func statusRates(s *StatusSnapshot) string {
	unit := UnitBytePerSec
	if s.Bits {
		unit = UnitBitPerSec
	}
	var bw, iops []string
	for d, name := range []string{"r=", "w=", "t="} {
		if s.KiBps[d] == 0 && s.IOPS[d] == 0 {
			continue
		}
		bw = append(bw, name+Num2Str(s.KiBps[d], 4, 1024, s.Pow2, unit))
		iops = append(iops, name+Num2Str(s.IOPS[d], 4, 1, false, UnitNone))
	}
	if len(bw) == 0 {
		return ""
	}
	return "[" + strings.Join(bw, ",") + "][" + strings.Join(iops, ",") + " IOPS]"
}

// CondenseStates run-length encodes the jobs' status characters as fio's
// status line and its run_str show them: "rrr_" → "r(3),_(1)".
func CondenseStates(chars []byte) string {
	var b strings.Builder
	for i := 0; i < len(chars); {
		n := 1
		for i+n < len(chars) && chars[i+n] == chars[i] {
			n++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(string(chars[i]) + "(" + strconv.Itoa(n) + ")")
		i += n
	}
	return b.String()
}

// etaString spells an ETA in seconds as fio does: "00m:05s",
// "02h:00m:07s", "01d:00h:00m:01s".
func etaString(x uint64) string {
	two := func(n uint64) string {
		if n < 10 {
			return "0" + strconv.FormatUint(n, 10)
		}
		return strconv.FormatUint(n, 10)
	}
	s, m, h, d := x%60, x/60%60, x/3600%24, x/86400
	var out string
	if d > 0 {
		out = two(d) + "d:"
	}
	if h > 0 || d > 0 {
		out += two(h) + "h:"
	}
	return out + two(m) + "m:" + two(s) + "s"
}
