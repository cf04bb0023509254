package runner

import (
	"errors"
	"fmt"
	"io"

	"github.com/gofio/gofio/internal/debuglog"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/content"
	"github.com/gofio/gofio/runner/engine"
	"github.com/gofio/gofio/stats"
)

// jobFile is one file a job does I/O on.
type jobFile struct {
	path string
	// size is the length of the I/O region, starting at offset.
	size   uint64
	offset uint64
	// fileSize is the size the file must have; 0 for an existing file or
	// device whose own size is used.
	fileSize uint64
	fd       int
	blockDev bool
	// fillDev marks a file sized by fill_device (filldevice.go).
	fillDev bool
	// ignored: the job's offset is the end of the existing file it takes
	// its size from, so its region is empty (fio: "file F may be
	// ignored").
	ignored bool
	// past: the offset is past the end of the file (filesize= of an
	// existing file); fio 3.33 then counts a region of negative length,
	// which passes its range check and fails its cache invalidation.
	past bool
	// bufSeeds is how many buffer seeds laying the file out drew, and
	// bufDraws its draws from the dedupe streams.
	bufSeeds uint64
	bufDraws content.Draws
	// blocks caches randBlocks per direction, for the size it was
	// computed at (the size can change while the job runs; minBS and
	// align are the job's, fixed per direction).
	blocks [3]struct{ size, n uint64 }
}

// randBlocks is the number of places a random I/O of direction d can
// start at in f: blocks of align bytes where one of minBS bytes fits.
// It is cached, as it costs a 64-bit division on every random offset.
func (f *jobFile) randBlocks(d stats.Dir, minBS, align uint64) uint64 {
	c := &f.blocks[d]
	if c.size != f.size || c.n == 0 {
		n := f.size
		if minBS > align {
			n -= min(n, minBS-align)
		}
		c.size, c.n = f.size, n/align
	}
	return c.n
}

// realEnd is where the file itself ends: its size when it is open and a
// regular file, else the end of its region.
func (f *jobFile) realEnd() uint64 {
	var st unix.Stat_t
	if f.fd >= 0 && !f.blockDev && unix.Fstat(f.fd, &st) == nil && st.Size > 0 {
		return uint64(st.Size)
	}
	return f.offset + f.size
}

// setupError is a job that failed before its I/O started. fio reports it
// on stderr as "fio: pid=0, err=E/file:..., func=F, error=TEXT".
type setupError struct {
	errno unix.Errno
	fn    string // the failing step, fio's func= name
	msg   string // an explanation printed before, or ""
	// msgOnly: fio prints only msg (allow_file_create=0).
	msgOnly bool
	// unreported: fio reports the job with nothing done and error 0,
	// yet exits with status 1 (an offset or region it refuses).
	unreported bool
	// src is fio's source place in the message; filesetup.c when empty.
	src string
}

func (e *setupError) Error() string {
	if e.msgOnly {
		return e.msg
	}
	src := e.src
	if src == "" {
		src = "filesetup.c"
	}
	s := fmt.Sprintf("fio: pid=0, err=%d/file:%s, func=%s, error=%s", int(e.errno), src, e.fn, errno.Text(e.errno))
	if e.msg != "" {
		s = e.msg + "\n" + s
	}
	return s
}

