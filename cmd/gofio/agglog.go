package main

import (
	"fmt"
	"io"
	"os"
)

// --bandwidth-log (fio's help: "Generate aggregate bandwidth logs"):
// fio 3.33 creates agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log
// in the working directory once the jobs have run (a failed job
// included; not with --parse-only nor on a bad command line), in client
// mode too, and writes nothing into them (observed).
var aggLogNames = []string{"agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log"}

// writeAggLogs creates the aggregate bandwidth logs, reporting a file it
// cannot create on stderr.
func writeAggLogs(stderr io.Writer) {
	for _, name := range aggLogNames {
		f, err := os.Create(name)
		if err != nil {
			fmt.Fprintf(stderr, "fio: %s: %s\n", name, errText(err))
			continue
		}
		f.Close()
	}
}
