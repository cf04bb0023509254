package jobspec

import (
	"fmt"
	"slices"
	"strings"
)

// This file holds the typed values of the ioengines' private options
// (engineopts.go lists their rows) and the setters those rows refer to.
// Each value is read once, with fio's rules for its row's kind and the
// row's bounds, when the option is applied to a job; the engines read
// the typed fields.

// IOEngineOptions are the values of a job's ioengine options. A job holds
// the options of its own engine only (fio drops them when a later
// ioengine line changes the engine); options not given keep fio's
// defaults.
type IOEngineOptions struct {
	// cpuio.
	CPULoad      int     // cpuload, percent; 0 when not given
	CPUChunks    int     // cpuchunks, µs per cycle
	CPUMode      CPUMode // cpumode
	ExitOnIODone bool    // exit_on_io_done

	// mmap.
	THP int // thp: 1 asks for transparent huge pages

	// pvsync2, io_uring and libaio (hipri also sg).
	HiPri           bool // hipri
	HiPriPercentage int  // hipri_percentage (pvsync2)
	Uncached        int  // uncached (pvsync2, io_uring)
	NoWait          bool // nowait (pvsync2, io_uring, libaio)

	// io_uring and io_uring_cmd.
	FixedBufs       bool
	RegisterFiles   bool
	SQThreadPoll    bool
	SQThreadPollCPU int // sqthread_poll_cpu; -1 when not given
	NonVectored     int // nonvectored; -1 (the default) picks by kernel
	ForceAsync      int // force_async: IOSQE_ASYNC every N requests
	CmdType         string

	// libaio.
	UserspaceReap bool

	// CmdPrio holds the cmdprio options (io_uring, libaio).
	CmdPrio CmdPrioOptions

	// filestat.
	StatType StatType

	// Block-device engines: nbd's uri, e4defrag's donorname and inplace,
	// sg's readfua, writefua, sg_write_mode and stream_id.
	URI         string
	DonorName   string
	InPlace     int
	ReadFUA     bool
	WriteFUA    bool
	SGWriteMode SGWriteMode
	StreamID    int

	// net and netsplice.
	Hostname   string   // hostname; "" when not given
	Port       int      // port; 0 when not given
	Protocol   NetProto // protocol (proto)
	NoDelay    bool     // nodelay: TCP_NODELAY
	Listen     bool     // listen: accept the TCP connection
	PingPong   bool     // pingpong: each I/O is a round trip
	Interface  string   // interface: the address of the multicast interface
	TTL        int      // ttl of outgoing multicast datagrams
	WindowSize int      // window_size: socket buffer bytes; 0 leaves them
	MSS        int      // mss: TCP_MAXSEG; 0 leaves it

	// exec.
	Program     string // program
	Arguments   string // arguments, before %r and %n are replaced
	GraceTime   int    // grace_time: seconds from SIGTERM to SIGKILL
	StdRedirect bool   // std_redirect: output to JOB.stdout, JOB.stderr

	// Other holds the options of the engines gofio cannot run yet (rdma,
	// gfapi, …), checked by their rows and kept as written,
	// in the order first given.
	Other []RawOption

	// given are the canonical names of the options set, in the order
	// first given.
	given []string
}

// CPUMode is cpuio's cpumode.
type CPUMode uint8

// The cpumode choices.
const (
	CPUNoop  CPUMode = iota // spin for cpuchunks µs
	CPUQsort                // sort an array of random numbers
)

// SGWriteMode is sg's sg_write_mode.
type SGWriteMode uint8

// The sg_write_mode choices ("verify" and "same" are the deprecated names
// of write_and_verify and write_same).
const (
	SGWrite          SGWriteMode = iota // WRITE(10/16)
	SGWriteAndVerify                    // WRITE AND VERIFY(10/16)
	SGWriteSame                         // WRITE SAME(10/16)
	SGWriteSameNDOB                     // WRITE SAME(16) with NDOB
	SGVerifyBytchk00                    // VERIFY(10/16), BYTCHK 00
	SGVerifyBytchk01                    // VERIFY(10/16), BYTCHK 01
	SGVerifyBytchk11                    // VERIFY(10/16), BYTCHK 11
	SGWriteStream                       // WRITE STREAM(16)
)

// NetProto is the net engines' protocol.
type NetProto uint8

// The protocol choices.
const (
	ProtoTCP   NetProto = iota // tcp
	ProtoTCPv6                 // tcpv6
	ProtoUDP                   // udp
	ProtoUDPv6                 // udpv6
	ProtoUnix                  // unix: a UNIX domain stream socket
)

// String returns the protocol's name as the option writes it.
func (p NetProto) String() string {
	return [...]string{"tcp", "tcpv6", "udp", "udpv6", "unix"}[p]
}

// StatType is filestat's stat_type.
type StatType uint8

