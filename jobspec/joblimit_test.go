package jobspec

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gofio/gofio/parser"
)

// TestJobLimit checks fio 3.33's job table (observed): at most MaxJobs
// jobs, clones included; the job or clone over it fails the run with
// fio's two lines, the jobs added before it kept (a job whose clones did
// not fit is kept alone, announced without its "..." line).
func TestJobLimit(t *testing.T) {
	const full = "error: maximum number of jobs reached.\nerror: failed to setup shm segment\n"
	sections := func(n int) string {
		var b strings.Builder
		b.WriteString("[global]\nioengine=null\nsize=4k\n")
		for i := range n {
			fmt.Fprintf(&b, "[j%d]\n", i)
		}
		return b.String()
	}
	cases := []struct {
		name    string
		cmdline []string
		file    string
		fails   bool
		jobs    int // jobs added
		numJobs int // the last job's NumJobs
	}{
		{"numjobs at the limit", []string{"name=a", "numjobs=4088"}, "", false, 4088, 4088},
		{"numjobs over", []string{"name=a", "numjobs=4089"}, "", true, 1, 1},
		{"numjobs far over", []string{"name=a", "numjobs=100000"}, "", true, 1, 1},
		{"numjobs=0", []string{"name=a", "numjobs=0"}, "", true, 1, 1},
		{"second job's clones", []string{"name=b", "name=a", "numjobs=4088"}, "", true, 2, 1},
		{"job after a full table", []string{"name=a", "numjobs=4088", "name=b"}, "", true, 4088, 4088},
		{"sections at the limit", nil, sections(4088), false, 4088, 1},
		{"sections over", nil, sections(4089), true, 4088, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			b := NewBuilder(&Config{Stdout: &stdout, Stderr: &stderr})
			err := func() error {
				for i, a := range c.cmdline {
					k, v, _ := strings.Cut(a, "=")
					o := parser.Option{Name: k, Value: v, HasValue: true, Raw: "--" + a, Pos: parser.Pos{File: parser.CmdlineFile, Line: i + 1}}
					if err := b.CmdlineOption(o); err != nil {
						return err
					}
				}
				if err := b.EndCmdline(); err != nil {
					return err
				}
				if c.file != "" {
					secs, err := (&parser.Config{}).ParseJobFile("job.fio", strings.NewReader(c.file))
					if err != nil {
						return err
					}
					return b.AddFile(secs)
				}
				return nil
			}()
			jobs := b.Jobs()
			last := 0
			if len(jobs) > 0 {
				last = jobs[len(jobs)-1].NumJobs
			}
			if (err != nil) != c.fails || len(jobs) != c.jobs || last != c.numJobs {
				t.Errorf("error %v, %d jobs, the last with numjobs=%d; want failure %v, %d jobs, numjobs=%d",
					err, len(jobs), last, c.fails, c.jobs, c.numJobs)
			}
			want := ""
			if c.fails {
				want = full
			}
			if stderr.String() != want {
				t.Errorf("stderr %q; want %q", stderr.String(), want)
			}
		})
	}
}
