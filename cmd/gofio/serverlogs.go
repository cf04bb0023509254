package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofio/gofio/jobspec"
	"github.com/gofio/gofio/netio"
)

// A gofio server sends its jobs' I/O logs (write_bw_log, write_iops_log,
// write_lat_log, write_hist_log) to the client as IOLOG messages, as
// fio's server does, instead of writing them where it runs: the jobs
// write their logs into a scratch directory, and the server reads them
// back into fio's records after the run.

// serverLog is one log file a job of the run may write.
type serverLog struct {
	name   string // the name fio would give it, sent to the client
	path   string // where the job writes it
	typ    uint32
	thread int
	stored bool // log_store_compressed: the file holds zlib chunks
	offset bool // log_offset: an offset column
	prio   bool // log_prio: the priority column in hex
	coarse int  // a histogram log's log_hist_coarseness
}

// logName is a log file's name as fio 3.33 gives it: PREFIX_SUFFIX.N.log,
// or PREFIX_SUFFIX.log with per_job_logs=0.
func logName(prefix, suffix string, num int, perJob bool) string {
	if perJob {
		return prefix + "_" + suffix + "." + strconv.Itoa(num) + ".log"
	}
	return prefix + "_" + suffix + ".log"
}

// redirectLogs points the logs of the plan's jobs into dir and returns
// them. Histogram logs are written with every bucket (coarseness 0): the
// client bins them.
func redirectLogs(plan *jobspec.Plan, dir string) []serverLog {
	var logs []serverLog
	for i, j := range plan.Jobs {
		num := i + 1
		add := func(prefix *string, tag string, kinds map[string]uint32) {
			orig := *prefix
			if orig == "" {
				orig = j.Name
			}
			*prefix = filepath.Join(dir, fmt.Sprintf("%d-%s", num, tag))
			for _, suffix := range []string{"bw", "iops", "slat", "clat", "lat", "clat_hist"} {
				typ, ok := kinds[suffix]
				if !ok {
					continue
				}
				l := serverLog{name: logName(orig, suffix, num, j.PerJobLogs), path: logName(*prefix, suffix, num, j.PerJobLogs),
					typ: typ, thread: num, offset: j.LogOffset, prio: j.LogPrio}
				if typ == netio.LogHist {
					l.coarse = j.LogHistCoarseness
				} else if j.LogStoreCompressed {
					// fio's server names the stored log NAME.fz too
					// (fio 3.33, observed: the client writes NAME.fz.HOST).
					l.stored = true
					l.path += ".fz"
					l.name += ".fz"
				}
				logs = append(logs, l)
			}
		}
		if j.WriteBWLog {
			add(&j.BWLogPrefix, "bw", map[string]uint32{"bw": netio.LogBW})
		}
		if j.WriteIOPSLog {
			add(&j.IOPSLogPrefix, "iops", map[string]uint32{"iops": netio.LogIOPS})
		}
		if j.WriteLatLog {
			add(&j.LatLogPrefix, "lat", map[string]uint32{"slat": netio.LogSlat, "clat": netio.LogClat, "lat": netio.LogLat})
		}
		if j.WriteHistLog {
			add(&j.HistLogPrefix, "hist", map[string]uint32{"clat_hist": netio.LogHist})
			j.LogHistCoarseness = 0
		}
	}
	return logs
}

// readLogs reads back the logs the jobs wrote, as IOLOG messages; a log
// a job did not write (a latency log its disable_* options leave out) is
// not sent.
func readLogs(logs []serverLog) ([]*netio.IOLog, error) {
	var out []*netio.IOLog
	for _, l := range logs {
		m := &netio.IOLog{Thread: uint32(l.thread), Type: l.typ, Name: l.name, Coarseness: uint32(l.coarse)}
		if l.stored {
			data, err := os.ReadFile(l.path)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return out, err
			}
			m.Compressed, m.Data = 2, data
			out = append(out, m)
			continue
		}
		f, err := os.Open(l.path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return out, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			rec, ok := parseLogLine(sc.Text(), l)
			if !ok {
				continue
			}
			m.Data = append(m.Data, rec...)
			m.Samples++
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return out, fmt.Errorf("reading log %s: %w", l.name, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// parseLogLine turns one line of a log file back into fio's record:
// "time, value, direction, block size[, offset], priority", or for a
// histogram log "time, direction, block size, bucket counts...".
func parseLogLine(line string, l serverLog) ([]byte, bool) {
	f := strings.Split(line, ", ")
	num := func(s string) uint64 {
		v, _ := strconv.ParseUint(strings.TrimSpace(s), 0, 64)
		return v
	}
	if l.typ == netio.LogHist {
		if len(f) < 3 {
			return nil, false
		}
		rec := netio.AppendSample(nil, num(f[0]), 0, uint32(num(f[1])), 0, num(f[2]), 0)
		rec = append(rec, make([]byte, netio.HistEntrySize)...)
		b := rec[netio.SampleSize+16:]
		for k, s := range f[3:] {
			if k >= netio.HistBuckets {
				break
			}
			v := num(s)
			for i := range 8 {
				b[8*k+i] = byte(v >> (8 * i))
			}
		}
		return rec, true
	}
	want := 5
	if l.offset {
		want = 6
	}
	if len(f) != want {
		return nil, false
	}
	ddir := uint32(num(f[2]))
	var off uint64
	if l.offset {
		ddir |= netio.SampleOffset
		off = num(f[4])
	}
	var prio uint16
	p := f[want-1]
	switch {
	case l.prio:
		ddir |= netio.SamplePrio
		prio = uint16(num(p))
	case p == "1":
		prio = 1 << 13 // a realtime-class I/O
	}
	return netio.AppendSample(nil, num(f[0]), num(f[1]), ddir, prio, num(f[3]), off), true
}
