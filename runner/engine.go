package runner

import "golang.org/x/sys/unix"

// Op is the operation an IOUnit carries.
type Op uint8

// The operations.
const (
	OpRead Op = iota
	OpWrite
	OpTrim
	OpFsync
	OpFdatasync
)

// IsData reports whether op moves data (read, write or trim).
func (op Op) IsData() bool { return op <= OpTrim }

// IOUnit is one I/O: what to do, where, with which buffer, and its
// outcome. Units are allocated once per job, before the clock starts, and
// reused; an engine never allocates them.
type IOUnit struct {
	Index  int   // position in the job's unit pool (EngineConfig.Units)
	Op     Op    // what to do
	FD     int   // file descriptor
	File   int   // index of the file in the job's file list
	Offset int64 // file offset in bytes
	Buf    []byte

	// Set by the engine when the I/O completes: Result is the number of
	// bytes transferred, Err the error (0 for success).
	Result int
	Err    unix.Errno

	// Timestamps kept by the runner (ns on the monotonic clock).
	start, issue int64
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

// EngineConfig is what an engine is built from.
type EngineConfig struct {
	// IODepth is the most units in flight at once.
	IODepth int
	// Units is the job's unit pool; Units[i].Index == i. Asynchronous
	// engines use the index to find the unit of a completion.
	Units []*IOUnit
	// Direct tells whether the files were opened with O_DIRECT.
	Direct bool
	// Options holds the engine's private options (name → raw value).
	Options map[string]string
}

// EngineInfo describes one registered engine.
type EngineInfo struct {
	Name string
	// New builds the engine for one job. The returned engine may also
	// implement io.Closer; the runner closes it when the job ends.
	New func(cfg EngineConfig) (Engine, error)
	// Sync marks engines whose Queue completes every I/O itself.
	Sync bool
	// NoFiles marks engines that do no file I/O (null): files are not
	// created or opened.
	NoFiles bool
}
