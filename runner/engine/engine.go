// Package engine holds gofio's I/O engines and the contract between them
// and the runner: the runner builds an Engine for each job from the
// registry (Registered, Lookup), hands it IOUnits and collects their
// outcomes. Engines know nothing of jobs beyond Config; the runner imports
// this package, never the reverse.
package engine

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/jobspec"
)

// Op is the operation an IOUnit carries.
type Op uint8

// The operations.
const (
	OpRead Op = iota
	OpWrite
	OpTrim
	OpFsync
	OpFdatasync
	// OpSyncFileRange is sync_file_range(2) (the sync_file_range
	// option); the runner performs it, engines never see it.
	OpSyncFileRange
)

// IsData reports whether op moves data (read, write or trim).
func (op Op) IsData() bool { return op <= OpTrim }

// IOUnit is one I/O: what to do, where, with which buffer, and its
// outcome. Units are allocated once per job, before the clock starts, and
// reused; an engine never allocates them.
type IOUnit struct {
	Index  int   // position in the job's unit pool (Config.Units)
	Op     Op    // what to do
	FD     int   // file descriptor
	File   int   // index of the file in the job's file list
	Offset int64 // file offset in bytes
	Buf    []byte
	// Prio is the ioprio value an engine gave the I/O (cmdprio options),
	// 0 when it runs at the job's own priority; the engine sets it in
	// Queue.
	Prio uint16

	// End, set by the engine with Result 0 and Err 0, tells that the
	// stream the unit reads from has ended (the net engines' peer closed
	// the connection): the unit moves no data and the job stops.
	End bool

	// Set by the engine when the I/O completes: Result is the number of
	// bytes transferred, Err the error (0 for success).
	Result int
	Err    unix.Errno
	// ErrFn, set with Err, names the step that failed when it is not the
	// I/O itself: fio's func= for an engine that refuses the unit
	// ("td_io_queue" for a trim the file cannot take). The runner clears
	// it when the unit is reused.
	ErrFn string
}

// Status is what Engine.Queue did with a unit.
type Status uint8

// The outcomes of Queue.
const (
	// Completed: the engine performed the I/O before returning; the
	// unit's Result and Err are set.
	Completed Status = iota
	// Queued: the engine holds the unit; it is started by Commit and
	// returned by Reap.
	Queued
	// Busy: the engine cannot take the unit now; reap and try again.
	Busy
)

// Engine is an I/O engine. Its one required method takes a unit; an
// engine that completes I/O asynchronously also implements Committer and
// Reaper. The runner asserts the optional interfaces once, at job setup.
type Engine interface {
	Queue(u *IOUnit) Status
}

// Committer is implemented by engines that batch queued units and start
// them in one call.
type Committer interface {
	// Commit starts every queued unit and returns how many were started.
	Commit() (int, error)
}

// Reaper is implemented by asynchronous engines.
type Reaper interface {
	// Reap waits until at least min started units have completed, stores
	// up to len(done) of them in done and returns how many it stored.
	Reap(min int, done []*IOUnit) (int, error)
}

// FileOpener is implemented by engines that open files themselves: the
// file-operation engines, whose measured work is the open (create, stat,
// unlink), and mmap, which maps what it opens. The runner calls OpenFile
// when the job first uses a file and CloseFile when it is done with it,
// both on the job's thread.
type FileOpener interface {
	// OpenFile opens file index of the job, at path, with open(2) flags,
	// and returns its descriptor, or -1 when the engine keeps none.
	OpenFile(index int, path string, flags int) (fd int, err error)
	// CloseFile releases what OpenFile set up; fd is what it returned.
	CloseFile(index int, fd int) error
}

// Connector is implemented by engines whose files are connections (net):
// the runner calls Connect on the job's thread once the job has started,
// before its clock starts, so the time spent waiting for the peer is not
// part of the job's runtime, as in fio.
type Connector interface {
	Connect() error
}

// ThreadBinder is implemented by engines whose kernel state belongs to
// the thread that drives it: an io_uring set up for a single submitter
// (IORING_SETUP_SINGLE_ISSUER, DEFER_TASKRUN, as fio 3.33 sets up its
// rings). The runner calls BindThread on the job's locked thread before
// the job's first I/O, and CloseOnThread on that thread when the job is
// done, before the thread is unlocked; a job that never starts is
// closed by Close, on any thread, with nothing in flight.
type ThreadBinder interface {
	BindThread() error
	CloseOnThread() error
}

// Noticer is implemented by engines that announce themselves when a job
// starts, as fio's cpuio does ("NAME (noop): ioengine=cpuio, ...").
type Noticer interface {
	Notice(job string) string
}

