package engine

// Per-command I/O priorities of the libaio and io_uring engines: the
// cmdprio_percentage, cmdprio_class, cmdprio and cmdprio_bssplit options
// (fio's manual, "I/O engine specific parameters"). An engine holding a
// cmdPrio calls pick for each read or write it queues and puts the
// returned ioprio value in the request (iocb aio_reqprio with
// IOCB_FLAG_IOPRIO, SQE ioprio); 0 leaves the I/O at the job's own
// priority. The runner keeps per-priority latency statistics for the job
// when an engine reports cmdprio in use (PrioStater).

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gofio/gofio/internal/rng"
)

// ioprioClassRT is the realtime class, the "highest priority class" fio's
// manual says cmdprio_class defaults to.
const ioprioClassRT = 1

// cmdPrioSplit is one cmdprio_bssplit entry: I/Os of size bs get ioprio
// pct percent of the time.
type cmdPrioSplit struct {
	bs     uint64
	pct    int
	ioprio uint16
}

// cmdPrio picks the priority of each read and write. Index 0 holds the
// read settings, 1 the write ones; trims are never prioritised.
type cmdPrio struct {
	pct    [2]int
	ioprio [2]uint16
	split  [2][]cmdPrioSplit
	// rng is fio's prio stream: as in fio 3.33 (observed in its
	// per-priority counts), each read or write whose percentage is not
	// 0 draws a number in 0..99 from it, and is prioritised below the
	// percentage.
	rng rng.Stream
}

// PrioStater is implemented by engines that may give I/Os priorities of
// their own. Prios returns, for reads and writes, the ioprio values they
// give in the order they are configured, or ok false when they give none
// for this job; the runner then keeps per-priority statistics.
type PrioStater interface {
	Prios() (prios [2][]uint16, ok bool)
}

// prios returns c's ioprio values per direction, in configuration order.
func (c *cmdPrio) prios() (out [2][]uint16, ok bool) {
	if c == nil {
		return out, false
	}
	for d := range 2 {
		if c.split[d] == nil {
			if c.pct[d] > 0 {
				out[d] = []uint16{c.ioprio[d]}
			}
			continue
		}
		for _, sp := range c.split[d] {
			if sp.pct > 0 {
				out[d] = append(out[d], sp.ioprio)
			}
		}
	}
	return out, true
}

// isCmdPrioOption reports whether name is one of the cmdprio options.
func isCmdPrioOption(name string) bool {
	switch name {
	case "cmdprio_percentage", "cmdprio_class", "cmdprio", "cmdprio_bssplit":
		return true
	}
	return false
}

// newCmdPrio builds the priority picker from the engine options opts, or
// returns nil when neither cmdprio_percentage nor cmdprio_bssplit asks for
// prioritised I/Os.
func newCmdPrio(engine string, opts map[string]string, seed uint64) (*cmdPrio, error) {
	c := &cmdPrio{}
	c.rng.Seed(seed, false)
	class := [2]int{ioprioClassRT, ioprioClassRT}
	level := [2]int{0, 0}
	var err error
	if v, ok := opts["cmdprio_percentage"]; ok {
		if c.pct, err = cmdPrioInts(engine, "cmdprio_percentage", v, 0, 100); err != nil {
			return nil, err
		}
	}
	if v, ok := opts["cmdprio_class"]; ok {
		if class, err = cmdPrioInts(engine, "cmdprio_class", v, 1, 3); err != nil {
			return nil, err
		}
	}
	if v, ok := opts["cmdprio"]; ok {
		if level, err = cmdPrioInts(engine, "cmdprio", v, 0, 7); err != nil {
			return nil, err
		}
	}
	for d := range 2 {
		c.ioprio[d] = ioprioValue(class[d], level[d])
	}
	split := false
	if v, ok := opts["cmdprio_bssplit"]; ok && strings.TrimSpace(v) != "" {
		parts := strings.Split(v, ",")
		if len(parts) > 3 {
			return nil, fmt.Errorf("%s: cmdprio_bssplit: too many values in %q", engine, v)
		}
		for d := range 2 {
			p := parts[0]
			if d < len(parts) {
				p = parts[d]
			}
			if c.split[d], err = parseCmdPrioSplit(p, c.ioprio[d]); err != nil {
				return nil, fmt.Errorf("%s: cmdprio_bssplit: %w", engine, err)
			}
			split = split || len(c.split[d]) > 0
		}
	}
	if split && (c.pct[0] != 0 || c.pct[1] != 0) {
		return nil, fmt.Errorf("cmdprio_percentage and cmdprio_bssplit options are mutually exclusive\nfio: io engine %s init failed.", engine)
	}
	if !split && c.pct[0] == 0 && c.pct[1] == 0 {
		return nil, nil
	}
	return c, nil
}

