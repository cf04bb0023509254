package runner

// Limits' glue (runner/limits): the job ended for a maximum latency
// exceeded or a minimum rate missed.

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/ioerr"
	"github.com/gofio/gofio/stats"
)

// limitsCompleted checks one accounted completion of direction d with total
// latency lat (ns), done at now.
func (w *worker) limitsCompleted(u *engine.IOUnit, d stats.Dir, lat, now int64) {
	l := w.lim
	if most, over := l.Count(d, uint64(u.Result), lat); over {
		w.latencyExceeded(u, lat, most)
	}
	if l.ChecksMin() && w.err == 0 {
		if msg := l.CheckMin(now, w.epoch, w.job.Name); msg != "" {
			w.minRateMissed(msg)
		}
	}
	if l.Target() != nil {
		w.latTargetCompleted(u, lat, now)
	}
}

// latencyExceeded ends the job for an I/O whose latency lat is over max.
func (w *worker) latencyExceeded(u *engine.IOUnit, lat, max int64) {
	if w.err != 0 {
		return
	}
	if w.ioerr.out != nil {
		fmt.Fprintf(w.ioerr.out, "fio: latency of %d nsec exceeds specified max (%d nsec): %s %s %d %d\n",
			lat, max, w.files[u.File].path, ioerr.OpName(u.Op), u.Offset, len(u.Buf))
	}
	w.fail(unix.ETIMEDOUT, "max latency exceeded")
}

// minRateMissed reports a missed minimum rate and ends the job.
func (w *worker) minRateMissed(msg string) {
	if w.ioerr.out != nil {
		fmt.Fprint(w.ioerr.out, msg)
	}
	w.fail(unix.EIO, "check_min_rate")
}

// limitsQuiesce reports whether the I/Os still in flight when the job stops
// are accounted as they complete: after a limit ended the job, fio counts
// them (a max_latency failure at iodepth 8 reports all 8 I/Os).
func limitsQuiesce(w *worker) bool {
	return w.errFunc == "max latency exceeded" || w.errFunc == "check_min_rate"
}
