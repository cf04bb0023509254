package netio

import (
	"encoding/binary"
	"fmt"
	"time"
)

// This file encodes and decodes the small commands (§6 of the reference):
// PROBE, JOB, JOBLINE, LOAD_FILE, TEXT, START, STOP, JOB_OPT and ETA.

// ProbeRequest is the client's PROBE payload (136 bytes).
type ProbeRequest struct {
	Zlib   bool   // the client can inflate zlib-compressed logs
	Server string // the client's text form of the server address
}

const probeReqSize = 136

// Encode returns the payload.
func (p ProbeRequest) Encode() []byte {
	b := le(make([]byte, probeReqSize))
	if p.Zlib {
		b.put64(0, 1)
	}
	b.putStr(8, 128, p.Server)
	return b
}

// DecodeProbeRequest reads a PROBE request payload. fio's server
// answers a PROBE whatever its size (observed with 0, 4, 8, 16 and 136
// bytes): the bytes present are read and the rest counts as zero, so an
// 8-byte payload carries just the flags and no server name. The error is
// always nil.
func DecodeProbeRequest(p []byte) (ProbeRequest, error) {
	b := le(make([]byte, probeReqSize))
	copy(b, p)
	return ProbeRequest{Zlib: b.u64(0)&1 != 0, Server: b.str(8, 128)}, nil
}

// ProbeReply is the server's PROBE answer (112 bytes).
type ProbeReply struct {
	Hostname   string
	BigEndian  bool
	FioVersion string
	OS, Arch   uint8 // 1 Linux; 1 x86-64, 13 aarch64
	BPP        uint8 // pointer size in bytes
	CPUs       uint32
	Flags      uint64 // bit 0: zlib negotiated
}

const probeReplySize = 112

// Encode returns the payload.
func (p ProbeReply) Encode() []byte {
	b := le(make([]byte, probeReplySize))
	b.putStr(0, 64, p.Hostname)
	if p.BigEndian {
		b[64] = 1
	}
	b.putStr(65, 32, p.FioVersion)
	b[97], b[98], b[99] = p.OS, p.Arch, p.BPP
	b.put32(100, p.CPUs)
	b.put64(104, p.Flags)
	return b
}

// DecodeProbeReply reads a PROBE reply payload.
func DecodeProbeReply(p []byte) (ProbeReply, error) {
	if len(p) < probeReplySize {
		return ProbeReply{}, fmt.Errorf("%w: PROBE reply of %d bytes", ErrProtocol, len(p))
	}
	b := le(p)
	return ProbeReply{Hostname: b.str(0, 64), BigEndian: b[64] != 0, FioVersion: b.str(65, 32),
		OS: b[97], Arch: b[98], BPP: b[99], CPUs: b.u32(100), Flags: b.u64(104)}, nil
}

var osNames = []string{"", "Linux", "AIX", "FreeBSD", "HP-UX", "OSX", "NetBSD", "OpenBSD", "Solaris", "Windows", "Android", "DragonFly"}
var archNames = []string{"", "x86-64", "x86", "ppc", "ia64", "s390", "alpha", "sparc", "sparc64", "arm", "sh", "hppa", "mips", "aarch64", "generic"}

// Line is what fio's client prints for the reply in normal mode.
func (p ProbeReply) Line() string {
	osName, arch := "unknown", "(null)"
	if int(p.Arch) < len(archNames) && p.Arch != 0 {
		arch = archNames[p.Arch]
		if int(p.OS) < len(osNames) && p.OS != 0 {
			osName = osNames[p.OS]
		}
	}
	be := 0
	if p.BigEndian {
		be = 1
	}
	return fmt.Sprintf("hostname=%s, be=%d, %d-bit, os=%s, arch=%s, fio=%s, flags=%x", p.Hostname, be, int(p.BPP)*8, osName, arch, p.FioVersion, p.Flags)
}

// EncodeJob returns a JOB payload carrying a job file's text.
func EncodeJob(text string) []byte {
	b := le(make([]byte, 8+len(text)+1))
	b.put32(0, uint32(len(text)+1))
	b.put32(4, 1) // client_type: CLI
	copy(b[8:], text)
	return b
}

