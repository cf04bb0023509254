// Package results reads the JSON and JSON+ reports of fio 3.33 and gofio
// (local runs and the client_stats documents of client/server runs) and
// works on them after the run: Compare sets a new result against one or
// more baselines and checks thresholds (gates), and Merge folds several
// JSON+ results into one.
//
// Nothing here recomputes a statistic in a way of its own: a document is
// read back into the result model of package output (raw stats.Job
// counters, fio's latency histograms rebuilt from the JSON+ "bins"), the
// merges are those of package stats, and a merged document is written by
// output.JSON, so its percentiles come from the summed histograms exactly
// as fio computes them from a job's histogram.
package results
