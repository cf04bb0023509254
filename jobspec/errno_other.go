//go:build !unix

package jobspec

import "syscall"

// errnoByName finds an errno by its C name; other systems have no table.
func errnoByName(name string) (syscall.Errno, bool) { return 0, false }
