// Package debuglog is gofio's --debug log: fio 3.33's debug classes, the
// option's value syntax and its line format, "<class> <pid> <message>",
// the class name left-aligned in 8 columns and the pid in 5, as fio
// prints them on its informational output.
//
// Call sites test a class before they format anything, so that a run
// without --debug pays one load and one test per site:
//
//	if debuglog.On(debuglog.IO) {
//		debuglog.Printf(debuglog.IO, tid, "queue: ...", ...)
//	}
package debuglog

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Class is one of fio's debug classes.
type Class uint8

// fio 3.33's debug classes, in the order --debug=help lists them.
const (
	Process Class = iota
	File
	IO
	Mem
	Blktrace
	Verify
	Random
	Parse
	Diskutil
	Job
	Mutex
	Profile
	Time
	Net
	Rate
	Compress
	Steadystate
	Helperthread
	Zbd
	numClasses
)

var names = [numClasses]string{
	"process", "file", "io", "mem", "blktrace", "verify", "random", "parse",
	"diskutil", "job", "mutex", "profile", "time", "net", "rate", "compress",
	"steadystate", "helperthread", "zbd",
}

// String returns the class's name as fio spells it.
func (c Class) String() string {
	if c < numClasses {
		return names[c]
	}
	return "class" + strconv.Itoa(int(c))
}

// Mask is a set of classes.
type Mask uint32

// On reports whether c is in m.
func (m Mask) On(c Class) bool { return m&(1<<c) != 0 }

var (
	mask  atomic.Uint32
	jobNo atomic.Int64 // the job of job:N, or -1 for all jobs

	mu  sync.Mutex
	out io.Writer = os.Stdout
	buf []byte
)

func init() { jobNo.Store(-1) }

// On reports whether class c is enabled.
func On(c Class) bool { return Mask(mask.Load()).On(c) }

// Enabled returns the enabled classes.
func Enabled() Mask { return Mask(mask.Load()) }

// ForJob returns the classes enabled for the lines a job's thread prints:
// none when --debug named another job with job:N (N counts jobs from 0,
// in the order fio adds them). As in fio 3.33, job:N selects among jobs
// run as processes: a thread=1 job's lines are all printed (observed).
func ForJob(index int, thread bool) Mask {
	if n := jobNo.Load(); n >= 0 && int64(index) != n && !thread {
		return 0
	}
	return Mask(mask.Load())
}

// SetOutput sets where the lines go (stdout until then; nil: stdout
// again). w need not be safe for concurrent use: Printf serializes its
// writes.
func SetOutput(w io.Writer) {
	if w == nil {
		w = os.Stdout
	}
	mu.Lock()
	out = w
	mu.Unlock()
}

// Reset disables every class and the job filter (for tests).
func Reset() {
	mask.Store(0)
	jobNo.Store(-1)
}

// Printf prints one line of class c for pid (a process or thread id),
// in fio's format; a newline is added unless format ends with one.
func Printf(c Class, pid int, format string, args ...any) {
	mu.Lock()
	defer mu.Unlock()
	b := append(buf[:0], c.String()...)
	for n := len(b); n < 8; n++ {
		b = append(b, ' ')
	}
	b = append(b, ' ')
	p := len(b)
	b = strconv.AppendInt(b, int64(pid), 10)
	for n := len(b) - p; n < 5; n++ {
		b = append(b, ' ')
	}
	b = append(b, ' ')
	b = fmt.Appendf(b, format, args...)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	out.Write(b)
	buf = b
}

// Pid is the process id gofio's main thread prints its lines with.
var Pid = os.Getpid()

// HelpLine is what fio prints for --debug=help and --debug=?.
func HelpLine() string {
	return "fio: dumping debug options:" + strings.Join(names[:], ",") + ",all"
}

// IsHelp reports whether value (the whole of --debug's value) asks for
// the list of classes: fio takes "?" and "help" only alone.
func IsHelp(value string) bool { return value == "?" || value == "help" }

// Set enables what value, --debug's comma-separated list, names, as fio
// 3.33 does: "all", a class name (fio accepts any word that starts with
// one, "parsex" sets parse), and job:N. It prints fio's line for each
// item on info and fio's complaint for each one it does not know on
// errs; fio goes on after those, so Set never fails.
func Set(value string, info, errs io.Writer) {
	for _, item := range strings.Split(value, ",") {
		switch {
		case item == "all":
			mask.Store(1<<numClasses - 1)
			fmt.Fprintln(info, "fio: set all debug options")
			continue
		case strings.HasPrefix(item, "job"):
			// "job" alone (or "jobs") asks for a number; the class
			// job itself is only reached through "all".
			num, ok := strings.CutPrefix(item, "job:")
			if !ok {
				fmt.Fprintln(errs, "fio: missing job number")
				continue
			}
			n := atoiPrefix(num)
			jobNo.Store(n)
			fmt.Fprintf(info, "fio: set debug jobno %d\n", n)
			continue
		}
		found := false
		for c, name := range names {
			if strings.HasPrefix(item, name) {
				for {
					old := mask.Load()
					if mask.CompareAndSwap(old, old|1<<c) {
						break
					}
				}
				fmt.Fprintf(info, "fio: set debug option %s\n", item)
				found = true
				break
			}
		}
		if !found {
			fmt.Fprintf(errs, "fio: debug mask %s not found\n", item)
		}
	}
}

// atoiPrefix reads the leading decimal number of s as C's atoi does:
// "1x" is 1, "x" is 0.
func atoiPrefix(s string) int64 {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.ParseInt(s[:i], 10, 64)
	return n
}