// planFiles works out the files of job j: explicit names, or names built
// from filename_format, each with its I/O region.
func planFiles(j *jobspec.Job) ([]*jobFile, error) {
	var names []string
	if len(j.Filename) > 0 {
		for _, f := range j.Filename {
			names = append(names, j.InDirectory(f))
		}
	} else if j.Misc.Opendir == "" {
		for i := 0; i < j.NRFiles; i++ {
			names = append(names, j.InDirectory(j.FormatFilename(i)))
		}
	}
	if j.Misc.Opendir != "" {
		more, err := jobspec.OpendirFiles(j.Misc.Opendir)
		if err != nil {
			return nil, &setupError{errno: errno.Of(err), fn: "opendir", msg: err.Error()}
		}
		names = append(names, more...)
	}
	files := make([]*jobFile, len(names))
	// filesize=lo-hi draws from fio's file size stream (fiorand.go).
	var sizeRng rng.Stream
	seeds, _ := jobSeeds(j)
	sizeRng.Seed(seeds[seedFileSize], j.RandomGenerator == jobspec.GenTausworthe64)
	for i, n := range names {
		f := &jobFile{path: n, fd: -1}
		var st unix.Stat_t
		exists := unix.Stat(n, &st) == nil
		var have uint64
		if exists {
			have = uint64(st.Size)
			if st.Mode&unix.S_IFMT == unix.S_IFBLK {
				f.blockDev = true
				var err error
				if have, err = engine.BlockDevSize(n); err != nil {
					// A device node without its device (a detached
					// driver: ENXIO) fails the job, as in fio 3.33.
					e := errno.Of(err)
					fn := "open(" + n + ")"
					return nil, &setupError{errno: e, fn: fn, msg: fmt.Sprintf(
						"fio: failed opening blockdev %s for size check\nfile:filesetup.c, func=%s, error=%s", n, fn, errno.Text(e))}
				}
			}
		}
		// The job's first offset: offset, plus offset_increment for each
		// clone before it.
		start := j.Offset
		if j.OffsetPct > 100 && exists {
			// fio 3.33 refuses it only for a file that exists.
			return nil, &setupError{errno: unix.EINVAL, fn: "offset", msg: j.Name + ": you need to specify valid offset=", msgOnly: true, unreported: true}
		}
		if j.OffsetPct > 0 {
			// offset=N%: of the file's size, aligned up to offset_align
			// or else the smallest block size (fio's manual).
			align := max(j.OffsetAlign, 1)
			if j.OffsetAlign == 0 {
				align = max(minBS(j), 1)
			}
			start = (have*uint64(j.OffsetPct)/100 + align - 1) / align * align
		}
		switch {
		case j.OffsetIncrementPct > 0 && exists:
			start += have * uint64(j.OffsetIncrementPct) / 100 * uint64(j.JobNum)
		case j.OffsetIncrement > 0:
			start += j.OffsetIncrement * uint64(j.JobNum)
		}
		if j.FileAppend && exists && !f.blockDev {
			// file_append: I/O starts at the file's end, whatever the
			// offset (fio 3.33 ignores it for regular files).
			start = have
		}
		switch {
		case j.FileSize[1] > j.FileSize[0]:
			// filesize=lo-hi: a random size per file, in whole blocks.
			f.fileSize = j.FileSize[0] + sizeRng.Scale(j.FileSize[1]-j.FileSize[0])
			f.fileSize -= f.fileSize % max(minBS(j), 1)
		case j.FileSize[1] > 0:
			f.fileSize = j.FileSize[0]
		case j.Size > 0:
			// The file must hold the region: offset plus its share of size.
			f.fileSize = start + j.Size/uint64(len(names))
		case j.SizePercent > 0 && exists:
			f.fileSize = have * uint64(j.SizePercent) / 100
		case fillsDevice(j):
			f.fileSize, f.fillDev = fillFileSize(len(names)), true
		case exists && have > 0:
			f.fileSize = have
		case exists && j.Misc.Opendir != "":
			// An empty file opendir found: fio keeps it, with nothing
			// to do.
		default:
			return nil, &setupError{errno: unix.EINVAL, fn: "total_file_size", msg: j.Name + ": you need to specify size="}
		}
		if f.blockDev {
			f.fileSize = min(f.fileSize, have)
		}
		// Observed in fio 3.33 for a regular file: an offset past the end
		// of the existing file that gives the job its size (no size=,
		// no filesize=), or past filesize= of a file yet to be made,
		// fails the job; one at that end leaves the file out.
		sizedByFile := exists && j.FileSize[1] == 0 && j.Size == 0 && j.SizePercent == 0
		if !f.blockDev && !f.fillDev && !j.FileAppend && j.Misc.Opendir == "" {
			if start > f.fileSize && (sizedByFile || (!exists && j.FileSize[1] > 0)) {
				return nil, &setupError{errno: unix.EINVAL, fn: "offset", msg: j.Name + ": you need to specify valid offset=", msgOnly: true, unreported: true}
			}
			f.ignored = sizedByFile && start == f.fileSize
			f.past = start > f.fileSize
		}
		f.size = f.fileSize
		if start >= f.size {
			f.size = 0
		} else {
			f.offset = start
			f.size -= start
		}
		files[i] = f
	}
	if err := fillCheck(j, files); err != nil {
		return nil, err
	}
	// size= caps the total I/O region when files are larger.
	if j.Size > 0 && j.FileSize[1] > 0 {
		left := j.Size
		for _, f := range files {
			f.size = min(f.size, left)
			left -= f.size
		}
	}
	if err := rangeCheck(j, files); err != nil {
		return files, err
	}
	return files, nil
}

