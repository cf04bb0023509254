package errno

import (
	"errors"
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		err  error
		want unix.Errno
	}{
		{nil, 0},
		{unix.ENOSPC, unix.ENOSPC},
		{errors.New("not a syscall error"), unix.EIO},
		{fmt.Errorf("wrapped: %w", unix.ENOENT), unix.EIO}, // only a bare errno counts
	} {
		if got := Of(c.err); got != c.want {
			t.Errorf("Of(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestText(t *testing.T) {
	for e, want := range map[unix.Errno]string{
		unix.EINVAL: "Invalid argument",
		unix.ENOSPC: "No space left on device",
		9999:        "Errno 9999",
	} {
		if got := Text(e); got != want {
			t.Errorf("Text(%d) = %q, want %q", int(e), got, want)
		}
	}
}
