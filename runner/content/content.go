// Package content makes the contents of a job's write buffers (the
// buffer options) as fio 3.33 does.
//
// zero_buffers leaves zeros; buffer_pattern repeats the
// pattern; otherwise random bytes. As in fio, only a job that writes has
// its buffers filled, and only once: by the job's own thread when it
// starts (Filler.Initial), before its clock, a stop signal cutting the fill
// short. A job that only reads or trims leaves them as mapped, so its
// memory is touched only by its I/O (fio allocates iodepth × bs and, for
// reads, does not fill it). Nor is anything filled up front where every
// write fills its whole buffer anyway (refill_buffers, compression,
// dedupe), or where the memory is fresh zeros (zero_buffers). A write
// then gets, per unit:
//
//	refill_buffers              new random bytes
//	buffer_compress_percentage  new random bytes, each buffer_compress_chunk
//	                            ending in that percentage of zeros (or of
//	                            the pattern)
//	dedupe_percentage           that share of the buffers (a draw per
//	                            buffer) repeats another: with
//	                            dedupe_mode=repeat the next new one (its
//	                            seeds drawn without using them up), with
//	                            working_set one of the first new buffers
//	                            of dedupe_working_set_percentage of the
//	                            job's size, picked by a draw
//	scramble_buffers (default)  with none of the above, 8 bytes of each 512
//	                            changed, which defeats naive dedupe
//
// Contents are generated from seeds (a buffer to repeat is regenerated
// from its seed), so nothing is kept or allocated per write. The seeds
// and the bytes are fio 3.33's (observed): each fill draws a seed from
// the job's buffer stream (runner/fiorand.go) and expands it four 64-bit lanes
// at a time. The buffer stream's draws follow fio's: the files laid out
// with data (one seed per largest write block), then one seed per unit
// when the job starts (drawn even where gofio need not fill, so that the
// writes' seeds are fio's), then one per refilled write (per chunk when
// compressing). scramble_buffers puts the clock into fio's buffers, so
// their bytes cannot be fio's.
package content

import (
	"encoding/binary"

	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
)

// goldenRatio64 is the multiplier fio's random buffer lanes advance by.
const goldenRatio64 = 0x61C8864680B583EB

// Seeds are the seeds of a job's buffer streams: its buffer seeds, its
// dedupe draws and its working-set picks; Use64 selects the 64-bit
// generator (random_generator=tausworthe64).
type Seeds struct {
	Buf, Dedupe, DedupeWS uint64
	Use64                 bool
}

// Filler fills a job's write buffers.
type Filler struct {
	perWrite bool // fill runs for every write

	zeros    bool
	refill   bool
	scramble bool
	pattern  []byte
	compress int // percent of each chunk that compresses
	chunk    int
	dedupe   int // percent of writes repeating a buffer

	rng      rng.Stream   // dedupe draws
	bufRng   rng.Stream   // buffer seeds
	prev     rng.Stream   // bufRng as seeded (dedupe_percentage=100)
	wsRng    rng.Stream   // dedupe_mode=working_set: picks a page
	pages    []rng.Stream // the working set: bufRng at each page's start
	rep      rng.Stream   // a repeated buffer's stream
	draws    Draws        // draws made from rng and wsRng
	minBS    int          // the smallest write block (compression chunks)
	fioFills bool         // fio fills the buffers when the job starts
	count    uint64
}

// PerWrite reports whether every write needs Fill.
func (b *Filler) PerWrite() bool { return b.perWrite }

// FioFills reports whether fio fills the buffers when the job starts
// (drawing their seeds).
func (b *Filler) FioFills() bool { return b.fioFills }

// Draws is the count of draws made from the dedupe streams so far.
func (b *Filler) Draws() Draws { return b.draws }

// Skip draws and drops what laying a file out drew: seeds buffer seeds
// and the dedupe draws n.
func (b *Filler) Skip(seeds uint64, n Draws) {
	b.skipSeeds(seeds)
	b.skipDraws(n)
}

