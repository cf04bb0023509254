// Package report turns a run's results into things to look at and to
// follow: a self-contained HTML page (one file, inline SVG charts, no
// script, no network access) and per-interval JSON lines.
//
// It recomputes nothing its own way: the final numbers come from the
// result model of package output (the same raw stats.Job counters the
// normal and JSON reports print), percentiles come from package stats'
// histograms, and an interval is the difference of two snapshots of a
// job's stats.Job, so an interval's percentiles are those of the
// latencies completed within it.
//
// The charts are drawn by hand in SVG (svg.go, charts.go) rather than with
// a plotting library: the few chart kinds needed are small to write, the
// output stays deterministic (golden tests pin it) and gofio keeps no
// dependency for it.
package report
