package runner

// I/O buffers: where they live (mem/iomem, iomem_align) and what writes
// carry (the buffer options).
//
// Memory, allocated once before the job's clock starts:
//
//	malloc, mmap  anonymous private mapping (page aligned, like fio's
//	              buffers for O_DIRECT); mmap:PATH maps PATH shared
//	mmapshared    anonymous shared mapping
//	mmaphuge      anonymous huge-page mapping (MAP_HUGETLB), or PATH on
//	              a hugetlbfs
//	shm, shmhuge  a System V shared memory segment (SHM_HUGETLB), removed
//	              at once so it goes away with the job
//
// Each unit's buffer starts at a multiple of the page size; iomem_align
// larger than a page moves the first buffer to that alignment.
//
// Contents: zero_buffers leaves zeros; buffer_pattern repeats the
// pattern; otherwise random bytes. As in fio, only a job that writes has
// its buffers filled, and only once: by the job's own thread when it
// starts (fillBuffers), before its clock, a stop signal cutting the fill
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
// the job's buffer stream (fiorand.go) and expands it four 64-bit lanes
// at a time. The buffer stream's draws follow fio's: the files laid out
// with data (one seed per largest write block), then one seed per unit
// when the job starts (drawn even where gofio need not fill, so that the
// writes' seeds are fio's), then one per refilled write (per chunk when
// compressing). scramble_buffers puts the clock into fio's buffers, so
// their bytes cannot be fio's.

import (
	"encoding/binary"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/offsets"
)

// shmHugeTLB is SHM_HUGETLB (shmget(2)).
const shmHugeTLB = 0o4000

// bufState fills write buffers.
type bufState struct {
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
	draws    dedupeDraws  // draws made from rng and wsRng
	minBS    int          // the smallest write block (compression chunks)
	fioFills bool         // fio fills the buffers when the job starts
	count    uint64

	// pending is the memory fillBuffers still has to fill before the
	// job's I/O (nil: nothing), in units of per bytes.
	pending []byte
	per     uint64

	release func() error
}

// allocBuffers allocates depth buffers of size bytes each (rounded up to
// pages); it returns the whole area. Nothing is written to it here: the
// job's thread fills what needs filling (fillBuffers).
func (w *worker) allocBuffers(depth int, size uint64) ([]byte, uint64, error) {
	j := w.job
	page := uint64(unix.Getpagesize())
	per := (size + page - 1) / page * page
	align := uint64(max(j.IOMemAlign, 0))
	extra := uint64(0)
	if align > page {
		extra = align
	}
	total := int(per*uint64(depth) + extra)
	mem, release, err := allocMem(j, total)
	if err != nil {
		return nil, 0, err
	}
	w.bufs.release = release
	if extra > 0 {
		base := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(mem))))
		skip := (align - base%align) % align
		mem = mem[skip : skip+per*uint64(depth)]
	}
	w.bufs.init(j, w.regionBytes, &w.gen.seeds, j.RandomGenerator == jobspec.GenTausworthe64)
	for _, f := range w.files {
		w.bufs.skipSeeds(f.bufSeeds) // drawn laying the files out
		w.bufs.skipDraws(f.bufDraws)
	}
	if w.bufs.needsFill(j) {
		w.bufs.pending, w.bufs.per = mem, per
	} else if w.bufs.fioFills {
		// fio fills the buffers here; gofio need not (each write fills
		// its own), but draws their seeds as fio does.
		for range depth {
			// Each fill takes its dedupe draws; a repeat uses up no seed.
			if r := w.bufs.dedupeSource(); r == &w.bufs.bufRng {
				w.bufs.skipSeeds(w.bufs.seedsFor(size))
			}
		}
	}
	return mem, per, nil
}

// allocMem gets n bytes of the job's memory type.
func allocMem(j *jobspec.Job, n int) ([]byte, func() error, error) {
	n = hugeLen(j, n)
	anon := func(flags int) ([]byte, func() error, error) {
		m, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, flags|unix.MAP_ANONYMOUS)
		if err != nil {
			return nil, nil, err
		}
		return m, func() error { return unix.Munmap(m) }, nil
	}
	file := func(path string) ([]byte, func() error, error) {
		fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC, 0o644)
		if err != nil {
			return nil, nil, err
		}
		defer unix.Close(fd)
		if err := unix.Ftruncate(fd, int64(n)); err != nil {
			return nil, nil, err
		}
		m, err := unix.Mmap(fd, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
		if err != nil {
			return nil, nil, err
		}
		return m, func() error { return unix.Munmap(m) }, nil
	}
	switch j.Mem {
	case jobspec.MemShm, jobspec.MemShmHuge:
		flags := unix.IPC_CREAT | 0o600
		if j.Mem == jobspec.MemShmHuge {
			flags |= shmHugeTLB
		}
		id, err := unix.SysvShmGet(unix.IPC_PRIVATE, n, flags)
		if err != nil {
			return nil, nil, err
		}
		m, err := unix.SysvShmAttach(id, 0, 0)
		unix.SysvShmCtl(id, unix.IPC_RMID, nil)
		if err != nil {
			return nil, nil, err
		}
		return m, func() error { return unix.SysvShmDetach(m) }, nil
	case jobspec.MemMmap:
		if j.MemPath != "" {
			return file(j.MemPath)
		}
		return anon(unix.MAP_PRIVATE)
	case jobspec.MemMmapShared:
		return anon(unix.MAP_SHARED)
	case jobspec.MemMmapHuge:
		if j.MemPath != "" {
			return file(j.MemPath)
		}
		return anon(unix.MAP_PRIVATE | unix.MAP_HUGETLB)
	}
	return anon(unix.MAP_PRIVATE)
}

