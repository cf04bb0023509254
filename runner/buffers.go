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
// pattern; otherwise random bytes. A write then gets, per unit:
//
//	refill_buffers              new random bytes
//	buffer_compress_percentage  new random bytes, each buffer_compress_chunk
//	                            ending in that percentage of zeros (or of
//	                            the pattern)
//	dedupe_percentage           that share of the writes repeats an earlier
//	                            buffer: the previous one (dedupe_mode=repeat),
//	                            or one of a working set of
//	                            dedupe_working_set_percentage of the job's
//	                            blocks (working_set), shared by every job
//	                            with dedupe_global
//	scramble_buffers (default)  with none of the above, 8 bytes of each 512
//	                            changed, which defeats naive dedupe
//
// Contents are generated from seeds (a buffer to repeat is regenerated
// from its seed), so nothing is kept or allocated per write.

import (
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
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
	working  uint64
	global   bool

	rng      taus88
	seedBase uint64
	lastSeed uint64
	have     bool
	count    uint64

	release func() error
}

// allocBuffers allocates depth buffers of size bytes each (rounded up to
// pages) and fills them; it returns the whole area.
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
	w.bufs.init(j, w.regionBytes/max(minBS(j), 1))
	w.bufs.initial(mem)
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
	e := &setupError{errno: errno(err), fn: "iomem allocation"}
	if j.Mem == jobspec.MemShmHuge || j.Mem == jobspec.MemMmapHuge {
		e.msg = "fio: no huge pages available, do you need to allocate some? See HOWTO."
	}
	return e
}

// init reads the buffer options of j; blocks is the number of blocks of
// the job's files (the dedupe working set is a share of them).
func (b *bufState) init(j *jobspec.Job, blocks uint64) {
	b.pattern = j.BufferPattern
	b.compress = j.BufferCompressPercentage
	b.chunk = j.BufferCompressChunk
	if b.chunk <= 0 {
		b.chunk = 512
	}
	b.dedupe = j.DedupePercentage
	b.refill = j.RefillBuffers || b.compress > 0 || b.dedupe > 0
	b.scramble = j.ScrambleBuffers && !j.ZeroBuffers && b.pattern == nil && !b.refill
	if j.ZeroBuffers {
		b.zeros, b.refill, b.compress, b.dedupe = true, false, 0, 0
	}
	b.perWrite = b.refill || b.scramble
	b.rng.seed(j.RandSeed ^ 0x77)
	b.seedBase = j.RandSeed ^ uint64(j.JobNum)<<32
	if j.DedupeMode == jobspec.DedupeWorkingSet && b.dedupe > 0 {
		b.working = max(1, blocks*uint64(j.DedupeWorkingSetPct)/100)
		b.global = j.DedupeGlobal
		if b.global {
			b.seedBase = 0x5eed
		}
	}
}

// initial fills the buffers once, before the job starts.
func (b *bufState) initial(mem []byte) {
	switch {
	case b.pattern != nil:
		fillPattern(mem, b.pattern)
	case b.zeros:
	default:
		fillRandom(mem, b.seedBase)
	}
}

// fill prepares one write buffer.
func (b *bufState) fill(buf []byte) {
	b.count++
	if !b.refill {
		scramble(buf, b.count)
		return
	}
	seed := b.seedBase + b.count*0x9e3779b97f4a7c15
	if b.dedupe > 0 && int(b.rng.below(100)) < b.dedupe {
		switch {
		case b.working > 0:
			seed = b.seedBase ^ (b.rng.below(b.working)+1)*0xd6e8feb86659fd93
		case b.have:
			seed = b.lastSeed
		}
	}
	b.lastSeed, b.have = seed, true
	fillRandom(buf, seed)
	if b.compress > 0 {
		for off := 0; off < len(buf); off += b.chunk {
			c := buf[off:min(off+b.chunk, len(buf))]
			keep := len(c) * (100 - b.compress) / 100
			if b.pattern != nil {
				fillPattern(c[keep:], b.pattern)
			} else {
				clear(c[keep:])
			}
		}
	}
}

// fillPattern repeats p over b.
func fillPattern(b, p []byte) {
	for i := 0; i < len(b); i += len(p) {
		copy(b[i:], p)
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
