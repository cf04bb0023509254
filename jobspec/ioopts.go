package jobspec

import (
	"os"
	"slices"
	"strconv"
	"strings"
)

// IOOptions are the options that shape a job's I/O beyond rw and bs: block
// size ranges and splits, offsets, random generation, buffer contents and
// memory, and file handling. Job embeds it, so each field reads as a Job
// field (j.BSMax); the runner's I/O generator is their one reader. Values
// reach the setters in this file after the option reader accepted them.
type IOOptions struct {
	// BSMax is the largest block size per direction (bsrange, bssplit);
	// a value below BS means BS (a plain bs= set since).
	BSMax       [3]uint64
	BSSplit     [3][]BSSplit // bssplit, per direction; nil when unset
	BSUnaligned bool         // bs_unaligned
	BlockAlign  [3]uint64    // ba; 0 aligns to the block size
	BSIsSeqRand bool         // bs_is_seq_rand: BS[0] for sequential, BS[1] for random I/O
	// bsRanged marks the directions whose block sizes bsrange or bssplit
	// set: fio lets those options override bs whatever their order.
	bsRanged [3]bool

	RWSequencer        RWSequencer // rw_sequencer
	OffsetAlign        uint64      // offset_align; 0: the smallest block size
	OffsetIncrement    uint64      // offset_increment in bytes
	OffsetIncrementPct int         // offset_increment=N%: percent of the file size; 0 when unset
	PercentageRandom   [3]int      // percentage_random, per direction
	RandomGenerator    RandomGenerator
	AllRandRepeat      bool
	SoftRandomMap      bool

	ZeroBuffers              bool
	RefillBuffers            bool
	ScrambleBuffers          bool
	BufferPattern            []byte // buffer_pattern, decoded; nil when unset
	BufferCompressPercentage int
	BufferCompressChunk      int
	DedupePercentage         int
	DedupeMode               DedupeMode
	DedupeWorkingSetPct      int // dedupe_working_set_percentage
	DedupeGlobal             bool
	Mem                      MemType
	MemPath                  string // mem=mmap:PATH, mmaphuge:PATH
	IOMemAlign               int

	OpenFiles         int // openfiles; 0 means nrfiles
	FileService       FileService
	FileServiceNR     int     // the :N of roundrobin:N and sequential:N (1 when unset)
	FileServiceParam  float64 // the :F of zipf, pareto, normal; 0 when unset
	CreateOnOpen      bool
	CreateSerialize   bool
	Fallocate         FallocateMode
	FadviseHint       FadviseHint
	DiskUtil          bool // disk_util: the job's devices are in "Disk stats"
	PreRead           bool
	UnlinkEachLoop    bool
	AllowFileCreate   bool
	AllowMountedWrite bool
	Sync              SyncMode // sync=: O_SYNC or O_DSYNC writes
	FsyncOnClose      bool
	// SyncFileRange issues sync_file_range(2) with SyncFileRangeFlags
	// after every SyncFileRange writes; 0 when unset.
	SyncFileRange      int
	SyncFileRangeFlags int

	RandomDist [3]Distribution // random_distribution per direction (pacing.go)
	Pacing                     // thinktime and rate (pacing.go)
}

// BSSplit is one size/percentage entry of bssplit.
type BSSplit struct {
	Size    uint64
	Percent int // share of the I/Os; entries given none share the rest
}

// RWSequencer is rw_sequencer: what the I/Os after a random offset
// (rw=randread:N) do.
type RWSequencer uint8

// The rw_sequencer choices.
const (
	SeqSequential RWSequencer = iota // continue sequentially
	SeqIdentical                     // repeat the same offset
)

// RandomGenerator is random_generator.
type RandomGenerator uint8

// The random_generator choices.
const (
	GenTausworthe RandomGenerator = iota
	GenLFSR
	GenTausworthe64
)

// DedupeMode is dedupe_mode: which earlier buffer a deduplicated write
// repeats.
type DedupeMode uint8

// The dedupe_mode choices.
const (
	DedupeRepeat     DedupeMode = iota // the previous buffer
	DedupeWorkingSet                   // one of a working set
)

// MemType is mem (iomem): what the I/O buffers are allocated from.
type MemType uint8

// The mem choices.
const (
	MemMalloc MemType = iota
	MemShm
	MemShmHuge
	MemMmap
	MemMmapShared
	MemMmapHuge
)

// FileService is file_service_type.
type FileService uint8