// rangeCheck fails a job whose I/O regions together are smaller than its
// smallest block, as fio 3.33 does ("blocksize is larger than data set
// range", exit status 1). With size= given, regions that are all empty
// pass: fio then counts size= and the job does nothing.
func rangeCheck(j *jobspec.Job, files []*jobFile) error {
	if j.Misc.Opendir != "" || j.FileAppend {
		return nil
	}
	var total uint64
	for _, f := range files {
		if f.blockDev || f.fillDev || f.past {
			return nil
		}
		total += f.size
	}
	if total >= minBS(j) || (total == 0 && j.Size > 0) {
		return nil
	}
	return &setupError{errno: unix.EINVAL, fn: "io_size", msg: "fio: blocksize is larger than data set range", msgOnly: true, unreported: true}
}

// needsLayout reports how many bytes must be written to bring f to its
// size, 0 if it is already large enough.
func (f *jobFile) needsLayout() uint64 {
	if f.blockDev {
		return 0
	}
	var st unix.Stat_t
	if unix.Stat(f.path, &st) == nil && (uint64(st.Size) >= f.fileSize || (st.Mode&unix.S_IFMT != unix.S_IFREG && st.Mode&unix.S_IFMT != unix.S_IFDIR)) {
		return 0 // large enough, or a device (/dev/full); fio lays out a directory (and fails)
	}
	return f.fileSize
}

