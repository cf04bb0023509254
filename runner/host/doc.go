// Package host sets up the thread a job runs on, as fio 3.33 sets up a
// job process: credentials (uid, gid), NUMA placement, CPU affinity
// (cpus_allowed, cpumask, cpus_allowed_policy), I/O priority, nice and
// the I/O scheduler of the job's devices. Each call acts on the calling
// thread and returns the errno and fio's func= name of a failure.
package host
