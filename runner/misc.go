package runner

import "github.com/gofio/gofio/jobspec"

// oAtomic is the open flag atomic=1 adds to O_DIRECT: fio's O_ATOMIC
// (040000000), which Linux kernels without atomic-write support ignore,
// as they do for fio.
const oAtomic = 0o40000000

// hugeLen is the length of a job's buffer memory of n bytes: with huge
// pages (mem=shmhuge, mem=mmaphuge) fio rounds it up to a whole number
// of hugepage-size pages.
func hugeLen(j *jobspec.Job, n int) int {
	if j.Mem != jobspec.MemShmHuge && j.Mem != jobspec.MemMmapHuge {
		return n
	}
	hp := int(j.Misc.HugePage())
	if hp <= 0 {
		return n
	}
	return (n + hp - 1) / hp * hp
}
