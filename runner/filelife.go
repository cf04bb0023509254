package runner

// The file lifecycle of a job's I/O loop: which file takes the next I/O
// (file_service_type), opening a file on first use within openfiles,
// marking it done, and closing it when its slot is needed or the loop
// ends (fsync_on_close first).
//
// Everything here runs per I/O: no allocation.

import (
	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/internal/clock"
	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/stats"
)

// pickFile returns the file of the next I/O per file_service_type, or -1
// when every file is done.
func (w *worker) pickFile() int {
	g := &w.gen
	n := len(w.files)
	if n == 1 {
		if w.exhaust[0] {
			return -1
		}
		return 0
	}
	j := w.job
	cur := g.curFile
	if g.fileLeft > 0 && w.usable(cur) {
		return cur
	}
	if j.FileService == jobspec.ServiceSequential && w.usable(cur) {
		return cur
	}
	if j.FileService == jobspec.ServiceRandom || g.fileDist.N() > 0 {
		for tries := 0; tries < 1000*n; tries++ {
			i := int(g.fileRng.Scale(uint64(n)))
			if g.fileDist.N() > 0 {
				i = int(g.fileDist.Draw() >> 10)
			}
			if w.usable(i) {
				g.curFile, g.fileLeft = i, j.FileServiceNR
				return i
			}
			w.passOver(i)
		}
	}
	start := cur + 1
	if j.FileService == jobspec.ServiceSequential {
		start = cur
	}
	for k := 0; k < n; k++ {
		i := (start + k) % n
		if w.usable(i) {
			g.curFile, g.fileLeft = i, j.FileServiceNR
			return i
		}
		w.passOver(i)
	}
	return -1
}

// passOver closes file i if it is open and used up: when the file
// picker passes over it, and to make room under openfiles, as fio 3.33
// does (observed in write_iolog: with file_service_type=
// sequential a file closes before the next one opens; round robin passes
// over none before the loop ends, so its files close together then).
func (w *worker) passOver(i int) {
	if w.exhaust[i] && w.gen.opened[i] {
		w.closeFile(i)
	}
}

// usable reports whether file i can take the next I/O: not done, and
// open or openable within openfiles (a done file may give its slot).
func (w *worker) usable(i int) bool {
	g := &w.gen
	return !w.exhaust[i] && (g.opened[i] || g.openNow < g.openMax || g.doneOpen > 0)
}

// openFile opens file fi on first use, timing the open for engines that
// measure it; at the openfiles limit a done file is closed first. It
// returns false when the job must stop.
func (w *worker) openFile(fi int, d stats.Dir) bool {
	g := &w.gen
	if g.opened[fi] {
		return true
	}
	if g.openNow >= g.openMax && !g.pastMax && (w.vfy == nil || !w.vfy.Reading) {
		// As in fio 3.33, every used-up file closes to make room.
		for i := range w.files {
			w.passOver(i)
		}
	}
	f := w.files[fi]
	start := clock.Now()
	if w.dbg.On(debuglog.File) {
		w.dprintf(debuglog.File, "fd open %s", f.path)
	}
	if !w.info.NoFiles {
		if err := f.open(w.job, w.writes, w.opener, fi); err != nil {
			w.setupFailed(err)
			return false
		}
	}
	done := clock.Now()
	g.openNow++
	g.opened[fi] = true
	if g.lfsr != nil {
		g.lfsr[fi].Reset() // fio restarts the LFSR on every open
	}
	w.traceFile(fi, "open")
	if w.info.NoStats && w.clat && w.accounting() {
		// The open's time is a completion latency of d, but (as in fio)
		// not part of the latency distribution, which counts I/Os.
		ns := uint64(max(0, done-start))
		s := &w.st.Dir[d]
		s.Clat.Add(ns)
		if w.clatHist {
			s.ClatHist.Add(ns)
		}
	}
	return true
}

// fileDone marks file fi used up for this loop. It stays open (for
// end_fsync) until its slot is needed or the loop ends, as in fio.
func (w *worker) fileDone(fi int) {
	if w.exhaust[fi] {
		return
	}
	w.exhaust[fi] = true
	if w.gen.opened[fi] {
		w.gen.doneOpen++
	}
}

// closeFile closes file fi if it is open (fsync_on_close first).
func (w *worker) closeFile(fi int) {
	g := &w.gen
	if !g.opened[fi] {
		return
	}
	f := w.files[fi]
	if w.job.FsyncOnClose && w.writes && f.fd >= 0 {
		unix.Fsync(f.fd)
	}
	if w.dbg.On(debuglog.File) {
		w.dprintf(debuglog.File, "fd close %s", f.path)
	}
	if !w.info.NoFiles {
		f.closeWith(w.opener, fi)
	}
	g.opened[fi] = false
	g.openNow--
	w.traceFile(fi, "close")
	if w.exhaust[fi] {
		g.doneOpen--
	}
}

// closeAll closes every open file.
func (w *worker) closeAll() {
	for i := range w.files {
		w.closeFile(i)
	}
}

// loopFilesDone ends a loop's use of the files: it closes them.
func (w *worker) loopFilesDone() {
	if w.dbg.On(debuglog.File) {
		w.dprintf(debuglog.File, "close files")
	}
	w.closeAll()
}

// unlinkFiles removes the job's regular files (unlink, unlink_each_loop).
func (w *worker) unlinkFiles() {
	for _, f := range w.files {
		if !f.blockDev && f.path != "" {
			unix.Unlink(f.path)
		}
	}
}
