package main

import (
	"bytes"
	"compress/zlib"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInflateLogCommand checks --inflate-log's output, messages and exit
// statuses, which are fio 3.33's (observed).
func TestInflateLogCommand(t *testing.T) {
	dir := t.TempDir()
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	// One sample: time 5, value 1, write (with its offset flag), bs 4096,
	// offset 8192.
	zw.Write([]byte{5, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0x80, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0})
	zw.Close()
	for n, b := range map[string][]byte{"good.fz": z.Bytes(), "empty.fz": nil, "text": []byte("hello\n")} {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		file         string
		status       int
		stdout, errs string
	}{
		{"good.fz", 0, "5, 1, 1, 4096, 8192, 0\n", ""},
		{"missing", 1, "", "fopen: No such file or directory\n"},
		{".", 1, "", "fread: Is a directory\n"},
		{"empty.fz", 1, "", "fio: short read on reading log\n"},
		{"text", 253, "", "fio: failed inflating log: -3\n"},
	}
	for _, tt := range tests {
		var out, errs strings.Builder
		status := inflateLog(filepath.Join(dir, tt.file), &out, &errs)
		if status != tt.status || out.String() != tt.stdout || errs.String() != tt.errs {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want %d, %q, %q", tt.file, status, out.String(), errs.String(), tt.status, tt.stdout, tt.errs)
		}
	}
}
