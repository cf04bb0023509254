// Package proctree lists a process's tree from /proc, for the tools that
// measure fio and gofio with all their processes (bench, stress).
package proctree

import (
	"os"
	"strconv"
	"strings"
)

// Descendants returns pid and every process below it (by
// /proc/PID/task/TID/children).
func Descendants(pid int) []int {
	procs := []int{pid}
	for i := 0; i < len(procs); i++ {
		tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(procs[i]) + "/task")
		for _, t := range tasks {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(procs[i]) + "/task/" + t.Name() + "/children")
			for _, f := range strings.Fields(string(b)) {
				if n, err := strconv.Atoi(f); err == nil {
					procs = append(procs, n)
				}
			}
		}
	}
	return procs
}
