package jobspec

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gofio/gofio/parser"
)

// TestAddFileAllocations bounds what adding a job section costs under
// --parse-only, per option, for sections of many options: a section's
// options are not copied (fio reads them in place). The bound is about
// twice what is needed.
func TestAddFileAllocations(t *testing.T) {
	opts := []string{"bs=4k", "rw=randread", "iodepth=16", "size=1m", "filename=/dev/null",
		"ioengine=psync", "numjobs=1", "runtime=10", "time_based", "direct=0", "rwmixread=70",
		"thread", "group_reporting", "norandommap", "randrepeat=0"}
	var b strings.Builder
	const sections, perSection = 20, 300
	for i := range sections {
		fmt.Fprintf(&b, "[job%d]\n", i)
		for k := range perSection {
			b.WriteString(opts[k%len(opts)] + "\n")
		}
	}
	kw := parser.Keywords{PageSize: 4096, MBMemory: 1024, NCPUs: 2}
	c := parser.Config{Keywords: &kw}
	secs, err := c.ParseJobFile("big.fio", strings.NewReader(b.String()))
	if err != nil || len(secs) != sections {
		t.Fatal(len(secs), err)
	}
	bld := NewBuilder(&Config{DryRun: true})
	if err := bld.EndCmdline(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := bld.AddFile(secs); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / (sections * perSection)
	t.Logf("%d bytes allocated per option", per)
	if per > 200 {
		t.Errorf("adding a section allocates %d bytes per option, want at most 200", per)
	}
}
