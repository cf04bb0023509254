package runner

import "math/bits"

// randMap records which blocks of a file a random job has visited, so that
// without norandommap every block is used exactly once per loop.
type randMap struct {
	words  []uint64
	blocks uint64
	used   uint64
}

func newRandMap(blocks uint64) *randMap {
	return &randMap{words: make([]uint64, (blocks+63)/64), blocks: blocks}
}

// full reports whether every block was used.
func (m *randMap) full() bool { return m.used >= m.blocks }

// take marks block b used, or, if it is, the next free block after it
// (wrapping), and returns the block taken. The map must not be full.
func (m *randMap) take(b uint64) uint64 {
	w, bit := b/64, b%64
	if m.words[w]&(1<<bit) == 0 {
		m.words[w] |= 1 << bit
		m.used++
		return b
	}
	// Search the rest of this word, then the following words.
	n := uint64(len(m.words))
	mask := ^m.words[w] &^ (1<<bit - 1)
	for i := uint64(0); i <= n; i++ {
		if mask != 0 {
			blk := w*64 + uint64(bits.TrailingZeros64(mask))
			if blk < m.blocks {
				m.words[w] |= 1 << (blk % 64)
				m.used++
				return blk
			}
		}
		w++
		if w == n {
			w = 0
		}
		mask = ^m.words[w]
	}
	panic("runner: randMap.take on a full map")
}

// free returns block b if it is free, or the next free block after it
// (wrapping), without marking it. The map must not be full.
func (m *randMap) free(b uint64) uint64 {
	blk := m.take(b)
	m.words[blk/64] &^= 1 << (blk % 64)
	m.used--
	return blk
}

// mark marks block b used and reports whether it was free.
func (m *randMap) mark(b uint64) bool {
	w, bit := b/64, b%64
	if m.words[w]&(1<<bit) != 0 {
		return false
	}
	m.words[w] |= 1 << bit
	m.used++
	return true
}

// reset clears the map for a new loop.
func (m *randMap) reset() {
	clear(m.words)
	m.used = 0
}
