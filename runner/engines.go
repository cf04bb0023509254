package runner

import "fmt"

// engines is the registry of I/O engines, in fio's --enghelp order.
var engines = []EngineInfo{
	{Name: "sync", New: newSync, Sync: true},
	{Name: "psync", New: newPsync, Sync: true},
	libaioEngine,
	iouringEngine,
	{Name: "null", New: newNull, NoFiles: true},
}

// LookupEngine returns the engine registered as name.
func LookupEngine(name string) (EngineInfo, error) {
	for _, e := range engines {
		if e.Name == name {
			return e, nil
		}
	}
	return EngineInfo{}, fmt.Errorf("fio: engine %s not loadable", name)
}
