//go:build !linux || !(amd64 || arm64 || riscv64 || loong64 || ppc64le)

package runner

// The libaio and io_uring engines need Linux system calls and are built
// for 64-bit little-endian Linux only; elsewhere they exist but refuse to
// start, so the engine table is the same on every platform.

import (
	"errors"
	"runtime"
)

var libaioEngine = EngineInfo{Name: "libaio", New: newLibaio}

var iouringEngine = EngineInfo{Name: "io_uring", New: newIOUring}

// newLibaio fails: native AIO is Linux-only.
func newLibaio(cfg EngineConfig) (Engine, error) {
	return nil, errors.New("libaio: engine not supported on this platform (" + runtime.GOOS + "/" + runtime.GOARCH + ")")
}

// newIOUring fails: io_uring is Linux-only.
func newIOUring(cfg EngineConfig) (Engine, error) {
	return nil, errors.New("io_uring: engine not supported on this platform (" + runtime.GOOS + "/" + runtime.GOARCH + ")")
}
