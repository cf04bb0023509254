package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// --memcpytest[=LIST]: the throughput of fio's memory copy variants over
// a range of sizes. fio 3.33 prints, per variant in its order whatever
// order the list names them in, the variant's name, then a line per size,
// "\t8 bytes:\t  840.04 MiB/sec"; an unknown name is
// "fio: unknown hash `X`. Available:" (sic) on stderr and the names on
// stdout, exit 1 (observed). The rates are the machine's.

// memcpyNames are the variants, in fio's order.
var memcpyNames = []string{"memcpy", "memmove", "simple", "hybrid"}

// memcpySizes are the sizes each variant copies.
var memcpySizes = []int{8, 16, 96, 128, 256, 512, 2048, 8192, 131072, 262144, 524288}

// memcpyMinTime is how long each size is copied at least.
const memcpyMinTime = 20 * time.Millisecond

// memcpyFunc returns variant name's copy: the runtime's copy, a copy
// between overlapping halves of one buffer, a byte loop, and a byte loop
// for small sizes with the runtime's copy above.
func memcpyFunc(name string) func(dst, src []byte) {
	switch name {
	case "memmove":
		return func(dst, src []byte) {
			b := dst[:len(src)+len(src)/2]
			copy(b[len(src)/2:], b[:len(src)])
		}
	case "simple":
		return func(dst, src []byte) {
			//lint:ignore S1001 the variant is the byte loop
			for i := range src {
				dst[i] = src[i]
			}
		}
	case "hybrid":
		return func(dst, src []byte) {
			if len(src) < 64 {
				//lint:ignore S1001 the variant is the byte loop
				for i := range src {
					dst[i] = src[i]
				}
				return
			}
			copy(dst, src)
		}
	}
	return func(dst, src []byte) { copy(dst, src) }
}

// memcpyTest carries out --memcpytest and returns the exit status.
func memcpyTest(value string, hasValue bool, stdout, stderr io.Writer) int {
	want := strings.Split(value, ",")
	if hasValue {
		for i, n := range want {
			if n == "" && (i > 0 || value != "") {
				continue
			}
			if !slices.Contains(memcpyNames, n) {
				fmt.Fprintf(stderr, "fio: unknown hash `%s`. Available:\n", n)
				for _, m := range memcpyNames {
					fmt.Fprintln(stdout, m)
				}
				return 1
			}
		}
	}
	maxSize := slices.Max(memcpySizes)
	src, dst := make([]byte, maxSize), make([]byte, 2*maxSize)
	for i := range src {
		src[i] = byte(i*7 + 3)
	}
	for _, name := range memcpyNames {
		if hasValue && !slices.Contains(want, name) {
			continue
		}
		fmt.Fprintln(stdout, name)
		cp := memcpyFunc(name)
		for _, size := range memcpySizes {
			var n int
			start := time.Now()
			for n == 0 || time.Since(start) < memcpyMinTime {
				for range 64 {
					cp(dst, src[:size])
				}
				n += 64
			}
			secs := time.Since(start).Seconds()
			fmt.Fprintf(stdout, "\t%d bytes:\t%8.2f MiB/sec\n", size, float64(n)*float64(size)/(1<<20)/secs)
		}
	}
	return 0
}
