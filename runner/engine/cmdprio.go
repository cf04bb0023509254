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
	"golang.org/x/sys/unix"

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

// newCmdPrio builds the priority picker from the job's cmdprio options
// (read by jobspec), or returns nil when neither cmdprio_percentage nor
// cmdprio_bssplit asks for prioritised I/Os. A cmdprio_bssplit fio refuses
// when the engine starts fails here with fio's lines.
func newCmdPrio(engine string, cfg Config) (*cmdPrio, error) {
	o := &cfg.Options.CmdPrio
	// fio 3.33 fails the engine's init function with EINVAL.
	fail := func(msg string) error {
		fn := map[string]string{"libaio": "fio_libaio_init", "io_uring": "fio_ioring_init"}[engine]
		return &InitError{Errno: unix.EINVAL, Fn: fn, Msg: msg + "\nfio: io engine " + engine + " init failed."}
	}
	if o.BSSplitGiven && (o.Percentage[0] != 0 || o.Percentage[1] != 0) {
		return nil, fail(cfg.Job + ": cmdprio_percentage and cmdprio_bssplit options are mutually exclusive")
	}
	if msg := o.SplitError([2]bool{cfg.RW.Reads(), cfg.RW.Writes()}); msg != "" {
		return nil, fail(msg)
	}
	c := &cmdPrio{}
	c.rng.Seed(cfg.PrioSeed, false)
	split := false
	for d := range 2 {
		class := o.Class[d]
		if class == 0 {
			class = ioprioClassRT
		}
		c.pct[d] = o.Percentage[d]
		c.ioprio[d] = ioprioValue(class, o.Level[d])
		if !o.BSSplitGiven {
			continue
		}
		c.split[d] = []cmdPrioSplit{}
		for _, e := range o.BSSplit[d] {
			sp := cmdPrioSplit{bs: e.BS, pct: e.Percent, ioprio: c.ioprio[d]}
			if e.HasPrio {
				sp.ioprio = ioprioValue(e.Class, e.Level)
			}
			c.split[d] = append(c.split[d], sp)
			split = true
		}
	}
	if !split && c.pct[0] == 0 && c.pct[1] == 0 {
		return nil, nil
	}
	return c, nil
}

// ioprioValue is the ioprio_set(2) value of class and level.
func ioprioValue(class, level int) uint16 { return uint16(class<<13 | level) }

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
