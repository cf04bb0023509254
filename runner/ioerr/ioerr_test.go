package ioerr

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/engine"
)

// ignore_error's lists replace the default non-fatal errors; trims take
// the write list.
func TestNonFatal(t *testing.T) {
	job := &jobspec.Job{}
	job.Misc.IgnoreError = [3][]int{{int(unix.EAGAIN)}, {int(unix.ENOSPC), 122}, {84}}
	tests := []struct {
		op   engine.Op
		e    unix.Errno
		want bool
	}{
		{engine.OpRead, unix.EAGAIN, true},
		{engine.OpRead, unix.EIO, false}, // the list replaces the default
		{engine.OpWrite, unix.ENOSPC, true},
		{engine.OpWrite, unix.EDQUOT, true},
		{engine.OpWrite, unix.EAGAIN, false},
		{engine.OpTrim, unix.ENOSPC, true}, // trims take the write list
	}
	for _, tt := range tests {
		l, listed := ignoreList(job, tt.op)
		if got := nonFatal(tt.e, l, listed); got != tt.want {
			t.Errorf("nonFatal(%v, %v) = %v, want %v", tt.op, tt.e, got, tt.want)
		}
	}
	if !IgnoresVerify(job) {
		t.Errorf("ignoresVerify = false with EILSEQ listed")
	}
	if got := nonFatal(unix.EIO, nil, false); !got {
		t.Errorf("nonFatal(EIO) without lists = false, want true")
	}
}
