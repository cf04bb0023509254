package jobspec

import (
	"fmt"
)

// VerifyType is verify: how a job checks the data it wrote.
type VerifyType uint8

// The verify choices gofio honours. VerifyCRC32CIntel is stored as
// VerifyCRC32C (fio 3.33 treats it as a synonym).
const (
	VerifyNone VerifyType = iota
	VerifyMD5
	VerifyCRC64
	VerifyCRC32C
	VerifyCRC32
	VerifyCRC16
	VerifyCRC7
	VerifySHA1
	VerifySHA3_224
	VerifySHA3_256
	VerifySHA3_384
	VerifySHA3_512
	VerifySHA256
	VerifySHA512
	VerifyXXHash
	VerifyMeta
	VerifyPattern
	VerifyNull
	// VerifyPatternHdr is what verify_pattern selects when verify is not
	// given: fio 3.33 then writes its header (type 17) at the start of
	// each block and verify_pattern after it, and checks both. It has
	// no name of its own: verify=pattern writes the pattern alone.
	VerifyPatternHdr
)

// verifyTypes are verify's types, one per word of its row (crc32c-intel
// is crc32c).
var verifyTypes = choiceValues("verify", VerifyNone, VerifyMD5, VerifyCRC64, VerifyCRC32, VerifyCRC32C, VerifyCRC32C,
	VerifyCRC16, VerifyCRC7, VerifySHA1, VerifySHA256, VerifySHA512, VerifySHA3_224, VerifySHA3_256, VerifySHA3_384,
	VerifySHA3_512, VerifyXXHash, VerifyMeta, VerifyPattern, VerifyNull)

// String is the verify choice's name ("crc32c").
func (t VerifyType) String() string {
	if t == VerifyPatternHdr {
		return "pattern"
	}
	for i, c := range row("verify").Choices {
		if i > 0 && verifyTypes[i] == t && c.Word != "crc32c-intel" {
			return c.Word
		}
	}
	return "0"
}

// VerifyOptions are the verify options of a job.
type VerifyOptions struct {
	Type  VerifyType // verify
	Do    bool       // do_verify: read back and check after writing
	Only  bool       // verify_only: check without writing
	Fatal bool       // verify_fatal
	Dump  bool       // verify_dump: write the bad blocks to files
	// Experimental is experimental_verify: the verify phase replays the
	// offsets written and checks each header's write number too.
	Experimental bool
	// StateSave is verify_state_save: a writing job that verifies
	// writes its verify state file when it ends; StateLoad is
	// verify_state_load: the job checks only what the state file of the
	// job that wrote says was written.
	StateSave, StateLoad bool
	Interval             int    // verify_interval (bytes); 0: the block size
	Offset               int    // verify_offset (bytes): where the header is swapped to
	Pattern              []byte // verify_pattern, decoded; nil when unset
	// PatternOffsets are the places in Pattern of its %o formats, where
	// each block's offset goes (8 bytes, little-endian; fio's manual:
	// "for each block offset will be written and then verified back").
	PatternOffsets []int

	// Backlog is verify_backlog: check the blocks written so far each
	// time this many are unchecked, BacklogBatch (verify_backlog_batch,
	// 0: Backlog) of them at a time.
	Backlog      uint64
	BacklogBatch int

	// Trim: the trim-after-write options (verify_trim.go).
	Trim VerifyTrim
	// Async is verify_async (the verifier threads fio would start) and
	// AsyncCPUs verify_async_cpus; gofio verifies inline (verify_trim.go).
	Async     int
	AsyncCPUs []int

	typeSet bool // verify given explicitly
}

func setVerify(j *Job, i int, _ string, value string) error {
	j.Verify.Type, j.Verify.typeSet = verifyTypes[i], true
	return nil
}

// setVerifyPattern decodes verify_pattern (buffer_pattern's syntax); like
// fio, a pattern without an explicit verify selects the pattern check,
// with fio's header (VerifyPatternHdr).
func setVerifyPattern(j *Job, value string) error {
	p, offs, err := decodePatternFormat(value, true)
	if err != nil {
		return err
	}
	j.Verify.Pattern, j.Verify.PatternOffsets = p, offs
	if !j.Verify.typeSet {
		j.Verify.Type = VerifyPatternHdr
	}
	return nil
}

