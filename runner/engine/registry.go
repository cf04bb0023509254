package engine

import "fmt"

// engines is the registry of I/O engines gofio implements, in fio's
// --enghelp order.
var engines = []Info{
	{Name: "cpuio", New: newCPUIO, Sync: true, NoFiles: true, NoIO: true},
	{Name: "mmap", New: newMmap, Sync: true},
	{Name: "sync", New: newSync, Sync: true},
	{Name: "psync", New: newPsync, Sync: true},
	{Name: "vsync", New: newVsync, Sync: true},
	{Name: "pvsync", New: newPvsync, Sync: true},
	{Name: "pvsync2", New: newPvsync2, Sync: true},
	{Name: "null", New: newNull, NoFiles: true},
	{Name: "net", New: newNet, Sync: true, NoLayout: true, Diskless: true, BitBased: true},
	{Name: "netsplice", New: newNetSplice, Sync: true, NoLayout: true, Diskless: true, BitBased: true},
	{Name: "ftruncate", New: newFtruncate, Sync: true},
	{Name: "filecreate", New: newFileCreate, Sync: true, NoLayout: true, Diskless: true, NoStats: true},
	{Name: "filestat", New: newFileStat, Sync: true, NoStats: true},
	{Name: "filedelete", New: newFileDelete, Sync: true, NoStats: true},
	{Name: "exec", New: newExec, Sync: true, NoFiles: true, NoIO: true},
	{Name: "posixaio", New: newPosixaio},
	{Name: "falloc", New: newFalloc, Sync: true},
	e4defragEngine,
	{Name: "splice", New: newSplice, Sync: true},
	sgEngine,
	iouringEngine,
	iouringCmdEngine,
	nbdEngine,
	libaioEngine,
}

// Engines returns the registered engines, in fio's --enghelp order.
func Registered() []Info { return engines }

// Lookup returns the engine registered as name.
func Lookup(name string) (Info, error) {
	for _, e := range engines {
		if e.Name == name {
			return e, nil
		}
	}
	return Info{}, fmt.Errorf("fio: engine %s not loadable", name)
}
