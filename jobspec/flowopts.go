package jobspec

// FlowOptions are the token-based flow control options: jobs with a
// non-zero Weight (flow) and the same ID (flow_id) are held to the
// ratio of their weights.
type FlowOptions struct {
	ID     int
	Weight int // flow; fio accepts negative values (see runner/flow.go)
	// SleepUS is flow_sleep: how long a job held back waits before it
	// looks again (µs); 0 yields the CPU.
	SleepUS int
}
