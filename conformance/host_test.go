package conformance

import (
	"os"
	"strings"
	"testing"
)

// This file compares fio 3.33 and gofio on uid, gid, numa_cpu_nodes,
// numa_mem_policy and the cgroup options: the messages for bad values,
// and runs that fail setting up the job (whose output is deterministic).

func TestHostOptions(t *testing.T) {
	base := []string{"--name=a", "--ioengine=null", "--size=64k"}
	tests := [][]string{
		// Values fio refuses while reading them.
		{"--uid=abc"},
		{"--gid=abc"},
		{"--numa_cpu_nodes=4000"},
		{"--numa_cpu_nodes=xyz"},
		{"--numa_cpu_nodes="},
		{"--numa_mem_policy=foo"},
		{"--numa_mem_policy=prefer"},
		{"--numa_mem_policy=prefer:0,1"},
		{"--numa_mem_policy=bind"},
		{"--numa_mem_policy=local:0"},
		{"--numa_mem_policy=bind:4000"},
		{"--numa_mem_policy=bind:x"},
		{"--cgroup_weight=50"},
		{"--cgroup_weight=2000"},
		// Values fio accepts under --parse-only.
		{"--parse-only", "--numa_cpu_nodes=4000", "--numa_mem_policy=bind:4000"},
	}
	if _, err := os.Stat("/sys/fs/cgroup/blkio/tasks"); err == nil && os.Geteuid() == 0 {
		// Jobs that fail joining their group.
		tests = append(tests,
			[]string{"--cgroup=gofio-conformance-none/sub"},
			[]string{"--cgroup=gofio-conformance-none/sub", "--uid=65534"},
		)
	}
	for _, args := range tests {
		full := append(append([]string(nil), base...), args...)
		want, got := both(t, t.TempDir(), "", full...)
		want, got = maskThreadRun(want), maskThreadRun(got)
		if d := diffResults(want, got, ""); d != "" {
			t.Errorf("fio %s: gofio's %s", strings.Join(full, " "), d)
		}
	}
}