// DecodeJob returns the job text of a JOB payload: up to the first NUL
// of buf (the bytes after it are uninitialised memory in fio's client).
func DecodeJob(p []byte) (string, error) {
	if len(p) < 8 {
		return "", fmt.Errorf("%w: JOB of %d bytes", ErrProtocol, len(p))
	}
	n := le(p).u32(0)
	if uint64(n) > uint64(len(p)-8) {
		return "", fmt.Errorf("%w: JOB buf_len %d beyond its %d-byte payload", ErrProtocol, n, len(p))
	}
	return le(p).str(8, int(n)), nil
}

// EncodeJobLine returns a JOBLINE payload for argv (argv[0] is "fio").
func EncodeJobLine(argv []string) []byte {
	b := make([]byte, 4)
	binary.LittleEndian.PutUint16(b, uint16(len(argv)))
	binary.LittleEndian.PutUint16(b[2:], 1)
	for _, a := range argv {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(a)+1))
		b = append(append(b, a...), 0)
	}
	return b
}

// DecodeJobLine reads a JOBLINE payload into its argument vector.
func DecodeJobLine(p []byte) ([]string, error) {
	if len(p) < 4 {
		return nil, fmt.Errorf("%w: JOBLINE of %d bytes", ErrProtocol, len(p))
	}
	n := int(le(p).u16(0))
	argv := make([]string, 0, n)
	p = p[4:]
	for range n {
		if len(p) < 2 {
			return nil, fmt.Errorf("%w: JOBLINE truncated", ErrProtocol)
		}
		l := int(le(p).u16(0))
		if l > len(p)-2 {
			return nil, fmt.Errorf("%w: JOBLINE truncated", ErrProtocol)
		}
		argv = append(argv, le(p[2:]).str(0, l))
		p = p[2+l:]
	}
	return argv, nil
}

// EncodeLoadFile returns a LOAD_FILE payload naming a file on the server.
func EncodeLoadFile(name string) []byte {
	b := le(make([]byte, 4+len(name)+1))
	b.put16(0, uint16(len(name)))
	b.put16(2, 1)
	copy(b[4:], name)
	return b
}

// DecodeLoadFile reads a LOAD_FILE payload.
func DecodeLoadFile(p []byte) (string, error) {
	if len(p) < 4 || int(le(p).u16(0)) > len(p)-4 {
		return "", fmt.Errorf("%w: bad LOAD_FILE", ErrProtocol)
	}
	return string(p[4 : 4+int(le(p).u16(0))]), nil
}

// Text levels.
const (
	LevelDebug = 1
	LevelInfo  = 2
	LevelError = 3
)

// EncodeText returns a TEXT payload stamped with t.
func EncodeText(level uint32, s string, t time.Time) []byte {
	b := le(make([]byte, 24+len(s)))
	b.put32(0, level)
	b.put32(4, uint32(len(s)))
	b.put64(8, uint64(t.Unix()))
	b.put64(16, uint64(t.Nanosecond()/1000))
	copy(b[24:], s)
	return b
}

// DecodeText returns the level and text of a TEXT payload.
func DecodeText(p []byte) (level uint32, s string, err error) {
	if len(p) < 24 {
		return 0, "", fmt.Errorf("%w: TEXT of %d bytes", ErrProtocol, len(p))
	}
	n := le(p).u32(4)
	if uint64(n) > uint64(len(p)-24) {
		return 0, "", fmt.Errorf("%w: TEXT buf_len %d beyond its payload", ErrProtocol, n)
	}
	return le(p).u32(0), string(p[24 : 24+n]), nil
}

// EncodePair returns an 8-byte START (jobs, stat_outputs) or STOP
// (error, signal) payload.
func EncodePair(a, b uint32) []byte {
	p := le(make([]byte, 8))
	p.put32(0, a)
	p.put32(4, b)
	return p
}

// DecodePair reads a START or STOP payload.
func DecodePair(p []byte) (a, b uint32, err error) {
	if len(p) < 8 {
		return 0, 0, fmt.Errorf("%w: %d-byte START/STOP", ErrProtocol, len(p))
	}
	return le(p).u32(0), le(p).u32(4), nil
}

