package jobspec

// engineOptions lists the private options of the engines gofio
// implements, as fio's --enghelp shows them. Their values are kept raw in
// Job.EngineOptions; the engine validates them when it is built.
var engineOptions = map[string][]Option{
	"libaio": {
		{Name: "userspace_reap", Kind: KindFlag, Help: "Use alternative user-space reap implementation"},
		{Name: "cmdprio_percentage", Kind: KindInt, Help: "Send high priority I/O this percentage of the time"},
		{Name: "cmdprio_class", Kind: KindInt, Help: "Set asynchronous IO priority class"},
		{Name: "cmdprio", Kind: KindInt, Help: "Set asynchronous IO priority level"},
		{Name: "cmdprio_bssplit", Kind: KindString, Help: "Set priority percentages for different block sizes"},
		{Name: "nowait", Kind: KindBool, Help: "Set RWF_NOWAIT for reads/writes"},
	},
	"io_uring": {
		{Name: "hipri", Kind: KindFlag, Help: "Use polled IO completions"},
		{Name: "cmdprio_percentage", Kind: KindInt, Help: "Send high priority I/O this percentage of the time"},
		{Name: "cmdprio_class", Kind: KindInt, Help: "Set asynchronous IO priority class"},
		{Name: "cmdprio", Kind: KindInt, Help: "Set asynchronous IO priority level"},
		{Name: "cmdprio_bssplit", Kind: KindString, Help: "Set priority percentages for different block sizes"},
		{Name: "fixedbufs", Kind: KindFlag, Help: "Pre map IO buffers"},
		{Name: "registerfiles", Kind: KindFlag, Help: "Pre-open/register files"},
		{Name: "sqthread_poll", Kind: KindFlag, Help: "Offload submission/completion to kernel thread"},
		{Name: "sqthread_poll_cpu", Kind: KindInt, Help: "What CPU to run SQ thread polling on"},
		{Name: "nonvectored", Kind: KindInt, Help: "Use non-vectored read/write commands"},
		{Name: "uncached", Kind: KindInt, Help: "Use RWF_UNCACHED for buffered read/writes"},
		{Name: "nowait", Kind: KindBool, Help: "Use RWF_NOWAIT for reads/writes"},
		{Name: "force_async", Kind: KindInt, Help: "Set IOSQE_ASYNC every N requests"},
		{Name: "cmd_type", Kind: KindString, Help: "Specify uring-cmd type"},
	},
}

// EngineOptions returns the private options of engine, in --enghelp order.
func EngineOptions(engine string) []Option { return engineOptions[engine] }

// isEngineOption reports whether name is a private option of engine.
func isEngineOption(engine, name string) bool {
	for _, o := range engineOptions[engine] {
		if o.Name == name {
			return true
		}
	}
	return false
}
