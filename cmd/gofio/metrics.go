package main

// --metrics=HOST:PORT serves the run's live statistics in the OpenMetrics
// text format (which Prometheus scrapes) at http://HOST:PORT/metrics,
// from just before the jobs start until they have ended; a scrape reads
// the jobs' statistics the way --status-interval does
// (runner.Progress.Report), and after the run the final report's.
//
// The text format is written here rather than with
// github.com/prometheus/client_golang: that library's registry and
// collectors model long-lived processes, and it brings in about a dozen
// modules (client_model, common, procfs, protobuf, xxhash...) for what is
// three metric families rendered from a snapshot.

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/runner"
	"github.com/gofio/gofio/stats"
)

// metricsContentType is OpenMetrics 1.0's media type.
const metricsContentType = "application/openmetrics-text; version=1.0.0; charset=utf-8"

// latencyEdges are the histogram's upper bounds in seconds: the decades
// of fio's latency distribution (10 µs, 100 µs, 1 ms, 10 ms, 100 ms,
// 1 s), fio's fine histogram bins (JSON+ "bins") folded into them.
var latencyEdges = []float64{10e-6, 100e-6, 1e-3, 10e-3, 100e-3, 1}

// dirNames label the directions.
var dirNames = [stats.NDirs]string{"read", "write", "trim"}

// metricsHook, when set (tests), is called with the address once the
// endpoint listens (final false) and again once it serves the final
// report, before it stops (final true).
var metricsHook func(addr string, final bool)

// metricsServer is a running --metrics endpoint.
type metricsServer struct {
	prog *runner.Progress
	ln   net.Listener
	srv  *http.Server
	done chan struct{}

	mu    sync.Mutex // one snapshot at a time
	final *output.Result
}

// startMetrics starts the endpoint at addr; nil when addr is "".
func startMetrics(addr string, prog *runner.Progress) (*metricsServer, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("gofio: --metrics: %w", err)
	}
	m := &metricsServer{prog: prog, ln: ln, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", m.serve)
	m.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(m.done)
		m.srv.Serve(ln)
	}()
	if metricsHook != nil {
		metricsHook(ln.Addr().String(), false)
	}
	return m, nil
}

// finish serves the final report (when there is one) to the hook, then
// stops the endpoint.
func (m *metricsServer) finish(final *output.Result) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.final = final
	m.mu.Unlock()
	if metricsHook != nil && final != nil {
		metricsHook(m.ln.Addr().String(), true)
	}
	m.srv.Close()
	<-m.done
}

func (m *metricsServer) serve(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	res := m.final
	if res == nil {
		res = m.prog.Report(time.Second)
	}
	m.mu.Unlock()
	w.Header().Set("Content-Type", metricsContentType)
	if err := writeMetrics(w, res); err != nil && !errors.Is(err, net.ErrClosed) {
		return // the scraper went away
	}
}

// writeMetrics writes r (nil: the jobs have not started) as OpenMetrics
// text: per reported job and direction, I/O and byte counters and the
// completion latency histogram (when the job keeps one: clat_percentiles).
func writeMetrics(w io.Writer, r *output.Result) error {
	var b strings.Builder
	type series struct {
		labels string
		st     *stats.DirStats
		hist   bool
	}
	var all []series
	if r != nil {
		for i := range r.Jobs {
			j := &r.Jobs[i]
			for d := range dirNames {
				l := fmt.Sprintf(`job="%s",jobid="%d",dir="%s"`, escapeLabel(j.Name), i, dirNames[d])
				all = append(all, series{l, &j.Stats.Dir[d], j.ClatPercentiles})
			}
		}
	}
	b.WriteString("# TYPE gofio_io counter\n# HELP gofio_io I/Os issued (fio's total_ios).\n")
	for _, s := range all {
		fmt.Fprintf(&b, "gofio_io_total{%s} %d\n", s.labels, s.st.TotalIOs)
	}
	b.WriteString("# TYPE gofio_io_bytes counter\n# UNIT gofio_io_bytes bytes\n# HELP gofio_io_bytes Bytes of completed I/Os (fio's io_bytes).\n")
	for _, s := range all {
		fmt.Fprintf(&b, "gofio_io_bytes_total{%s} %d\n", s.labels, s.st.IOBytes)
	}
	b.WriteString("# TYPE gofio_clat_seconds histogram\n# UNIT gofio_clat_seconds seconds\n# HELP gofio_clat_seconds Completion latency (fio's clat histogram, folded).\n")
	for _, s := range all {
		if !s.hist {
			continue
		}
		counts := make([]uint64, len(latencyEdges)+1)
		var total uint64
		for i, n := range s.st.ClatHist {
			if n == 0 {
				continue
			}
			sec := float64(stats.HistValue(i)) / 1e9
			k := 0
			for k < len(latencyEdges) && sec > latencyEdges[k] {
				k++
			}
			counts[k] += n
			total += n
		}
		var cum uint64
		for k, e := range latencyEdges {
			cum += counts[k]
			fmt.Fprintf(&b, "gofio_clat_seconds_bucket{%s,le=\"%s\"} %d\n", s.labels, strconv.FormatFloat(e, 'g', -1, 64), cum)
		}
		fmt.Fprintf(&b, "gofio_clat_seconds_bucket{%s,le=\"+Inf\"} %d\n", s.labels, total)
		fmt.Fprintf(&b, "gofio_clat_seconds_count{%s} %d\n", s.labels, total)
		sum := s.st.Clat.Mean * float64(s.st.Clat.N) / 1e9
		fmt.Fprintf(&b, "gofio_clat_seconds_sum{%s} %s\n", s.labels, strconv.FormatFloat(sum, 'g', -1, 64))
	}
	b.WriteString("# EOF\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeLabel escapes a label value as the text format wants.
func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
