package clock

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Sleep sleeps ns nanoseconds on the calling thread. The call is raw, as
// the I/O loop's are: the job keeps its P, so waking up costs no scheduler
// round trip before the next I/O is issued. A signal ends the sleep early
// and it goes on for the rest.
func Sleep(ns int64) {
	ts := unix.NsecToTimespec(ns)
	for {
		_, _, e := unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), uintptr(unsafe.Pointer(&ts)), 0)
		if e != unix.EINTR {
			return
		}
	}
}