// The stat_type choices.
const (
	StatStat  StatType = iota // stat(2)
	StatLstat                 // lstat(2)
	StatStatx                 // statx(2)
)

// CmdPrioOptions are the per-command priority options of the io_uring and
// libaio engines. Index 0 of each pair is for reads, 1 for writes: one
// value sets both, "R,W" each (fio's manual).
type CmdPrioOptions struct {
	Percentage [2]int // cmdprio_percentage
	Class      [2]int // cmdprio_class; 0 when not given
	Level      [2]int // cmdprio
	// BSSplit is cmdprio_bssplit read into entries per direction, zero
	// percentages left out and sorted by block size, as fio reads it when
	// the engine starts. BSSplitGiven is set when the option was given,
	// even with no entries ("," say): fio then refuses cmdprio_percentage.
	BSSplit      [2][]CmdPrioSplit
	BSSplitGiven bool
	// BSSplitErr holds fio's lines for a cmdprio_bssplit value it accepts
	// when parsing but refuses when the engine starts ("fio: invalid
	// cmdprio_bssplit format", …); empty when the value reads. See
	// SplitError.
	BSSplitErr string
}

// CmdPrioSplit is one cmdprio_bssplit entry: I/Os of BS bytes get a
// priority Percent percent of the time, Prio when HasPrio, else the
// class and level of cmdprio_class and cmdprio.
type CmdPrioSplit struct {
	BS      uint64
	Percent int
	HasPrio bool
	Class   int // 0…3
	Level   int // 0…7
}

// defaultIOEngineOptions returns the values the engine options have when
// not given.
func defaultIOEngineOptions() IOEngineOptions {
	return IOEngineOptions{
		CPUChunks:       50000,
		HiPriPercentage: 100,
		SQThreadPollCPU: -1,
		NonVectored:     -1,
		CmdType:         "nvme",
		TTL:             1,
		GraceTime:       1,
		StdRedirect:     true,
	}
}

// Given reports whether the engine option called name (canonical name)
// was set for the job.
func (o *IOEngineOptions) Given(name string) bool { return slices.Contains(o.given, name) }

// clone returns a deep copy of o.
func (o IOEngineOptions) clone() IOEngineOptions {
	o.Other = slices.Clone(o.Other)
	o.given = slices.Clone(o.given)
	for d := range o.CmdPrio.BSSplit {
		o.CmdPrio.BSSplit[d] = slices.Clone(o.CmdPrio.BSSplit[d])
	}
	return o
}

// note records that the option name was given.
func (o *IOEngineOptions) note(name string) {
	if !o.Given(name) {
		o.given = append(o.given, name)
	}
}

// ParseEngineOptions reads name=value options ("hipri" alone for a flag)
// of engine into the typed values a job of that engine gets, as a job
// file would give them. The error holds fio's lines for a value fio
// refuses.
func ParseEngineOptions(engine string, opts ...string) (IOEngineOptions, error) {
	j := defaults()
	j.IOEngine = engine
	for _, kv := range opts {
		name, value, has := strings.Cut(kv, "=")
		def, ok := lookupEngineOption(engine, name)
		if !ok {
			return j.EngineOptions, fmt.Errorf("Bad option <%s>", kv)
		}
		r := reader{job: j}
		if !r.read(def, value, has) {
			var lines []string
			for _, n := range r.notes {
				if !n.stdout {
					lines = append(lines, n.text)
				}
			}
			lines = append(lines, "fio: failed parsing "+kv)
			return j.EngineOptions, fmt.Errorf("%s", strings.Join(lines, "\n"))
		}
		if err := setEngineOption(j, def, value); err != nil {
			return j.EngineOptions, err
		}
	}
	return j.EngineOptions, nil
}

// setEngineOption stores an engine option's value, already accepted by
// the reader, in j.
func setEngineOption(j *Job, def *Option, value string) error {
	j.EngineOptions.note(def.Name)
	return def.Set(j, value)
}

// engineLimits are the bounds of the engine option rows by name; rows of
// the same name in several engines have the same bounds.
var engineLimits = map[string]limits{}

// engineIntPiece reads the first piece of the int engine option name
// with fio's rules: truncated to 32 bits and checked against the row's
// bounds (a bound of 0 is none); ok is false when it does not read or is
// out of range.
func engineIntPiece(name, text string, kbBase int) (int64, bool) {
	s, err := parseSize(text, kbBase)
	if err != nil {
		return 0, false
	}
	lim := engineLimits[name]
	v := int64(int32(s.plain()))
	if lim.min != 0 && v < lim.min || lim.max != 0 && v > lim.max {
		return 0, false
	}
	if lim.min >= 0 {
		v = int64(uint32(v)) // fio's field is unsigned
	}
	return v, true
}

