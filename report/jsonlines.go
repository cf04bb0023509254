package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/stats"
)

// WriteIntervalLine writes iv as one line of JSON: the job object of
// fio's JSON report (the same keys output.JSON writes: "jobname",
// "read"/"write"/"trim" with "io_bytes", "bw_bytes", "iops", "clat_ns"
// with its "percentile", ...) holding the interval's counters, then
// "job_index" (the job's place in the report: clones share a name),
// "time_ms" (the job's run time at the end of the interval), "start_ms"
// and "cumulative": per direction the totals so far (io_bytes,
// total_ios, runtime in ms). plus adds the histogram bins as JSON+ does.
// r is the run the job belongs to (its groups and settings).
func WriteIntervalLine(w io.Writer, r *output.Result, iv *Interval, plus bool) error {
	j := *iv.Job
	j.Stats = iv.Delta
	j.Steady = nil
	one := output.Result{Time: r.Time, Jobs: []output.Job{j}, Groups: r.Groups, ElapsedMS: iv.EndMS}
	var doc bytes.Buffer
	if err := output.JSON(&doc, &one, plus); err != nil {
		return fmt.Errorf("interval of job %s: %w", j.Name, err)
	}
	var raw struct {
		Jobs []json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal(doc.Bytes(), &raw); err != nil || len(raw.Jobs) != 1 {
		return fmt.Errorf("interval of job %s: reading back its JSON: %v", j.Name, err)
	}
	var line bytes.Buffer
	if err := json.Compact(&line, raw.Jobs[0]); err != nil {
		return fmt.Errorf("interval of job %s: %w", j.Name, err)
	}
	b := bytes.TrimSuffix(line.Bytes(), []byte("}"))
	b = append(b, `,"job_index":`...)
	b = strconv.AppendInt(b, int64(iv.Index), 10)
	b = append(b, `,"time_ms":`...)
	b = strconv.AppendUint(b, iv.EndMS, 10)
	b = append(b, `,"start_ms":`...)
	b = strconv.AppendUint(b, iv.StartMS, 10)
	b = append(b, `,"cumulative":{`...)
	for d := range stats.NDirs {
		if d > 0 {
			b = append(b, ',')
		}
		s := &iv.Job.Stats.Dir[d]
		b = fmt.Appendf(b, `"%s":{"io_bytes":%d,"total_ios":%d,"runtime":%d}`, dirNames[d], s.IOBytes, s.TotalIOs, s.RuntimeMS())
	}
	b = append(b, "}}\n"...)
	_, err := w.Write(b)
	return err
}

// dirNames name the directions as fio's JSON does.
var dirNames = [stats.NDirs]string{"read", "write", "trim"}
