package verify

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// The verify state file (verify_state_save, verify_state_load) in fio
// 3.33's format, as its fio-verify-state tool reads it (observed), all
// little-endian:
//
//	0   version 3                 uint64
//	8   size of what follows      uint64
//	16  CRC-32C of what follows   uint64 (crc32cRaw)
//	24  completions listed        uint64
//	32  iodepth                   uint32
//	36  number of files           uint32
//	40  writes done               uint64
//	48  job number                uint64
//	56  random state              use64 uint32, 4 bytes, then Taus88's 3
//	                              uint32 or Taus258's 5 uint64, zeroes
//	                              after (56 bytes in all); fio's
//	                              verify_state_load does not use it
//	112 job name                  64 bytes, NUL-padded
//	176 completions               (file index uint64, offset uint64) each,
//	                              room for iodepth of each file, zeroes
//	                              after those listed
//
// The completions are the last iodepth writes completed in each file,
// file by file, the newest first. A job that loads the state checks the
// blocks of its first writes-iodepth I/Os, then goes on only while each
// block is one of the completions (observed in fio 3.33).

const (
	stateVersion = 3
	stateHdrLen  = 24
	stateFixed   = 152 // the payload before the completions
	stateNameLen = 64
)

// StateFileName is the name of the verify state file of the job name
// with job number n: "local-NAME-N-verify.state", a slash in the name
// written as a dot (fio 3.33, observed: job a/b writes
// local-a.b-N-verify.state).
func StateFileName(name string, n int) string {
	return fmt.Sprintf("local-%s-%d-verify.state", strings.ReplaceAll(name, "/", "."), n)
}

// Comp is a completed write listed in a verify state.
type Comp struct {
	File uint64
	Off  uint64
}

// State is a job's verify state.
type State struct {
	Name     string
	JobNum   uint64
	Depth    uint32
	Files    uint32
	NumberIO uint64 // writes done
	Comps    []Comp
	// The offset generator's state (rng.Stream.State); no words for a
	// job without one, which fio writes as zeroes.
	RandUse64 bool
	RandWords []uint64
}

// Marshal is the state file's bytes.
func (s *State) Marshal() []byte {
	p := make([]byte, stateFixed, stateFixed+16*len(s.Comps))
	le := binary.LittleEndian
	le.PutUint64(p[0:], uint64(len(s.Comps)))
	le.PutUint32(p[8:], s.Depth)
	le.PutUint32(p[12:], s.Files)
	le.PutUint64(p[16:], s.NumberIO)
	le.PutUint64(p[24:], s.JobNum)
	copy(p[88:88+stateNameLen-1], s.Name)
	if s.RandUse64 {
		le.PutUint32(p[32:], 1)
		for i, w := range s.RandWords[:min(len(s.RandWords), 5)] {
			le.PutUint64(p[40+8*i:], w)
		}
	} else {
		for i, w := range s.RandWords[:min(len(s.RandWords), 3)] {
			le.PutUint32(p[40+4*i:], uint32(w))
		}
	}
	for _, c := range s.Comps {
		p = le.AppendUint64(p, c.File)
		p = le.AppendUint64(p, c.Off)
	}
	// fio leaves room for iodepth completions of each file.
	for i := len(s.Comps); i < int(s.Depth)*int(s.Files); i++ {
		p = append(p, make([]byte, 16)...)
	}
	h := make([]byte, stateHdrLen, stateHdrLen+len(p))
	le.PutUint64(h[0:], stateVersion)
	le.PutUint64(h[8:], uint64(len(p)))
	le.PutUint64(h[16:], uint64(crc32cRaw(p)))
	return append(h, p...)
}

// ParseState reads a state file's bytes; its errors are fio's messages.
func ParseState(b []byte) (*State, error) {
	le := binary.LittleEndian
	if len(b) < stateHdrLen {
		return nil, errors.New("fio: failed reading verify state header")
	}
	if v := le.Uint64(b); v != stateVersion {
		return nil, fmt.Errorf("fio: unsupported (%d) version in verify state header", v)
	}
	n := le.Uint64(b[8:])
	p := b[stateHdrLen:]
	if n < stateFixed || uint64(len(p)) < n || uint64(crc32cRaw(p[:n])) != le.Uint64(b[16:]) {
		return nil, errors.New("fio: verify state is corrupt")
	}
	p = p[:n]
	s := &State{Depth: le.Uint32(p[8:]), Files: le.Uint32(p[12:]), NumberIO: le.Uint64(p[16:]), JobNum: le.Uint64(p[24:])}
	name := p[88 : 88+stateNameLen]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	s.Name = string(name)
	comps := le.Uint64(p)
	if (n-stateFixed)/16 < comps {
		return nil, errors.New("fio: verify state is corrupt")
	}
	for i := range comps {
		c := p[stateFixed+16*i:]
		s.Comps = append(s.Comps, Comp{File: le.Uint64(c), Off: le.Uint64(c[8:])})
	}
	return s, nil
}

// Allows reports whether a job that loaded the state checks the block
// of its I/O number i (from 0) at off of file: the first NumberIO-Depth
// are, the later ones only when listed.
func (s *State) Allows(i uint64, file int, off int64) bool {
	if i+uint64(s.Depth) < s.NumberIO {
		return true
	}
	for _, c := range s.Comps {
		if c.File == uint64(file) && c.Off == uint64(off) {
			return true
		}
	}
	return false
}

// StateTracker follows a job's completed writes for its state file.
type StateTracker struct {
	depth int
	n     uint64
	last  [][]int64 // by file: the last depth offsets completed, oldest first
}

// NewStateTracker follows the writes of a job of iodepth depth over
// files files.
func NewStateTracker(depth, files int) *StateTracker {
	return &StateTracker{depth: max(depth, 1), last: make([][]int64, files)}
}

// Completed records a write completed at off of file.
func (t *StateTracker) Completed(file int, off int64) {
	t.n++
	if file < 0 || file >= len(t.last) {
		return
	}
	l := t.last[file]
	if len(l) == t.depth {
		l = append(l[:0], l[1:]...)
	}
	t.last[file] = append(l, off)
}

// State is the state of the job name (job number n) so far.
func (t *StateTracker) State(name string, n int) *State {
	s := &State{Name: name, JobNum: uint64(n), Depth: uint32(t.depth), Files: uint32(len(t.last)), NumberIO: t.n}
	for f, l := range t.last {
		for i := len(l) - 1; i >= 0; i-- {
			s.Comps = append(s.Comps, Comp{File: uint64(f), Off: uint64(l[i])})
		}
	}
	return s
}
