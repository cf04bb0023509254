package conformance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The statistics conformance matrix (issue 4): engines × rw modes × job
// counts × statistics options × output formats. The full product (4 × 6
// × 3 × 5 × 4 = 1440 runs) is far too slow, so the matrix is a covering
// subset:
//
//   - The output formats cost nothing extra: every run prints normal,
//     terse and JSON (or JSON+) at once, and the three parts of its
//     stdout are compared separately (fio prints the same numbers in
//     each). JSON and JSON+ alternate.
//   - The other four factors are combined pairwise: every rw mode meets
//     every statistics option once (6 × 5 = 30 runs), and the engine, the
//     job count and json/json+ are assigned by the formulas in matrixCase
//     so that every pair of levels of any two factors (formats included)
//     occurs in some run. TestMatrixCoversPairs checks that claim.
//   - Each statistics option has sub-variants that rotate with the rw
//     mode (see optionArgs), so every disable_* switch, both unified
//     modes and the percentile list quirks each get a run.
//
// Sizes are small (1–2 MiB per job on files, O_DIRECT; 64 MiB for null),
// so every job is size-based and its byte and I/O counts are exact.
//
// What is compared (see compare.go): the JSON key tree; DeterministicJSON
// and ExtraJSON values (io_bytes, total_ios, short/drop counts, latency
// sample counts N, percentile keys, job options, depth distributions);
// the normal report's skeleton with numbers masked; the terse field count
// and deterministic fields (DeterministicTerse, ExtraTerse).
//
// Known, documented limits rather than skips:
//   - rw and randrw: the read/write split depends on the random
//     generator, so byte, I/O and N counts are compared as sums over the
//     directions (IOTotal).
//   - bw/iops sample lines: a run shorter than 500 ms has no bandwidth
//     sample; whether a sample was taken is timing, so the skeletons are
//     compared without those lines when only one side has them.
var (
	matrixEngines = []string{"psync", "libaio", "io_uring", "null"}
	matrixRW      = []string{"read", "write", "randread", "randwrite", "rw", "randrw"}
	matrixJobs    = []string{"numjobs=1", "numjobs=4", "numjobs=4+group_reporting"}
	matrixOptions = []string{"percentile_list", "unified_rw_reporting", "kb_base=1000", "disable_*", "gtod_reduce"}
	matrixFormats = []string{"json", "json+"}
)

// matrixPoint is one run of the matrix: an index into each factor.
type matrixPoint struct {
	rw, opt, engine, jobs, format int
}

// matrixPoints returns the runs: each (rw, option) pair once, with the
// other factors assigned so that all pairs are covered.
func matrixPoints() []matrixPoint {
	var out []matrixPoint
	for r := range matrixRW {
		for o := range matrixOptions {
			j := (r + 2*o) % len(matrixJobs)
			out = append(out, matrixPoint{
				rw:     r,
				opt:    o,
				engine: (r + o) % len(matrixEngines),
				jobs:   j,
				format: (r/2 + o + j) % len(matrixFormats),
			})
		}
	}
	return out
}

// optionArgs returns the command-line options of a statistics option
// level; variant (the rw index) rotates among its sub-variants.
func optionArgs(opt, variant int) string {
	switch matrixOptions[opt] {
	case "percentile_list":
		if variant%2 == 0 {
			// Four entries, the labels need three decimals.
			return "--percentile_list=10:50:90:99.999"
		}
		// Unsorted, cut at the 0 entry; lat and slat percentiles too.
		return "--percentile_list=99.5:1:0.5:25:50:0:75 --lat_percentiles=1 --slat_percentiles=1"
	case "unified_rw_reporting":
		return "--unified_rw_reporting=" + []string{"mixed", "both", "1"}[variant%3]
	case "kb_base=1000":
		if variant%2 == 0 {
			return "--kb_base=1000"
		}
		return "--kb_base=1000 --unit_base=1 --significant_figures=6"
	case "disable_*":
		return []string{"--disable_lat=1", "--disable_clat=1", "--disable_slat=1", "--disable_bw_measurement=1"}[variant%4]
	case "gtod_reduce":
		return "--gtod_reduce=1"
	}
	panic("unknown option level " + matrixOptions[opt])
}

