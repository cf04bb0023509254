package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// idleNumber masks the machine's values in the CPU idleness lines.
var idleNumber = regexp.MustCompile(`\d+\.\d\d`)

// idleSection returns the lines of out from "CPU idleness:" on, values
// masked.
func idleSection(out string) []string {
	i := strings.Index(out, "CPU idleness:")
	if i < 0 {
		return nil
	}
	return strings.Split(idleNumber.ReplaceAllString(out[i:], "N"), "\n")
}

// TestIdleProfVsFio compares --idle-prof's output with fio 3.33's,
// values masked: calibrate's lines, the "CPU idleness" section at the end
// of the normal report (with the blank line before it and, for percpu,
// one value per CPU), and the keys of JSON's cpu_idleness in order.
func TestIdleProfVsFio(t *testing.T) {
	job := []string{"--name=x", "--ioengine=null", "--size=4m"}
	for _, args := range [][]string{
		{"--idle-prof=calibrate"},
		{"--idle-prof=system"},
		{"--idle-prof=percpu"},
	} {
		args = append(args, job...)
		fs, fout, ferr := runFioStatus(t, t.TempDir(), args...)
		gs, gout, gerr := gofio(t, args...)
		got, want := idleSection(gout), idleSection(fout)
		if gs != fs || gerr != ferr || want == nil || !slices.Equal(got, want) {
			t.Errorf("gofio %v = %d, %q\n got %q\nwant %q", args, gs, gerr, got, want)
		}
		if i := strings.Index(gout, "CPU idleness:"); i > 0 && !strings.HasSuffix(gout[:i], "\n\n") {
			t.Errorf("gofio %v: no blank line before CPU idleness", args)
		}
	}
	for _, mode := range []string{"system", "percpu"} {
		args := append([]string{"--idle-prof=" + mode, "--output-format=json"}, job...)
		_, fout, _ := runFioStatus(t, t.TempDir(), args...)
		_, gout, _ := gofio(t, args...)
		if got, want := idleKeys(t, gout), idleKeys(t, fout); !slices.Equal(got, want) {
			t.Errorf("gofio %v: cpu_idleness keys %q, fio %q", args, got, want)
		}
	}
}

// idleKeys returns the top-level keys of a JSON report, then those of its
// cpu_idleness object, in order.
func idleKeys(t *testing.T, doc string) []string {
	t.Helper()
	keys := func(data []byte) []string {
		dec := json.NewDecoder(strings.NewReader(string(data)))
		var out []string
		depth := 0
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch v := tok.(type) {
			case json.Delim:
				if v == '{' || v == '[' {
					depth++
				} else {
					depth--
				}
			case string:
				if depth == 1 && dec.More() {
					out = append(out, v)
					var skip json.RawMessage
					if err := dec.Decode(&skip); err != nil {
						t.Fatalf("%v in %s", err, data)
					}
				}
			}
		}
		return out
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(doc), &top); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, doc)
	}
	return append(keys([]byte(doc)), keys(top["cpu_idleness"])...)
}
