package jobspec

import (
	"strings"
	"testing"
)

// readOne reads "key=value" (or "key" when value is nil) for a fresh job
// and returns whether fio accepts it and what it prints.
func readOne(t *testing.T, key string, value *string, dry bool) (ok bool, stdout, stderr string) {
	t.Helper()
	o, found := lookup(key)
	if !found {
		var e bool
		if o, e = lookupEngineOption("libaio", key); !e {
			t.Fatalf("no option %q", key)
		}
	}
	r := reader{job: defaults(), dry: dry}
	v, has := "", value != nil
	if has {
		v = *value
	}
	ok = r.read(o, v, has)
	var out, errs strings.Builder
	for _, n := range r.notes {
		if n.stdout {
			out.WriteString(n.text + "\n")
		} else {
			errs.WriteString(n.text + "\n")
		}
	}
	return ok, out.String(), errs.String()
}

func str(s string) *string { return &s }

// TestRead checks value reading against fio 3.33's behaviour, each row
// observed with fio --parse-only (dry) or a run.
func TestRead(t *testing.T) {
	tests := []struct {
		key    string
		value  *string // nil: the line has no '='
		dry    bool
		ok     bool
		stderr string // what fio prints before "fio: failed parsing"
	}{
		// Numbers and their range checks.
		{"bs", str("abc"), true, false, ""},                                             // no digits
		{"bs", str("0"), true, false, "bs: min value out of range: 0 (1 min)\n"},        // 64-bit, min 1
		{"bs", str("-1"), true, true, ""},                                               // -1 is huge unsigned
		{"blocksize", str("0"), true, false, "bs: min value out of range: 0 (1 min)\n"}, // aliases print the name
		{"bs", str("99999999999999999999"), true, false, ""},                            // out of int64 range
		{"iodepth", str("0"), true, false, "iodepth: min value out of range: 0 (1 min)\n"},
		{"iodepth", str("5000000000"), true, true, ""}, // checked truncated to 32 bits
		{"iodepth", str("4294967295"), true, false, "iodepth: min value out of range: 4294967295 (1 min)\n"},
		{"iodepth", str("-1"), true, true, "iodepth: min value out of range: -1 (1 min)\n"}, // piece "1" reads
		{"iodepth", str("10%"), true, false, "iodepth: min value out of range: -11 (1 min)\n"},
		{"iodepth", str("4z"), true, false, "iodepth: 'z' suffix isn't applicable\n"},
		{"nice", str("-21"), true, false, "nice: min value out of range: -21 (-20 min)\nnice: max value out of range: 21 (19 max)\n"},
		{"prio", str("8"), true, false, "prio: max value out of range: 8 (7 max)\n"},
		{"prio", str("4294967303"), true, true, ""}, // 2^32+7 is 7 in 32 bits
		{"thinktime", str("-5"), true, true, ""},    // a minimum of 0 is no minimum
		{"bs", str("4k,8kz"), true, false, "bs: 'z' suffix isn't applicable\nbs: 'z' suffix isn't applicable\n"},
		{"filesize", str("0"), true, false, "filesize: min value out of range: 0 (1 min)\n"},
		{"runtime", str("1z"), true, false, "runtime: 'z' suffix isn't applicable\n"},
		// Zones and percentages.
		{"size", str("4z"), true, true, ""},
		{"size", str(" 4z"), true, true, ""},
		{"size", str("4kz"), true, false, "size: unexpected zone value '4kz'\n"},
		{"size", str("4k,8z"), true, true, "size: unexpected zone value '4k,8z'\n"},
		{"size", str("101%"), true, true, ""},
		{"io_size", str("150%"), true, false, "fio: io_size values greater than 100% aren't supported\n"},
		// Booleans and flags.
		{"direct", str("2"), true, false, "max value out of range: 2 (1 max)\n"},
		{"direct", str("-1"), true, true, ""},
		{"direct", str("1z"), true, true, ""},
		{"direct", str("true"), true, false, ""},
		{"direct", nil, true, false, "Option direct requires an argument\n"},
		{"direct", str(""), true, false, ""},
		{"time_based", nil, true, true, ""},
		{"time_based", str("5"), true, true, ""},
		{"time_based", str("abc"), true, false, ""},
		{"time_based", str(""), true, false, ""},
		// Strings.
		{"filename", str(""), true, false, ""},
		{"filename", str(strings.Repeat("a", 4095)), true, true, ""},
		{"filename", str(strings.Repeat("a", 4096)), true, false, "value exceeds max length of 4096\n"},
		{"filename", nil, true, false, "Option filename requires an argument\n"},
		{"cpus_allowed", nil, true, true, ""},
		{"cpus_allowed", nil, false, false, "Option cpus_allowed requires an argument\n"}, // fio 3.33 crashes
		{"verify_async_cpus", nil, true, true, ""},
		{"verify_async_cpus", nil, false, false, "Option verify_async_cpus requires an argument\n"}, // fio 3.33 crashes
		{"write_bw_log", nil, true, true, ""},
		{"buffer_pattern", nil, true, false, "Option buffer_pattern requires an argument\n"}, // fio 3.33 crashes
		{"buffer_pattern", str("0xdeadbeef"), true, true, ""},
		{"buffer_pattern", str("12 34"), true, true, ""},
		{"buffer_pattern", str("0x12 0x34"), true, false, ""},
		{"buffer_pattern", str(`"ab"0x12`), true, true, ""},
		{"buffer_pattern", str(`""`), true, false, ""}, // fio 3.33 aborts
		{"verify_pattern", str("0x12%o"), true, true, ""},
		{"buffer_pattern", str("%o"), true, false, ""},
		// Choices.
		{"rw", str("randread:8"), true, true, ""},
		{"rw", str("read,write"), true, true, ""},
		{"rw", str("read:abc"), true, true, ""}, // the postfix is not checked in dry runs
		{"rw", str("read:abc"), false, false, "fio: rw postfix parsing failed\n"},
		{"rw", str("randread:abc"), false, true, ""},
		{"rw", str("rea"), true, false, ""},
		{"kb_base", str("512"), true, false, ""},
		{"random_distribution", str("zipf:1"), true, false, "fio: zipf theta must different than 1.0\n"},
		{"random_distribution", str("pareto:2"), true, false, "fio: pareto input out of range (0 < input < 1.0)\n"},
		{"random_distribution", str("normal:5:2"), true, false, "fio: distribution center out of range (0 <= center <= 1.0)\n"},
		{"random_distribution", str("zoned"), true, false, "fio: mismatch in zoned input <zoned>\n"},
		{"random_distribution", str("zoned:50/5:30/15"), true, false, "fio: access percentage don't add up to 100 for zoned random distribution (got=80)\n"},
		{"random_distribution", str("zoned:60/10:60/10"), true, false, "fio: zone_split percentages add to more than 100%\n"},
		{"random_distribution", str("zoned:abc"), true, false, "fio: split conversion failed\n"},
		{"steadystate", str("iops"), true, false, "fio: steadystate threshold must be specified in addition to criterion\n"},
		{"steadystate", str("iops:abc%"), true, false, "fio: could not parse steadystate threshold percentage\n"},
		{"steadystate", str("bw_slope:abc"), true, false, "fio: steadystate BW threshold postfix parsing failed\n"},
		{"file_service_type", str("zipf:1"), true, false, "fio: zipf theta must be different than 1.0\n"},
		{"sync_file_range", str("write,foo"), true, true, ""}, // any word is enough
		// Split lists.
		{"bssplit", str("4k/10:8k/90"), true, true, ""},
		{"bssplit", str(""), true, true, ""},
		{"bssplit", str("abc"), true, false, "fio: split conversion failed\n"},
		{"bssplit", str("4k/60:8k/60:16k:32k"), true, false, "fio: bssplit percentages add to more than 100%\n"},
		{"bssplit", str("4k/101:8k:16k"), true, true, ""}, // each percentage counts at most 100
		// Ranges.
		{"bsrange", str("4k"), true, false, ""},
		{"bsrange", str("8k-4k"), true, true, ""},
		{"bsrange", str("4k-8k,abc"), true, true, ""},
		{"bsrange", str("-4k"), true, false, ""},
		// Float lists.
		{"percentile_list", str("101"), true, false, "value out of range: 101.000000 (range max: 100.000000)\n"},
		{"percentile_list", str("-1"), true, false, "value out of range: -1.000000 (range min: 0.000000)\n"},
		{"percentile_list", str("inf"), true, false, "value out of range: inf (range max: 100.000000)\n"},
		{"percentile_list", str("1::2"), true, true, "not a floating point value: :2\n"},
		{"percentile_list", str(""), true, false, "not a floating point value: \n"},
		{"latency_percentile", str("50:60"), true, true, "the list exceeding max length 1\n"},
		// Deprecated options.
		{"verifysort", str("1"), true, true, ""},
		{"rwmixcycle", str("1"), true, false, ""},
		{"rwmixcycle", nil, true, false, "Option rwmixcycle requires an argument\n"},
		// Handlers that look at the host, only outside dry runs.
		{"ignore_error", str("EFOO"), true, true, ""},
		{"ignore_error", str("EFOO"), false, false, "Unknown error EFOO, please use number value\n"},
		{"ignore_error", str(",ENOSPC"), false, true, ""},
		{"replay_skip", str("flush"), false, false, "Unknown skip type: flush\n"},
		{"numa_mem_policy", str("foo"), false, false, "fio: memory policy should be: default, prefer, bind, interleave, local\n"},
		{"directory", str("/nonexistent/dir"), true, true, ""},
		{"directory", str("/nonexistent/dir"), false, false, "fio: /nonexistent/dir is not a directory\n"},
		{"ioengine", str("external:/nonexistent"), true, false, "fio: invalid external ioengine path \"/nonexistent\"\n"},
		// Engine options are read like general ones.
		{"cmdprio", str("9"), true, false, "cmdprio: max value out of range: 9 (7 max)\n"},
		{"nowait", str("2"), true, false, "max value out of range: 2 (1 max)\n"},
		{"userspace_reap", nil, true, true, ""},
	}
	for _, tt := range tests {
		ok, _, stderr := readOne(t, tt.key, tt.value, tt.dry)
		line := tt.key
		if tt.value != nil {
			line += "=" + *tt.value
		}
		if ok != tt.ok || stderr != tt.stderr {
			t.Errorf("read(%s, dry=%v) = %v, %q; want %v, %q", line, tt.dry, ok, stderr, tt.ok, tt.stderr)
		}
	}
}

