// Package errno turns errors into the errno values fio reports, and
// errnos into the C library's text for them.
package errno

import (
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Of extracts the errno of a syscall error (EIO for anything else).
func Of(err error) unix.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(unix.Errno); ok {
		return e
	}
	return unix.EIO
}

// Text is the C library's text for an errno ("Invalid argument").
func Text(e unix.Errno) string {
	s := e.Error()
	if s == "" {
		return "Unknown error " + strconv.Itoa(int(e))
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
