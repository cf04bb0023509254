//go:build linux && (amd64 || arm64 || riscv64 || loong64 || ppc64le)

package engine

import (
	"testing"
)

// TestCmdPrioEncoding checks that a prioritised read carries its ioprio
// value to the kernel: in the iocb's aio_reqprio with IOCB_FLAG_IOPRIO
// (libaio), in the SQE's ioprio (io_uring); an I/O left at the job's
// priority carries neither. The I/Os must then complete: the kernel
// accepts the value (class 2, level 3 needs no privilege).
func TestCmdPrioEncoding(t *testing.T) {
	fd, _ := asyncTFile(t, 1<<16, false)
	for _, c := range []struct {
		pct  string
		want uint16
	}{
		{"100", 2<<13 | 3},
		{"0", 0},
	} {
		opts := engineOpts(t, "libaio", "cmdprio_percentage="+c.pct, "cmdprio_class=2", "cmdprio=3")

		units := asyncTUnits(t, 1, 4096)
		eng := asyncTEngine(t, newLibaio, Config{IODepth: 1, Units: units, Options: opts})
		la := eng.(*laioEngine)
		u := units[0]
		u.Op, u.FD, u.Offset = OpRead, fd, 0
		if st := la.Queue(u); st != Queued {
			t.Fatalf("libaio Queue: %v", st)
		}
		cb := &la.iocbs[u.Index]
		gotFlag := cb.Flags&iocbFlagIOPrio != 0
		if uint16(cb.ReqPrio) != c.want || gotFlag != (c.want != 0) || u.Prio != c.want {
			t.Errorf("libaio pct %s: aio_reqprio %#x, IOCB_FLAG_IOPRIO %v, unit prio %#x; want %#x", c.pct, cb.ReqPrio, gotFlag, u.Prio, c.want)
		}
		asyncTFinish(t, eng, u)

		units = asyncTUnits(t, 1, 4096)
		eng = asyncTEngine(t, newIOUring, Config{IODepth: 1, Units: units, Options: opts})
		ue := eng.(*uringEngine)
		u = units[0]
		u.Op, u.FD, u.Offset = OpRead, fd, 0
		slot := ue.ring.sqLocal & ue.ring.sqMask
		if st := ue.Queue(u); st != Queued {
			t.Fatalf("io_uring Queue: %v", st)
		}
		if sqe := &ue.ring.sqes[slot]; sqe.IOPrio != c.want || u.Prio != c.want {
			t.Errorf("io_uring pct %s: sqe ioprio %#x, unit prio %#x; want %#x", c.pct, sqe.IOPrio, u.Prio, c.want)
		}
		asyncTFinish(t, eng, u)
	}
}

// asyncTFinish commits and reaps the one queued unit u and fails t unless
// it read its whole buffer.
func asyncTFinish(t *testing.T, eng Engine, u *IOUnit) {
	t.Helper()
	asyncTReapOne(t, eng)
	if u.Err != 0 || u.Result != len(u.Buf) {
		t.Fatalf("read: %d bytes, %v", u.Result, u.Err)
	}
}