// setEngineInt returns the setter of the int engine option name: fio
// stores the first piece when it reads and is within the row's bounds,
// and otherwise leaves the value as it was (another piece made the
// reader accept the option).
func setEngineInt(name string, field func(*IOEngineOptions) *int) func(*Job, string) error {
	return func(j *Job, value string) error {
		if v, ok := engineIntPiece(name, pieces(value, true)[0].Text, j.KBBase); ok {
			*field(&j.EngineOptions) = int(v)
		}
		return nil
	}
}

// setEngineIntRW returns the setter of a read,write engine option
// (cmdprio_percentage, cmdprio_class, cmdprio): piece 0 sets reads, piece
// 1 writes, and a last piece also sets the directions after it; a piece
// that does not read or is out of the row's bounds sets nothing (fio
// 3.33: cmdprio_percentage=50,120 prioritises half of the reads and no
// writes).
func setEngineIntRW(name string, field func(*IOEngineOptions) *[2]int) func(*Job, string) error {
	return func(j *Job, value string) error {
		f := field(&j.EngineOptions)
		for i, p := range pieces(value, true) {
			if i >= len(f) {
				break
			}
			v, ok := engineIntPiece(name, p.Text, j.KBBase)
			if !ok {
				continue
			}
			for d := i; d < len(f) && (d == i || !p.More); d++ {
				f[d] = int(v)
			}
		}
		return nil
	}
}

// setEngineBool and setEngineFlag are boolStore and setFlag for engine
// options.
func setEngineBool(field func(*IOEngineOptions) *bool) storer {
	return boolStore(func(j *Job) *bool { return field(&j.EngineOptions) })
}

func setEngineFlag(field func(*IOEngineOptions) *bool) func(*Job, string) error {
	return setFlag(func(j *Job) *bool { return field(&j.EngineOptions) })
}

// setEngineString returns the setter of a string engine option: the
// value as written.
func setEngineString(field func(*IOEngineOptions) *string) func(*Job, string) error {
	return func(j *Job, value string) error {
		*field(&j.EngineOptions) = value
		return nil
	}
}

// setEngineChoice returns the setter of a choice engine option: the index
// of the word value selects among words.
func setEngineChoice(words []string, store func(*IOEngineOptions, int)) func(*Job, string) error {
	return func(j *Job, value string) error {
		for i, w := range words {
			if matchChoice(value, w) {
				store(&j.EngineOptions, i)
				return nil
			}
		}
		return errChoice
	}
}

var (
	setCPUMode = setEngineChoice([]string{"noop", "qsort"},
		func(o *IOEngineOptions, i int) { o.CPUMode = CPUMode(i) })
	setStatType = setEngineChoice([]string{"stat", "lstat", "statx"},
		func(o *IOEngineOptions, i int) { o.StatType = StatType(i) })
	setNetProtocol = setEngineChoice([]string{"tcp", "tcpv6", "udp", "udpv6", "unix"},
		func(o *IOEngineOptions, i int) { o.Protocol = NetProto(i) })
	setCmdType = setEngineChoice([]string{"nvme"},
		func(o *IOEngineOptions, i int) { o.CmdType = "nvme" })
	setSGWriteMode = setEngineChoice([]string{"write", "write_and_verify", "verify", "write_same", "same",
		"write_same_ndob", "verify_bytchk_00", "verify_bytchk_01", "verify_bytchk_11", "write_stream"},
		func(o *IOEngineOptions, i int) {
			o.SGWriteMode = [...]SGWriteMode{SGWrite, SGWriteAndVerify, SGWriteAndVerify, SGWriteSame, SGWriteSame,
				SGWriteSameNDOB, SGVerifyBytchk00, SGVerifyBytchk01, SGVerifyBytchk11, SGWriteStream}[i]
		})
)

// setOtherEngineOption returns the setter of an option of an engine gofio
// cannot run yet: the value, which the reader checked against the row,
// is kept as written.
func setOtherEngineOption(name string) func(*Job, string) error {
	return func(j *Job, value string) error {
		o := &j.EngineOptions
		for i := range o.Other {
			if o.Other[i].Name == name {
				o.Other[i].Value = value
				return nil
			}
		}
		o.Other = append(o.Other, RawOption{Name: name, Value: value})
		return nil
	}
}

// bssplitMax is the most entries one direction of cmdprio_bssplit takes
// (fio 3.33 refuses 65: "too many cmdprio_bssplit entries").
const bssplitMax = 64

