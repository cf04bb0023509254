package jobspec

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fioDefaults are fio 3.33's defaults for a job, as its --cmdhelp shows
// them, written out field by field: the rows must yield exactly these.
func fioDefaults() *Job {
	return &Job{
		RW:                      RWRead,
		RWMixRead:               50,
		BS:                      [3]uint64{4096, 4096, 4096},
		Loops:                   1,
		FilenameFormat:          "$jobname.$jobnum.$filenum",
		NRFiles:                 1,
		IOEngine:                "psync",
		IODepth:                 1,
		IODepthBatchSubmit:      1,
		IODepthBatchCompleteMin: 1,
		NumJobs:                 1,
		RandRepeat:              true,
		RandSeed:                0x89,
		Invalidate:              true,
		ClatPercentiles:         true,
		PercentileList:          []float64{1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99},
		PercentilePrecision:     2,
		Stats:                   true,
		BWAvgTime:               500,
		IOPSAvgTime:             500,
		KBBase:                  1024,
		SignificantFigures:      4,
		EngineOptions:           IOEngineOptions{CPUChunks: 50000, HiPriPercentage: 100, SQThreadPollCPU: -1, NonVectored: -1, CmdType: "nvme", TTL: 1, GraceTime: 1, StdRedirect: true},
		Misc:                    MiscOptions{HugepageSize: 2 << 20},
		IOOptions: IOOptions{
			PercentageRandom:    [3]int{100, 100, 100},
			ScrambleBuffers:     true,
			BufferCompressChunk: 512,
			DedupeWorkingSetPct: 5,
			FileServiceNR:       1,
			CreateSerialize:     true,
			AllowFileCreate:     true,
			DiskUtil:            true,
			Pacing:              Pacing{ThinkTimeBlocks: 1, RateCycle: 1000},
		},
		Limits:        Limits{LatencyPercentile: 100},
		Steady:        SteadyOptions{IOPS: true, Slope: true, Limit: 0.01, Pct: true}, // iops_slope:0.01%
		Verify:        VerifyOptions{Do: true, StateSave: true, Trim: VerifyTrim{Zero: true}},
		LogOptions:    LogOptions{PerJobLogs: true, LogEntries: 1024},
		ReplayOptions: ReplayOptions{ReplayScale: 1, ReplayTimeScale: 100},
	}
}

// TestDefaultsFromRows proves that the rows are the defaults: the job
// defaults (built from the rows) are fio's; each row's default, applied
// through its setter to the defaults, changes nothing; and a job whose
// section types every default is the job of an empty section. Changing a
// row's Default (or a setter's reading of it) fails one of these.
func TestDefaultsFromRows(t *testing.T) {
	if got, want := defaults(), fioDefaults(); !reflect.DeepEqual(got, want) {
		t.Errorf("the rows' defaults are not fio's:\n%s", fieldDiff(reflect.ValueOf(*got), reflect.ValueOf(*want), ""))
	}
	var typed []string
	for i := range options {
		o := &options[i]
		if !hasRowDefault(o) {
			continue
		}
		j := defaults()
		if err := o.Set(j, o.Default); err != nil {
			t.Errorf("%s=%s: %v", o.Name, o.Default, err)
			continue
		}
		forgetGiven(j)
		if !reflect.DeepEqual(j, defaults()) {
			t.Errorf("%s=%s (its row's default) changes the defaults:\n%s", o.Name, o.Default, fieldDiff(reflect.ValueOf(*j), reflect.ValueOf(*defaults()), ""))
		}
		typed = append(typed, o.Name+"="+o.Default)
	}
	empty := buildOne(t, "[a]\n")
	all := buildOne(t, "[a]\n"+strings.Join(typed, "\n")+"\n")
	all.Options = empty.Options
	forgetGiven(all)
	if !reflect.DeepEqual(all, empty) {
		t.Errorf("a job typing every default differs from an empty one:\n%s", fieldDiff(reflect.ValueOf(*all), reflect.ValueOf(*empty), ""))
	}
}

// forgetGiven clears the marks of options given explicitly.
func forgetGiven(j *Job) {
	j.RandSeedSet, j.BWAvgTimeSet, j.IOPSAvgTimeSet, j.Verify.typeSet = false, false, false, false
}

func buildOne(t *testing.T, file string) *Job {
	t.Helper()
	s := &session{files: []string{file}}
	p, err := s.run(t)
	if err != nil {
		t.Fatalf("%q: %v\n%s", file, err, s.stderr.String())
	}
	if s.stderr.Len() != 0 {
		t.Errorf("%q: stderr %q", file, s.stderr.String())
	}
	return p.Jobs[0]
}

// fieldDiff lists the fields where a and b differ.
func fieldDiff(a, b reflect.Value, path string) string {
	if a.Kind() == reflect.Struct {
		var out string
		for i := range a.NumField() {
			out += fieldDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name)
		}
		return out
	}
	if a.CanInterface() && reflect.DeepEqual(a.Interface(), b.Interface()) {
		return ""
	}
	if sa, sb := fmt.Sprintf("%#v", a), fmt.Sprintf("%#v", b); sa != sb || a.CanInterface() {
		return "\t" + path + ": " + sa + ", want " + sb + "\n"
	}
	return ""
}

func valueOf(j *Job) reflect.Value { return reflect.ValueOf(*j) }