// The file_service_type choices.
const (
	ServiceRoundRobin FileService = iota
	ServiceSequential
	ServiceRandom
	ServiceZipf
	ServicePareto
	ServiceNormal
)

// FallocateMode is fallocate: how files are preallocated when laid out.
type FallocateMode uint8

// The fallocate choices.
const (
	FallocNative FallocateMode = iota
	FallocNone
	FallocPosix
	FallocKeep
	FallocTruncate
)

// FadviseHint is fadvise_hint: the access pattern announced to the
// kernel for each file's region when it is opened.
type FadviseHint uint8

// The fadvise_hint choices.
const (
	FadvisePattern    FadviseHint = iota // 1: random for random I/O, else sequential
	FadviseNone                          // 0: no hint
	FadviseRandom                        // random
	FadviseSequential                    // sequential
)

// SyncMode is sync: whether writes are opened O_SYNC or O_DSYNC.
type SyncMode uint8

// The sync choices.
const (
	SyncNone SyncMode = iota
	SyncSync
	SyncDsync
)

// sync_file_range flags (SYNC_FILE_RANGE_*).
const (
	SyncFileRangeWaitBefore = 1
	SyncFileRangeWrite      = 2
	SyncFileRangeWaitAfter  = 4
)

// clone deep-copies the slices of o.
func (o IOOptions) clone() IOOptions {
	for d := range o.BSSplit {
		o.BSSplit[d] = append([]BSSplit(nil), o.BSSplit[d]...)
	}
	o.BufferPattern = append([]byte(nil), o.BufferPattern...)
	for d := range o.RandomDist {
		o.RandomDist[d] = o.RandomDist[d].clone()
	}
	return o
}

// MaxBS returns the largest block size of each direction.
func (j *Job) MaxBS() [3]uint64 {
	m := j.BS
	for d := range m {
		m[d] = max(m[d], j.BSMax[d])
	}
	return m
}

// setBSRange reads bsrange: ','-separated "lo-hi" or "lo:hi" ranges per
// direction, filled as bs fills its slots: piece i sets direction i, the
// last piece also the directions after it, and an empty or unreadable
// piece leaves its direction alone (fio 3.33: "1k-4k,,2k-8k" keeps the
// write block size). Each bound is read as far as it is a number, so
// "512/25:1k:25" is the range 512-1k, as in fio.
func setBSRange(j *Job, value string) error {
	set := false
	for i, p := range pieces(value, false) {
		if i >= 3 {
			break
		}
		lo, hi, ok := readRange(p.Text, j.KBBase)
		if !ok || lo < 1 {
			continue
		}
		for d := i; d < 3 && (d == i || !p.More); d++ {
			if j.BSSplit[d] != nil && (j.BS[d] != uint64(lo) || j.MaxBS()[d] != uint64(hi)) {
				// fio 3.33 keeps drawing from the bssplit list
				// but within the new range: it spins or does no I/O.
				return &RefusedError{Reason: "fio 3.33 keeps drawing block sizes from the bssplit given before it, " +
					"within this range, and spins or does no I/O; give a bssplit whose sizes lie in the range, or bsrange alone"}
			}
			j.BS[d], j.BSMax[d], j.bsRanged[d] = uint64(lo), uint64(hi), true
		}
		set = true
	}
	if !set {
		return errNoNumber
	}
	return nil
}

// setBSSplit reads bssplit: per direction (',') a ':' list of size/percent
// entries; later directions take the last list given. The smallest and
// largest sizes become the direction's block size range.
func setBSSplit(j *Job, value string) error {
	lists := strings.Split(value, ",")
	var last []BSSplit
	for d := 0; d < 3; d++ {
		if d < len(lists) && lists[d] != "" {
			last = nil
			for _, e := range strings.Split(lists[d], ":") {
				if e == "" {
					continue
				}
				size, pct, _ := strings.Cut(e, "/")
				sv, err := parseSize(size, j.KBBase)
				if err != nil {
					return errNoNumber
				}
				if sv.N < 1 {
					// fio 3.33 (observed): bssplit=0/100 is ignored,
					// 4k/50:0/50 with bs=16k does no I/O, -1 fails
					// the job on a block size of 2^64-1.
					return &RefusedError{Reason: "fio 3.33 reads a block size of 0 or less in bssplit as 0 or 2^64-N, " +
						"and then ignores the list, does no I/O or fails the job; give sizes of at least 1 (bs for one size)"}
				}
				p, _, _ := cStrtoll(pct, 10)
				last = append(last, BSSplit{Size: uint64(sv.N), Percent: int(min(max(p, 0), 100))})
			}
		}
		if len(last) == 0 {
			continue
		}
		j.BSSplit[d] = append([]BSSplit(nil), last...)
		lo, hi := last[0].Size, last[0].Size
		for _, e := range last {
			lo, hi = min(lo, e.Size), max(hi, e.Size)
		}
		j.BS[d], j.BSMax[d], j.bsRanged[d] = lo, hi, true
	}
	return nil
}