// args returns the run's command line (without --output-format).
func (p matrixPoint) args() []string {
	rw := matrixRW[p.rw]
	eng := matrixEngines[p.engine]
	a := fmt.Sprintf("--name=m%d%d --rw=%s --bs=4k --ioengine=%s", p.rw, p.opt, rw, eng)
	switch eng {
	case "null":
		a += " --size=64M"
	case "libaio", "io_uring":
		a += " --iodepth=8 --direct=1"
	default:
		a += " --direct=1"
	}
	if eng != "null" {
		if p.jobs == 0 {
			a += " --size=2M"
		} else {
			a += " --size=1M"
		}
	}
	switch p.jobs {
	case 1:
		a += " --numjobs=4"
	case 2:
		a += " --numjobs=4 --group_reporting"
	}
	return strings.Fields(a + " " + optionArgs(p.opt, p.rw))
}

func (p matrixPoint) name() string {
	n := fmt.Sprintf("%s/%s/%s/%s/%s", matrixEngines[p.engine], matrixRW[p.rw], matrixJobs[p.jobs],
		matrixOptions[p.opt], matrixFormats[p.format])
	return strings.NewReplacer("*", "x", "=", "", "+", "_plus_").Replace(n)
}

// checks says what is deterministic in the run.
func (p matrixPoint) checks() Checks {
	c := Checks{IO: IOPerDir, Depth: true}
	if rw := matrixRW[p.rw]; rw == "rw" || rw == "randrw" {
		c.IO = IOTotal
	}
	if matrixOptions[p.opt] == "unified_rw_reporting" {
		c.Unified = []int{1, 2, 1}[p.rw%3] // as optionArgs: mixed, both, 1
	}
	return c
}

func TestMatrixCoversPairs(t *testing.T) {
	pts := matrixPoints()
	sizes := []int{len(matrixRW), len(matrixOptions), len(matrixEngines), len(matrixJobs), len(matrixFormats)}
	names := []string{"rw", "option", "engine", "jobs", "format"}
	level := func(p matrixPoint) []int { return []int{p.rw, p.opt, p.engine, p.jobs, p.format} }
	for a := range sizes {
		for b := a + 1; b < len(sizes); b++ {
			seen := map[[2]int]bool{}
			for _, p := range pts {
				l := level(p)
				seen[[2]int{l[a], l[b]}] = true
			}
			if len(seen) != sizes[a]*sizes[b] {
				t.Errorf("%s × %s: %d of %d pairs covered", names[a], names[b], len(seen), sizes[a]*sizes[b])
			}
		}
	}
}

func TestMatrix(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	for _, p := range matrixPoints() {
		t.Run(p.name(), func(t *testing.T) {
			t.Parallel()
			caseSlots <- struct{}{}
			defer func() { <-caseSlots }()
			args := append([]string{"--output-format=normal,terse," + matrixFormats[p.format]}, p.args()...)
			fr, gr := runBoth(t, gofio, args)
			if fr.rc != 0 {
				t.Fatalf("fio failed (status %d):\n%s", fr.rc, fr.stderr)
			}
			if gr.rc != 0 {
				t.Fatalf("gofio failed (status %d):\n%s", gr.rc, head(gr.stderr))
			}
			if gr.stderr != fr.stderr {
				t.Errorf("stderr: fio %q, gofio %q", fr.stderr, gr.stderr)
			}
			compareFormats(t, p.checks(), fr, gr)
		})
	}
}

