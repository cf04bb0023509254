//go:build !linux

package runner

import "github.com/gofio/gofio/output"

// DiskTracker is a no-op outside Linux: there is no /sys/block to sample,
// so no "Disk stats" section is produced.
type DiskTracker struct{}

// NewDiskTracker returns an empty tracker.
func NewDiskTracker() *DiskTracker { return &DiskTracker{} }

// Add does nothing outside Linux.
func (t *DiskTracker) Add(path string) {}

// Start does nothing outside Linux.
func (t *DiskTracker) Start() {}

// Stop does nothing outside Linux.
func (t *DiskTracker) Stop() {}

// Disks returns nil outside Linux.
func (t *DiskTracker) Disks() []output.Disk { return nil }
