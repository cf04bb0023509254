package jobspec

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// HostOptions are the options that move a job's thread to other
// credentials or NUMA placement before its I/O: uid, gid,
// numa_cpu_nodes, numa_mem_policy and the cgroup options. Job embeds it.
type HostOptions struct {
	// UID and GID are the ids the job switches to (uid, gid); fio keeps
	// them as 32-bit values, and -1 (the default) is no switch.
	UID, GID       uint32
	UIDSet, GIDSet bool

	// CPUNodes are numa_cpu_nodes' nodes: the job runs on their CPUs.
	CPUNodes    NodeMask
	CPUNodesSet bool
	// MemPolicy is numa_mem_policy's mode (MemPolicyNone when unset) and
	// MemNodes its nodes.
	MemPolicy MemPolicy
	MemNodes  NodeMask

	// Cgroup is the control group the job runs in (cgroup), under the
	// cgroup v1 blkio hierarchy; CgroupWeight its blkio.weight
	// (cgroup_weight, 0: not written); CgroupNoDelete keeps the group
	// after the job (cgroup_nodelete).
	Cgroup         string
	CgroupWeight   int
	CgroupNoDelete bool
}

// NodeMask is a set of NUMA nodes, as set_mempolicy(2) takes it (1024
// nodes, which is what fio passes).
type NodeMask [16]uint64

// Set adds node n.
func (m *NodeMask) Set(n int) { m[n/64] |= 1 << (n % 64) }

// IsSet reports whether node n is in the set.
func (m *NodeMask) IsSet(n int) bool { return n >= 0 && n < 1024 && m[n/64]&(1<<(n%64)) != 0 }

// MemPolicy is a numa_mem_policy mode.
type MemPolicy int

// The numa_mem_policy modes.
const (
	MemPolicyNone MemPolicy = iota // not given
	MemPolicyDefault
	MemPolicyPrefer
	MemPolicyBind
	MemPolicyInterleave
	MemPolicyLocal
)

// memPolicies are numa_mem_policy's words, by MemPolicy.
var memPolicies = [...]string{MemPolicyDefault: "default", MemPolicyPrefer: "prefer", MemPolicyBind: "bind", MemPolicyInterleave: "interleave", MemPolicyLocal: "local"}

// setID returns the setter of uid or gid: the first piece truncated to
// 32 bits, with no range check (fio's minimum of 0 is none: uid=-5 is
// 4294967291); -1 is no switch.
func setID(name string, field func(*Job) (*uint32, *bool)) func(*Job, string) error {
	return func(j *Job, value string) error {
		v, err := intPiece(name, value, j.KBBase)
		if err != nil {
			if anyPiece(value, j.KBBase) {
				return nil
			}
			return err
		}
		p, set := field(j)
		*p = uint32(v)
		*set = *p != math.MaxUint32
		return nil
	}
}

var (
	setUID = setID("uid", func(j *Job) (*uint32, *bool) { return &j.UID, &j.UIDSet })
	setGID = setID("gid", func(j *Job) (*uint32, *bool) { return &j.GID, &j.GIDSet })
)

var (
	setCgroup           = func(j *Job, value string) error { j.Cgroup = value; return nil }
	storeCgroupWeight   = storeInt(func(j *Job) *int { return &j.CgroupWeight })
	storeCgroupNoDelete = boolStore(func(j *Job) *bool { return &j.CgroupNoDelete })
)

// nodeRoot is where Linux lists the NUMA nodes (a variable for tests).
var nodeRoot = "/sys/devices/system/node"

// hasNode reports whether NUMA node n exists here.
func hasNode(n int) bool {
	_, err := os.Stat(fmt.Sprintf("%s/node%d", nodeRoot, n))
	return err == nil
}