// HeaderSize is the size of the header fio 3.33 writes at the start of
// each block (or verify_interval) for verify type t: 40 bytes and the
// checksum; 0 for the types without a header (pattern, null, none).
func (t VerifyType) HeaderSize() int {
	if t == VerifyPatternHdr {
		return 40
	}
	sums := [...]int{VerifyMD5: 16, VerifyCRC64: 8, VerifyCRC32C: 4, VerifyCRC32: 4, VerifyCRC16: 2,
		VerifyCRC7: 1, VerifySHA1: 20, VerifySHA3_224: 28, VerifySHA3_256: 32, VerifySHA3_384: 48,
		VerifySHA3_512: 64, VerifySHA256: 64, VerifySHA512: 128, VerifyXXHash: 4, VerifyMeta: 0}
	if t == VerifyNone || t >= VerifyPattern {
		return 0
	}
	return 40 + sums[t]
}

// fitInterval settles verify_interval as fio 3.33 does (observed in the
// headers it writes): an interval that does not divide the smallest write
// block size becomes that block size, so blocksize=512 with
// verify_interval=1M, or bs=8k with verify_interval=3000, write one header
// per block.
func (o *VerifyOptions) fitInterval(j *Job) {
	if o.Interval == 0 && o.Type.HeaderSize() > 0 && !j.BSUnaligned && (j.BSMax[1] > j.BS[1] || len(j.BSSplit[1]) > 0) {
		// Observed in fio 3.33: with several write block sizes (bsrange,
		// bssplit) each smallest write block gets its own header (with
		// bs_unaligned, each I/O one).
		o.Interval = int(j.BS[1])
	}
	if bs := j.BS[1]; o.Interval > 0 && bs%uint64(o.Interval) != 0 {
		o.Interval = int(bs)
	}
}

// timeBasedNotice is fio's notice that a time_based job that only writes
// never reaches its verify phase (without verify_backlog; observed in
// fio 3.33, on stdout, once per job), or "".
func (o *VerifyOptions) timeBasedNotice(j *Job) string {
	if !j.TimeBased || o.Type == VerifyNone || !(o.Do || o.Only) || o.Backlog > 0 || !j.RW.Writes() || j.RW.Reads() {
		return ""
	}
	return "fio: verification read phase will never start because write phase uses all of runtime"
}

// problem is the error of verify settings gofio refuses to run with
// (where fio 3.33 crashes or fails its own check), or "".
func (o *VerifyOptions) problem(j *Job) string {
	hs := o.Type.HeaderSize()
	chunk := o.Interval
	if chunk == 0 {
		chunk = int(j.BS[1])
		if !j.RW.Writes() {
			chunk = int(j.BS[0])
		}
	}
	switch {
	case o.Type == VerifyNone:
		return ""
	case o.Trim.problem(j) != "":
		return o.Trim.problem(j)
	case o.Type == VerifyPattern && len(o.Pattern) == 0:
		return fmt.Sprintf("gofio: job %s: verify=pattern needs verify_pattern (fio 3.33 aborts on an assertion)", j.Name)
	case o.Only && j.TimeBased:
		return fmt.Sprintf("gofio: job %s: verify_only does not work with time_based (fio 3.33 fails the job)", j.Name)
	case hs == 0:
		return ""
	case o.Interval > 0 && o.Interval < hs:
		return fmt.Sprintf("gofio: job %s: verify_interval=%d is smaller than the %d-byte verify header of verify=%s", j.Name, o.Interval, hs, o.Type)
	case o.Offset > 0 && o.Offset < hs:
		// fio 3.33 fails its own check of such blocks.
		return fmt.Sprintf("gofio: job %s: verify_offset=%d overlaps the %d-byte verify header of verify=%s", j.Name, o.Offset, hs, o.Type)
	case o.Offset > 0 && o.Offset+hs > chunk:
		return fmt.Sprintf("gofio: job %s: verify_offset=%d: the %d-byte verify header does not fit in a %d-byte block", j.Name, o.Offset, hs, chunk)
	}
	for d, use := range []bool{j.RW.Reads(), j.RW.Writes()} {
		if bs := j.BS[d]; use && (bs < uint64(hs) || (o.Interval > 0 && bs%uint64(o.Interval) != 0)) {
			return fmt.Sprintf("gofio: job %s: block size %d does not fit the %d-byte verify header of verify=%s (or is not a multiple of verify_interval)", j.Name, bs, hs, o.Type)
		}
	}
	if o.Type == VerifySHA512 {
		for d, use := range []bool{j.RW.Reads(), j.RW.Writes()} {
			c := j.BS[d]
			if o.Interval > 0 && uint64(o.Interval) < c {
				c = uint64(o.Interval)
			}
			if use && c < uint64(hs)+128 {
				return fmt.Sprintf("gofio: job %s: verify=sha512 needs chunks of at least %d bytes, not %d (fio 3.33 fails its own check of smaller ones)", j.Name, hs+128, c)
			}
		}
	}
	return ""
}
