package jobspec

// profileOptions are the options of fio 3.33's built-in profiles (tiobench
// and act), as fio --profile=NAME --cmdhelp=OPTION shows them. fio accepts
// them in every job, where they have no effect unless the profile is run
// with --profile; tiobench's size is shadowed by the general size option.
// They come after the general options in fio's command-line table
// (parser/testdata/jobopts.txt) and are left out of --cmdhelp.
var profileOptions = []Option{
	{Name: "size", Profile: "tiobench", Kind: KindSize, Type: "string (opt=bla)", Help: "Size in MiB"},
	{Name: "block", Profile: "tiobench", Kind: KindInt, Type: "integer value (opt=100)", Default: "4096", Range: "min=0, max=-1", Help: "Block size in bytes"},
	{Name: "numruns", Profile: "tiobench", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=0, max=-1", Help: "Number of runs"},
	{Name: "dir", Profile: "tiobench", Kind: KindString, Type: "string (opt=bla)", Help: "Test directory"},
	{Name: "threads", Profile: "tiobench", Kind: KindInt, Type: "integer value (opt=100)", Range: "min=0, max=-1", Help: "Number of Threads"},
	{Name: "device-names", Profile: "act", Kind: KindString, Type: "string (opt=bla)", Help: "Devices to use"},
	{Name: "load", Profile: "act", Kind: KindInt, Type: "integer value (opt=100)", Default: "1", Range: "min=0, max=-1", Help: "ACT load multipler (default 1x)"},
	{Name: "test-duration", Profile: "act", Kind: KindTimeSec, Type: "string with time postfix (opt=10s)", Default: "24h", Help: "How long the entire test takes to run"},
	{Name: "threads-per-queue", Profile: "act", Kind: KindInt, Type: "integer value (opt=100)", Default: "8", Range: "min=0, max=-1", Help: "Number of read IO threads per device"},
	{Name: "read-req-num-512-blocks", Profile: "act", Kind: KindInt, Type: "integer value (opt=100)", Default: "3", Range: "min=0, max=-1", Help: "Number of 512B blocks to read at the time"},
	{Name: "large-block-op-kbytes", Profile: "act", Kind: KindInt, Type: "integer value (opt=100)", Default: "131072", Range: "min=0, max=-1", Help: "Size of large block ops in KiB (writes)"},
	{Name: "prep", Profile: "act", Kind: KindFlag, Type: "empty or boolean value ([0|1])", Help: "Set to run ACT prep phase"},
}

// Profiles are fio 3.33's built-in profiles, in fio's order.
var Profiles = []string{"tiobench", "act"}

// ProfileOptions returns the options of one profile ("" for all of them),
// in fio's order.
func ProfileOptions(profile string) []Option {
	var out []Option
	for _, o := range profileOptions {
		if profile == "" || o.Profile == profile {
			out = append(out, o)
		}
	}
	return out
}

// lookupProfileOption finds a profile option a job may use (general
// options shadow profile options of the same name).
func lookupProfileOption(name string) (*Option, bool) {
	for i := range profileOptions {
		if profileOptions[i].Name == name {
			return &profileOptions[i], true
		}
	}
	return nil, false
}
