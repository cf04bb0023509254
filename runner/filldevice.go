package runner

import (
	"fmt"
	"math"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/runner/ioerr"
)

// fill_device (fill_fs) makes a job write until the file system is full.
// As observed with fio 3.33:
//
//   - Without size=, filesize= or a size percentage the job's files are
//     "really large": 2^64-1 bytes in all, split between the files (the
//     layout line reads "1 file / 17592186044415MiB").
//   - A write failing with ENOSPC or EDQUOT is reported ("fio: io_u error
//     on file ...") and ends the job cleanly: err=0, exit status 0. This
//     holds with size= too.
//   - A job that only writes creates its files with no preallocation; a
//     job that reads first fills the file system, writing each file until
//     it is full; a job that only reads then reads what was written, a
//     mixed one keeps its size and writes on to ENOSPC.
//   - A random job that writes, with a random map, cannot map such files:
//     fio says it failed allocating the map. (A job that only reads maps
//     the file it filled.)

// fillTotal is the combined size of a fill_device job's files.
const fillTotal = ^uint64(0)

// fillsDevice reports whether fill_device sizes job j's files, which
// happens when nothing else does.
func fillsDevice(j *jobspec.Job) bool {
	return j.Misc.FillDevice && j.Size == 0 && j.FileSize[1] == 0 && j.SizePercent == 0
}

// fillFileSize is the size fill_device gives each of n files.
func fillFileSize(n int) uint64 { return fillTotal / uint64(max(n, 1)) }

// fillCheck finishes the files of a fill_device job: offsets must stay
// below 2^63, so the I/O region of a file fill_device sized is capped
// there (writes past the file system's largest file fail with EFBIG, as
// in fio). A random write job keeping a random map gets fio's failure:
// no map covers such a file.
func fillCheck(j *jobspec.Job, files []*jobFile) error {
	if !fillsDevice(j) {
		return nil
	}
	if j.RW.Random() && j.RW.Writes() && !j.NoRandomMap {
		return &setupError{errno: unix.ENOMEM, fn: "random map", msgOnly: true,
			msg: "fio: failed allocating random map. If running a large number of jobs, try the 'norandommap' option or set 'softrandommap'. Or give a larger --alloc-size to fio."}
	}
	for _, f := range files {
		if f.fillDev && f.offset < math.MaxInt64 {
			f.size = min(f.size, math.MaxInt64-f.offset)
		}
	}
	return nil
}

// fullError reports whether e is the error fill_device waits for.
func fullError(e unix.Errno) bool { return e == unix.ENOSPC || e == unix.EDQUOT }

// filled handles a failed unit of a fill_device job: a write that found
// the file system full is reported as fio does and ends the job without
// an error. It reports whether it handled u.
func (w *worker) filled(u *engine.IOUnit, e unix.Errno) bool {
	if !w.job.Misc.FillDevice || u.Op != engine.OpWrite || !fullError(e) {
		return false
	}
	if w.ioerr.out != nil {
		fmt.Fprintf(w.ioerr.out, "fio: io_u error on file %s: %s: %s offset=%d, buflen=%d\n",
			w.files[u.File].path, errno.Text(e), ioerr.OpName(u.Op), u.Offset, len(u.Buf))
	}
	w.stopping = true
	return true
}

// layoutFill lays out a file of a fill_device job opened as fd: a job
// that reads (or overwrites) writes it until the file system is full, or
// up to its size when size= gives one, without preallocating. The I/O
// region of a job that only reads then ends where the writing stopped; a
// mixed job keeps its region. Jobs that only write leave the file as it
// is.
func (f *jobFile) layoutFill(fd int, j *jobspec.Job, buf []byte, stop <-chan struct{}) error {
	if !j.RW.Reads() && !j.Overwrite {
		return nil
	}
	// fio lays out in blocks of the job's largest write size, so the
	// file ends at the last whole block the file system took.
	chunk := buf
	if bs := j.MaxBS()[1]; bs > 0 && bs < uint64(len(buf)) {
		chunk = buf[:bs]
	}
	var off uint64
	for off < f.fileSize && !stopped(stop) { // a size fill_device gave is never reached
		if f.fileSize-off < uint64(len(chunk)) {
			chunk = chunk[:f.fileSize-off]
		}
		n, err := unix.Pwrite(fd, chunk, int64(off))
		if n > 0 {
			off += uint64(n)
		}
		if err != nil {
			if e := errno.Of(err); fullError(e) || e == unix.EFBIG {
				break
			}
			return &setupError{errno: errno.Of(err), fn: "write"}
		}
		if n == 0 {
			break
		}
	}
	if err := unix.Fsync(fd); err != nil {
		return errorsNil(err)
	}
	dropLaidOut(fd, off)
	if j.RW.Writes() {
		// A mixed job keeps its region: its writes go on to ENOSPC.
		return nil
	}
	// The file is what the file system took: the I/O region ends there.
	f.fileSize = min(f.fileSize, off)
	if off > f.offset {
		f.size = min(f.size, off-f.offset)
	} else {
		f.size = 0
	}
	return nil
}
