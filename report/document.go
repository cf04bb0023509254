package report

import (
	"strings"

	"github.com/gofio/gofio/output"
	"github.com/gofio/gofio/results"
)

// FromDocument returns the run of a result file read by package results
// (a json or json+ report of fio or gofio), without series or host.
func FromDocument(doc *results.Document) *Run {
	r := &output.Result{Time: doc.Time, GlobalOptions: doc.GlobalOptions, ElapsedMS: doc.ElapsedMS}
	for _, j := range doc.Jobs {
		r.Jobs = append(r.Jobs, j.Report)
	}
	for _, j := range r.Jobs {
		for len(r.Groups) <= j.GroupID {
			r.Groups = append(r.Groups, output.Group{ID: len(r.Groups), KBBase: j.KBBase, UnitBase: j.UnitBase, SigFigs: j.SigFigs, Unified: j.Unified})
		}
	}
	return &Run{Result: r, Source: doc.Name}
}

// JobNames returns the names of r's jobs, in order (ReadLogs matches logs
// to them).
func JobNames(r *output.Result) []string {
	var out []string
	for _, j := range r.Jobs {
		out = append(out, j.Name)
	}
	return out
}

// OptionTargets returns the files and directories named by the filename
// and directory options of r's jobs and global options.
func OptionTargets(r *output.Result) []string {
	var out []string
	lists := [][]output.Option{r.GlobalOptions}
	for _, j := range r.Jobs {
		lists = append(lists, j.Options)
	}
	for _, opts := range lists {
		for _, o := range opts {
			if o.Name == "filename" || o.Name == "directory" {
				out = append(out, strings.Split(o.Value, ":")...)
			}
		}
	}
	return out
}
