package jobspec

import "strings"

// This file lists the ioengines of fio 3.33's Linux build in fio's
// --enghelp order, each with its private options as fio --enghelp=ENGINE
// and --enghelp=ENGINE,OPTION show them. A job may use an engine's options
// only once its ioengine is that engine; they are applied after all
// general options of a section. gofio knows the options of every engine
// fio knows, so that job files parse as they do with fio; which engines
// gofio can run is the runner's registry. Each row's setter stores the
// value in Job.EngineOptions (engineval.go); rows of engines gofio cannot
// run yet keep their values as written there.

// engineTable is one ioengine and its private options.
type engineTable struct {
	Name    string
	Options []Option
}

// Engines returns the names of fio 3.33's built-in ioengines in fio's
// --enghelp order.
func Engines() []string {
	names := make([]string, len(fioEngines))
	for i, e := range fioEngines {
		names[i] = e.Name
	}
	return names
}

// ResolveEngine returns the engine fio loads for an ioengine value: names
// starting with "aio" or "linuxaio" mean libaio. known is false for
// engines fio 3.33's build does not have.
func ResolveEngine(name string) (engine string, known bool) {
	if strings.HasPrefix(name, "aio") || strings.HasPrefix(name, "linuxaio") {
		name = "libaio"
	}
	for _, e := range fioEngines {
		if e.Name == name {
			return name, true
		}
	}
	return name, false
}

// EngineOptions returns the private options of engine (an ioengine value,
// resolved as ResolveEngine does), in --enghelp order; nil when it has
// none or is unknown.
func EngineOptions(engine string) []Option {
	name, _ := ResolveEngine(engine)
	for _, e := range fioEngines {
		if e.Name == name {
			return e.Options
		}
	}
	return nil
}

// lookupEngineOption finds name (or an alias) among engine's options.
func lookupEngineOption(engine, name string) (*Option, bool) {
	opts := EngineOptions(engine)
	for i := range opts {
		if opts[i].Name == name || opts[i].Alias != "" && opts[i].Alias == name {
			return &opts[i], true
		}
	}
	return nil, false
}

func initEngines() {
	for _, e := range fioEngines {
		for i := range e.Options {
			o := &e.Options[i]
			if o.Engine == "" {
				o.Engine = e.Name
			}
			o.lim = parseLimits(o.Range)
			if o.Set == nil { // rows shared by several engines are bound once
				o.bindStore()
			}
			if l, dup := engineLimits[o.Name]; dup && l != o.lim {
				panic("jobspec: engine options called " + o.Name + " have different bounds")
			}
			engineLimits[o.Name] = o.lim
			if o.Set == nil {
				// An engine gofio cannot run yet: the value is
				// checked by the row and kept as written.
				o.Set = setOtherEngineOption(o.Name)
			}
		}
	}
}

var fioEngines = []engineTable{
	{Name: "cpuio", Options: cpuioOptions},
	{Name: "mmap", Options: mmapOptions},
	{Name: "sync"},
	{Name: "psync"},
	{Name: "vsync"},
	{Name: "pvsync"},
	{Name: "pvsync2", Options: pvsync2Options},
	{Name: "null"},
	{Name: "net", Options: netOptions},
	{Name: "netsplice", Options: netOptions},
	{Name: "ftruncate"},
	{Name: "filecreate"},
	{Name: "filestat", Options: filestatOptions},
	{Name: "filedelete"},
	{Name: "exec", Options: execOptions},
	{Name: "posixaio"},
	{Name: "falloc"},
	{Name: "e4defrag", Options: e4defragOptions},
	{Name: "splice"},
	{Name: "gfapi", Options: gfapiOptions},
	{Name: "gfapi_async", Options: gfapiOptions},
	{Name: "mtd", Options: mtdOptions},
	{Name: "sg", Options: sgOptions},
	{Name: "io_uring", Options: ioUringOptions},
	{Name: "io_uring_cmd", Options: ioUringOptions},
	{Name: "nbd", Options: nbdOptions},
	{Name: "libaio", Options: libaioOptions},
	{Name: "rdma", Options: rdmaOptions},
	{Name: "rados", Options: radosOptions},
	{Name: "rbd", Options: rbdOptions},
	{Name: "pmemblk"},
	{Name: "dev-dax"},
	{Name: "libpmem"},
}