// setPerDirUint returns a setter for a per-direction size option.
// setPerDirUint returns the setter of a per-direction unsigned option
// (ba, rate, rate_min): each piece that reads sets its direction, stored
// as fio's unsigned 64-bit field stores it (rate=-1 is 2^64-1, a
// percentage N% is 2^64-1-N: no limit to speak of).
func setPerDirUint(field func(*Job) *[3]uint64) func(*Job, string) error {
	return perDirUint(field, func(v int64) uint64 { return uint64(v) })
}

// setPerDirUint32 is setPerDirUint for an option fio keeps in 32 bits
// (rate_iops, rate_iops_min): rate_iops=50% is 4294967245.
func setPerDirUint32(field func(*Job) *[3]uint64) func(*Job, string) error {
	return perDirUint(field, func(v int64) uint64 { return uint64(uint32(v)) })
}

func perDirUint(field func(*Job) *[3]uint64, conv func(int64) uint64) func(*Job, string) error {
	return func(j *Job, value string) error {
		v, set := slots(value, j.KBBase, 3, func(int64) bool { return true })
		f := field(j)
		for d := range 3 {
			if set[d] {
				f[d] = conv(v[d])
			}
		}
		return nil
	}
}

// setPercentageRandom reads percentage_random per direction. fio keeps
// it in 32 unsigned bits: -5 or 50% (2^64-51) are above 100, which
// makes every offset random, as 100 does.
func setPercentageRandom(j *Job, value string) error {
	v, set := slots(value, j.KBBase, 3, func(n int64) bool { return int32(n) <= 100 })
	for d := range 3 {
		if set[d] {
			j.PercentageRandom[d] = int(min(uint32(v[d]), 100))
		}
	}
	return nil
}

var storeRWSequencer = storeChoice(func(j *Job) *RWSequencer { return &j.RWSequencer }, SeqSequential, SeqIdentical)

func setOffsetIncrement(j *Job, value string) error {
	var ok bool
	for _, p := range splitPieces(value) {
		if n, isZ := zoneCount(p); isZ {
			j.OffsetIncrement, j.OffsetIncrementPct, j.Zone.counts.offsetInc, ok = 0, 0, n, true
			continue
		}
		v, err := parseSize(p, j.KBBase)
		if err != nil {
			continue
		}
		if v.Percent {
			j.OffsetIncrementPct, j.OffsetIncrement = int(v.N), 0
		} else {
			j.OffsetIncrement, j.OffsetIncrementPct = uint64(v.N), 0
		}
		j.Zone.counts.offsetInc = 0
		ok = true
	}
	if !ok {
		return errNoNumber
	}
	return nil
}

var storeDedupeMode = storeChoice(func(j *Job) *DedupeMode { return &j.DedupeMode }, DedupeRepeat, DedupeWorkingSet)

var storeRandomGenerator = storeChoice(func(j *Job) *RandomGenerator { return &j.RandomGenerator },
	GenTausworthe, GenLFSR, GenTausworthe64)

// setBufferPattern decodes buffer_pattern: 0x hex strings, decimal
// integers (stored little-endian in the fewest bytes that hold them),
// "quoted strings" and 'file' contents, concatenated.
func setBufferPattern(j *Job, value string) error {
	p, err := decodePattern(value)
	if err != nil {
		return err
	}
	j.BufferPattern = p
	return nil
}

func decodePattern(s string) ([]byte, error) {
	out, _, err := decodePatternFormat(s, false)
	return out, err
}