// layout creates or extends f to its size. Files a job reads are filled
// with data, since reading holes measures nothing, and so are the files
// of an overwrite=1 job and of the mmap engine (fio 3.33 writes them out
// whatever the job does); files only written are allocated per
// fallocate=. Messages fio prints while laying out go to info (its info
// stream: "fio: ENOSPC on laying out file, stopping") and warn (stderr:
// "fio: posix_fallocate fails: ..."). A close of stop cuts the layout
// short (errLayoutStopped).
//
// fillBuf, unless nil, gives each buffer written its contents and returns
// the buffer seeds it drew.
func (f *jobFile) layout(j *jobspec.Job, buf []byte, fillBuf func([]byte) uint64, stop <-chan struct{}, info, warn io.Writer) error {
	fill := j.RW.Reads() || j.Overwrite || j.IOEngine == "mmap"
	var pre unix.Stat_t
	exists := unix.Stat(f.path, &pre) == nil
	if !exists && !j.AllowFileCreate {
		return &setupError{errno: unix.ENOENT, fn: "open", msg: "fio: file creation disallowed by allow_file_create=0", msgOnly: true}
	}
	if j.AllowFileCreate {
		debugFile("layout unlink %s", f.path)
	}
	if exists && j.AllowFileCreate {
		// fio 3.33 lays out a file too small for the job anew: it
		// unlinks it first (a new inode, mode 0644), and fails the job
		// when it cannot ("func=unlink": /proc/version gives EPERM, a
		// directory EISDIR). With allow_file_create=0 fio unlinks it and
		// then refuses to create it, losing the file; gofio keeps it.
		if err := unix.Unlink(f.path); err != nil && errno.Of(err) != unix.ENOENT {
			return &setupError{errno: errno.Of(err), fn: "unlink"}
		}
	}
	fd, err := unix.Open(f.path, unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return &setupError{errno: errno.Of(err), fn: "open"}
	}
	defer unix.Close(fd)
	if debuglog.On(debuglog.File) {
		// fio opens write-only, truncating a file it fills.
		flags := unix.O_CREAT | unix.O_WRONLY
		if fill {
			flags |= unix.O_TRUNC
		}
		debugFile("open file %s, flags %x", f.path, flags)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &setupError{errno: errno.Of(err), fn: "fstat"}
	}
	if f.fillDev || (j.Misc.FillDevice && (j.RW.Reads() || j.Overwrite)) {
		if fillBuf != nil {
			f.bufSeeds += fillBuf(buf)
		}
		return f.layoutFill(fd, j, buf, stop)
	}
	// fallocate=native, fio's default, falls back to no preallocation when
	// the call fails (ENOSPC on a full file system included); only files
	// to be filled are then sized, as fio does.
	switch j.Fallocate {
	case jobspec.FallocNative:
		if unix.Fallocate(fd, 0, 0, int64(f.fileSize)) == nil {
			debugFile("native fallocate of file %s size %d was successful", f.path, f.fileSize)
		}
	case jobspec.FallocPosix:
		// fio 3.33 warns and lays out on (a full file system: the job
		// then fails where its writes do).
		if err := unix.Fallocate(fd, 0, 0, int64(f.fileSize)); err != nil && warn != nil {
			fmt.Fprintf(warn, "fio: posix_fallocate fails: %s\n", errno.Text(errno.Of(err)))
		}
	case jobspec.FallocKeep:
		_ = unix.Fallocate(fd, unix.FALLOC_FL_KEEP_SIZE, 0, int64(f.fileSize))
	case jobspec.FallocTruncate:
		// fallocate=none allocates nothing and leaves the size alone: a
		// job writing 64 KiB of a 1 MiB file leaves 64 KiB, as in fio.
		if !fill {
			if err := unix.Ftruncate(fd, int64(f.fileSize)); err != nil {
				return &setupError{errno: errno.Of(err), fn: "ftruncate"}
			}
		}
	}
	if !fill {
		dropLaidOut(fd, f.fileSize)
		return nil
	}
	debugFile("truncate file %s, size %d", f.path, f.fileSize)
	if err := unix.Ftruncate(fd, int64(f.fileSize)); err != nil {
		return &setupError{errno: errno.Of(err), fn: "ftruncate"}
	}
	for off := uint64(0); off < f.fileSize; {
		if stopped(stop) {
			// A signal: fio stops at once and leaves no partly laid
			// out file behind.
			unix.Unlink(f.path)
			return errLayoutStopped
		}
		n := min(uint64(len(buf)), f.fileSize-off)
		if fillBuf != nil {
			f.bufSeeds += fillBuf(buf[:n])
		}
		w, err := unix.Pwrite(fd, buf[:n], int64(off))
		if err != nil {
			if errno.Of(err) == unix.ENOSPC && info != nil {
				fmt.Fprintln(info, "fio: ENOSPC on laying out file, stopping")
			}
			return &setupError{errno: errno.Of(err), fn: "write"}
		}
		off += uint64(w)
	}
	if j.Misc.NoCreateFsync {
		dropLaidOut(fd, f.fileSize)
		return nil
	}
	if err := unix.Fsync(fd); err != nil {
		return errorsNil(err)
	}
	dropLaidOut(fd, f.fileSize)
	return nil
}

// fadvise is posix_fadvise(2); a variable so that tests can count the
// advice a job gives.
var fadvise = unix.Fadvise

// dropLaidOut drops a freshly laid-out file's pages from the page cache,
// as fio does whatever invalidate says: a job reading the file right
// after its layout then reads the device, not the pages just written.
func dropLaidOut(fd int, size uint64) {
	_ = fadvise(fd, 0, int64(size), unix.FADV_DONTNEED)
}

// errLayoutStopped ends a layout a stop signal cut short.
var errLayoutStopped = errors.New("layout stopped")

func errorsNil(err error) error {
	if err != nil {
		return &setupError{errno: errno.Of(err), fn: "fsync"}
	}
	return nil
}