// SkipUnit makes the draws of a first fill of a unit of size bytes, as
// fio fills the buffers when the job starts, without filling: the dedupe
// draws, and the seeds unless the unit repeats another.
func (b *Filler) SkipUnit(size uint64) {
	if r := b.dedupeSource(); r == &b.bufRng {
		b.skipSeeds(b.seedsFor(size))
	}
}

// Pages is the number of pages of the dedupe working set.
func (b *Filler) Pages() int { return len(b.pages) }

// SharePages makes the working set shared by the run's jobs
// (dedupe_global) as fio 3.33 does (observed): every job takes an equal
// share of the page count, the job's own first pages first (it is
// starts[self]), then those of the jobs after it, wrapping round; a
// job's pages are the first new buffers of its own buffer stream, which
// starts[k] is as seeded.
func (b *Filler) SharePages(self int, starts []rng.Stream) {
	share := uint64(len(b.pages) / len(starts))
	if share == 0 {
		return
	}
	per := b.seedsFor(uint64(max(b.minBS, 1)))
	var r rng.Stream
	for i := range b.pages {
		if uint64(i)%share == 0 {
			r = starts[(self+i/int(share))%len(starts)]
		}
		b.pages[i] = r
		for range per {
			r.NextSeed()
		}
	}
}

// Init reads the buffer options of j; region is the bytes of the job's
// files (the dedupe working set is a share of the job's size, or of
// them); s seeds the streams.
func (b *Filler) Init(j *jobspec.Job, region uint64, s Seeds) {
	b.pattern = j.BufferPattern
	b.compress = j.BufferCompressPercentage
	b.chunk = j.BufferCompressChunk
	if b.chunk < 0 {
		b.chunk = 512
	}
	b.dedupe = j.DedupePercentage
	b.refill = j.RefillBuffers || b.compress > 0 || b.dedupe > 0
	b.scramble = j.ScrambleBuffers && !j.ZeroBuffers && b.pattern == nil && !b.refill
	if j.ZeroBuffers && b.compress == 0 && b.dedupe == 0 {
		// As observed in fio 3.33, buffer_compress_percentage and
		// dedupe_percentage take precedence over zero_buffers.
		b.zeros, b.refill = true, false
	}
	if b.compress >= 100 {
		// As in fio: all zeros.
		b.zeros, b.refill, b.compress = true, false, 0
	}
	b.perWrite = b.refill || b.scramble
	b.minBS = int(j.BS[1])
	b.fioFills = (j.RW.Writes() || len(j.ReadIolog) > 0) && !b.zeros && (b.pattern == nil || b.compress > 0)
	b.Reseed(s)
	b.pages = nil
	size := j.Size
	if size == 0 {
		size = region
	}
	if j.DedupeMode == jobspec.DedupeWorkingSet && b.dedupe > 0 && b.dedupe < 100 && size > 0 {
		// As observed in fio 3.33: the working set is the first new
		// buffers the job's buffer stream makes, each page the smallest
		// write block (its seeds one per compression chunk), as many as
		// dedupe_working_set_percentage of the job's size holds (with
		// none, every repeat is the first).
		bs := uint64(max(b.minBS, 1))
		n := size * uint64(j.DedupeWorkingSetPct) / 100 / bs
		per := b.seedsFor(bs)
		b.pages = make([]rng.Stream, max(n, 1))
		r := b.bufRng
		for i := range b.pages {
			b.pages[i] = r
			for range per {
				r.NextSeed()
			}
		}
	}
}

