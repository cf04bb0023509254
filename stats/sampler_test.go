package stats

import "testing"

const ms = int64(1e6)

// counts keeps a job's completion totals as its worker does and publishes
// them after each completion.
type counts struct{ bytes, ios [NDirs]uint64 }

func (c *counts) add(s *Sampler, d Dir, n uint64) {
	c.bytes[d] += n
	c.ios[d]++
	s.Publish(c.bytes, c.ios)
}

func TestSamplerTick(t *testing.T) {
	s := NewSampler(500, 500)
	s.Start(0)
	var c counts
	c.add(s, Read, 1<<20) // 1 MiB read in the first interval
	c.add(s, Read, 1<<20)

	// 498 ms: 2 ms early is too early.
	if next := s.Tick(498 * ms); next != 500*ms {
		t.Errorf("Tick(498ms) = %d; want next due at 500ms", next)
	}
	// 499 ms: 1 ms of slack, the sample is taken over 499 ms.
	if next := s.Tick(499*ms + 7); next != 999*ms+7 {
		t.Errorf("Tick(499ms) = %d; want next due 500ms later", next)
	}
	bw, iops := s.Results()
	// 2 MiB × 1000 / 499 ms / 1024 = 4104 KiB/s (two truncations);
	// 2 I/Os × 1000 / 499 = 4 IOPS.
	if bw[Read].N != 1 || bw[Read].Min != 4104 || iops[Read].N != 1 || iops[Read].Min != 4 {
		t.Errorf("after one interval: bw %+v iops %+v; want one sample of 4104 KiB/s and 4 IOPS", bw[Read], iops[Read])
	}
	// No write happened: no write sample (not a zero).
	if bw[Write].N != 0 || iops[Write].N != 0 {
		t.Errorf("write samples %d/%d; want none for an idle direction", bw[Write].N, iops[Write].N)
	}

	// An idle interval adds no read sample either.
	s.Tick(1000 * ms)
	if bw, _ := s.Results(); bw[Read].N != 1 {
		t.Errorf("idle interval: %d read samples; want still 1", bw[Read].N)
	}

	// After Stop nothing is sampled (the final partial interval).
	c.add(s, Read, 4096)
	s.Stop()
	if next := s.Tick(1600 * ms); next != 0 {
		t.Errorf("Tick after Stop = %d; want 0", next)
	}

	// Start again (end of ramp_time): earlier samples are dropped and the
	// bytes done so far are not counted: the worker's totals restart.
	s.Start(2000 * ms)
	c = counts{}
	c.add(s, Write, 8192)
	s.Tick(2500 * ms)
	bw, iops = s.Results()
	if bw[Read].N != 0 || bw[Write].N != 1 || bw[Write].Min != 16 || iops[Write].Min != 2 {
		t.Errorf("after restart: read %+v write %+v; want only a write sample of 16 KiB/s", bw[Read], bw[Write])
	}
}

func TestSamplerIntervals(t *testing.T) {
	// bwavgtime and iopsavgtime are independent; 0 disables one.
	s := NewSampler(1000, 0)
	s.Start(0)
	var c counts
	c.add(s, Read, 1024)
	if next := s.Tick(500 * ms); next != 1000*ms {
		t.Errorf("Tick(500ms) = %d; want the bw sample due at 1000ms", next)
	}
	s.Tick(1000 * ms)
	bw, iops := s.Results()
	if bw[Read].N != 1 || iops[Read].N != 0 {
		t.Errorf("bw %d, iops %d samples; want 1 and 0", bw[Read].N, iops[Read].N)
	}
}

func TestTickerWakes(t *testing.T) {
	// A fake clock that sleep advances: the ticker must wake at least
	// every 250 ms and exactly when a sample is due.
	var now int64
	var wakes []int64
	s := NewSampler(500, 300)
	s.Start(0)
	var tk Ticker
	tk.Add(s)
	tk.Run(func() int64 { return now }, func(ns int64) bool {
		now += ns
		wakes = append(wakes, now)
		return now >= 1200*ms
	})
	// 250: periodic; 300: iops due; 500: bw due; 600: iops; 850: 250 ms
	// after 600; 900: iops; 1000: bw; 1200: iops.
	want := []int64{250, 300, 500, 600, 850, 900, 1000, 1200}
	if len(wakes) != len(want) {
		t.Fatalf("wakes at %v ms; want %v", scale(wakes), want)
	}
	for i := range want {
		if wakes[i] != want[i]*ms {
			t.Fatalf("wakes at %v ms; want %v", scale(wakes), want)
		}
	}
}

func scale(ns []int64) []int64 {
	out := make([]int64, len(ns))
	for i, v := range ns {
		out[i] = v / ms
	}
	return out
}
