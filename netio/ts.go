package netio

import (
	"fmt"
	"math"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// This file maps gofio's result model to fio's thread_stat (TS),
// group_run_stats (GS) and disk_util (DU) payloads and back (§6.12–6.14
// of the reference). Offsets are payload offsets of fio 3.33's packed
// x86-64 layout.

// Sizes of the statistics payloads.
const (
	tsSize = 183888 // thread_stat
	gsSize = 164    // group_run_stats
	// TSSize is the fixed size of a TS payload: thread_stat, the job's
	// group_run_stats and 4 bytes of padding.
	TSSize = tsSize + gsSize + 4
	duSize = 256
)

// thread_stat offsets.
const (
	tsName, tsVerror, tsError, tsThread, tsGroup, tsPid, tsDesc = 0, 128, 256, 260, 264, 268, 272
	tsMembers, tsUnified, tsNoPrio                              = 528, 532, 536
	tsSync, tsClat, tsSlat, tsLat, tsBW, tsIOPS                 = 544, 600, 768, 936, 1104, 1272
	tsUsr, tsSys, tsCtx, tsMinf, tsMajf                         = 1440, 1448, 1456, 1464, 1472
	tsClatPct, tsLatPct, tsSlatPct, tsPctPrec, tsPctList        = 1480, 1484, 1488, 1496, 1504
	tsDepth, tsSubmit, tsComplete, tsLatN, tsLatU, tsLatM       = 1824, 1880, 1936, 1992, 2072, 2152
	tsPlat, tsSyncPlat                                          = 2248, 135880
	tsTotalIO, tsShortIO, tsDropIO, tsTotalSubmit, tsTotalCompl = 150728, 150760, 150784, 150808, 150816
	tsIOBytes, tsRuntime, tsTotalRun                            = 150824, 150848, 150872
	tsCoE, tsFirstErr, tsErrCount, tsZoneResets                 = 150880, 150884, 150888, 150896
	tsKBBase, tsUnitBase, tsLatDepth, tsLatTarget               = 183680, 183684, 183688, 183696
	tsLatPctile, tsLatWindow, tsSigFigs                         = 183704, 183720, 183728
	ioStatSize                                                  = 56
	platDir                                                     = stats.HistBuckets * 8
)

// fio's num2str unit codes in unit_base.
const (
	unitBytesPerSec = 4
	unitBitsPerSec  = 5
)

func putAccum(b le, off int, a *stats.Accum) {
	b.put64(off, a.Max)
	if a.N == 0 {
		b.put64(off+8, math.MaxUint64)
	} else {
		b.put64(off+8, a.Min)
	}
	b.put64(off+16, a.N)
	b.putF64(off+24, a.Mean)
	b.putF64(off+40, a.S)
}

func getAccum(b le, off int) stats.Accum {
	a := stats.Accum{Max: b.u64(off), Min: b.u64(off + 8), N: b.u64(off + 16), Mean: b.f64(off + 24), S: b.f64(off + 40)}
	if a.N == 0 {
		a.Min = 0
	}
	return a
}

func putHist(b le, off int, h *stats.Hist) {
	for i, c := range h {
		if c != 0 {
			b.put64(off+8*i, c)
		}
	}
}

func getHist(b le, off int, h *stats.Hist) {
	for i := range h {
		h[i] = b.u64(off + 8*i)
	}
}

func putU64s(b le, off int, v []uint64) {
	for i, x := range v {
		b.put64(off+8*i, x)
	}
}

func getU64s(b le, off int, v []uint64) {
	for i := range v {
		v[i] = b.u64(off + 8*i)
	}
}

func boolU32(v bool) uint32 {
	if v {
		return 1
	}
	return 0
}

// EncodeTS returns the TS payload of report j, whose first member has
// fio thread number thread (counted from 1), with its group's aggregates
// gs.
func EncodeTS(j *output.Job, thread int, gs *output.GroupRunStats) []byte {
	b := le(make([]byte, TSSize))
	st := j.Stats
	if j.Unified == 1 { // fio folds the directions into slot 0 as it counts
		m := st.Dir[stats.Read]
		for d := stats.Write; d < stats.NDirs; d++ {
			m.Merge(&st.Dir[d])
		}
		st.Dir = [stats.NDirs]stats.DirStats{m}
	}
	b.putStr(tsName, 128, j.Name)
	b.putStr(tsVerror, 128, j.ErrorText)
	b.put32(tsError, uint32(j.Error))
	b.put32(tsThread, uint32(thread))
	b.put32(tsGroup, uint32(j.GroupID))
	b.put32(tsPid, uint32(j.Pid))
	b.putStr(tsDesc, 256, j.Description)
	b.put32(tsMembers, uint32(max(st.Members, 1)))
	b.put32(tsUnified, uint32(j.Unified))
	b.put32(tsNoPrio, 1) // gofio keeps no per-priority statistics; fio sends 1 then
	putAccum(b, tsSync, &st.Sync)
	for d := range stats.NDirs {
		ds := &st.Dir[d]
		o := d * ioStatSize
		putAccum(b, tsClat+o, &ds.Clat)
		putAccum(b, tsSlat+o, &ds.Slat)
		putAccum(b, tsLat+o, &ds.Lat)
		putAccum(b, tsBW+o, &ds.BW)
		putAccum(b, tsIOPS+o, &ds.IOPS)
		putHist(b, tsPlat+(0*3+d)*platDir, &ds.SlatHist)
		putHist(b, tsPlat+(1*3+d)*platDir, &ds.ClatHist)
		putHist(b, tsPlat+(2*3+d)*platDir, &ds.LatHist)
		b.put64(tsTotalIO+8*d, ds.TotalIOs)
		b.put64(tsShortIO+8*d, ds.ShortIOs)
		b.put64(tsDropIO+8*d, ds.DropIOs)
		b.put64(tsIOBytes+8*d, ds.IOBytes)
		b.put64(tsRuntime+8*d, ds.RuntimeMS())
	}
	b.put64(tsUsr, st.UsrMS)
	b.put64(tsSys, st.SysMS)
	b.put64(tsCtx, st.Ctx)
	b.put64(tsMinf, st.Minf)
	b.put64(tsMajf, st.Majf)
	b.put32(tsClatPct, boolU32(j.ClatPercentiles))
	b.put32(tsLatPct, boolU32(j.LatPercentiles))
	b.put32(tsSlatPct, boolU32(j.SlatPercentiles))
	list, prec := j.Percentiles, j.PercentilePrecision
	if list == nil {
		list, prec = stats.DefaultPercentiles, 2
	}
	b.put64(tsPctPrec, uint64(prec))
	for i, p := range list {
		if i == 20 {
			break
		}
		b.putF64(tsPctList+16*i, p)
	}
	putU64s(b, tsDepth, st.IODepth[:])
	putU64s(b, tsSubmit, st.Submit[:])
	putU64s(b, tsComplete, st.Complete[:])
	putU64s(b, tsLatN, st.LatNsec[:])
	putU64s(b, tsLatU, st.LatUsec[:])
	putU64s(b, tsLatM, st.LatMsec[:])
	putHist(b, tsSyncPlat, &st.SyncHist)
	b.put64(tsTotalIO+24, st.SyncIOs)
	b.put64(tsTotalSubmit, st.Submits)
	b.put64(tsTotalCompl, st.Completes)
	b.put64(tsTotalRun, st.RuntimeMS)
	if j.ErrorCheck {
		b.put16(tsCoE, 1)
	}
	b.put32(tsFirstErr, uint32(j.FirstError))
	b.put64(tsErrCount, j.TotalErrors)
	b.put64(tsZoneResets, st.ZoneResets)
	b.put32(tsKBBase, uint32(output.KBBase(j.KBBase)))
	b.put32(tsUnitBase, unitCode(j.UnitBase))
	b.put32(tsLatDepth, uint32(j.Depth))
	b.put64(tsLatTarget, j.LatencyTarget)
	b.putF64(tsLatPctile, j.LatencyPercentile)
	b.put64(tsLatWindow, j.LatencyWindow)
	b.put32(tsSigFigs, uint32(output.SigFigs(j.SigFigs)))
	if gs != nil {
		copy(b[tsSize:], EncodeGS(gs))
	}
	return b
}

// unitCode maps gofio's unit_base (1 bits, else bytes) to fio's code.
func unitCode(unitBase int) uint32 {
	if unitBase == 1 {
		return unitBitsPerSec
	}
	return unitBytesPerSec
}

// unitBaseOf maps fio's code back to gofio's unit_base.
func unitBaseOf(code uint32) int {
	if code == unitBitsPerSec || code == 3 {
		return 1
	}
	return 0
}

// TS is a decoded TS payload.
type TS struct {
	Job    output.Job
	Thread int // thread_number of the first member
	Group  output.GroupRunStats
}

// DecodeTS reads a TS payload (extensions past the fixed part are
// ignored: gofio reports no per-priority or steady-state data).
func DecodeTS(p []byte) (*TS, error) {
	if len(p) < TSSize {
		return nil, fmt.Errorf("%w: TS of %d bytes, want at least %d", ErrProtocol, len(p), TSSize)
	}
	b := le(p)
	t := &TS{Thread: int(b.u32(tsThread))}
	j := &t.Job
	j.Name, j.ErrorText, j.Error = b.str(tsName, 128), b.str(tsVerror, 128), int(b.u32(tsError))
	j.GroupID, j.Pid, j.Description = int(b.u32(tsGroup)), int(b.u32(tsPid)), b.str(tsDesc, 256)
	st := &j.Stats
	st.Members = int(b.u32(tsMembers))
	j.Unified = int(b.u32(tsUnified))
	st.Sync = getAccum(b, tsSync)
	for d := range stats.NDirs {
		ds := &st.Dir[d]
		o := d * ioStatSize
		ds.Clat, ds.Slat, ds.Lat = getAccum(b, tsClat+o), getAccum(b, tsSlat+o), getAccum(b, tsLat+o)
		ds.BW, ds.IOPS = getAccum(b, tsBW+o), getAccum(b, tsIOPS+o)
		getHist(b, tsPlat+(0*3+d)*platDir, &ds.SlatHist)
		getHist(b, tsPlat+(1*3+d)*platDir, &ds.ClatHist)
		getHist(b, tsPlat+(2*3+d)*platDir, &ds.LatHist)
		ds.TotalIOs, ds.ShortIOs, ds.DropIOs = b.u64(tsTotalIO+8*d), b.u64(tsShortIO+8*d), b.u64(tsDropIO+8*d)
		ds.IOBytes, ds.RuntimeUS = b.u64(tsIOBytes+8*d), b.u64(tsRuntime+8*d)*1000
	}
	st.UsrMS, st.SysMS, st.Ctx, st.Minf, st.Majf = b.u64(tsUsr), b.u64(tsSys), b.u64(tsCtx), b.u64(tsMinf), b.u64(tsMajf)
	j.ClatPercentiles, j.LatPercentiles, j.SlatPercentiles = b.u32(tsClatPct) != 0, b.u32(tsLatPct) != 0, b.u32(tsSlatPct) != 0
	var list []float64
	for i := range 20 {
		if v := b.f64(tsPctList + 16*i); v != 0 {
			list = append(list, v)
		}
	}
	j.Percentiles, j.PercentilePrecision = list, int(b.u64(tsPctPrec))
	if equalFloats(list, stats.DefaultPercentiles) && j.PercentilePrecision == 2 {
		j.Percentiles, j.PercentilePrecision = nil, 0
	}
	getU64s(b, tsDepth, st.IODepth[:])
	getU64s(b, tsSubmit, st.Submit[:])
	getU64s(b, tsComplete, st.Complete[:])
	getU64s(b, tsLatN, st.LatNsec[:])
	getU64s(b, tsLatU, st.LatUsec[:])
	getU64s(b, tsLatM, st.LatMsec[:])
	getHist(b, tsSyncPlat, &st.SyncHist)
	st.SyncIOs, st.Submits, st.Completes = b.u64(tsTotalIO+24), b.u64(tsTotalSubmit), b.u64(tsTotalCompl)
	st.RuntimeMS = b.u64(tsTotalRun)
	j.ErrorCheck = b.u16(tsCoE) != 0
	j.FirstError, j.TotalErrors = int(b.u32(tsFirstErr)), b.u64(tsErrCount)
	st.ZoneResets = b.u64(tsZoneResets)
	j.KBBase, j.UnitBase = int(b.u32(tsKBBase)), unitBaseOf(b.u32(tsUnitBase))
	j.Depth, j.LatencyTarget = int(b.u32(tsLatDepth)), b.u64(tsLatTarget)
	j.LatencyPercentile, j.LatencyWindow = b.f64(tsLatPctile), b.u64(tsLatWindow)
	j.SigFigs = int(b.u32(tsSigFigs))
	g, err := DecodeGS(p[tsSize : tsSize+gsSize])
	if err != nil {
		return nil, err
	}
	t.Group = g
	return t, nil
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// EncodeGS returns the GS payload of a group.
func EncodeGS(g *output.GroupRunStats) []byte {
	b := le(make([]byte, gsSize))
	for d := range stats.NDirs {
		b.put64(8*d, g.MaxRun[d])
		b.put64(24+8*d, g.MinRun[d])
		b.put64(48+8*d, g.MaxBW[d])
		b.put64(72+8*d, g.MinBW[d])
		b.put64(96+8*d, g.IOBytes[d])
		b.put64(120+8*d, g.Agg[d])
	}
	b.put32(144, uint32(output.KBBase(g.KBBase)))
	b.put32(148, unitCode(g.UnitBase))
	b.put32(152, uint32(output.SigFigs(g.SigFigs)))
	b.put32(156, uint32(g.ID))
	b.put32(160, uint32(g.Unified))
	return b
}

// DecodeGS reads a GS payload.
func DecodeGS(p []byte) (output.GroupRunStats, error) {
	var g output.GroupRunStats
	if len(p) < gsSize {
		return g, fmt.Errorf("%w: GS of %d bytes", ErrProtocol, len(p))
	}
	b := le(p)
	for d := range stats.NDirs {
		g.MaxRun[d], g.MinRun[d] = b.u64(8*d), b.u64(24+8*d)
		g.MaxBW[d], g.MinBW[d] = b.u64(48+8*d), b.u64(72+8*d)
		g.IOBytes[d], g.Agg[d] = b.u64(96+8*d), b.u64(120+8*d)
	}
	g.KBBase, g.UnitBase, g.SigFigs = int(b.u32(144)), unitBaseOf(b.u32(148)), int(b.u32(152))
	g.ID, g.Unified = int(b.u32(156)), int(b.u32(160))
	return g, nil
}

// duMsec is the msec DU carries: util is sent as io_ticks per million
// (gofio's model keeps the percentage, not the two counts).
const duMsec = 1000000

// EncodeDU returns the DU payload of a disk.
func EncodeDU(d *output.Disk) []byte {
	b := le(make([]byte, duSize))
	b.putStr(0, 64, d.Name)
	b.put64(64, d.ReadIOs)
	b.put64(72, d.WriteIOs)
	b.put64(80, d.ReadMerges)
	b.put64(88, d.WriteMerges)
	b.put64(112, d.ReadTicks)
	b.put64(120, d.WriteTicks)
	b.put64(128, uint64(math.Round(d.Util*duMsec/100)))
	b.put64(136, d.InQueue)
	b.put64(144, duMsec)
	return b
}

// DecodeDU reads a DU payload. Slave aggregates are not decoded.
func DecodeDU(p []byte) (output.Disk, error) {
	var d output.Disk
	if len(p) < duSize {
		return d, fmt.Errorf("%w: DU of %d bytes", ErrProtocol, len(p))
	}
	b := le(p)
	d.Name = b.str(0, 64)
	d.ReadIOs, d.WriteIOs = b.u64(64), b.u64(72)
	d.ReadMerges, d.WriteMerges = b.u64(80), b.u64(88)
	d.ReadTicks, d.WriteTicks = b.u64(112), b.u64(120)
	d.InQueue = b.u64(136)
	if ms := b.u64(144); ms != 0 {
		d.Util = min(100, float64(b.u64(128))*100/float64(ms))
	}
	return d, nil
}