// setCmdPrioBSSplit reads cmdprio_bssplit the way fio 3.33 does when the
// engine starts (observed): "LIST" for reads and writes or "R,W[,T]" (the
// trim list is ignored; the write list is read first, so its error is the
// one shown); each list is ':'-separated entries, ended by the first
// empty one; an entry is "bs/", "bs/perc" or "bs/perc/class/level", where
// bs is a size (kb_base applies), the numbers are read as C's %u reads
// them (blanks, sign, digits; reading stops at the first that does not
// read, and what follows a number must be '/'), percentages over 100 are
// 100, classes over 3 are 3 and levels over 7 are 7. Entries with 0
// percent are left out. A value fio refuses leaves no entries and its
// lines in BSSplitErr.
func setCmdPrioBSSplit(j *Job, value string) error {
	c := &j.EngineOptions.CmdPrio
	c.BSSplitGiven = true
	c.BSSplit = [2][]CmdPrioSplit{}
	c.BSSplitErr = ""
	value = strings.TrimSpace(value)
	read, write := value, value
	if r, rest, ok := strings.Cut(value, ","); ok {
		read = r
		write, _, _ = strings.Cut(rest, ",")
	}
	var split [2][]CmdPrioSplit
	for _, d := range [...]int{1, 0} {
		s, err := cmdPrioSplitList([]string{read, write}[d], j.KBBase)
		if err != "" {
			c.BSSplitErr = err
			return nil
		}
		split[d] = s
	}
	c.BSSplit = split
	return nil
}

// SplitError returns fio's lines for a cmdprio_bssplit fio refuses when
// the engine starts, "" for none: a value that does not read, or one
// whose entries for a block size add up to more than 100 percent in a
// direction the job does (reads for use[0], writes for use[1]).
func (c *CmdPrioOptions) SplitError(use [2]bool) string {
	if c.BSSplitErr != "" {
		return c.BSSplitErr
	}
	for d, s := range c.BSSplit {
		if err := cmdPrioSplitTotals(s); err != "" && use[d] {
			return err
		}
	}
	return ""
}

// cmdPrioSplitList reads one direction's list of cmdprio_bssplit.
func cmdPrioSplitList(list string, kbBase int) ([]CmdPrioSplit, string) {
	var ents []string
	for e := range strings.SplitSeq(list, ":") {
		if e == "" {
			break
		}
		ents = append(ents, e)
	}
	if len(ents) > bssplitMax {
		return nil, "fio: too many cmdprio_bssplit entries"
	}
	var out []CmdPrioSplit
	for _, e := range ents {
		sp, err := cmdPrioSplitEntry(e, kbBase)
		if err != "" {
			return nil, err + "\nfio: failed to parse cmdprio_bssplit entry"
		}
		if sp.Percent > 0 {
			out = append(out, sp)
		}
	}
	slices.SortStableFunc(out, func(a, b CmdPrioSplit) int {
		switch {
		case a.BS < b.BS:
			return -1
		case a.BS > b.BS:
			return 1
		}
		return 0
	})
	return out, ""
}

// cmdPrioSplitEntry reads one "bs/perc/class/level" entry.
func cmdPrioSplitEntry(e string, kbBase int) (CmdPrioSplit, string) {
	const badFormat = "fio: invalid cmdprio_bssplit format"
	bsText, rest, slash := strings.Cut(e, "/")
	if bsText == "" {
		return CmdPrioSplit{}, badFormat
	}
	bs, err := parseSize(bsText, kbBase)
	if err != nil {
		return CmdPrioSplit{}, "fio: split conversion failed"
	}
	var nums []uint64
	if slash {
		for len(nums) < 3 {
			v, n := scanUnsigned(rest)
			if n == 0 {
				break
			}
			nums = append(nums, v)
			rest = rest[n:]
			if !strings.HasPrefix(rest, "/") {
				break
			}
			rest = rest[1:]
		}
	}
	sp := CmdPrioSplit{BS: uint64(bs.plain())}
	if len(nums) > 0 {
		sp.Percent = int(min(nums[0], 100))
	}
	switch len(nums) {
	case 2:
		return CmdPrioSplit{}, badFormat
	case 3:
		sp.HasPrio = true
		sp.Class, sp.Level = int(min(nums[1], 3)), int(min(nums[2], 7))
	}
	return sp, ""
}

// scanUnsigned reads an unsigned int at the start of s as C's "%u" does:
// leading blanks, an optional sign, decimal digits; a negative number
// wraps and one too large for 32 bits is cut to them. n is 0 when no
// digit was read.
func scanUnsigned(s string) (v uint64, n int) {
	x, n, _ := cStrtoll(s, 10)
	return uint64(uint32(x)), n
}

// cmdPrioSplitTotals checks that the entries of each block size add up
// to at most 100 percent, with fio's message.
func cmdPrioSplitTotals(s []CmdPrioSplit) string {
	for i := 0; i < len(s); {
		total, k := 0, i
		for ; k < len(s) && s[k].BS == s[i].BS; k++ {
			total += s[k].Percent
			if total > 100 {
				return fmt.Sprintf("fio: cmdprio_bssplit total percentage for bs: %d exceeds 100", s[i].BS)
			}
		}
		i = k
	}
	return ""
}