// memError is the setup failure of a buffer allocation; for huge pages
// it adds fio's hint.
func memError(j *jobspec.Job, err error) error {
	e := &setupError{errno: errno.Of(err), fn: "iomem allocation"}
	if j.Mem == jobspec.MemShmHuge || j.Mem == jobspec.MemMmapHuge {
		e.msg = "fio: no huge pages available, do you need to allocate some? See HOWTO."
	}
	return e
}

// init reads the buffer options of j; region is the bytes of the job's
// files (the dedupe working set is a share of the job's size, or of
// them); seeds are the job's seed slots.
func (b *bufState) init(j *jobspec.Job, region uint64, seeds *[nSeeds]uint64, use64 bool) {
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
	b.reseed(seeds, use64)
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

// globalPages makes the working set of job j, under dedupe_global, as
// fio 3.33 does (observed): every job of the run takes an equal share of
// j's page count, whatever its own options, j's own first pages first,
// then those of the jobs after it, wrapping round; a job's pages are the
// first new buffers of its own buffer stream.
func (b *bufState) globalPages(j *jobspec.Job, tasks []*task) {
	if !j.DedupeGlobal || len(b.pages) == 0 {
		return
	}
	var peers []*jobspec.Job
	self := -1
	for _, t := range tasks {
		if t.job == j {
			self = len(peers)
		}
		peers = append(peers, t.job)
	}
	if self < 0 || len(peers) < 2 {
		return
	}
	share := uint64(len(b.pages) / len(peers))
	if share == 0 {
		return
	}
	per := b.seedsFor(uint64(max(b.minBS, 1)))
	starts := make([]rng.Stream, len(peers))
	for k, p := range peers {
		seeds, _ := jobSeeds(p)
		starts[k].Seed(seeds[seedBuf], p.RandomGenerator == jobspec.GenTausworthe64)
	}
	var r rng.Stream
	for i := range b.pages {
		if uint64(i)%share == 0 {
			r = starts[(self+i/int(share))%len(peers)]
		}
		b.pages[i] = r
		for range per {
			r.NextSeed()
		}
	}
}

// dedupeSource takes a buffer's dedupe draws and returns the stream its
// seeds come from: the buffer stream for a new buffer, or a copy of the
// state a repeat starts from, which the fill leaves as it was (with
// dedupe_mode=repeat the buffer stream's own state, so that the repeat is
// the next new buffer, as in fio 3.33).
func (b *bufState) dedupeSource() *rng.Stream {
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

// dedupeDraws counts draws from the dedupe streams.
type dedupeDraws struct{ dedupe, ws uint64 }

// since is d less the draws counted in e.
func (d dedupeDraws) since(e dedupeDraws) dedupeDraws {
	return dedupeDraws{d.dedupe - e.dedupe, d.ws - e.ws}
}

// skipDraws makes n's draws from the dedupe streams and drops them.
func (b *bufState) skipDraws(n dedupeDraws) {
	for range n.dedupe {
		b.rng.Next()
	}
	for range n.ws {
		b.wsRng.Next()
	}
}

// layoutFill fills c, a block of a file laid out before the job runs,
// as fio does: from the buffer stream like a write (dedupe draws
// included); it returns the buffer seeds drawn.
func (b *bufState) layoutFill(c []byte) uint64 {
	if b.dedupe <= 0 {
		b.fresh(c)
		return b.seedsFor(uint64(len(c)))
	}
	r := b.dedupeSource()
	if b.dedupe >= 100 {
		b.fill(c)
		return 0
	}
	b.freshFrom(c, r)
	if r != &b.bufRng {
		return 0
	}
	return b.seedsFor(uint64(len(c)))
}

// reseed seeds the buffer streams from the job's seed slots.
func (b *bufState) reseed(seeds *[nSeeds]uint64, use64 bool) {
	b.bufRng.Seed(seeds[seedBuf], use64)
	b.prev = b.bufRng
	b.rng.Seed(seeds[seedDedupe], false)
	b.wsRng.Seed(seeds[seedDedupeWS], use64)
}

// skipSeeds draws n buffer seeds and drops them.
func (b *bufState) skipSeeds(n uint64) {
	for range n {
		b.bufRng.NextSeed()
	}
}

// seedsFor is how many seeds a fresh fill of n bytes draws.
func (b *bufState) seedsFor(n uint64) uint64 {
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
func (b *bufState) chunkLen(left int) int {
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
func (b *bufState) fresh(buf []byte) { b.freshFrom(buf, &b.bufRng) }

// freshFrom is fresh drawing its seeds from r.
func (b *bufState) freshFrom(buf []byte, r *rng.Stream) {
	switch {
	case b.zeros:
		clear(buf)
	case b.compress > 0 || b.dedupe > 0:
		// As in fio, per chunk (also with dedupe_percentage).
		for off := 0; off < len(buf); {
			c := buf[off : off+b.chunkLen(len(buf)-off)]
			keep := len(c) * (100 - b.compress) / 100
			fioFillRandom(c[:keep], r.NextSeed())
			if b.pattern != nil {
				fillPattern(c[keep:], b.pattern)
			} else {
				clear(c[keep:])
			}
			off += len(c)
		}
	case b.pattern != nil:
		fillPattern(buf, b.pattern)
	default:
		fioFillRandom(buf, r.NextSeed())
	}
}

// needsFill reports whether j's buffers need contents before its I/O:
// only a job that writes (a replayed trace may write whatever the job's
// rw) and whose writes do not each fill their whole buffer. Fresh
// anonymous or shared memory is zeros already; a file mapping
// (mem=mmap:PATH) may hold old data.
func (b *bufState) needsFill(j *jobspec.Job) bool {
	if !j.RW.Writes() && len(j.ReadIolog) == 0 {
		return false
	}
	if b.zeros {
		return j.MemPath != ""
	}
	return !b.refill
}

// fillBuffers gives the buffers their contents before the job's I/O, a
// unit at a time, stopping early when stop is closed (the job then does
// no I/O). It runs on the job's thread, so each page is first touched
// there, as in fio where the job's process fills its own buffers.
func (w *worker) fillBuffers(stop <-chan struct{}) {
	b := &w.bufs
	mem, per := b.pending, b.per
	b.pending = nil
	for off := uint64(0); off < uint64(len(mem)); off += per {
		select {
		case <-stop:
			return
		default:
		}
		b.initial(mem[off:min(off+per, uint64(len(mem)))], off)
	}
}

// initial fills u, the unit at offset off of the buffer area, once
// before the job's I/O.
func (b *bufState) initial(u []byte, off uint64) {
	switch {
	case b.pattern != nil:
		// The pattern runs on across the units, as if laid over the
		// whole area at once.
		fillPatternAt(u, b.pattern, off)
	case b.zeros:
		clear(u)
	default:
		b.fresh(u)
	}
}

// fill prepares one write buffer.
func (b *bufState) fill(buf []byte) {
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

// fillPattern repeats p over b.
func fillPattern(b, p []byte) {
	for i := 0; i < len(b); i += len(p) {
		copy(b[i:], p)
	}
}

// fillPatternAt repeats p over b as fillPattern does over a larger area
// in which b starts at offset off.
func fillPatternAt(b, p []byte, off uint64) {
	if len(b) == 0 {
		return
	}
	n := copy(b, p[off%uint64(len(p)):])
	fillPattern(b[n:], p)
}

// fioFillRandom fills b with fio's random bytes for seed: four 64-bit
// lanes start at seed times 1, 2, 3 and 5 and are written in turn, each
// multiplied by offsets.GoldenRatio64 after every round of four; the last
// len mod 32 bytes continue from the first lane alone, one multiplication
// per word, a last partial word taking the leading bytes of the next
// value (little-endian). A word at a time, several GB/s, so even an
// iodepth × bs of gigabytes fills in a fraction of a second.
func fioFillRandom(b []byte, seed uint64) {
	s0, s1, s2, s3 := seed, seed*2, seed*3, seed*5
	i := 0
	for ; i+32 <= len(b); i += 32 {
		binary.LittleEndian.PutUint64(b[i:], s0)
		binary.LittleEndian.PutUint64(b[i+8:], s1)
		binary.LittleEndian.PutUint64(b[i+16:], s2)
		binary.LittleEndian.PutUint64(b[i+24:], s3)
		s0 *= offsets.GoldenRatio64
		s1 *= offsets.GoldenRatio64
		s2 *= offsets.GoldenRatio64
		s3 *= offsets.GoldenRatio64
	}
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], s0)
		s0 *= offsets.GoldenRatio64
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

// releaseBuffers frees the buffer memory.
func (b *bufState) releaseBuffers() {
	if b.release != nil {
		b.release()
		b.release = nil
	}
}
