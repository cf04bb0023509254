package runner

// fio's random streams. fio 3.33 repeats its random choices by default
// (randrepeat=1): each job has 21 seeds, made from randseed and the job's
// thread number, and each decision (offset, block size, read/write mix,
// file, percentage_random, ...) draws from a stream of its own, seeded
// from one of them. gofio seeds and draws the same way, so that a seeded
// job issues the same offsets, sizes and directions as fio
// (docs/compat.md lists what still differs).

import (
	"math/rand/v2"

	"github.com/gofio/gofio/jobspec"
)

// Seed slots, in fio's order.
const (
	seedBS = iota
	seedBS1
	seedBS2
	seedVerify
	seedMix
	seedFile
	seedBlock
	seedFileSize
	seedTrim
	seedBuf
	seedSeqRand
	seedSeqRandWrite
	seedSeqRandTrim
	seedStartDelay
	seedDedupe
	seedPoisson
	seedZone
	seedPoisson2
	seedPoisson3
	seedPrio
	seedDedupeWS
	nSeeds
)

// fioRandSeed is fio's fixed seed (FIO_RANDSEED): with randrepeat, the
// offset stream of job tn is seeded with it times tn.
const fioRandSeed = 0xb1899bed

// jobSeeds returns the seed slots of job j, and whether randrepeat is in
// force when the job runs (then every stream restarts at each loop).
//
// As observed in fio 3.33: randseed=N fills the slots from N (N, times
// 0x9e370001 four times, then slot i = x·tn + i with x multiplied again
// after each slot); randrepeat=0 without randseed takes them from the
// system's randomness; allrandrepeat=1 sets slot i to 0xb1899bed·tn + i.
// A job is seeded before randseed turns its randrepeat off, so with
// randrepeat on at that moment the offset slot becomes 0xb1899bed·tn —
// also for a job with randseed, whose clones (numjobs) inherit randrepeat
// off and keep the slot made from N.
func jobSeeds(j *jobspec.Job) (seeds [nSeeds]uint64, repeat bool) {
	tn := uint64(max(j.ThreadNumber, 1))
	atSeed := j.RandRepeat && !(j.RandSeedSet && j.JobNum != 0)
	if !atSeed && !j.RandSeedSet {
		for i := range seeds {
			seeds[i] = rand.Uint64()
		}
	} else {
		x := j.RandSeed
		for range 4 {
			x *= 0x9e370001
		}
		for i := range seeds {
			seeds[i] = x*tn + uint64(i)
			x *= 0x9e370001
		}
	}
	if j.AllRandRepeat {
		for i := range seeds {
			seeds[i] = fioRandSeed*tn + uint64(i)
		}
	}
	if atSeed {
		seeds[seedBlock] = fioRandSeed * tn
	}
	return seeds, j.RandRepeat && !j.RandSeedSet
}
