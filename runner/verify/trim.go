package verify

import "fmt"

// Trims is the trim-after-write check of a verifying job
// (trim_percentage, trim_backlog, trim_backlog_batch, trim_verify_zero),
// as fio 3.33 runs it (observed in its I/O logs):
//
//   - each block written is marked for a trim with probability
//     trim_percentage (a draw in [1, 100] from the job's trim stream,
//     made by the runner);
//   - before each I/O, while marked blocks wait: a batch under way trims
//     the oldest of them; otherwise, when the number of blocks held for
//     the verify phase is a multiple of trim_backlog, a batch of
//     trim_backlog_batch (0: trim_backlog) trims starts with a trim
//     that is not counted against it;
//   - with trim_verify_zero a trimmed block stays in the verify list and
//     must read back as zeroes; without, it leaves the list;
//   - blocks still marked when a loop ends are reported as "fio: N trim
//     entries leaked?" (also without trim_backlog, where nothing is
//     trimmed); a batch under way goes on in the next loop.
type Trims struct {
	backlog int
	batch   int
	zero    bool
	quota   int
	pending []int // indexes in the verify list of the marked blocks, oldest first
	leaked  int
}

// EnableTrims sets up the trim-after-write check: trimming blocks every
// backlog blocks written (0: never), batch at a time (0: backlog),
// checking them for zeroes when zero is set.
func (v *Verifier) EnableTrims(backlog, batch int, zero bool) {
	if batch <= 0 {
		batch = backlog
	}
	v.trims = &Trims{backlog: backlog, batch: batch, zero: zero}
}

// Trimming reports whether the trim-after-write check is on.
func (v *Verifier) Trimming() bool { return v.trims != nil }

// MarkTrim marks the block last recorded by Wrote for a trim.
func (v *Verifier) MarkTrim() {
	if t := v.trims; t != nil && v.record && len(v.list) > 0 {
		t.pending = append(t.pending, len(v.list)-1)
	}
}

// TrimDue reports whether the next I/O is a trim of a marked block.
func (v *Verifier) TrimDue() bool {
	t := v.trims
	if t == nil || t.backlog == 0 || len(t.pending) == 0 {
		return false
	}
	if t.quota > 0 {
		t.quota--
		return true
	}
	if v.held()%t.backlog == 0 {
		t.quota = t.batch
		return true
	}
	return false
}

// held is the number of blocks in the verify list.
func (v *Verifier) held() int { return len(v.list) - v.trimmedOut }

// NextTrim returns the oldest marked block, now trimmed; without
// trim_verify_zero it leaves the verify list.
func (v *Verifier) NextTrim() Block {
	t := v.trims
	i := t.pending[0]
	t.pending = t.pending[1:]
	b := &v.list[i]
	if t.zero {
		b.Trimmed = true
	} else {
		b.Skip = true
		v.trimmedOut++
	}
	return *b
}

// endTrims counts the marks left at the end of a loop.
func (v *Verifier) endTrims() {
	if t := v.trims; t != nil {
		t.leaked = len(t.pending)
		t.pending = t.pending[:0]
	}
	v.trimmedOut = 0
}

// TrimsLeaked is fio's warning about the blocks marked for a trim and
// never trimmed in the loop that ended (EndLoop), or "".
func (v *Verifier) TrimsLeaked() string {
	if t := v.trims; t != nil && t.leaked > 0 {
		return fmt.Sprintf("fio: %d trim entries leaked?\n", t.leaked)
	}
	return ""
}

// checkZero checks a trimmed block read back: all zeroes.
func (v *Verifier) checkZero(buf []byte, offset int64, path string) (string, bool) {
	for i, c := range buf {
		if c != 0 {
			return fmt.Sprintf("trim: verify failed at file %s offset %d, length %d (requested block: offset=%d, length=%d)\n",
				path, offset+int64(i), len(buf), offset, len(buf)), true
		}
	}
	return "", false
}
