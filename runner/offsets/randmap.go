package offsets

import "math/bits"

// Map records which blocks of a file a random job has visited, so that
// without norandommap every block is used exactly once per loop.
type Map struct {
	words  []uint64
	blocks uint64
	used   uint64
}

// NewMap returns an empty map of blocks blocks.
func NewMap(blocks uint64) *Map {
	return &Map{words: make([]uint64, (blocks+63)/64), blocks: blocks}
}

// Full reports whether every block was used.
func (m *Map) Full() bool { return m.used >= m.blocks }

// Take marks block b used, or, if it is, the next free block after it
// (wrapping), and returns the block taken. The map must not be full.
func (m *Map) Take(b uint64) uint64 {
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
	panic("offsets: Map.Take on a full map")
}

// Free returns block b if it is free, or the next free block after it
// (wrapping), without marking it. The map must not be full.
func (m *Map) Free(b uint64) uint64 {
	blk := m.Take(b)
	m.words[blk/64] &^= 1 << (blk % 64)
	m.used--
	return blk
}

// Mark marks block b used and reports whether it was free.
func (m *Map) Mark(b uint64) bool {
	w, bit := b/64, b%64
	if m.words[w]&(1<<bit) != 0 {
		return false
	}
	m.words[w] |= 1 << bit
	m.used++
	return true
}

// Reset clears the map for a new loop.
func (m *Map) Reset() {
	clear(m.words)
	m.used = 0
}

// Blocks is the number of blocks the map covers.
func (m *Map) Blocks() uint64 { return m.blocks }

// MarkAny marks block b and reports whether it was
// free. As observed in fio 3.33, an I/O that runs past the map's last
// block (the end of a zone, or an unaligned block size's end of file) is
// not cut there: the map's last 64-block word has room for it (those
// blocks are never drawn).
func (m *Map) MarkAny(b uint64) bool {
	if b < m.blocks {
		return m.Mark(b)
	}
	w, bit := b/64, b%64
	if w >= uint64(len(m.words)) || m.words[w]&(1<<bit) != 0 {
		return false
	}
	m.words[w] |= 1 << bit
	return true
}