// JobOpt is one explicitly set option (JOB_OPT, 200 bytes).
type JobOpt struct {
	Global bool
	// Report is the 0-based index of the report (TS) the option belongs
	// to; 0 for global options.
	Report      uint32
	Name, Value string
}

const jobOptSize = 200

// Encode returns the payload.
func (o JobOpt) Encode() []byte {
	b := le(make([]byte, jobOptSize))
	if o.Global {
		b.put16(0, 1)
	}
	if len(o.Name) > 63 || len(o.Value) > 127 {
		b.put16(2, 1)
	}
	b.put32(4, o.Report)
	b.putStr(8, 64, o.Name)
	b.putStr(72, 128, o.Value)
	return b
}

// DecodeJobOpt reads a JOB_OPT payload.
func DecodeJobOpt(p []byte) (JobOpt, error) {
	if len(p) < jobOptSize {
		return JobOpt{}, fmt.Errorf("%w: JOB_OPT of %d bytes", ErrProtocol, len(p))
	}
	b := le(p)
	return JobOpt{Global: b.u16(0) != 0, Report: b.u32(4), Name: b.str(8, 64), Value: b.str(72, 128)}, nil
}

// ETA is the server's status reply to SEND_ETA (jobs_eta, 168 bytes, and
// the run string).
type ETA struct {
	Running, Ramp, Pending, SettingUp uint32
	RateMin, RateTarget, RateKiB      [3]uint64
	IOPSMin, IOPSTarget, IOPS         [3]uint32
	ElapsedSec, ETASec                uint64
	IsPow2, UnitBase, SigFigs         uint32
	FilesOpen, Threads                uint32
	RunStr                            string
}

// ETAUnknown is the ETASec of an unknown remaining time.
const ETAUnknown = 0x7FFFFFFF

// Encode returns the payload; an ETA with no run string is the 168
// zero-padded bytes fio sends before any job exists.
func (e ETA) Encode() []byte {
	n := 168
	if e.RunStr != "" {
		n += len(e.RunStr) + 1
	}
	b := le(make([]byte, n))
	b.put32(0, e.Running)
	b.put32(4, e.Ramp)
	b.put32(8, e.Pending)
	b.put32(12, e.SettingUp)
	for d := range 3 {
		b.put64(16+8*d, e.RateMin[d])
		b.put64(40+8*d, e.RateTarget[d])
		b.put64(64+8*d, e.RateKiB[d])
		b.put32(88+4*d, e.IOPSMin[d])
		b.put32(100+4*d, e.IOPSTarget[d])
		b.put32(112+4*d, e.IOPS[d])
	}
	b.put64(128, e.ElapsedSec)
	b.put64(136, e.ETASec)
	b.put32(144, e.IsPow2)
	b.put32(148, e.UnitBase)
	b.put32(152, e.SigFigs)
	b.put32(156, e.FilesOpen)
	b.put32(160, e.Threads)
	copy(b[168:], e.RunStr)
	return b
}

// DecodeETA reads an ETA payload.
func DecodeETA(p []byte) (ETA, error) {
	if len(p) < 168 {
		return ETA{}, fmt.Errorf("%w: ETA of %d bytes", ErrProtocol, len(p))
	}
	b := le(p)
	e := ETA{Running: b.u32(0), Ramp: b.u32(4), Pending: b.u32(8), SettingUp: b.u32(12),
		ElapsedSec: b.u64(128), ETASec: b.u64(136), IsPow2: b.u32(144), UnitBase: b.u32(148),
		SigFigs: b.u32(152), FilesOpen: b.u32(156), Threads: b.u32(160), RunStr: b.str(168, len(p)-168)}
	for d := range 3 {
		e.RateMin[d], e.RateTarget[d], e.RateKiB[d] = b.u64(16+8*d), b.u64(40+8*d), b.u64(64+8*d)
		e.IOPSMin[d], e.IOPSTarget[d], e.IOPS[d] = b.u32(88+4*d), b.u32(100+4*d), b.u32(112+4*d)
	}
	return e, nil
}