// cpuioOptions are the private options of the cpuio engine.
var cpuioOptions = []Option{
	{Name: "cpuload", Kind: KindInt, Type: "integer value (opt=100)", Help: "Use this percentage of CPU", Set: setEngineInt("cpuload", func(o *IOEngineOptions) *int { return &o.CPULoad })},
	{Name: "cpuchunks", Kind: KindInt, Type: "integer value (opt=100)", Default: "50000", Help: "Length of the CPU burn cycles (usecs)", Parent: "cpuload", Set: setEngineInt("cpuchunks", func(o *IOEngineOptions) *int { return &o.CPUChunks })},
	{Name: "cpumode", Kind: KindChoice, Type: "string (opt=bla)", Default: "noop", Help: "Stress mode", Choices: []Choice{{"noop", "NOOP instructions"}, {"qsort", "QSORT computation"}}, Set: setCPUMode},
	{Name: "exit_on_io_done", Kind: KindBool, Type: "boolean value (opt=1)", Default: "0", Help: "Exit when IO threads finish", store: setEngineBool(func(o *IOEngineOptions) *bool { return &o.ExitOnIODone })},
}

// mmapOptions are the private options of the mmap engine.
var mmapOptions = []Option{
	{Name: "thp", Kind: KindInt, Type: "integer value (opt=100)", Help: "Memory Advise Huge Page", Set: setEngineInt("thp", func(o *IOEngineOptions) *int { return &o.THP })},
}