// compareFormats compares the three reports of one multi-format run.
func compareFormats(t *testing.T, c Checks, fr, gr result) {
	t.Helper()
	ff, gf := SplitFormats(fr.stdout), SplitFormats(gr.stdout)

	fj, err := ParseJSON([]byte(ff.JSON))
	if err != nil {
		t.Fatalf("fio's JSON does not parse: %v\n%s", err, head(fr.stdout))
	}
	gj, err := ParseJSON([]byte(gf.JSON))
	if err != nil {
		t.Fatalf("gofio's JSON part does not parse: %v\n%s", err, head(gr.stdout))
	}
	if diff := cmp.Diff(KeyTree(fj), KeyTree(gj)); diff != "" {
		t.Errorf("JSON key tree (-fio +gofio):\n%s", diff)
	}
	fv := append(DeterministicJSON(fj, c.IO, fr.dir, "{DIR}"), ExtraJSON(fj, c)...)
	gv := append(DeterministicJSON(gj, c.IO, gr.dir, "{DIR}"), ExtraJSON(gj, c)...)
	if diff := cmp.Diff(fv, gv); diff != "" {
		t.Errorf("JSON deterministic values (-fio +gofio):\n%s", diff)
	}

	fs, gs := MaskNormal(ff.Pre+ff.Normal), MaskNormal(gf.Pre+gf.Normal)
	if count(fs, IsSampleLine) != count(gs, IsSampleLine) {
		t.Logf("bw/iops line presence differs (fio %d, gofio %d lines); compared without them",
			count(fs, IsSampleLine), count(gs, IsSampleLine))
		fs, gs = DropSampleLines(fs), DropSampleLines(gs)
	}
	if diff := cmp.Diff(fs, gs); diff != "" {
		t.Errorf("normal report skeleton (-fio +gofio):\n%s\ngofio normal report:\n%s", diff, head(gf.Pre+gf.Normal))
	}

	frows, grows := SplitTerse(ff.Terse), SplitTerse(gf.Terse)
	if len(frows) == 0 {
		t.Fatalf("fio printed no terse line")
	}
	if diff := cmp.Diff(TerseValues(frows, c), TerseValues(grows, c)); diff != "" {
		t.Errorf("terse fields (-fio +gofio):\n%s\ngofio terse:\n%s", diff, head(gf.Terse))
	}
}

// statsCases are statistics cases outside the matrix's factors, compared
// the same way.
var statsCases = []struct {
	name   string
	args   string
	checks Checks
}{
	{
		// ramp_time longer than the job: fio never ends the ramp, so the
		// bytes, issued counts and runtime are reported but no latency
		// sample and no bandwidth sample (stats-algorithms.md §9.2).
		name:   "ramp_outlasts_job_null",
		args:   "--name=ramp --ioengine=null --size=64M --ramp_time=5",
		checks: Checks{IO: IOPerDir, Depth: true},
	},
	{
		// The same on a file, reads and writes, libaio.
		name:   "ramp_outlasts_job_libaio",
		args:   "--name=ramp --ioengine=libaio --iodepth=8 --direct=1 --rw=randrw --size=2M --ramp_time=5",
		checks: Checks{IO: IOTotal, Depth: true},
	},
	{
		// Reporting groups: new_group and stonewall split the jobs into
		// three groups, group_reporting merges within each.
		name: "reporting_groups",
		args: "--group_reporting --name=a --ioengine=null --size=8M --numjobs=2 --name=b --ioengine=null --size=8M --rw=write" +
			" --name=c --new_group --ioengine=psync --direct=1 --size=1M" +
			" --name=d --stonewall --ioengine=psync --direct=1 --size=1M --rw=randwrite --numjobs=2",
		checks: Checks{IO: IOPerDir, Depth: true},
	},
	{
		// Without group_reporting each clone is its own record, numbered
		// into groups by stonewall.
		name: "groups_without_merging",
		args: "--name=a --ioengine=io_uring --iodepth=4 --direct=1 --size=1M --numjobs=2" +
			" --name=b --stonewall --ioengine=null --size=8M --rw=randread --numjobs=2",
		checks: Checks{IO: IOPerDir, Depth: true},
	},
	{
		// group_reporting over jobs with different kb_base and unit_base:
		// with normal among the formats both print the "differs" notices
		// on stdout, before the reports (kept verbatim in the skeleton).
		name:   "units_differ_in_group",
		args:   "--group_reporting --name=a --ioengine=null --size=8M --name=b --ioengine=null --size=8M --kb_base=1000 --unit_base=1",
		checks: Checks{IO: IOPerDir, Depth: true},
	},
}

func TestStatsCases(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	for _, c := range statsCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			caseSlots <- struct{}{}
			defer func() { <-caseSlots }()
			fr, gr := runBoth(t, gofio, append([]string{"--output-format=normal,terse,json+"}, strings.Fields(c.args)...))
			if fr.rc != 0 || gr.rc != 0 {
				t.Fatalf("exit status: fio %d, gofio %d\nfio stderr:\n%s\ngofio stderr:\n%s", fr.rc, gr.rc, fr.stderr, head(gr.stderr))
			}
			if gr.stderr != fr.stderr {
				t.Errorf("stderr: fio %q, gofio %q", fr.stderr, gr.stderr)
			}
			compareFormats(t, c.checks, fr, gr)
		})
	}
}
