package output

import "io"

// ClientJSON writes the JSON document of fio's client mode
// (--client with --output-format=json): the reports received from every
// server under "client_stats", each with the "hostname" and "port" of
// its server, and their disks under "disk_util". It has no "jobs",
// "timestamp_ms", "eta", "elapsed" or "desc" keys, and always has
// "global options" and "disk_util", as fio's client prints it. The
// per=/bw_agg group aggregates are those of each job's own server.
func ClientJSON(w io.Writer, r *Result, plus bool) error {
	j := &jsonWriter{}
	j.b.WriteByte('\n')
	j.open('{')
	j.str("fio version", FioVersion)
	sec := r.Time.Unix()
	j.int("timestamp", sec)
	j.str("time", Ctime(r.Time))
	writeJSONOptions(j, "global options", r.GlobalOptions)

	reps := make([]*jobRep, len(r.Jobs))
	byServer := map[Remote][]*jobRep{}
	for k := range r.Jobs {
		reps[k] = newJobRep(&r.Jobs[k])
		var key Remote
		if rm := r.Jobs[k].Remote; rm != nil {
			key = *rm
		}
		byServer[key] = append(byServer[key], reps[k])
	}
	aggs := map[Remote]map[int]*groupAgg{}
	for key, rs := range byServer {
		aggs[key] = aggregates(rs)
	}
	j.array("client_stats")
	for _, rep := range reps {
		var key Remote
		if rep.Remote != nil {
			key = *rep.Remote
		}
		writeJSONJob(j, rep, aggs[key][rep.GroupID], 0, plus)
	}
	j.close(']')
	j.array("disk_util")
	for k := range r.Disks {
		writeJSONDisk(j, &r.Disks[k])
	}
	j.close(']')
	j.close('}')
	j.b.WriteByte('\n')
	_, err := w.Write(j.b.Bytes())
	return err
}

// writeJSONRemote appends the "hostname" and "port" keys of a
// client-mode report or disk.
func writeJSONRemote(j *jsonWriter, r *Remote) {
	if r == nil {
		return
	}
	j.str("hostname", r.Hostname)
	j.int("port", int64(r.Port))
}