// pvsync2Options are the private options of the pvsync2 engine.
var pvsync2Options = []Option{
	{Name: "hipri", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Set RWF_HIPRI for pwritev2/preadv2", Set: setEngineFlag(func(o *IOEngineOptions) *bool { return &o.HiPri })},
	{Name: "hipri_percentage", Kind: KindInt, Type: "integer value (opt=100)", Default: "100", Range: "min=0, max=100", Help: "Probabilistically set RWF_HIPRI for pwritev2/preadv2", Set: setEngineInt("hipri_percentage", func(o *IOEngineOptions) *int { return &o.HiPriPercentage })},
	{Name: "uncached", Kind: KindInt, Type: "integer value (opt=100)", Help: "Use RWF_UNCACHED for buffered read/writes", Set: setEngineInt("uncached", func(o *IOEngineOptions) *int { return &o.Uncached })},
	{Name: "nowait", Kind: KindBool, Type: "boolean value (opt=1)", Help: "Set RWF_NOWAIT for pwritev2/preadv2", store: setEngineBool(func(o *IOEngineOptions) *bool { return &o.NoWait })},
}

// netOptions are the private options of the net engine.
var netOptions = []Option{
	{Name: "hostname", Kind: KindString, Type: "string (opt=bla)", Help: "Hostname for net IO engine", Set: setEngineString(func(o *IOEngineOptions) *string { return &o.Hostname })},
	{Name: "port", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=1, max=65535", Help: "Port to use for TCP or UDP net connections", Set: setEngineInt("port", func(o *IOEngineOptions) *int { return &o.Port })},
	{Name: "protocol", Alias: "proto", Kind: KindChoice, Type: "string (opt=bla)", Default: "tcp", Help: "Network protocol to use", Choices: []Choice{{"tcp", "Transmission Control Protocol"}, {"tcpv6", "Transmission Control Protocol V6"}, {"udp", "User Datagram Protocol"}, {"udpv6", "User Datagram Protocol V6"}, {"unix", "UNIX domain socket"}}, Set: setNetProtocol},
	{Name: "nodelay", Kind: KindBool, Type: "boolean value (opt=1)", Help: "Use TCP_NODELAY on TCP connections", store: setEngineBool(func(o *IOEngineOptions) *bool { return &o.NoDelay })},
	{Name: "listen", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Listen for incoming TCP connections", Set: setEngineFlag(func(o *IOEngineOptions) *bool { return &o.Listen })},
	{Name: "pingpong", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Ping-pong IO requests", Set: setEngineFlag(func(o *IOEngineOptions) *bool { return &o.PingPong })},
	{Name: "interface", Kind: KindString, Type: "string (opt=bla)", Help: "Network interface to use", Set: setEngineString(func(o *IOEngineOptions) *string { return &o.Interface })},
	{Name: "ttl", Kind: KindInt, Type: "integer value (opt=100)", Default: "1", Help: "Time-to-live value for outgoing UDP multicast packets", Set: setEngineInt("ttl", func(o *IOEngineOptions) *int { return &o.TTL })},
	{Name: "window_size", Kind: KindInt, Type: "integer value (opt=100)", Help: "Set socket buffer window size", Set: setEngineInt("window_size", func(o *IOEngineOptions) *int { return &o.WindowSize })},
	{Name: "mss", Kind: KindInt, Type: "integer value (opt=100)", Help: "Set TCP maximum segment size", Set: setEngineInt("mss", func(o *IOEngineOptions) *int { return &o.MSS })},
}

// filestatOptions are the private options of the filestat engine.
var filestatOptions = []Option{
	{Name: "stat_type", Kind: KindChoice, Type: "string (opt=bla)", Default: "stat", Help: "Specify stat system call type to measure lookup/getattr performance", Choices: []Choice{{"stat", "Use stat(2)"}, {"lstat", "Use lstat(2)"}, {"statx", "Use statx(2) if exists"}}, Set: setStatType},
}

// execOptions are the private options of the exec engine.
var execOptions = []Option{
	{Name: "program", Kind: KindString, Type: "string (opt=bla)", Help: "Program to execute", Set: setEngineString(func(o *IOEngineOptions) *string { return &o.Program })},
	{Name: "arguments", Kind: KindString, Type: "string (opt=bla)", Help: "Arguments to pass", Set: setEngineString(func(o *IOEngineOptions) *string { return &o.Arguments })},
	{Name: "grace_time", Kind: KindInt, Type: "integer value (opt=100)", Default: "1", Help: "Grace time before sending a SIGKILL", Set: setEngineInt("grace_time", func(o *IOEngineOptions) *int { return &o.GraceTime })},
	{Name: "std_redirect", Kind: KindBool, Type: "boolean value (opt=1)", Default: "1", Help: "Redirect stdout & stderr to files", store: setEngineBool(func(o *IOEngineOptions) *bool { return &o.StdRedirect })},
}

// e4defragOptions are the private options of the e4defrag engine.
var e4defragOptions = []Option{
	{Name: "donorname", Kind: KindString, Type: "string (opt=bla)", Help: "File used as a block donor", Set: setEngineString(func(o *IOEngineOptions) *string { return &o.DonorName })},
	{Name: "inplace", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=0, max=1", Help: "Alloc and free space inside defrag event", Set: setEngineInt("inplace", func(o *IOEngineOptions) *int { return &o.InPlace })},
}

// gfapiOptions are the private options of the gfapi engine.
var gfapiOptions = []Option{
	{Name: "volume", Kind: KindString, Type: "string (opt=bla)", Help: "Name of the Glusterfs volume"},
	{Name: "brick", Kind: KindString, Type: "string (opt=bla)", Help: "Name of the Glusterfs brick to connect"},
	{Name: "single-instance", Kind: KindBool, Type: "boolean value (opt=1)", Help: "Only one glusterfs instance"},
}

// mtdOptions are the private options of the mtd engine.
var mtdOptions = []Option{
	{Name: "skip_bad", Kind: KindBool, Type: "boolean value (opt=1)", Default: "0", Help: "Skip operations against known bad blocks."},
}

// sgOptions are the private options of the sg engine.
var sgOptions = []Option{
	{Name: "hipri", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Use polled IO completions", Set: setEngineFlag(func(o *IOEngineOptions) *bool { return &o.HiPri })},
	{Name: "readfua", Kind: KindBool, Type: "boolean value (opt=1)", Default: "0", Help: "Set FUA flag (force unit access) for all Read operations", store: setEngineBool(func(o *IOEngineOptions) *bool { return &o.ReadFUA })},
	{Name: "writefua", Kind: KindBool, Type: "boolean value (opt=1)", Default: "0", Help: "Set FUA flag (force unit access) for all Write operations", store: setEngineBool(func(o *IOEngineOptions) *bool { return &o.WriteFUA })},
	{Name: "sg_write_mode", Kind: KindChoice, Type: "string (opt=bla)", Default: "write", Help: "Specify SCSI WRITE mode", Choices: []Choice{{"write", "Issue standard SCSI WRITE commands"}, {"write_and_verify", "Issue SCSI WRITE AND VERIFY commands"}, {"verify", "Issue SCSI WRITE AND VERIFY commands. This option is deprecated. Use write_and_verify instead."}, {"write_same", "Issue SCSI WRITE SAME commands"}, {"same", "Issue SCSI WRITE SAME commands. This option is deprecated. Use write_same instead."}, {"write_same_ndob", "Issue SCSI WRITE SAME(16) commands with NDOB flag set"}, {"verify_bytchk_00", "Issue SCSI VERIFY commands with BYTCHK set to 00"}, {"verify_bytchk_01", "Issue SCSI VERIFY commands with BYTCHK set to 01"}, {"verify_bytchk_11", "Issue SCSI VERIFY commands with BYTCHK set to 11"}, {"write_stream", "Issue SCSI WRITE STREAM(16) commands"}}, Set: setSGWriteMode},
	{Name: "stream_id", Kind: KindInt, Type: "integer value (opt=100)", Default: "0", Help: "Stream ID for WRITE STREAM(16) commands", Set: setEngineInt("stream_id", func(o *IOEngineOptions) *int { return &o.StreamID })},
}

// ioUringOptions are the private options of the io_uring engine.
var ioUringOptions = []Option{
	{Name: "hipri", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Use polled IO completions", Set: setEngineFlag(func(o *IOEngineOptions) *bool { return &o.HiPri })},
	{Name: "cmdprio_percentage", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=0, max=100", Help: "Send high priority I/O this percentage of the time", Set: setEngineIntRW("cmdprio_percentage", func(o *IOEngineOptions) *[2]int { return &o.CmdPrio.Percentage })},
	{Name: "cmdprio_class", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=1, max=3", Help: "Set asynchronous IO priority class", Set: setEngineIntRW("cmdprio_class", func(o *IOEngineOptions) *[2]int { return &o.CmdPrio.Class })},
	{Name: "cmdprio", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=0, max=7", Help: "Set asynchronous IO priority level", Set: setEngineIntRW("cmdprio", func(o *IOEngineOptions) *[2]int { return &o.CmdPrio.Level })},
	{Name: "cmdprio_bssplit", Kind: KindString, Type: "string (opt=bla)", Help: "Set priority percentages for different block sizes", Set: setCmdPrioBSSplit},
	{Name: "fixedbufs", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Pre map IO buffers", Set: setEngineFlag(func(o *IOEngineOptions) *bool { return &o.FixedBufs })},
	{Name: "registerfiles", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Pre-open/register files", Set: setEngineFlag(func(o *IOEngineOptions) *bool { return &o.RegisterFiles })},
	{Name: "sqthread_poll", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Offload submission/completion to kernel thread", Set: setEngineFlag(func(o *IOEngineOptions) *bool { return &o.SQThreadPoll })},
	{Name: "sqthread_poll_cpu", Kind: KindInt, Type: "integer value (opt=100)", Help: "What CPU to run SQ thread polling on", Set: setEngineInt("sqthread_poll_cpu", func(o *IOEngineOptions) *int { return &o.SQThreadPollCPU })},
	{Name: "nonvectored", Kind: KindInt, Type: "integer value (opt=100)", Default: "-1", Help: "Use non-vectored read/write commands", Set: setEngineInt("nonvectored", func(o *IOEngineOptions) *int { return &o.NonVectored })},
	{Name: "uncached", Kind: KindInt, Type: "integer value (opt=100)", Help: "Use RWF_UNCACHED for buffered read/writes", Set: setEngineInt("uncached", func(o *IOEngineOptions) *int { return &o.Uncached })},
	{Name: "nowait", Kind: KindBool, Type: "boolean value (opt=1)", Help: "Use RWF_NOWAIT for reads/writes", store: setEngineBool(func(o *IOEngineOptions) *bool { return &o.NoWait })},
	{Name: "force_async", Kind: KindInt, Type: "integer value (opt=100)", Help: "Set IOSQE_ASYNC every N requests", Set: setEngineInt("force_async", func(o *IOEngineOptions) *int { return &o.ForceAsync })},
	{Name: "cmd_type", Kind: KindChoice, Type: "string (opt=bla)", Default: "nvme", Help: "Specify uring-cmd type", Choices: []Choice{{"nvme", "Issue nvme-uring-cmd"}}, Set: setCmdType},
}

// nbdOptions are the private options of the nbd engine.
var nbdOptions = []Option{
	{Name: "uri", Kind: KindString, Type: "string (opt=bla)", Help: "Name of NBD URI", Set: setEngineString(func(o *IOEngineOptions) *string { return &o.URI })},
}

// libaioOptions are the private options of the libaio engine.
var libaioOptions = []Option{
	{Name: "userspace_reap", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Use alternative user-space reap implementation", Set: setEngineFlag(func(o *IOEngineOptions) *bool { return &o.UserspaceReap })},
	{Name: "cmdprio_percentage", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=0, max=100", Help: "Send high priority I/O this percentage of the time", Set: setEngineIntRW("cmdprio_percentage", func(o *IOEngineOptions) *[2]int { return &o.CmdPrio.Percentage })},
	{Name: "cmdprio_class", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=1, max=3", Help: "Set asynchronous IO priority class", Set: setEngineIntRW("cmdprio_class", func(o *IOEngineOptions) *[2]int { return &o.CmdPrio.Class })},
	{Name: "cmdprio", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=0, max=7", Help: "Set asynchronous IO priority level", Set: setEngineIntRW("cmdprio", func(o *IOEngineOptions) *[2]int { return &o.CmdPrio.Level })},
	{Name: "cmdprio_bssplit", Kind: KindString, Type: "string (opt=bla)", Help: "Set priority percentages for different block sizes", Set: setCmdPrioBSSplit},
	{Name: "nowait", Kind: KindBool, Type: "boolean value (opt=1)", Help: "Set RWF_NOWAIT for reads/writes", store: setEngineBool(func(o *IOEngineOptions) *bool { return &o.NoWait })},
}

// rdmaOptions are the private options of the rdma engine.
var rdmaOptions = []Option{
	{Name: "hostname", Kind: KindString, Type: "string (opt=bla)", Help: "Hostname for RDMA IO engine"},
	{Name: "bindname", Kind: KindString, Type: "string (opt=bla)", EmptyDefault: true, Help: "Bind for RDMA IO engine"},
	{Name: "port", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=1, max=65535", Help: "Port to use for RDMA connections"},
	{Name: "verb", Alias: "proto", Kind: KindChoice, Type: "string (opt=bla)", Default: "write", Help: "RDMA engine verb", Choices: []Choice{{"write", "Memory Write"}, {"read", "Memory Read"}, {"send", "Posted Send"}, {"recv", "Posted Receive"}}},
}

// radosOptions are the private options of the rados engine.
var radosOptions = []Option{
	{Name: "clustername", Kind: KindString, Type: "string (opt=bla)", Help: "Cluster name for ceph"},
	{Name: "pool", Kind: KindString, Type: "string (opt=bla)", Help: "Ceph pool name to benchmark against"},
	{Name: "clientname", Kind: KindString, Type: "string (opt=bla)", Help: "Name of the ceph client to access RADOS engine"},
	{Name: "conf", Kind: KindString, Type: "string (opt=bla)", Default: "/etc/ceph/ceph.conf", Help: "Path of the ceph configuration file"},
	{Name: "busy_poll", Kind: KindBool, Type: "boolean value (opt=1)", Default: "0", Help: "Busy poll for completions instead of sleeping"},
	{Name: "touch_objects", Kind: KindBool, Type: "boolean value (opt=1)", Default: "1", Help: "Touch (create) objects on start"},
}

// rbdOptions are the private options of the rbd engine.
var rbdOptions = []Option{
	{Name: "clustername", Kind: KindString, Type: "string (opt=bla)", Help: "Cluster name for ceph"},
	{Name: "rbdname", Kind: KindString, Type: "string (opt=bla)", Help: "RBD name for RBD engine"},
	{Name: "pool", Kind: KindString, Type: "string (opt=bla)", Help: "Name of the pool hosting the RBD for the RBD engine"},
	{Name: "clientname", Kind: KindString, Type: "string (opt=bla)", Help: "Name of the ceph client to access the RBD for the RBD engine"},
	{Name: "busy_poll", Kind: KindBool, Type: "boolean value (opt=1)", Default: "0", Help: "Busy poll for completions instead of sleeping"},
}
