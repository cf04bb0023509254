package stats

// Totals returns the completions published since Start, summed over the
// directions (bytes and I/Os), the time Start was last called, and
// whether the sampler is running. The steady-state monitor reads it once
// a second.
func (s *Sampler) Totals() (bytes, ios uint64, started int64, running bool) {
	s.mu.Lock()
	running = s.running
	s.mu.Unlock()
	for d := range NDirs {
		bytes += s.bytes[d].Load()
		ios += s.ios[d].Load()
	}
	return bytes, ios, s.started.Load(), running
}
