package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// metrics are what a run's JSON report says it did, summed over its jobs
// (or groups) and directions.
type metrics struct {
	iops float64
	bw   float64 // bytes/s
}

// parseMetrics reads fio's --output-format=json report from out (which
// may hold text before the document, such as fio's messages) and sums
// IOPS and bandwidth over the jobs and read, write and trim.
func parseMetrics(out []byte) (metrics, error) {
	i := bytes.IndexByte(out, '{')
	if i < 0 {
		return metrics{}, fmt.Errorf("no JSON report in the output")
	}
	var doc struct {
		Jobs []map[string]json.RawMessage `json:"jobs"`
	}
	if err := json.NewDecoder(bytes.NewReader(out[i:])).Decode(&doc); err != nil {
		return metrics{}, fmt.Errorf("JSON report: %w", err)
	}
	if len(doc.Jobs) == 0 {
		return metrics{}, fmt.Errorf("JSON report without jobs")
	}
	var m metrics
	for _, j := range doc.Jobs {
		for _, dir := range []string{"read", "write", "trim"} {
			raw, ok := j[dir]
			if !ok {
				continue
			}
			var d struct {
				IOPS    float64 `json:"iops"`
				BWBytes float64 `json:"bw_bytes"`
			}
			if err := json.Unmarshal(raw, &d); err != nil {
				return metrics{}, fmt.Errorf("JSON report, %s: %w", dir, err)
			}
			m.iops += d.IOPS
			m.bw += d.BWBytes
		}
	}
	return m, nil
}

// farOff is how far a loaded run's IOPS or bandwidth may be from the
// unloaded run's before it is reported: more than this factor either way.
const farOff = 2.0

// judge compares a loaded run's metrics with the unloaded baseline's and
// returns what is more than farOff away ("" when nothing). A zero
// baseline is not judged.
func judge(base, got metrics) string {
	var out []string
	for _, c := range []struct {
		what      string
		base, got float64
	}{{"IOPS", base.iops, got.iops}, {"bw", base.bw, got.bw}} {
		if c.base <= 0 {
			continue
		}
		r := c.got / c.base
		if r > farOff || r < 1/farOff {
			out = append(out, fmt.Sprintf("%s %.4g vs %.4g unloaded (×%.2f)", c.what, c.got, c.base, r))
		}
	}
	return strings.Join(out, ", ")
}

// testFailure is one failed test (or package) of a `go test -json` run.
type testFailure struct {
	pkg, test string
	output    string // the test's own output lines
}

// testSummary is what a `go test -json` stream says.
type testSummary struct {
	passed, failed, skipped int
	failures                []testFailure
}

// readTestEvents reads a `go test -json` stream (test2json events) and
// returns the counts of the tests' outcomes and each failure with its
// output. A package that fails without a failed test (a build error, a
// panic, a timeout) is a failure named by the package alone.
func readTestEvents(r io.Reader) (testSummary, error) {
	var s testSummary
	type key struct{ pkg, test string }
	output := map[key]*strings.Builder{}
	failedIn := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue // go test's own lines (build output)
		}
		var ev struct {
			Action  string
			Package string
			Test    string
			Output  string
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			return s, fmt.Errorf("go test -json: %w", err)
		}
		k := key{ev.Package, ev.Test}
		switch ev.Action {
		case "output":
			b := output[k]
			if b == nil {
				b = &strings.Builder{}
				output[k] = b
			}
			if b.Len() < 64<<10 {
				b.WriteString(ev.Output)
			}
		case "pass":
			if ev.Test != "" {
				s.passed++
			}
		case "skip":
			if ev.Test != "" {
				s.skipped++
			}
		case "fail":
			if ev.Test != "" {
				s.failed++
				failedIn[ev.Package] = true
				s.failures = append(s.failures, testFailure{pkg: ev.Package, test: ev.Test, output: text(output[k])})
			} else if !failedIn[ev.Package] {
				s.failures = append(s.failures, testFailure{pkg: ev.Package, output: text(output[k])})
			}
		}
	}
	return s, sc.Err()
}

func text(b *strings.Builder) string {
	if b == nil {
		return ""
	}
	return b.String()
}