// parseNodes reads a node list as libnuma does for fio: "all", or
// numbers and A-B ranges separated by ','. Each node must exist. The
// error is libnuma's warning line.
func parseNodes(s string) (NodeMask, error) {
	var m NodeMask
	if s == "all" {
		for n := 0; n < 1024; n++ {
			if hasNode(n) {
				m.Set(n)
			}
		}
		return m, nil
	}
	bad := fmt.Errorf("libnuma: Warning: unparseable node description `%s'", s)
	for _, el := range strings.Split(s, ",") {
		a, b, isRange := strings.Cut(el, "-")
		lo, err := strconv.Atoi(a)
		if err != nil || lo < 0 {
			return m, bad
		}
		hi := lo
		if isRange {
			if hi, err = strconv.Atoi(b); err != nil || hi < 0 {
				return m, bad
			}
		}
		for _, n := range []int{lo, hi} {
			if n >= 1024 || !hasNode(n) {
				return m, fmt.Errorf("libnuma: Warning: node argument %d is out of range", n)
			}
		}
		if hi < lo {
			return m, bad
		}
		for n := lo; n <= hi; n++ {
			if hasNode(n) {
				m.Set(n)
			}
		}
	}
	return m, nil
}

// parseMemPolicy reads numa_mem_policy: MODE[:NODES]. The error holds
// fio's message lines; nodeErr is set when the node list failed (fio then
// also reports an error on stdout).
func parseMemPolicy(value string) (p MemPolicy, m NodeMask, err error, nodeErr bool) {
	mode, nodes, hasNodes := strings.Cut(value, ":")
	for i, w := range memPolicies {
		if w != "" && w == mode {
			p = MemPolicy(i)
		}
	}
	switch {
	case p == MemPolicyNone:
		return p, m, fmt.Errorf("fio: memory policy should be: default, prefer, bind, interleave, local"), false
	case p == MemPolicyDefault || p == MemPolicyLocal:
		if hasNodes {
			// fio 3.33 names 'local' for both.
			return p, m, fmt.Errorf("fio: NO nodelist for 'local'"), false
		}
		return p, m, nil, false
	case !hasNodes && p == MemPolicyPrefer:
		return p, m, fmt.Errorf("fio: one node is needed for 'prefer'"), false
	case !hasNodes:
		return p, m, fmt.Errorf("fio: a nodelist is needed for '%s'", mode), false
	case p == MemPolicyPrefer:
		if strings.ContainsAny(nodes, ",-") || nodes == "all" {
			return p, m, fmt.Errorf("fio: one node only for 'prefer'"), false
		}
	}
	m, err = parseNodes(nodes)
	if err != nil {
		return p, m, fmt.Errorf("%w\n\nfio: numa_parse_nodestring failed", err), true
	}
	return p, m, nil, false
}

// setCPUNodes stores numa_cpu_nodes. checkCPUNodes has refused a bad
// list, except in dry runs, where fio accepts anything: a bad list then
// stores nothing.
func setCPUNodes(j *Job, value string) error {
	if m, err := parseNodes(value); err == nil {
		j.CPUNodes, j.CPUNodesSet = m, true
	}
	return nil
}

// setMemPolicy stores numa_mem_policy, as setCPUNodes does.
func setMemPolicy(j *Job, value string) error {
	if p, m, err, _ := parseMemPolicy(value); err == nil {
		j.MemPolicy, j.MemNodes = p, m
	}
	return nil
}

// checkCPUNodes checks numa_cpu_nodes' list (not in dry runs), with
// fio's messages.
func checkCPUNodes(r *reader, o *Option, value string) bool {
	if r.dry {
		return true
	}
	if value == "" {
		r.errf("fio: option %s requires an argument", o.Name)
		return false
	}
	if _, err := parseNodes(value); err != nil {
		r.errf("%s\n\nfio: numa_parse_nodestring failed", err)
		r.infof("fio: file:options.c:803, func=str_numa_cpunodes_cb, error=Operation not permitted")
		return false
	}
	return true
}

// checkMemPolicy checks numa_mem_policy (not in dry runs), with fio's
// messages.
func checkMemPolicy(r *reader, o *Option, value string) bool {
	if r.dry {
		return true
	}
	if value == "" {
		r.errf("fio: option %s requires an argument", o.Name)
		return false
	}
	if _, _, err, nodeErr := parseMemPolicy(value); err != nil {
		r.errf("%s", err)
		if nodeErr {
			r.infof("fio: file:options.c:902, func=str_numa_memnodes_cb, error=Operation not permitted")
		}
		return false
	}
	return true
}
