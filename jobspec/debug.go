package jobspec

import (
	"strings"

	"github.com/gofio/gofio/internal/debuglog"
	"github.com/gofio/gofio/parser"
)

// This file prints the lines of --debug=parse, as fio 3.33 prints them
// for each option it handles (observed with fio --debug=parse):
//
//	handle_option=NAME, ptr=VALUE
//	__handle_option=NAME, type=OPT_TYPE, ptr=PIECE
//	  ret=0, out=NUMBER
//
// NAME is the canonical name, "(null)" stands for a missing value, and the
// last line comes for the numeric types. fio prints one __handle_option
// per comma-separated piece of an option taking several values; gofio
// prints the first.

// optType is the name of fio's option type behind kind.
func optType(o *Option) string {
	switch o.Kind {
	case KindString:
		return "OPT_STR_STORE"
	case KindSize, KindSizeRange:
		return "OPT_STR_VAL"
	case KindSizePct:
		return "OPT_STR_VAL_ZONE"
	case KindTimeSec, KindTimeUsec:
		return "OPT_STR_VAL_TIME"
	case KindInt:
		return "OPT_INT"
	case KindBool:
		return "OPT_BOOL"
	case KindFlag:
		return "OPT_STR_SET"
	case KindRange:
		return "OPT_RANGE"
	case KindFloatList:
		return "OPT_FLOAT_LIST"
	case KindMultiChoice:
		return "OPT_STR_MULTI"
	case KindSplit:
		return "OPT_STR_ULL"
	case KindInt64:
		return "OPT_ULL"
	case KindDeprecated:
		return "OPT_DEPRECATED"
	case KindSoftDeprecated:
		return "OPT_SOFT_DEPRECATED"
	}
	return "OPT_STR"
}

// debugOption prints the --debug=parse lines of one option.
func debugOption(def *Option, value string, has bool, kbBase int) {
	pid := debuglog.Pid
	ptr := value
	if !has {
		ptr = "(null)"
	}
	debuglog.Printf(debuglog.Parse, pid, "handle_option=%s, ptr=%s", def.Name, ptr)
	first := ptr
	if has && def.Kind != KindString && def.Kind != KindText && def.Kind != KindChoice {
		if ps := pieces(value, def.LowHigh); len(ps) > 0 {
			first = ps[0].Text
		}
	}
	debuglog.Printf(debuglog.Parse, pid, "__handle_option=%s, type=%s, ptr=%s", def.Name, optType(def), first)
	var out int64
	switch def.Kind {
	case KindFlag:
		out = 1
		if has {
			v, _, err := parseInt(first)
			if err != nil {
				return
			}
			out = v
		}
	case KindTimeSec, KindTimeUsec:
		unit := int64(usec)
		if def.Kind == KindTimeSec {
			unit = second
		}
		if def.Unit != 0 {
			unit = def.Unit
		}
		v, err := parseTimeInt(first, unit)
		if err != nil {
			return
		}
		out = v
	case KindInt, KindInt64, KindBool, KindSize, KindSizePct, KindSizeRange:
		v, err := parseSize(first, kbBase)
		if err != nil {
			return
		}
		out = v.plain()
	default:
		return
	}
	if out < 0 {
		debuglog.Printf(debuglog.Parse, pid, "  ret=0, out=%d", uint64(out))
		return
	}
	debuglog.Printf(debuglog.Parse, pid, "  ret=0, out=%d", out)
}

// debugSteadyState prints fio's --debug=parse line for the threshold of
// steadystate=CRITERION:LIMIT: a percentage, an IOPS limit read as C's
// strtod reads it ("1k" is 1), or a bandwidth limit read as a size.
func debugSteadyState(criterion, limit string, kbBase int) {
	switch {
	case strings.Contains(limit, "%"):
		f, _ := cStrtod(limit)
		debuglog.Printf(debuglog.Parse, debuglog.Pid, "set steady state threshold to %f%%", f)
	case strings.HasPrefix(criterion, "iops"):
		f, _ := cStrtod(limit)
		debuglog.Printf(debuglog.Parse, debuglog.Pid, "set steady state IOPS threshold to %f", f)
	default:
		v, _ := parseSize(limit, kbBase)
		debuglog.Printf(debuglog.Parse, debuglog.Pid, "set steady state BW threshold to %d", v.N)
	}
}

// debugSection prints fio's --debug=parse lines for a job-file section
// before its options are handled: its header, and each line as written.
func debugSection(sec parser.Section) {
	pid := debuglog.Pid
	debuglog.Printf(debuglog.Parse, pid, "[%s]", sec.Name)
	debuglog.Printf(debuglog.Parse, pid, "Parsing section [%s]", sec.Name)
	for i := range sec.NumOptions() {
		debuglog.Printf(debuglog.Parse, pid, "%s", sec.Option(i).Raw)
	}
}
