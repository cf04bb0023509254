package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gofio/gofio/runner/statlog"
)

// inflateLog carries out --inflate-log=name: the log that a job stored
// with log_store_compressed is written to stdout as text, and the exit
// status returned. The messages and statuses are fio 3.33's (observed):
// a file that cannot be opened or read, or an empty one, exits 1; data
// that is not zlib exits 253.
func inflateLog(name string, stdout, stderr io.Writer) int {
	data, err := os.ReadFile(name)
	if err != nil {
		op := "fread"
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Op == "open" {
			op = "fopen"
		}
		fmt.Fprintf(stderr, "%s: %s\n", op, errText(err))
		return 1
	}
	if len(data) == 0 {
		fmt.Fprintln(stderr, "fio: short read on reading log")
		return 1
	}
	if err := statlog.InflateLog(stdout, bytes.NewReader(data)); err != nil {
		fmt.Fprintln(stderr, err)
		if errors.Is(err, statlog.ErrInflate) {
			return 253
		}
		return 1
	}
	return 0
}