// TestReadStdout checks what fio prints on stdout while reading values.
func TestReadStdout(t *testing.T) {
	ok, out, _ := readOne(t, "lockfile", str("bogus"), true)
	want := "        valid values: none       No file locking\n" +
		"                    : exclusive  Exclusive file lock\n" +
		"                    : readwrite  Read vs write lock\n\n"
	if ok || out != want {
		t.Errorf("lockfile=bogus = %v, %q; want false, %q", ok, out, want)
	}
	// Words without help are printed without the blank after them.
	_, out, _ = readOne(t, "sync", str("bogus"), true)
	if !strings.HasPrefix(out, "        valid values: none      \n") {
		t.Errorf("sync=bogus printed %q", out)
	}
	_, out, _ = readOne(t, "verifysort", str("1"), true)
	if out != "Option verifysort is deprecated\n" {
		t.Errorf("verifysort=1 printed %q", out)
	}
	_, out, _ = readOne(t, "directory", str("/nonexistent/dir"), false)
	if out != "fio: file:options.c:1457, func=lstat, error=No such file or directory\n" {
		t.Errorf("directory=/nonexistent/dir printed %q", out)
	}
}

func TestReadOnlyRW(t *testing.T) {
	o, _ := Lookup("rw")
	j := defaults()
	j.Name = "a"
	r := reader{job: j, readOnly: true}
	if !r.read(o, "randread", true) {
		t.Error("rw=randread refused under --readonly")
	}
	if r.read(o, "write", true) {
		t.Fatal("rw=write accepted under --readonly")
	}
	var errs []string
	for _, n := range r.notes {
		if !n.stdout {
			errs = append(errs, n.text)
		}
	}
	want := []string{
		"fio: job <a> has write or trim bit set, but fio is in read-only mode",
		"Correct format for offending option",
		"                  rw: IO direction",
		"               alias: readwrite",
		"                type: string (opt=bla)",
		"             default: read",
	}
	if strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("rw=write under --readonly printed\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
}
