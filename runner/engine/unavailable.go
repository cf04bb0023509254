package engine

// unavailable lists the engines of fio 3.33's build that gofio does not
// run, with the reason: each needs a C library (gofio builds without
// cgo) or hardware that gofio has no way to reach.
var unavailable = map[string]string{
	"rados":       "it needs librados, a C library (Ceph), and gofio builds without cgo",
	"rbd":         "it needs librbd, a C library (Ceph), and gofio builds without cgo",
	"gfapi":       "it needs libgfapi, a C library (GlusterFS), and gofio builds without cgo",
	"gfapi_async": "it needs libgfapi, a C library (GlusterFS), and gofio builds without cgo",
	"rdma":        "it needs libibverbs and librdmacm, C libraries (RDMA hardware), and gofio builds without cgo",
	"pmemblk":     "it needs libpmemblk, a C library (persistent memory), and gofio builds without cgo",
	"dev-dax":     "it needs libpmem, a C library, and a device-DAX device (persistent memory)",
	"libpmem":     "it needs libpmem, a C library (persistent memory), and gofio builds without cgo",
	"mtd":         "it needs libmtd, a C library, and an MTD flash device",
}

// Unavailable returns why gofio does not run the engine name, and false
// for an engine without a known reason (one gofio may run later).
func Unavailable(name string) (reason string, ok bool) {
	reason, ok = unavailable[name]
	return reason, ok
}
