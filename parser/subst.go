package parser

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// expandEnv replaces ${NAME} in a job-file line as fio does: the name runs
// to the first '}' (so "${A${B}}" looks up "A${B" and leaves "}"), an
// unset or empty name gives "", an unterminated "${" is kept literally,
// and the result is not scanned again. fio builds the result in an
// 8192-byte buffer: a variable whose value does not fit is left out
// entirely, literal text is cut where the buffer is full.
func expandEnv(line string, env func(string) (string, bool)) string {
	if !strings.Contains(line, "${") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] == '$' && i+1 < len(line) && line[i+1] == '{' {
			j := strings.IndexByte(line[i+2:], '}')
			if j >= 0 {
				var val string
				if env != nil {
					val, _ = env(line[i+2 : i+2+j])
				}
				if b.Len()+len(val) <= maxLine {
					b.WriteString(val)
				}
				i += j + 3
				continue
			}
		}
		if b.Len() < maxLine {
			b.WriteByte(line[i])
		}
		i++
	}
	return b.String()
}

// Keywords are the values fio substitutes for $pagesize, $mb_memory and
// $ncpus in job files.
type Keywords struct {
	PageSize int64 // bytes
	MBMemory int64 // physical memory in MiB, rounded down
	NCPUs    int64 // configured CPUs
}

var (
	hostOnce sync.Once
	hostKW   Keywords
)

// HostKeywords returns the keyword values of this machine, computed the
// way fio 3.33 on glibc computes them: the page size, physical pages ×
// page size / 1 MiB, and the number of /sys/devices/system/cpu/cpuN
// entries (sysconf(_SC_NPROCESSORS_CONF)), falling back to the Go runtime's
// CPU count.
func HostKeywords() Keywords {
	hostOnce.Do(func() {
		ps := int64(os.Getpagesize())
		hostKW = Keywords{PageSize: ps, MBMemory: physMemBytes(ps) / (1 << 20), NCPUs: confCPUs()}
	})
	return hostKW
}

var cpuDir = regexp.MustCompile(`^cpu[0-9]+$`)

func confCPUs() int64 {
	ents, err := os.ReadDir("/sys/devices/system/cpu")
	n := int64(0)
	if err == nil {
		for _, e := range ents {
			if cpuDir.MatchString(e.Name()) {
				n++
			}
		}
	}
	if n == 0 {
		n = int64(runtime.NumCPU())
	}
	return n
}

// physMemBytes is the physical memory in whole pages, from /proc/meminfo.
func physMemBytes(pageSize int64) int64 {
	f, err := os.Open(filepath.Join("/proc", "meminfo"))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024 / pageSize * pageSize
		}
	}
	return 0
}

// replaceKeywords substitutes the reserved keywords anywhere in the line
// (case-sensitive, also inside longer words: "$ncpusx" gives "2x").
func replaceKeywords(line string, kw Keywords) (string, bool) {
	if !strings.Contains(line, "$") {
		return line, false
	}
	replaced := false
	for _, k := range [...]struct {
		word string
		val  int64
	}{{"$pagesize", kw.PageSize}, {"$mb_memory", kw.MBMemory}, {"$ncpus", kw.NCPUs}} {
		if strings.Contains(line, k.word) {
			line = strings.ReplaceAll(line, k.word, strconv.FormatInt(k.val, 10))
			replaced = true
		}
	}
	return line, replaced
}

// needsMath is fio's condition for sending a value to bc: a keyword was
// replaced, the line has an arithmetic operator and no single quote, the
// line is shorter than 128 bytes and the value at most 100.
func needsMath(line, value string) bool {
	return strings.ContainsAny(line, "+-*/") && !strings.Contains(line, "'") &&
		len(line) < 128 && len(value) <= 100
}