// decodePatternFormat is decodePattern that, with formats, also reads
// verify_pattern's %o: 8 bytes for a block's offset, whose places in the
// pattern it returns.
func decodePatternFormat(s string, formats bool) (out []byte, offsets []int, err error) {
	for s != "" {
		switch {
		case s[0] == ' ' || s[0] == '\t':
			s = s[1:]
		case formats && strings.HasPrefix(s, "%o"):
			offsets = append(offsets, len(out))
			out = append(out, make([]byte, 8)...)
			s = s[2:]
		case s[0] == '"' || s[0] == '\'':
			end := strings.IndexByte(s[1:], s[0])
			if end <= 0 {
				return nil, nil, errNoNumber
			}
			text := s[1 : end+1]
			if s[0] == '\'' {
				b, err := os.ReadFile(text)
				if err != nil {
					return nil, nil, errNoNumber
				}
				out = append(out, b...)
			} else {
				out = append(out, text...)
			}
			s = s[end+2:]
		case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
			i := 2
			for i < len(s) && isHexDigit(s[i]) {
				i++
			}
			hex := s[2:i]
			if hex == "" {
				return nil, nil, errNoNumber
			}
			if len(hex)%2 == 1 {
				hex = "0" + hex
			}
			for k := 0; k < len(hex); k += 2 {
				b, _ := strconv.ParseUint(hex[k:k+2], 16, 8)
				out = append(out, byte(b))
			}
			s = s[i:]
		default:
			v, n, err := cStrtoll(s, 10)
			if n == 0 || err != nil {
				return nil, nil, errNoNumber
			}
			u := uint32(v)
			out = append(out, byte(u))
			for u >>= 8; u != 0; u >>= 8 {
				out = append(out, byte(u))
			}
			s = s[n:]
		}
	}
	if len(out) == 0 {
		return nil, nil, errNoNumber
	}
	return out, offsets, nil
}

// memValues are mem's types, one per word of its row.
var memValues = choiceValues("mem", MemMalloc, MemShm, MemShmHuge, MemMmap, MemMmapShared, MemMmapHuge)

// setMem reads mem (iomem): a type, and for the mmap types an optional
// :PATH of a file to map.
func setMem(j *Job, i int, word, value string) error {
	j.Mem, j.MemPath = memValues[i], ""
	if rest, ok := strings.CutPrefix(value[len(word):], ":"); ok {
		j.MemPath = rest
	}
	return nil
}

// fileServices are file_service_type's values, one per word of its row
// (gauss is normal).
var fileServices = choiceValues("file_service_type", ServiceRandom, ServiceZipf, ServicePareto, ServiceNormal,
	ServiceNormal, ServiceRoundRobin, ServiceSequential)

func setFileService(j *Job, i int, word, value string) error {
	s := fileServices[i]
	j.FileService, j.FileServiceNR, j.FileServiceParam = s, 1, 0
	rest, ok := strings.CutPrefix(value[len(word):], ":")
	if !ok {
		return nil
	}
	switch s {
	case ServiceZipf, ServicePareto, ServiceNormal:
		if f, n := cStrtod(rest); n > 0 {
			j.FileServiceParam = f
		}
	case ServiceRoundRobin, ServiceSequential, ServiceRandom:
		if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil && n > 0 {
			j.FileServiceNR = n
		}
	}
	return nil
}

// fallocate=0 is none, 1 is posix.
var storeFallocate = storeChoice(func(j *Job) *FallocateMode { return &j.Fallocate },
	FallocNone, FallocNative, FallocPosix, FallocKeep, FallocTruncate, FallocNone, FallocPosix)

var storeFadviseHint = storeChoice(func(j *Job) *FadviseHint { return &j.FadviseHint },
	FadviseNone, FadvisePattern, FadviseRandom, FadviseSequential)

// sync=0 is none, 1 is sync.
var storeSync = storeChoice(func(j *Job) *SyncMode { return &j.Sync }, SyncNone, SyncNone, SyncSync, SyncSync, SyncDsync)

// syncFileRangeFlags are sync_file_range's flags, one per word of its row.
var syncFileRangeFlags = choiceValues("sync_file_range", SyncFileRangeWaitBefore, SyncFileRangeWrite, SyncFileRangeWaitAfter)

// setSyncFileRange reads sync_file_range=FLAGS[:N]: FLAGS a ','-list of
// the row's words; N the writes between calls (1 when unset).
func setSyncFileRange(j *Job, value string) error {
	words, count, _ := strings.Cut(value, ":")
	flags := 0
	for _, w := range strings.Split(words, ",") {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		i := slices.IndexFunc(row("sync_file_range").Choices, func(c Choice) bool { return c.Word == w })
		if i < 0 {
			return errChoice
		}
		flags |= syncFileRangeFlags[i]
	}
	n := 1
	if count != "" {
		v, err := parseSize(count, j.KBBase)
		if err != nil || v.Percent || v.N < 1 {
			return errNoNumber
		}
		n = int(v.N)
	}
	j.SyncFileRange, j.SyncFileRangeFlags = n, flags
	return nil
}