// Config is what an engine is built from.
type Config struct {
	// IODepth is the most units in flight at once.
	IODepth int
	// Units is the job's unit pool; Units[i].Index == i. Asynchronous
	// engines use the index to find the unit of a completion.
	Units []*IOUnit
	// Direct tells whether the files were opened with O_DIRECT.
	Direct bool
	// Options holds the values of the engine's private options.
	Options jobspec.IOEngineOptions
	// Job is the job's name, for messages.
	Job string
	// Files is the number of files of the job (IOUnit.File indexes them).
	Files int
	// OpenFiles is the most files the job keeps open at once (openfiles,
	// at most Files).
	OpenFiles int
	// Seed seeds whatever the engine draws at random (hipri_percentage).
	Seed uint64
	// PrioSeed seeds the cmdprio_percentage and cmdprio_bssplit draws:
	// fio's prio stream (its seed slot 19), a 32-bit generator.
	PrioSeed uint64
	// RW is the job's I/O pattern, for engines that advise the kernel
	// about it (mmap).
	RW jobspec.RW
	// NoAdvice tells such engines to give no advice (fadvise_hint=0).
	NoAdvice bool
	// MayHang tells that a file of the job is on a network or FUSE file
	// system, where a transfer may wait without bound: the engine makes
	// its blocking calls through the scheduler (sys_rw_linux.go).
	MayHang bool
	// Paths are the job's file names (IOUnit.File indexes them), for
	// engines that check what they are given (sg, io_uring_cmd).
	Paths []string
	// Dir is the job's (first) directory= and FileSize the upper bound
	// of its filesize=, 0 when not given (e4defrag's donor).
	Dir      string
	FileSize uint64
	// Filenames are the job's filename option as given (net: host,port,
	// protocol or a UNIX socket path), empty when fio names the files.
	Filenames []string
	// JobNum is the job's clone index: the net engines add it to port.
	JobNum int
	// Runtime is the job's runtime in µs, 0 when none (exec's %r).
	Runtime uint64
	// ThreadBound tells that one thread drives the engine and calls its
	// BindThread (ThreadBinder) before the first I/O: the runner's jobs,
	// except with io_submit_mode=offload, whose submission thread is not
	// the job's.
	ThreadBound bool
}

// Info describes one registered engine.
type Info struct {
	Name string
	// New builds the engine for one job. The returned engine may also
	// implement io.Closer; the runner closes it when the job ends.
	New func(cfg Config) (Engine, error)
	// Sync marks engines whose Queue completes every I/O itself.
	Sync bool
	// NoFiles marks engines that do no file I/O (null, cpuio): files are
	// not created or opened.
	NoFiles bool
	// NoLayout marks engines whose files are not laid out before the job
	// (filecreate creates them as its I/O).
	NoLayout bool
	// Diskless marks engines whose I/O reaches no block device: no disk
	// statistics are kept for their files.
	Diskless bool
	// NoStats marks engines whose units are not timed (fio's FIO_NOSTATS):
	// the file-operation engines time each file operation instead, as a
	// completion latency of the job's direction.
	NoStats bool
	// NoIO marks engines whose units move no data (cpuio): no bytes are
	// counted, so only runtime ends the job, and fio prints no job line
	// for it.
	NoIO bool
	// Size, when set, returns the size of the engine's one target (the
	// export of an NBD server): a job without size= gets it, as a file
	// that exists gives its own. The runner calls it while planning;
	// its error fails the job as New's does.
	Size func(opts jobspec.IOEngineOptions) (uint64, error)
	// Pow2Depth marks engines that, like fio 3.33's io_uring engines,
	// round the job's iodepth up to a power of two (the ring's size)
	// and get that many units: iodepth=12 keeps up to 16 I/Os in flight,
	// reaped down to 12 (iodepth_low's default, from the iodepth given)
	// before the queue is filled again.
	Pow2Depth bool
	// Check, when set, checks the job's files before they are laid out
	// or measured (sg and io_uring_cmd take only devices); its error
	// (an *InitError) fails the job as New's does.
	Check func(paths []string, opts jobspec.IOEngineOptions) error
	// BitBased marks engines whose bandwidths fio reports in bits when
	// unit_base is not given (the net engines).
	BitBased bool
}

// QueueInitError is an engine's failure to set up its queue (io_setup,
// io_uring_setup). fio 3.33 reports it as the job's error, on its info
// stream: "fio: pid=N, err=E/file:..., func=io_queue_init, error=TEXT"
// (observed at iodepth=100000: libaio err=11, io_uring err=22).
//
// An engine whose own setup fails this way (e4defrag) sets Msg, printed
// on stderr first ("fio: io engine NAME init failed."), and Where, what
// fio prints after "err=E/" when it is not the default.
type QueueInitError struct {
	errno unix.Errno
	err   error
	Msg   string
	Where *string
}

// Errno is the errno of the failed setup call.
func (e *QueueInitError) Errno() unix.Errno { return e.errno }

func (e *QueueInitError) Error() string { return e.err.Error() }
func (e *QueueInitError) Unwrap() error { return e.err }

// InitError is an engine that fails as it starts (fio's "io engine NAME
// init failed"). fio reports it as a job that failed before its I/O, on
// stderr: Msg, then "fio: pid=0, err=E/file:filesetup.c, func=FN,
// error=TEXT".
//
// With Errno 0 only Msg is printed, and the job fails with error 0: fio
// 3.33's engines that refuse their target with a message of their own
// (nbd's connection, io_uring_cmd's device) report it so.
type InitError struct {
	Errno unix.Errno
	Fn    string // the failing step, fio's func= name
	Msg   string // printed before fio's line
	// File is fio's source file in the pid line; "" means filesetup.c.
	File string
}

func (e *InitError) Error() string {
	if e.Errno == 0 {
		return e.Msg
	}
	file := e.File
	if file == "" {
		file = "filesetup.c"
	}
	s := fmt.Sprintf("fio: pid=0, err=%d/file:%s, func=%s, error=%s", int(e.Errno), file, e.Fn, errno.Text(e.Errno))
	if e.Msg != "" {
		s = e.Msg + "\n" + s
	}
	return s
}
