package jobspec

// ZoneMode is zonemode.
type ZoneMode uint8

// The zonemode choices.
const (
	ZoneNone    ZoneMode = iota // zonemode=none: the zone sizes are ignored
	ZoneStrided                 // zonemode=strided
	ZoneZBD                     // zonemode=zbd: zones emulated over files and non-zoned devices
)

// ZoneOptions are the zone options. With zonemode=strided, zonesize bytes
// are done in each zone of zonerange bytes before the next zone, zoneskip
// bytes after its end. With zonemode=zbd, zonesize is the size of a
// zone, each with a write pointer (runner/zbd.go); the zbd-only options
// (zonecapacity, read_beyond_wp, max_open_zones, job_max_open_zones,
// ignore_zone_limits, zone_reset_threshold, zone_reset_frequency) are
// read and, as fio does outside zonemode=zbd, ignored in other modes.
type ZoneOptions struct {
	Mode     ZoneMode
	Size     uint64 // zonesize
	Capacity uint64 // zonecapacity
	Range    uint64 // zonerange
	// Skip is zoneskip. fio 3.33 stores zoneskip=N% as -(N+1) bytes and
	// steps by that; gofio does the same.
	Skip int64

	ReadBeyondWP     bool
	MaxOpenZones     int
	JobMaxOpenZones  int
	IgnoreZoneLimits bool
	ResetThreshold   float64
	ResetFrequency   float64

	// counts are the values given as a number of zones ("2z"), by field,
	// until the job is added and zonesize is known; 0 when unset.
	counts zoneCounts
}

// zoneCounts are size, offset, io_size, offset_increment and zoneskip
// given in zones.
type zoneCounts struct {
	size, offset, ioSize, offsetInc, skip uint64
}

// resolveZones turns the values given in zones into bytes: N zones are N
// times zonesize (fio's manual: the 'z' suffix), which is 0 unless
// zonemode is strided (or zbd): size=2z alone is the whole file.
func (j *Job) resolveZones() {
	c, zs := &j.Zone.counts, j.Zone.Size
	if c.size > 0 {
		j.Size = c.size * zs
	}
	if c.offset > 0 {
		j.Offset = c.offset * zs
	}
	if c.ioSize > 0 {
		j.IOSize = c.ioSize * zs
	}
	if c.offsetInc > 0 {
		j.OffsetIncrement = c.offsetInc * zs
	}
	if c.skip > 0 {
		j.Zone.Skip = int64(c.skip * zs)
	}
	*c = zoneCounts{}
}

// zoneCount reads a zone count ("4z"); ok is false for other values.
func zoneCount(text string) (n uint64, ok bool) {
	if !isZones(text) {
		return 0, false
	}
	v, _, _ := cStrtoll(text, 10)
	return uint64(v), true
}

// storeZoneMode stores zonemode.
var storeZoneMode = storeChoice(func(j *Job) *ZoneMode { return &j.Zone.Mode }, ZoneNone, ZoneStrided, ZoneZBD)

// setZoneSkip reads zoneskip: a size, N zones ("1z"), or N% which fio
// 3.33 turns into a step of -(N+1) bytes.
func setZoneSkip(j *Job, value string) error {
	var ok bool
	for _, p := range pieces(value, true) {
		if n, isZ := zoneCount(p.Text); isZ {
			j.Zone.Skip, j.Zone.counts.skip, ok = 0, n, true
			continue
		}
		v, err := parseSize(p.Text, j.KBBase)
		if err != nil {
			continue
		}
		if v.Percent {
			j.Zone.Skip = -int64(v.N) - 1
		} else {
			j.Zone.Skip = v.N
		}
		j.Zone.counts.skip = 0
		ok = true
	}
	if !ok {
		return errNoNumber
	}
	return nil
}

// zoneProblem returns fio's refusal of the job's zone settings, or "".
func (j *Job) zoneProblem() string {
	z := &j.Zone
	switch {
	case z.Mode == ZoneNone && z.Size != 0:
		return "fio: --zonemode=none and --zonesize are not compatible."
	case z.Mode == ZoneStrided && z.Size == 0:
		return "fio: --zonesize must be specified when using --zonemode=strided."
	}
	return ""
}
