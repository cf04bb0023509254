package runner

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/verify"
	"github.com/gofio/gofio/stats"
)

// verify_state_save (default on): when a job that writes with verify
// ends, fio 3.33 saves what it wrote in "local-NAME-N-verify.state" (N:
// the job's index among all jobs, '/' in the name as '.'), in the
// working directory or --aux-path's (fio's manual). Observed layout,
// little-endian:
//
//	header  u64 version (3), u64 size of the record, u64 the record's
//	        crc32c (fio's, not inverted)
//	record  u64 number of completions below, u32 iodepth, u32 files,
//	        u64 writes issued, u64 job index,
//	        u64 use64, 5 × u64 the offset generator's state (Taus88's
//	        three words packed as u32s; all zero when offsets are not
//	        random; gofio leaves the LFSR's out), u64 zero, 64 bytes the
//	        job's name,
//	        then iodepth slots of u64 file index, u64 offset: the last
//	        writes completed, the latest first, unused slots zero.

const (
	verifyStateVersion = 3
	verifyStateFixed   = 152 // the record without completions
)

// verifyComp is one completed write.
type verifyComp struct{ file, off uint64 }

// verifyState keeps the last iodepth writes a job completed.
type verifyState struct {
	ring []verifyComp
	n    uint64 // completions seen
}

func newVerifyState(depth int) *verifyState {
	return &verifyState{ring: make([]verifyComp, max(depth, 1))}
}

// add records a completed write.
func (s *verifyState) add(file int, off int64) {
	s.ring[s.n%uint64(len(s.ring))] = verifyComp{uint64(file), uint64(off)}
	s.n++
}

// latest returns the recorded writes, the latest first.
func (s *verifyState) latest() []verifyComp {
	k := min(s.n, uint64(len(s.ring)))
	out := make([]verifyComp, 0, k)
	for i := uint64(1); i <= k; i++ {
		out = append(out, s.ring[(s.n-i)%uint64(len(s.ring))])
	}
	return out
}

// VerifyStatePath is the verify state file of job name, the job at
// index among all jobs, in dir ("" the working directory).
func VerifyStatePath(dir, name string, index int) string {
	f := "local-" + strings.ReplaceAll(name, "/", ".") + "-" + strconv.Itoa(index) + "-verify.state"
	if dir == "" {
		return f
	}
	return filepath.Join(dir, f)
}

// verifyStateFile returns the file's bytes for worker w.
func (w *worker) verifyStateFile(index int) []byte {
	j := w.job
	comps := w.vstate.latest()
	rec := make([]byte, verifyStateFixed+16*len(w.vstate.ring))
	le := binary.LittleEndian
	le.PutUint64(rec[0:], uint64(len(comps)))
	le.PutUint32(rec[8:], uint32(j.IODepth))
	le.PutUint32(rec[12:], uint32(len(w.files)))
	le.PutUint64(rec[16:], w.st.Dir[stats.Write].TotalIOs)
	le.PutUint64(rec[24:], uint64(index))
	if j.RW.Random() && j.RandomGenerator != jobspec.GenLFSR {
		// fio re-seeds its streams before the verify phase under
		// randrepeat (as before each loop): the state saved is then the
		// fresh one.
		g := w.gen.offRng
		if w.vfy != nil && w.vfy.phaseRan && w.gen.repeat {
			g.Seed(w.gen.seeds[seedBlock], w.gen.use64)
		}
		use64, words := g.State()
		if use64 {
			le.PutUint64(rec[32:], 1)
			for i, v := range words {
				le.PutUint64(rec[40+8*i:], v)
			}
		} else {
			for i, v := range words {
				le.PutUint32(rec[40+4*i:], uint32(v))
			}
		}
	}
	copy(rec[88:88+63], j.Name)
	for i, c := range comps {
		le.PutUint64(rec[verifyStateFixed+16*i:], c.file)
		le.PutUint64(rec[verifyStateFixed+16*i+8:], c.off)
	}
	out := make([]byte, 24, 24+len(rec))
	le.PutUint64(out[0:], verifyStateVersion)
	le.PutUint64(out[8:], uint64(len(rec)))
	le.PutUint64(out[16:], uint64(verify.CRC32C(rec)))
	return append(out, rec...)
}

// saveVerifyState writes the job's verify state file, if it keeps one.
// A failure is reported with fio's lines on the job's error stream
// (observed): "fio: open state file: ERR" and "fio: state file: PATH
// (for_write=1)" when the file cannot be created, "fio: write state
// file: ERR" and "fio: failed to write state file" when it cannot be
// written (on a full file system fio leaves it empty).
func (w *worker) saveVerifyState(dir string, index int) {
	if w.vstate == nil {
		return
	}
	path := VerifyStatePath(dir, w.job.Name, index)
	errs := w.ts.errs
	if errs == nil {
		errs = io.Discard
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		fmt.Fprintf(errs, "fio: open state file: %s\n", errno.Text(errnoOf(err)))
		fmt.Fprintf(errs, "fio: state file: %s (for_write=1)\n", path)
		return
	}
	_, err = f.Write(w.verifyStateFile(index))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(errs, "fio: write state file: %s\n", errno.Text(errnoOf(err)))
		fmt.Fprintln(errs, "fio: failed to write state file")
	}
}

// errnoOf is the system error in err (EIO when there is none).
func errnoOf(err error) unix.Errno {
	var e unix.Errno
	if errors.As(err, &e) {
		return e
	}
	return unix.EIO
}
