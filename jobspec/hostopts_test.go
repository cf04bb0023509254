package jobspec

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fakeNodes points nodeRoot at a directory with NUMA nodes 0 and 1 for
// the test.
func fakeNodes(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	for _, n := range []string{"node0", "node1"} {
		if err := os.Mkdir(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := nodeRoot
	nodeRoot = dir
	t.Cleanup(func() { nodeRoot = old })
}

func nodes(ns ...int) NodeMask {
	var m NodeMask
	for _, n := range ns {
		m.Set(n)
	}
	return m
}

// TestHostOptionSetters checks what uid, gid, the NUMA and the cgroup
// options store (fio 3.33's readings, observed with strace).
func TestHostOptionSetters(t *testing.T) {
	fakeNodes(t)
	tests := []struct {
		args []string
		want HostOptions
	}{
		{nil, HostOptions{}},
		{[]string{"uid=65534", "gid=100"}, HostOptions{UID: 65534, UIDSet: true, GID: 100, GIDSet: true}},
		{[]string{"uid=1k"}, HostOptions{UID: 1024, UIDSet: true}},
		{[]string{"uid=0x10"}, HostOptions{UID: 16, UIDSet: true}},
		{[]string{"uid=5,6"}, HostOptions{UID: 5, UIDSet: true}},
		{[]string{"uid=-5"}, HostOptions{UID: 4294967291, UIDSet: true}}, // no minimum
		{[]string{"uid=4294967296"}, HostOptions{UID: 0, UIDSet: true}},  // 32 bits
		{[]string{"uid=-1"}, HostOptions{UID: 4294967295}},               // no switch
		{[]string{"gid=5", "gid=-1"}, HostOptions{GID: 4294967295}},
		{[]string{"numa_cpu_nodes=1"}, HostOptions{CPUNodes: nodes(1), CPUNodesSet: true}},
		{[]string{"numa_cpu_nodes=all"}, HostOptions{CPUNodes: nodes(0, 1), CPUNodesSet: true}},
		{[]string{"numa_cpu_nodes=0-1"}, HostOptions{CPUNodes: nodes(0, 1), CPUNodesSet: true}},
		{[]string{"numa_mem_policy=local"}, HostOptions{MemPolicy: MemPolicyLocal}},
		{[]string{"numa_mem_policy=default"}, HostOptions{MemPolicy: MemPolicyDefault}},
		{[]string{"numa_mem_policy=prefer:1"}, HostOptions{MemPolicy: MemPolicyPrefer, MemNodes: nodes(1)}},
		{[]string{"numa_mem_policy=bind:0,1"}, HostOptions{MemPolicy: MemPolicyBind, MemNodes: nodes(0, 1)}},
		{[]string{"numa_mem_policy=interleave:all"}, HostOptions{MemPolicy: MemPolicyInterleave, MemNodes: nodes(0, 1)}},
		{[]string{"cgroup=fio/a", "cgroup_weight=500", "cgroup_nodelete=1"}, HostOptions{Cgroup: "fio/a", CgroupWeight: 500, CgroupNoDelete: true}},
	}
	for _, tt := range tests {
		s := &session{cmdline: append([]string{"name=a"}, tt.args...)}
		p, err := s.run(t)
		if err != nil {
			t.Errorf("%q: %v\n%s", tt.args, err, s.stderr.String())
			continue
		}
		if err := p.Unsupported(); err != nil {
			t.Errorf("%q: %v", tt.args, err)
		}
		if got := p.Jobs[0].HostOptions; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %+v; want %+v", tt.args, got, tt.want)
		}
	}
}

// TestHostOptionErrors checks fio 3.33's messages for bad NUMA values
// (observed with a single node; the fake host here has nodes 0 and 1).
func TestHostOptionErrors(t *testing.T) {
	fakeNodes(t)
	str := func(s string) *string { return &s }
	const (
		cpuFail = "fio: file:options.c:803, func=str_numa_cpunodes_cb, error=Operation not permitted\n"
		memFail = "fio: file:options.c:902, func=str_numa_memnodes_cb, error=Operation not permitted\n"
	)
	tests := []struct {
		key            string
		value          string
		dry, ok        bool
		stdout, stderr string
	}{
		{"numa_cpu_nodes", "5", false, false, cpuFail, "libnuma: Warning: node argument 5 is out of range\n\nfio: numa_parse_nodestring failed\n"},
		{"numa_cpu_nodes", "0,5", false, false, cpuFail, "libnuma: Warning: node argument 5 is out of range\n\nfio: numa_parse_nodestring failed\n"},
		{"numa_cpu_nodes", "xyz", false, false, cpuFail, "libnuma: Warning: unparseable node description `xyz'\n\nfio: numa_parse_nodestring failed\n"},
		{"numa_cpu_nodes", "", false, false, "", "fio: option numa_cpu_nodes requires an argument\n"},
		{"numa_cpu_nodes", "5", true, true, "", ""}, // dry runs check nothing
		{"numa_cpu_nodes", "0-1", false, true, "", ""},
		{"numa_mem_policy", "foo", false, false, "", "fio: memory policy should be: default, prefer, bind, interleave, local\n"},
		{"numa_mem_policy", "BIND:0", false, false, "", "fio: memory policy should be: default, prefer, bind, interleave, local\n"},
		{"numa_mem_policy", "prefer", false, false, "", "fio: one node is needed for 'prefer'\n"},
		{"numa_mem_policy", "prefer:0,1", false, false, "", "fio: one node only for 'prefer'\n"},
		{"numa_mem_policy", "bind", false, false, "", "fio: a nodelist is needed for 'bind'\n"},
		{"numa_mem_policy", "interleave", false, false, "", "fio: a nodelist is needed for 'interleave'\n"},
		{"numa_mem_policy", "local:0", false, false, "", "fio: NO nodelist for 'local'\n"},
		{"numa_mem_policy", "default:0", false, false, "", "fio: NO nodelist for 'local'\n"},
		{"numa_mem_policy", "bind:5", false, false, memFail, "libnuma: Warning: node argument 5 is out of range\n\nfio: numa_parse_nodestring failed\n"},
		{"numa_mem_policy", "bind:x", false, false, memFail, "libnuma: Warning: unparseable node description `x'\n\nfio: numa_parse_nodestring failed\n"},
		{"numa_mem_policy", "", false, false, "", "fio: option numa_mem_policy requires an argument\n"},
		{"numa_mem_policy", "bind:5", true, true, "", ""},
		{"numa_mem_policy", "local", false, true, "", ""},
	}
	for _, tt := range tests {
		ok, stdout, stderr := readOne(t, tt.key, str(tt.value), tt.dry)
		if ok != tt.ok || stdout != tt.stdout || stderr != tt.stderr {
			t.Errorf("%s=%s (dry %v): got %v, %q, %q; want %v, %q, %q", tt.key, tt.value, tt.dry, ok, stdout, stderr, tt.ok, tt.stdout, tt.stderr)
		}
	}
}