// ioprioValue is the ioprio_set(2) value of class and level.
func ioprioValue(class, level int) uint16 { return uint16(class<<13 | level) }

// cmdPrioInts parses "A" or "A,B" (reads, writes) within lo..hi; a single
// value applies to both directions, as fio's manual says.
func cmdPrioInts(engine, name, v string, lo, hi int) ([2]int, error) {
	var out [2]int
	parts := strings.Split(v, ",")
	if len(parts) > 3 {
		return out, fmt.Errorf("%s: option %s: too many values in %q", engine, name, v)
	}
	for d := range 2 {
		p := parts[0]
		if d < len(parts) {
			p = parts[d]
		}
		n, err := strconv.ParseInt(strings.TrimSpace(p), 0, 32)
		if err != nil {
			return out, fmt.Errorf("%s: option %s: bad integer value %q", engine, name, p)
		}
		if int(n) < lo || int(n) > hi {
			return out, fmt.Errorf("%s: option %s: value %d out of range (%d-%d)", engine, name, n, lo, hi)
		}
		out[d] = int(n)
	}
	return out, nil
}

// parseCmdPrioSplit parses one direction's "bs/pct[/class/level]:..."
// list; entries without class and level take def (cmdprio_class and
// cmdprio).
func parseCmdPrioSplit(s string, def uint16) ([]cmdPrioSplit, error) {
	var out []cmdPrioSplit
	for ent := range strings.SplitSeq(s, ":") {
		ent = strings.TrimSpace(ent)
		if ent == "" {
			continue
		}
		f := strings.Split(ent, "/")
		if len(f) != 2 && len(f) != 4 {
			return nil, fmt.Errorf("bad entry %q: want bs/percentage or bs/percentage/class/level", ent)
		}
		bs, err := parseCmdPrioSize(f[0])
		if err != nil {
			return nil, fmt.Errorf("bad entry %q: %w", ent, err)
		}
		pct, err := strconv.Atoi(strings.TrimSpace(f[1]))
		if err != nil || pct < 0 || pct > 100 {
			return nil, fmt.Errorf("bad entry %q: percentage must be 0-100", ent)
		}
		sp := cmdPrioSplit{bs: bs, pct: pct, ioprio: def}
		if len(f) == 4 {
			class, err1 := strconv.Atoi(strings.TrimSpace(f[2]))
			level, err2 := strconv.Atoi(strings.TrimSpace(f[3]))
			if err1 != nil || err2 != nil || class < 0 || class > 3 || level < 0 || level > 7 {
				return nil, fmt.Errorf("bad entry %q: class must be 0-3 and level 0-7", ent)
			}
			sp.ioprio = ioprioValue(class, level)
		}
		out = append(out, sp)
	}
	return out, nil
}

// parseCmdPrioSize parses a block size with an optional k/m/g suffix
// (powers of 1024, as bssplit takes them by default).
func parseCmdPrioSize(s string) (uint64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "b"), "i")
	mult := uint64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k':
			mult = 1 << 10
		case 'm':
			mult = 1 << 20
		case 'g':
			mult = 1 << 30
		}
		if mult != 1 {
			s = s[:n-1]
		}
	}
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("bad block size %q", s)
	}
	return v * mult, nil
}

// draw returns a number in 0..99.
func (c *cmdPrio) draw() int { return int(c.rng.Between(0, 99)) }

// pick returns the ioprio value for unit u, or 0 for the job's own
// priority. Only reads and writes are prioritised.
func (c *cmdPrio) pick(u *IOUnit) uint16 {
	if c == nil || (u.Op != OpRead && u.Op != OpWrite) {
		return 0
	}
	d := int(u.Op)
	if c.split[d] == nil {
		if c.pct[d] == 0 {
			return 0
		}
		if c.draw() < c.pct[d] { // drawn at 100 too, as in fio
			return c.ioprio[d]
		}
		return 0
	}
	bs := uint64(len(u.Buf))
	r, drawn := 0, false
	for _, sp := range c.split[d] {
		if sp.bs != bs || sp.pct == 0 {
			continue
		}
		if !drawn {
			r, drawn = c.draw(), true
		}
		if r < sp.pct {
			return sp.ioprio
		}
		r -= sp.pct
	}
	return 0
}
