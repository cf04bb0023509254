package main

import (
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// clockShape masks the machine's numbers in --cpuclock-test's lines.
var (
	clockPid    = regexp.MustCompile(`^time +\d+ +`)
	clockNumber = regexp.MustCompile(`\d+(\.\d+)?`)
	clockCPU    = regexp.MustCompile(`cpu +N:`)
)

// clockShapes are the lines of out with numbers masked, fio's lines
// about its fixed-point cycle conversion left out (docs/compat.md).
func clockShapes(out string) []string {
	var shapes []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.Contains(l, "sft=") || strings.Contains(l, "max_cycles_shift") || strings.Contains(l, "clock_mult") ||
			strings.Contains(l, "max_ticks=") || strings.Contains(l, "cycles_start=") {
			continue
		}
		l = clockPid.ReplaceAllString(l, "time PID ")
		l = clockCPU.ReplaceAllString(clockNumber.ReplaceAllString(l, "N"), "cpu N:")
		shapes = append(shapes, l)
	}
	return shapes
}

// TestCpuclockTestVsFio compares --cpuclock-test's lines with fio
// 3.33's, numbers masked: the reliable_tsc line, the 50 calibration
// samples and their statistics in the time debug class, one line per
// CPU, the verdict, and the exit status.
func TestCpuclockTestVsFio(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("fio's CPU clock is the x86 time-stamp counter")
	}
	fs, fout, ferr := runFioStatus(t, t.TempDir(), "--cpuclock-test")
	gs, gout, gerr := gofio(t, "--cpuclock-test")
	if gs != fs || gerr != ferr || !slices.Equal(clockShapes(gout), clockShapes(fout)) {
		t.Errorf("gofio --cpuclock-test = %d, %q, %q\nfio: %d, %q, %q", gs, clockShapes(gout), gerr, fs, clockShapes(fout), ferr)
	}
}
