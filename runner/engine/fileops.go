package engine

// The file-operation engines measure one file system operation per file
// instead of I/O:
//
//	filecreate  open(2) with O_CREAT (mode 0600), the file left empty
//	filestat    stat(2), lstat(2) or statx(2) (stat_type)
//	filedelete  unlink(2)
//
// The runner calls OpenFile when the job first uses a file and records
// the call's duration as a completion latency of the job's direction
// (Info.NoStats). Queue then completes every unit at once with its
// full length and moves no data, so io_bytes and total_ios count as if
// the file had been read or written, as in fio 3.33.

import (
	"golang.org/x/sys/unix"

	"github.com/gofio/gofio/jobspec"
)

// fileOp is what a file-operation engine does to each file.
type fileOp uint8

const (
	fileCreate fileOp = iota
	fileStat
	fileDelete
)

// statKind is filestat's stat_type.
type statKind uint8

const (
	statStat statKind = iota
	statLstat
	statStatx
)

type fileOpEngine struct {
	op   fileOp
	stat statKind
	st   unix.Stat_t
	stx  unix.Statx_t
}

var (
	_ Engine     = (*fileOpEngine)(nil)
	_ FileOpener = (*fileOpEngine)(nil)
)

func newFileCreate(Config) (Engine, error) { return &fileOpEngine{op: fileCreate}, nil }
func newFileDelete(Config) (Engine, error) { return &fileOpEngine{op: fileDelete}, nil }

// newFileStat reads filestat's stat_type (stat, lstat or statx).
func newFileStat(cfg Config) (Engine, error) {
	e := &fileOpEngine{op: fileStat}
	switch cfg.Options.StatType {
	case jobspec.StatLstat:
		e.stat = statLstat
	case jobspec.StatStatx:
		e.stat = statStatx
	}
	return e, nil
}

// OpenFile performs the engine's operation on path.
func (e *fileOpEngine) OpenFile(_ int, path string, _ int) (int, error) {
	switch e.op {
	case fileCreate:
		return unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC, 0o600)
	case fileStat:
		var err error
		switch e.stat {
		case statLstat:
			err = unix.Lstat(path, &e.st)
		case statStatx:
			err = unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_ALL, &e.stx)
		default:
			err = unix.Stat(path, &e.st)
		}
		return -1, err
	default:
		return -1, unix.Unlink(path)
	}
}

// CloseFile closes what filecreate opened.
func (e *fileOpEngine) CloseFile(_ int, fd int) error {
	if fd >= 0 {
		return unix.Close(fd)
	}
	return nil
}

// Queue completes u at once: the engine's work was done at open.
func (e *fileOpEngine) Queue(u *IOUnit) Status {
	u.Result, u.Err = len(u.Buf), 0
	return Completed
}