// dedupeSource takes a buffer's dedupe draws and returns the stream its
// seeds come from: the buffer stream for a new buffer, or a copy of the
// state a repeat starts from, which the fill leaves as it was (with
// dedupe_mode=repeat the buffer stream's own state, so that the repeat is
// the next new buffer, as in fio 3.33).
func (b *Filler) dedupeSource() *rng.Stream {
	if b.dedupe <= 0 || b.dedupe >= 100 {
		return &b.bufRng
	}
	b.draws.dedupe++
	if b.rng.Between(1, 100) > uint64(b.dedupe) {
		return &b.bufRng
	}
	b.rep = b.bufRng
	if len(b.pages) > 0 {
		b.draws.ws++
		b.rep = b.pages[b.wsRng.Between(0, uint64(len(b.pages)-1))]
	}
	return &b.rep
}

// Draws counts draws from the dedupe streams.
type Draws struct{ dedupe, ws uint64 }

// Since is d less the draws counted in e.
func (d Draws) Since(e Draws) Draws {
	return Draws{d.dedupe - e.dedupe, d.ws - e.ws}
}

// skipDraws makes n's draws from the dedupe streams and drops them.
func (b *Filler) skipDraws(n Draws) {
	for range n.dedupe {
		b.rng.Next()
	}
	for range n.ws {
		b.wsRng.Next()
	}
}

// LayoutFill fills c, a block of a file laid out before the job runs,
// as fio does: from the buffer stream like a write (dedupe draws
// included); it returns the buffer seeds drawn.
func (b *Filler) LayoutFill(c []byte) uint64 {
	if b.dedupe <= 0 {
		b.fresh(c)
		return b.seedsFor(uint64(len(c)))
	}
	r := b.dedupeSource()
	if b.dedupe >= 100 {
		b.Fill(c)
		return 0
	}
	b.freshFrom(c, r)
	if r != &b.bufRng {
		return 0
	}
	return b.seedsFor(uint64(len(c)))
}

// Reseed seeds the buffer streams from s.
func (b *Filler) Reseed(s Seeds) {
	b.bufRng.Seed(s.Buf, s.Use64)
	b.prev = b.bufRng
	b.rng.Seed(s.Dedupe, false)
	b.wsRng.Seed(s.DedupeWS, s.Use64)
}

// skipSeeds draws n buffer seeds and drops them.
func (b *Filler) skipSeeds(n uint64) {
	for range n {
		b.bufRng.NextSeed()
	}
}

// seedsFor is how many seeds a fresh fill of n bytes draws.
func (b *Filler) seedsFor(n uint64) uint64 {
	switch {
	case b.zeros || b.pattern != nil && b.compress == 0:
		return 0
	case b.compress > 0 || b.dedupe > 0:
		k := uint64(0)
		for left := int(n); left > 0; k++ {
			left -= b.chunkLen(left)
		}
		return k
	}
	return 1
}

// chunkLen is the length of the next compression chunk with left bytes
// to go: the smallest write block, capped by buffer_compress_chunk.
func (b *Filler) chunkLen(left int) int {
	c := min(max(b.minBS, 1), left)
	if b.chunk > 0 {
		c = min(c, b.chunk)
	}
	return c
}

// fresh fills buf as fio fills a buffer anew (laying out a file, the
// first fill, a refill): zeros or the pattern without a draw; otherwise
// fio's random bytes from a new seed, per compression chunk when
// compressing, the rest of each chunk zeros (or the pattern).
func (b *Filler) fresh(buf []byte) { b.freshFrom(buf, &b.bufRng) }

// freshFrom is fresh drawing its seeds from r.
func (b *Filler) freshFrom(buf []byte, r *rng.Stream) {
	switch {
	case b.zeros:
		clear(buf)
	case b.compress > 0 || b.dedupe > 0:
		// As in fio, per chunk (also with dedupe_percentage).
		for off := 0; off < len(buf); {
			c := buf[off : off+b.chunkLen(len(buf)-off)]
			keep := len(c) * (100 - b.compress) / 100
			FillRandom(c[:keep], r.NextSeed())
			if b.pattern != nil {
				FillPattern(c[keep:], b.pattern)
			} else {
				clear(c[keep:])
			}
			off += len(c)
		}
	case b.pattern != nil:
		FillPattern(buf, b.pattern)
	default:
		FillRandom(buf, r.NextSeed())
	}
}

