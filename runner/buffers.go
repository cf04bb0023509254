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
// Contents: runner/content.

import (
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/errno"
	"github.com/gofio/gofio/internal/rng"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/runner/content"
)

// shmHugeTLB is SHM_HUGETLB (shmget(2)).
const shmHugeTLB = 0o4000

// bufState is a job's write buffers: their contents (runner/content)
// and their memory.
type bufState struct {
	content.Filler

	// pending is the memory fillBuffers still has to fill before the
	// job's I/O (nil: nothing), in units of per bytes.
	pending []byte
	per     uint64

	release func() error
}

// bufSeeds are the buffer streams' seeds of a job's seed slots.
func bufSeeds(seeds *[nSeeds]uint64, use64 bool) content.Seeds {
	return content.Seeds{Buf: seeds[seedBuf], Dedupe: seeds[seedDedupe], DedupeWS: seeds[seedDedupeWS], Use64: use64}
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
	w.bufs.Init(j, w.regionBytes, bufSeeds(&w.gen.seeds, j.RandomGenerator == jobspec.GenTausworthe64))
	for _, f := range w.files {
		w.bufs.Skip(f.bufSeeds, f.bufDraws) // drawn laying the files out
	}
	if w.bufs.NeedsFill(j) {
		w.bufs.pending, w.bufs.per = mem, per
	} else if w.bufs.FioFills() {
		// fio fills the buffers here; gofio need not (each write fills
		// its own), but draws their seeds as fio does.
		for range depth {
			// Each fill takes its dedupe draws; a repeat uses up no seed.
			w.bufs.SkipUnit(size)
		}
	}
	return mem, per, nil
}

// allocMem gets n bytes of the job's memory type.
func allocMem(j *jobspec.Job, n int) ([]byte, func() error, error) {
	n = j.MemLen(n)
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

// globalPages makes the working set of job j, under dedupe_global,
// shared by the run's jobs (content.Filler.SharePages).
func (b *bufState) globalPages(j *jobspec.Job, tasks []*task) {
	if !j.DedupeGlobal || b.Pages() == 0 {
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
	if self < 0 || len(peers) < 2 || b.Pages()/len(peers) == 0 {
		return
	}
	starts := make([]rng.Stream, len(peers))
	for k, p := range peers {
		seeds, _ := jobSeeds(p)
		starts[k].Seed(seeds[seedBuf], p.RandomGenerator == jobspec.GenTausworthe64)
	}
	b.SharePages(self, starts)
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
		b.Initial(mem[off:min(off+per, uint64(len(mem)))], off)
	}
}

// releaseBuffers frees the buffer memory.
func (b *bufState) releaseBuffers() {
	if b.release != nil {
		b.release()
		b.release = nil
	}
}
