package runner

// oAtomic is the open flag atomic=1 adds to O_DIRECT: fio's O_ATOMIC
// (040000000), which Linux kernels without atomic-write support ignore,
// as they do for fio.
const oAtomic = 0o40000000