// NeedsFill reports whether j's buffers need contents before its I/O:
// only a job that writes (a replayed trace may write whatever the job's
// rw) and whose writes do not each fill their whole buffer. Fresh
// anonymous or shared memory is zeros already; a file mapping
// (mem=mmap:PATH) may hold old data.
func (b *Filler) NeedsFill(j *jobspec.Job) bool {
	if !j.RW.Writes() && len(j.ReadIolog) == 0 {
		return false
	}
	if b.zeros {
		return j.MemPath != ""
	}
	return !b.refill
}

// Initial fills u, the unit at offset off of the buffer area, once
// before the job's I/O.
func (b *Filler) Initial(u []byte, off uint64) {
	switch {
	case b.pattern != nil:
		// The pattern runs on across the units, as if laid over the
		// whole area at once.
		FillPatternAt(u, b.pattern, off)
	case b.zeros:
		clear(u)
	default:
		b.fresh(u)
	}
}

// Fill prepares one write buffer.
func (b *Filler) Fill(buf []byte) {
	b.count++
	if !b.refill {
		scramble(buf, b.count)
		return
	}
	if b.dedupe >= 100 {
		// dedupe_percentage=100, observed in fio 3.33: every chunk of
		// every buffer repeats the first seed.
		for off := 0; off < len(buf); {
			c := buf[off : off+b.chunkLen(len(buf)-off)]
			r := b.prev
			b.freshFrom(c, &r)
			off += len(c)
		}
		return
	}
	b.freshFrom(buf, b.dedupeSource())
}

// FillPattern repeats p over b.
func FillPattern(b, p []byte) {
	for i := 0; i < len(b); i += len(p) {
		copy(b[i:], p)
	}
}

// FillPatternAt repeats p over b as FillPattern does over a larger area
// in which b starts at offset off.
func FillPatternAt(b, p []byte, off uint64) {
	if len(b) == 0 {
		return
	}
	n := copy(b, p[off%uint64(len(p)):])
	FillPattern(b[n:], p)
}

// FillRandom fills b with fio's random bytes for seed: four 64-bit
// lanes start at seed times 1, 2, 3 and 5 and are written in turn, each
// multiplied by goldenRatio64 after every round of four; the last
// len mod 32 bytes continue from the first lane alone, one multiplication
// per word, a last partial word taking the leading bytes of the next
// value (little-endian). A word at a time, several GB/s, so even an
// iodepth × bs of gigabytes fills in a fraction of a second.
func FillRandom(b []byte, seed uint64) {
	s0, s1, s2, s3 := seed, seed*2, seed*3, seed*5
	i := 0
	for ; i+32 <= len(b); i += 32 {
		binary.LittleEndian.PutUint64(b[i:], s0)
		binary.LittleEndian.PutUint64(b[i+8:], s1)
		binary.LittleEndian.PutUint64(b[i+16:], s2)
		binary.LittleEndian.PutUint64(b[i+24:], s3)
		s0 *= goldenRatio64
		s1 *= goldenRatio64
		s2 *= goldenRatio64
		s3 *= goldenRatio64
	}
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], s0)
		s0 *= goldenRatio64
	}
	if i < len(b) {
		var t [8]byte
		binary.LittleEndian.PutUint64(t[:], s0)
		copy(b[i:], t[:])
	}
}

// scramble changes 8 bytes of every 512 of b with a write counter.
func scramble(b []byte, n uint64) {
	v := n * 0x9e3779b97f4a7c15
	for off := 0; off+8 <= len(b); off += 512 {
		x := v + uint64(off)
		b[off], b[off+1], b[off+2], b[off+3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
		b[off+4], b[off+5], b[off+6], b[off+7] = byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56)
	}
}
