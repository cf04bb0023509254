package jobspec

import (
	"math/rand/v2"

	"github.com/gofio/gofio/internal/rng"
)

// setStartDelay reads startdelay: a time, or a range low-high from which
// the job's delay is drawn when it is added (drawStartDelay).
func setStartDelay(j *Job, value string) error {
	ps := pieces(value, true)
	// fio stores the first piece if it reads (startdelay=abc,1 keeps
	// the low end as it was).
	if v, err := parseTimeInt(ps[0].Text, second); err == nil {
		j.StartDelay, j.StartDelayHigh = uint64(v), 0
	}
	if len(ps) > 1 {
		if hi, err := parseTimeInt(ps[1].Text, second); err == nil {
			j.StartDelayHigh = uint64(hi)
		}
	}
	return nil
}

// drawStartDelay settles a startdelay range as fio 3.33 does when it adds
// the job (observed): one draw between the two ends, both included, from
// the job's start-delay stream, seeded like the job's other random
// streams (slot 13: randseed, or 0xb1899bed with allrandrepeat, times the
// job's thread number, plus 13; random without randrepeat and randseed).
// numjobs clones keep the delay drawn for their job.
func (j *Job) drawStartDelay() {
	lo, hi := j.StartDelay, j.StartDelayHigh
	if hi <= lo {
		return
	}
	const slot = 13
	tn := uint64(max(j.ThreadNumber, 1))
	var seed uint64
	switch {
	case j.AllRandRepeat:
		seed = 0xb1899bed*tn + slot
	case j.RandRepeat || j.RandSeedSet:
		x := j.RandSeed
		for range 4 + slot {
			x *= 0x9e370001
		}
		seed = x*tn + slot
	default:
		seed = rand.Uint64()
	}
	var r rng.Stream
	r.Seed(seed, j.RandomGenerator == GenTausworthe64)
	j.StartDelay = r.Between(lo, hi)
}