// open opens f for the job's I/O: with the engine's FileOpener when it
// has one (index is f's place in the job's file list), else open(2).
// Writing jobs open read-write, creating regular files unless
// allow_file_create=0 (create_on_open creates for every job); sync=
// adds O_SYNC or O_DSYNC; invalidate drops the region's cached pages
// (BLKFLSBUF on a block device).
func (f *jobFile) open(j *jobspec.Job, write bool, opener engine.FileOpener, index int) error {
	flags := unix.O_CLOEXEC
	switch {
	case write && (j.RW.Reads() || j.Verify.Type != jobspec.VerifyNone):
		flags |= unix.O_RDWR // verify reads back what it wrote
	case write:
		flags |= unix.O_WRONLY
	default:
		flags |= unix.O_RDONLY
	}
	if (write || j.CreateOnOpen) && !f.blockDev && j.AllowFileCreate {
		flags |= unix.O_CREAT
	}
	if j.Direct {
		flags |= unix.O_DIRECT
	}
	if j.Misc.Atomic {
		flags |= oAtomic
	}
	if write {
		switch j.Sync {
		case jobspec.SyncSync:
			flags |= unix.O_SYNC
		case jobspec.SyncDsync:
			flags |= unix.O_DSYNC
		}
	}
	var fd int
	var err error
	if opener != nil {
		fd, err = opener.OpenFile(index, f.path, flags)
	} else {
		fd, err = unix.Open(f.path, flags, 0o600) // fio's mode for files a job creates
	}
	if err != nil {
		if errno.Of(err) == unix.ENOENT && !j.AllowFileCreate {
			return &setupError{errno: unix.ENOENT, fn: "open", msg: "fio: file creation disallowed by allow_file_create=0"}
		}
		// fio names the file in the function ("func=open(d/r.0.1)"), on
		// a job's first open and on one mid-run alike.
		return &setupError{errno: errno.Of(err), fn: "open(" + f.path + ")", msg: fmt.Sprintf("%s: open failed", f.path)}
	}
	f.fd = fd
	if fd < 0 {
		return nil
	}
	if j.WriteHint != 0 {
		if err := setWriteHint(fd, j.WriteHint); err != nil {
			return err
		}
	}
	if j.Invalidate {
		// Drop the cached pages of the region so reads reach the device,
		// as fio does by default (invalidate=1), direct=1 or not.
		f.dropCache()
	}
	if advice, ok := fadviseFor(j); ok {
		_ = fadvise(fd, int64(f.offset), int64(f.size), advice)
	}
	return nil
}

// dropCache drops the cached pages of f's region (BLKFLSBUF on a block
// device, which has no regions): what invalidate=1 does when the file is
// opened and, in a time_based job, each time its I/O wraps around it.
func (f *jobFile) dropCache() {
	if f.fd < 0 {
		return
	}
	if f.blockDev {
		unix.Syscall(unix.SYS_IOCTL, uintptr(f.fd), unix.BLKFLSBUF, 0)
		return
	}
	_ = fadvise(f.fd, int64(f.offset), int64(f.size), unix.FADV_DONTNEED)
}

// fadviseFor returns the posix_fadvise(2) advice fadvise_hint asks for,
// and false when it asks for none. The default (1) follows the I/O
// pattern: without FADV_RANDOM the kernel's readahead would turn random
// reads of a file into cache hits, and the job would measure the page
// cache instead of the device.
func fadviseFor(j *jobspec.Job) (advice int, ok bool) {
	switch j.FadviseHint {
	case jobspec.FadviseNone:
		return 0, false
	case jobspec.FadviseRandom:
		return unix.FADV_RANDOM, true
	case jobspec.FadviseSequential:
		return unix.FADV_SEQUENTIAL, true
	}
	if j.RW.Random() {
		return unix.FADV_RANDOM, true
	}
	return unix.FADV_SEQUENTIAL, true
}

// closeWith closes f, through the engine's FileOpener when it has one.
func (f *jobFile) closeWith(opener engine.FileOpener, index int) {
	if opener != nil {
		opener.CloseFile(index, f.fd)
	} else if f.fd >= 0 {
		unix.Close(f.fd)
	}
	f.fd = -1
}

func (f *jobFile) close() {
	if f.fd >= 0 {
		unix.Close(f.fd)
		f.fd = -1
	}
}

// filePaths returns the paths of files, in order.
func filePaths(files []*jobFile) []string {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	return paths
}

// firstOr returns the first of list, "" when it is empty.
func firstOr(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}
