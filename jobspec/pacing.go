package jobspec

import (
	"strings"
)

// Options that shape when and where a job's random I/O goes: the
// random_distribution of offsets, think time between I/Os and the rate
// caps (rate, rate_iops). The runner reads them in runner/dist.go and
// runner/rate.go.

// DistKind is the kind of a random_distribution.
type DistKind uint8

// The random_distribution kinds.
const (
	DistRandom DistKind = iota
	DistZipf
	DistPareto
	DistNormal
	DistZoned
	DistZonedAbs
)

// Distribution is one direction's random_distribution.
type Distribution struct {
	Kind DistKind
	// Param is zipf's theta, pareto's h or normal's deviation (percent of
	// the range; 0 when not given).
	Param float64
	// Center, when HasCenter, places the most likely value at this
	// fraction of the range.
	Center    float64
	HasCenter bool
	// Zones are the zoned and zoned_abs entries, in order.
	Zones []Zone
}

// Zone is one ACCESS/SIZE entry of a zoned distribution: Access percent of
// the I/Os go to the next Size percent of the range (zoned) or Bytes bytes
// (zoned_abs).
type Zone struct {
	Access int
	Size   int
	Bytes  uint64
}

// Pacing holds thinktime and the rate options.
type Pacing struct {
	ThinkTime       uint64 // µs
	ThinkTimeSpin   uint64 // µs
	ThinkTimeBlocks int
	// ThinkTimeIssue counts thinktime_blocks at issue instead of at
	// completion (thinktime_blocks_type=issue).
	ThinkTimeIssue  bool
	ThinkTimeIOTime uint64 // µs

	Rate                [3]uint64 // bytes/s per direction; 0: no cap
	RateIOPS            [3]uint64 // I/Os per second per direction
	RatePoisson         bool      // rate_process=poisson
	RateCycle           int       // ms
	RateIgnoreThinktime bool
}

// clone deep-copies the zones.
func (d Distribution) clone() Distribution {
	d.Zones = append([]Zone(nil), d.Zones...)
	return d
}

// distKinds are random_distribution's kinds, one per word of its row.
var distKinds = choiceValues("random_distribution", DistRandom, DistZipf, DistPareto, DistNormal, DistZoned, DistZonedAbs)

// setRandomDistribution stores random_distribution; the reader has checked
// the value with fio's messages. A zoned value may hold up to three
// ','-separated lists (read, write, trim) filled like bssplit's.
func setRandomDistribution(j *Job, i int, word, value string) error {
	k := distKinds[i]
	rest := strings.TrimPrefix(value[len(word):], ":")
	var ds [3]Distribution
	switch k {
	case DistZoned, DistZonedAbs:
		lists := strings.Split(rest, ",")
		if len(lists) > 3 {
			lists = lists[:3]
		}
		for d := range 3 {
			i := min(d, len(lists)-1)
			ds[d] = Distribution{Kind: k, Zones: parseZones(lists[i], k == DistZonedAbs, j.KBBase)}
		}
	default:
		dist := Distribution{Kind: k}
		switch k {
		case DistZipf:
			dist.Param = 1.1
		case DistPareto:
			dist.Param = 0.2
		case DistNormal:
			dist.Center = 0.5
		}
		params, _, _ := strings.Cut(rest, ",")
		if params != "" {
			p, cen, hasCen := strings.Cut(params, ":")
			if f, n := cStrtod(p); n > 0 {
				dist.Param = f
			}
			if hasCen {
				if f, n := cStrtod(cen); n > 0 {
					dist.Center, dist.HasCenter = f, true
				}
			}
		}
		ds = [3]Distribution{dist, dist.clone(), dist.clone()}
	}
	j.RandomDist = ds
	return nil
}

// parseZones reads "ACC/SIZE:ACC/SIZE..." entries; entries without a size
// share what the others leave of 100% (zoned) or of the file (zoned_abs,
// Bytes 0).
func parseZones(list string, abs bool, kbBase int) []Zone {
	var zs []Zone
	used, missing := 0, 0
	for _, e := range strings.Split(list, ":") {
		if e == "" {
			continue
		}
		a, b, _ := strings.Cut(e, "/")
		av, _, _ := cStrtoll(a, 10)
		z := Zone{Access: int(av)}
		if abs {
			if bv, err := parseSize(b, kbBase); err == nil {
				z.Bytes = uint64(bv.plain())
			}
		} else {
			bv, _, _ := cStrtoll(b, 10)
			z.Size = int(bv)
			if z.Size == 0 {
				missing++
			}
			used += z.Size
		}
		zs = append(zs, z)
	}
	if !abs && missing > 0 && used < 100 {
		share := (100 - used) / missing
		for i := range zs {
			if zs[i].Size == 0 {
				zs[i].Size = share
			}
		}
	}
	return zs
}

var storeThinkTimeBlocksType = storeChoice(func(j *Job) *bool { return &j.ThinkTimeIssue }, false, true)

var storeRateProcess = storeChoice(func(j *Job) *bool { return &j.RatePoisson }, false, true)
