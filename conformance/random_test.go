package conformance

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// randomCase is one seeded job run by fio and gofio. Both must issue the
// same I/O: the write_iolog traces (file, action, offset, length of each
// I/O, in order; timestamps aside) and each job's I/O count and bytes per
// direction in the JSON report.
type randomCase struct {
	name string
	// args follow "--name=job --ioengine=psync --filename=F
	// --write_iolog=io.log --output-format=json" (no --filename when
	// fileSize is 0); with jobFile, the run is "job.fio
	// --output-format=json" and each job names its own write_iolog.
	args    string
	jobFile string
	// fileSize: F is created with this many zero bytes first.
	fileSize int64
	// noLog: compare the JSON only, saying why.
	noLog string
	// data: the bytes of F must be fio's too.
	data bool
	// skip: a known difference, said plainly; the case is skipped.
	skip string
}

// randomCases start with the worked examples of fio 3.33's random
// decisions, then combine the options that drive them.
var randomCases = []randomCase{
	{name: "randread", args: "--rw=randread --bs=4k --size=1m", fileSize: 1 << 20},
	{name: "randseed", args: "--rw=randread --bs=4k --size=1m --randseed=1234", fileSize: 1 << 20},
	{name: "randseed-norepeat", args: "--rw=randread --bs=4k --size=1m --randseed=1234 --randrepeat=0", fileSize: 1 << 20},
	{name: "allrandrepeat-norepeat", args: "--rw=randread --bs=4k --size=1m --allrandrepeat=1 --randrepeat=0", fileSize: 1 << 20},
	{name: "norandommap", args: "--rw=randread --bs=4k --size=1m --norandommap", fileSize: 1 << 20},
	{name: "lfsr", args: "--rw=randread --bs=4k --size=1m --random_generator=lfsr", fileSize: 1 << 20},
	{name: "tausworthe64", args: "--rw=randread --bs=4k --size=1m --random_generator=tausworthe64", fileSize: 1 << 20},
	{name: "percentage-random", args: "--rw=randread --bs=4k --size=1m --percentage_random=50", fileSize: 1 << 20},
	{name: "loops", args: "--rw=randread --bs=4k --size=64k --loops=2", fileSize: 1 << 20},
	{name: "loops-randseed", args: "--rw=randread --bs=4k --size=64k --loops=3 --randseed=99", fileSize: 1 << 20},
	{name: "rwmix30", args: "--rw=randrw --rwmixread=30 --bs=4k --size=8M", fileSize: 8 << 20},
	{name: "rwmix50", args: "--rw=randrw --rwmixread=50 --bs=4k --size=8M", fileSize: 8 << 20},
	{name: "rwmix70", args: "--rw=randrw --rwmixread=70 --bs=4k --size=8M", fileSize: 8 << 20},
	{name: "rwmix30-randseed", args: "--rw=randrw --rwmixread=30 --bs=4k --size=8M --randseed=1234", fileSize: 8 << 20},
	{name: "rwmix30-allrandrepeat", args: "--rw=randrw --rwmixread=30 --bs=4k --size=8M --allrandrepeat=1", fileSize: 8 << 20},
	{name: "rw-rwmix30", args: "--rw=rw --rwmixread=30 --bs=4k --size=8M", fileSize: 8 << 20},
	{name: "rwmix60-bsrange", args: "--rw=randrw --rwmixread=60 --bsrange=4k-32k --size=8M", fileSize: 8 << 20},
	{name: "read-bsrange", args: "--rw=read --bsrange=4k-64k --size=8M", fileSize: 8 << 20},
	{name: "randread-bsrange", args: "--rw=randread --bsrange=4k-64k --size=8M", fileSize: 8 << 20},
	{name: "read-bssplit", args: "--rw=read --bssplit=4k/10:64k/50:32k/40 --size=8M", fileSize: 8 << 20},
	{name: "randrw-bssplit", args: "--rw=randrw --bssplit=4k/50:64k/50 --size=8M", fileSize: 8 << 20},
	{name: "randrw-bssplit-unset", args: "--rw=randrw --bssplit=4k/20:16k:64k,8k/30:32k --size=4M", fileSize: 4 << 20},
	{name: "files-random", args: "--rw=randread --bs=4k --size=4m --nrfiles=4 --file_service_type=random"},
	{name: "files-random-3", args: "--rw=randrw --bs=4k --size=4m --nrfiles=4 --file_service_type=random:3"},
	{name: "files-roundrobin", args: "--rw=randread --bsrange=4k-16k --size=4m --nrfiles=4 --file_service_type=roundrobin"},
	{name: "files-loops-roundrobin", args: "--rw=randread --bsrange=4k-32k --size=256k --nrfiles=2 --loops=3 --randrepeat=0 --randseed=11"},
	{name: "files-loops-short-end", args: "--rw=read --bsrange=4k-32k --size=250k --nrfiles=3 --loops=2"},
	{name: "files-sequential", args: "--rw=randrw --bs=4k --size=4m --nrfiles=4 --file_service_type=sequential"},
	{name: "randread-N", args: "--rw=randread:4 --bs=4k --size=1m", fileSize: 8 << 20},
	{name: "randread-N-end", args: "--rw=randread:4 --bs=4k --size=1m", fileSize: 1 << 20},
	{name: "randrw-N-percentage", args: "--rw=randrw:3 --percentage_random=30 --bs=4k --size=1m", fileSize: 1 << 20},
	{name: "randread-N-identical", args: "--rw=randread:4 --rw_sequencer=identical --percentage_random=50 --bs=4k --size=1m", fileSize: 1 << 20},
	{name: "percentage-region-end", args: "--rw=randwrite --percentage_random=70,20 --bs=4k --size=1m", fileSize: 8 << 20},
	{name: "percentage-bsrange", args: "--rw=randrw --percentage_random=30,80 --bsrange=4k-16k --size=1m", fileSize: 1 << 20},
	{name: "tausworthe64-bsrange", args: "--rw=randrw --random_generator=tausworthe64 --bsrange=4k-32k --size=2m", fileSize: 2 << 20},
	{name: "lfsr-randrw", args: "--rw=randrw --random_generator=lfsr --bs=4k --size=2m", fileSize: 2 << 20},
	{name: "norandommap-bsrange", args: "--rw=randrw --norandommap --bsrange=4k-32k --size=2m", fileSize: 2 << 20},
	{name: "offset", args: "--rw=randrw --bs=4k --offset=256k --size=512k", fileSize: 1 << 20},
	{name: "bs-is-seq-rand", args: "--rw=randrw --bs=4k,16k --bs_is_seq_rand=1 --percentage_random=50 --size=2m", fileSize: 2 << 20},
	{name: "libaio", args: "--rw=randrw --rwmixread=75 --ioengine=libaio --iodepth=16 --bs=4k --size=4m", fileSize: 4 << 20},
	{name: "verify-bsrange", args: "--rw=randwrite --bsrange=4k-64k --verify=crc32c --size=1m", fileSize: 1 << 20},
	{name: "loops-rwmix", args: "--rw=randrw --rwmixread=30 --bs=4k --size=1m --loops=2", fileSize: 1 << 20},
	{name: "loops-rwmix-randseed", args: "--rw=randrw --rwmixread=30 --bs=4k --size=1m --loops=2 --randseed=3", fileSize: 1 << 20},
	{name: "io-size", args: "--rw=randread --bs=4k --size=1m --io_size=2m", fileSize: 1 << 20},
	{name: "loops-number-ios", args: "--rw=randread --bs=4k --size=1m --number_ios=3 --loops=3", fileSize: 1 << 20},
	{name: "loops-number-ios-randrw", args: "--rw=randrw --bs=4k --size=1m --number_ios=3 --loops=2", fileSize: 1 << 20},
	{name: "loops-number-ios-exhaust", args: "--rw=randread --bs=4k --size=12k --number_ios=2 --loops=3", fileSize: 1 << 20},
	{name: "loops-io-size", args: "--rw=randread --bs=4k --size=64k --io_size=32k --loops=3", fileSize: 1 << 20},
	{name: "loops-io-size-pct", args: "--rw=randrw --bs=4k --size=64k --io_size=50% --loops=3", fileSize: 1 << 20},
	{name: "loops-io-size-seq", args: "--rw=read --bs=4k --size=64k --io_size=32k --loops=3", fileSize: 1 << 20},
	{name: "number-ios", args: "--rw=randrw --bs=4k --size=1m --number_ios=100", fileSize: 1 << 20},
	{name: "blockalign", args: "--rw=randread --bs=4k --size=1m --blockalign=8k", fileSize: 1 << 20},
	{name: "rwmixwrite-bs", args: "--rw=randrw --rwmixwrite=20 --bs=8k,4k --size=1m", fileSize: 1 << 20},
	{name: "bs-unaligned", args: "--rw=randwrite --bsrange=2k-10k --bs_unaligned --size=1m", fileSize: 1 << 20},
	{name: "bs-unaligned-end", args: "--rw=randwrite --bsrange=1000-5000 --bs_unaligned --size=1m", fileSize: 1 << 20},
	{name: "bs-unaligned-verify", args: "--rw=randwrite --bsrange=1000-5000 --bs_unaligned --verify=crc32c --size=1m", fileSize: 1 << 20},
	{name: "null", args: "--ioengine=null --rw=randrw --iodepth=8 --size=64M",
		noLog: "fio 3.33 logs some of the null engine's I/Os twice at iodepth > 1"},
	{name: "data-noscramble", args: "--rw=write --bs=4k --size=256k --scramble_buffers=0", fileSize: 1 << 20, data: true},
	{name: "data-refill", args: "--rw=randwrite --bsrange=4k-16k --size=256k --refill_buffers", fileSize: 1 << 20, data: true},
	{name: "data-layout-randrw", args: "--rw=randrw --bs=4k --size=256k --refill_buffers --filename=new", data: true},
	{name: "data-layout-read", args: "--rw=randread --bs=8k,16k --size=256k --filename=new", data: true},
	{name: "data-iodepth", args: "--rw=randrw --bs=4k --size=256k --scramble_buffers=0 --ioengine=libaio --iodepth=4", fileSize: 1 << 20, data: true},
	{name: "data-compress", args: "--rw=randwrite --bs=8k --size=256k --buffer_compress_percentage=30 --buffer_compress_chunk=1k", fileSize: 1 << 20, data: true},
	{name: "data-compress-pattern", args: "--rw=write --bs=4k --size=256k --buffer_compress_percentage=40 --buffer_pattern=0xabcd", fileSize: 1 << 20, data: true},
	{name: "data-unaligned", args: "--rw=randwrite --bsrange=1000-5000 --bs_unaligned --size=256k --refill_buffers", fileSize: 1 << 20, data: true},
	{name: "data-loops", args: "--rw=write --bs=4k --size=256k --refill_buffers --loops=2 --randseed=9", fileSize: 1 << 20, data: true},
	{name: "data-dedupe", args: "--rw=write --bs=4k --size=256k --dedupe_percentage=50", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-iodepth", args: "--rw=write --bs=4k --size=256k --dedupe_percentage=60 --ioengine=libaio --iodepth=4", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-bs", args: "--rw=write --bs=16k,8k --size=256k --dedupe_percentage=60", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-bssplit", args: "--rw=randwrite --bssplit=4k/50:16k/30:8k/20 --size=256k --dedupe_percentage=40", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-ws", args: "--rw=randwrite --bs=4k --size=256k --dedupe_percentage=60 --dedupe_mode=working_set --dedupe_working_set_percentage=25", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-ws-bsrange", args: "--rw=randwrite --bsrange=4k-16k --size=256k --dedupe_percentage=50 --dedupe_mode=working_set --dedupe_working_set_percentage=10", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-ws-compress", args: "--rw=write --bs=8k --size=256k --dedupe_percentage=50 --dedupe_mode=working_set --dedupe_working_set_percentage=30 --buffer_compress_percentage=40 --buffer_compress_chunk=1k", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-ws-iodepth", args: "--rw=write --bs=4k --size=256k --dedupe_percentage=50 --dedupe_mode=working_set --ioengine=libaio --iodepth=4", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-ws-64", args: "--rw=write --bs=4k --size=256k --dedupe_percentage=50 --dedupe_mode=working_set --random_generator=tausworthe64", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-ws-loops", args: "--rw=randwrite --bs=8k --size=256k --dedupe_percentage=30 --dedupe_mode=working_set --loops=2 --randrepeat=0 --randseed=4", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-layout", args: "--rw=randrw --bs=4k --size=256k --dedupe_percentage=50 --filename=new", data: true},
	{name: "data-dedupe-layout-ws", args: "--rw=randrw --bsrange=4k-16k --size=256k --dedupe_percentage=30 --dedupe_mode=working_set --dedupe_working_set_percentage=20 --filename=new", data: true},
	{name: "data-dedupe-layout-all", args: "--rw=randrw --bs=4k --size=256k --dedupe_percentage=100 --filename=new", data: true},
	{name: "data-dedupe-all", args: "--rw=randwrite --bs=4k --size=256k --dedupe_percentage=100 --buffer_compress_chunk=0", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-compress", args: "--rw=write --bs=4k --size=256k --dedupe_percentage=30 --buffer_compress_percentage=40", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-bsrange", args: "--rw=write --bsrange=4k-16k --size=256k --dedupe_percentage=70", fileSize: 1 << 20, data: true},
	{name: "percentage-bsrange-norandommap", args: "--rw=randread --percentage_random=50 --bsrange=4k-64k --norandommap --size=1m", fileSize: 1 << 20},
	{name: "randrw-N-bsrange", args: "--rw=randread:3 --bsrange=4k-64k --size=1m", fileSize: 4 << 20},
	{name: "bssplit-percentage", args: "--rw=randrw --bssplit=4k/30:64k/70 --percentage_random=60 --size=1m", fileSize: 1 << 20},
	{name: "libaio-direct", args: "--rw=randrw --rwmixread=75 --ioengine=libaio --direct=1 --gtod_reduce=1 --iodepth=64 --bs=4k --size=32m", fileSize: 32 << 20},
	{name: "strided", args: "--rw=randread --bs=4k --size=1m --zonemode=strided --zonesize=64k --zonerange=256k", fileSize: 1 << 20},
	{name: "strided-skip", args: "--rw=randrw --bs=4k --size=1m --zonemode=strided --zonesize=128k --zoneskip=128k", fileSize: 1 << 20},
	{name: "strided-full-zone", args: "--rw=randrw --bs=4k --size=1m --zonemode=strided --zonesize=256k --zonerange=64k --zoneskip=64k", fileSize: 1 << 20},
	{name: "strided-bsrange", args: "--rw=randwrite --bsrange=4k-16k --size=1m --zonemode=strided --zonesize=32k --zonerange=128k --zoneskip=64k", fileSize: 1 << 20},
	{name: "strided-lfsr", args: "--rw=randread --bs=4k --size=1m --zonemode=strided --zonesize=192k --zonerange=64k --random_generator=lfsr", fileSize: 1 << 20},
	{name: "strided-lfsr-offset", args: "--rw=randrw --bs=4k --offset=256k --size=512k --zonemode=strided --zonesize=64k --zonerange=64k --random_generator=lfsr", fileSize: 1 << 20},
	{name: "strided-lfsr-bsrange", args: "--rw=randrw --bsrange=4k-16k --size=1m --zonemode=strided --zonesize=48k --zonerange=64k --random_generator=lfsr", fileSize: 1 << 20},
	{name: "strided-lfsr-bssplit", args: "--rw=randrw --bssplit=4k/50:16k/30:8k/20 --size=1m --zonemode=strided --zonesize=256k --zonerange=64k --random_generator=lfsr", fileSize: 1 << 20},
	{name: "strided-bssplit-iosize", args: "--rw=randrw --bssplit=4k/50:16k/30:8k/20 --size=1m --io_size=3m --zonemode=strided --zonesize=256k --zonerange=64k", fileSize: 1 << 20},
	{name: "strided-bsrange-norandommap", args: "--rw=randrw --bsrange=4k-16k --size=1m --zonemode=strided --zonesize=48k --zonerange=64k --norandommap", fileSize: 1 << 20},
	{name: "strided-bsrange-backskip", args: "--rw=randwrite --bsrange=4k-64k --size=1m --zonemode=strided --zonesize=128k --zonerange=128k --zoneskip=-64k", fileSize: 1 << 20},
	{name: "strided-past-size", args: "--rw=randread --bs=4k --size=1m --zonemode=strided --zonesize=64k --loops=2", fileSize: 2 << 20},
	{name: "strided-past-size-seq", args: "--rw=read --bs=4k --size=256k --zonemode=strided --zonesize=16k --zonerange=32k --loops=2", fileSize: 2 << 20},
	{name: "strided-past-size-skip", args: "--rw=randwrite --bs=4k --size=1m --zonemode=strided --zonesize=64k --zonerange=128k --zoneskip=32k --random_generator=tausworthe64", fileSize: 2 << 20},
	{name: "strided-past-size-bsrange", args: "--rw=randwrite --bsrange=4k-16k --size=512k --loops=2 --zonemode=strided --zonesize=64k --zonerange=64k", fileSize: 2 << 20},
	{name: "strided-past-size-bsrange-48", args: "--rw=randrw --bsrange=4k-16k --size=1m --zonemode=strided --zonesize=48k --zonerange=64k --loops=2", fileSize: 2 << 20},
	{name: "strided-files", args: "--rw=randread --bs=4k --size=256k --nrfiles=2 --zonemode=strided --zonesize=16k --zonerange=32k"},
	{name: "strided-files-seq", args: "--rw=read --bs=4k --size=256k --nrfiles=2 --zonemode=strided --zonesize=16k --zonerange=32k"},
	{name: "strided-files-lfsr", args: "--rw=randrw --bs=4k --size=384k --nrfiles=3 --zonemode=strided --zonesize=16k --zonerange=32k --zoneskip=16k --random_generator=lfsr"},
	{name: "strided-percentage", args: "--rw=randread --bs=4k --size=1m --zonemode=strided --zonesize=64k --percentage_random=50", fileSize: 1 << 20},
	{name: "strided-percentage-rw", args: "--rw=randrw --bs=4k --size=1m --zonemode=strided --zonesize=32k --zonerange=64k --percentage_random=30,70", fileSize: 1 << 20},
	{name: "strided-percentage-lfsr-bsrange", args: "--rw=randrw --bsrange=4k-16k --size=1m --zonemode=strided --zonesize=64k --percentage_random=40 --random_generator=lfsr", fileSize: 1 << 20},
	{name: "strided-randrw-N", args: "--rw=randrw:4 --bs=4k --size=1m --zonemode=strided --zonesize=64k", fileSize: 1 << 20},
	{name: "strided-randread-N-wide", args: "--rw=randread:3 --bs=4k --size=1m --zonemode=strided --zonesize=128k --zonerange=64k", fileSize: 1 << 20},
	{name: "strided-bsrange-offset", args: "--rw=randwrite --bsrange=4k-64k --offset=100k --size=900k --zonemode=strided --zonesize=128k --zonerange=128k", fileSize: 1 << 20},
	{name: "two-jobs", jobFile: `[global]
filename=F
bs=4k
size=1m
rw=randrw
[a]
write_iolog=a.log
[b]
randseed=5
write_iolog=b.log
[c]
rw=randread
bsrange=4k-16k
write_iolog=c.log
`, fileSize: 1 << 20},
	{name: "data-zero-dedupe", args: "--rw=write --bs=4k --size=256k --zero_buffers --dedupe_percentage=50", fileSize: 1 << 20, data: true},
	{name: "data-zero-compress", args: "--rw=randwrite --bs=4k --size=256k --zero_buffers --buffer_compress_percentage=50", fileSize: 1 << 20, data: true},
	{name: "data-dedupe-global", jobFile: `[global]
filename=F
ioengine=psync
bs=4k
size=128k
dedupe_percentage=40
dedupe_mode=working_set
dedupe_global=1
dedupe_working_set_percentage=30
[a]
rw=randwrite
write_iolog=a.log
[b]
rw=write
offset=128k
randseed=7
write_iolog=b.log
[c]
rw=write
offset=256k
dedupe_global=0
dedupe_mode=repeat
write_iolog=c.log
[d]
rw=randwrite
offset=384k
bsrange=4k-16k
write_iolog=d.log
`, fileSize: 1 << 20, data: true},
	{name: "numjobs-randseed", args: "--rw=randrw --rwmixread=40 --bs=4k --size=1m --randseed=77 --numjobs=3", fileSize: 1 << 20,
		noLog: "the clones share one write_iolog file"},
	{name: "numjobs", args: "--rw=randrw --bs=4k --size=1m --numjobs=2", fileSize: 1 << 20,
		noLog: "the clones share one write_iolog file"},
	{name: "zipf", args: "--rw=randread --bs=4k --size=1m --filename=rngfile --random_distribution=zipf:1.2"},
	{name: "pareto", args: "--rw=randread --bs=4k --size=1m --filename=rngfile --random_distribution=pareto"},
	{name: "normal", args: "--rw=randread --bs=4k --size=1m --filename=rngfile --random_distribution=normal:5"},
	{name: "zoned", args: "--rw=randread --bs=4k --size=1m --random_distribution=zoned:60/10:30/20:10/70", fileSize: 1 << 20},
	{name: "zoned-abs", args: "--rw=randread --bs=4k --size=1m --random_distribution=zoned_abs:60/128k:40/896k", fileSize: 1 << 20},
	{name: "zipf-center-randrw", args: "--rw=randrw --bs=4k --size=2m --filename=long-file-name-over-twelve --random_distribution=zipf:1.1:0.3"},
	{name: "pareto-bsrange", args: "--rw=randrw --bsrange=4k-16k --size=2m --filename=rngfile --random_distribution=pareto:0.3"},
	{name: "normal-center-randseed", args: "--rw=randread --bs=4k --size=2m --filename=rngfile --random_distribution=normal:10:0.2 --randseed=5"},
	// A blockalign other than the write block size turns the random
	// map off for the reads too (fio 3.33).
	{name: "blockalign-other-direction", args: "--rw=randread --bs=4k --blockalign=4k,8k --size=256k", fileSize: 256 << 10},
	{name: "files-filesize", args: "--rw=randread --bs=4k --nrfiles=4 --filesize=64k-256k"},
	{name: "files-filesize-64", args: "--rw=randrw --bs=2k --nrfiles=3 --filesize=10k-1m --random_generator=tausworthe64"},
	{name: "files-zipf", args: "--rw=randread --bs=4k --size=4m --nrfiles=8 --file_service_type=zipf"},
	{name: "files-pareto", args: "--rw=randread --bs=4k --size=4m --nrfiles=8 --file_service_type=pareto"},
	{name: "files-normal", args: "--rw=randrw --bs=4k --size=4m --nrfiles=8 --file_service_type=normal"},
}

// TestRandom runs each seeded job with fio and gofio and compares the
// I/O they issued. The cases run in parallel (go test's -parallel bounds
// how many at once), each in a directory of its own.
func TestRandom(t *testing.T) {
	requireFio(t)
	gofio := requireGofio(t)
	for _, c := range randomCases {
		t.Run(c.name, func(t *testing.T) {
			if c.skip != "" {
				t.Skip("known difference: " + c.skip)
			}
			t.Parallel()
			fio, gof := runPair(t.TempDir(), gofio, func(bin, dir string) randomRun { return runRandom(t, bin, dir, c) })
			compareRuns(t, c, fio, gof)
		})
	}
}

// compareRuns compares what fio and gofio did for c: both ran, the data
// file (c.data), the JSON totals, and each write_iolog trace fio wrote
// (unless c.noLog says why not).
func compareRuns(t *testing.T, c randomCase, fio, gof randomRun) {
	t.Helper()
	if fio.err != "" || gof.err != "" {
		t.Fatalf("fio: %s\ngofio: %s", fio.err, gof.err)
	}
	if c.data && gof.data != fio.data {
		t.Errorf("the data file differs: fio %s, gofio %s", fio.data, gof.data)
	}
	if fmt.Sprint(gof.totals) != fmt.Sprint(fio.totals) {
		t.Errorf("JSON I/O counts and KiB per job:\n fio:   %v\n gofio: %v", fio.totals, gof.totals)
	}
	if c.noLog != "" {
		t.Logf("traces not compared: %s", c.noLog)
		return
	}
	if len(fio.logs) == 0 {
		t.Fatal("fio wrote no write_iolog")
	}
	for name, fl := range fio.logs {
		gl, ok := gof.logs[name]
		if !ok {
			t.Errorf("%s: gofio wrote no such log", name)
			continue
		}
		if d := firstDiff(fl, gl); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

// runPair runs run for fio and for gofio side by side, each in a
// directory of its own under base ("fio", "gofio").
func runPair[T any](base, gofio string, run func(bin, dir string) T) (fio, gof T) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); fio = run(fioPath, filepath.Join(base, "fio")) }()
	go func() { defer wg.Done(); gof = run(gofio, filepath.Join(base, "gofio")) }()
	wg.Wait()
	return fio, gof
}

// randomRun is what one program did.
type randomRun struct {
	totals []string            // per job: name and I/Os and KiB per direction
	logs   map[string][]string // write_iolog traces, without timestamps
	data   string              // the data file's SHA-256, with data
	err    string
}

func runRandom(t *testing.T, bin, dir string, c randomCase) (r randomRun) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.err = err.Error()
		return r
	}
	defer os.RemoveAll(dir)
	if c.fileSize > 0 {
		if err := os.WriteFile(filepath.Join(dir, "F"), make([]byte, c.fileSize), 0o644); err != nil {
			r.err = err.Error()
			return r
		}
	}
	var a []string
	if c.jobFile != "" {
		if err := os.WriteFile(filepath.Join(dir, "job.fio"), []byte(c.jobFile), 0o644); err != nil {
			r.err = err.Error()
			return r
		}
		a = []string{"job.fio", "--output-format=json"}
	} else {
		a = []string{"--name=job", "--ioengine=psync", "--write_iolog=io.log", "--output-format=json"}
		if c.fileSize > 0 {
			a = append(a, "--filename=F")
		}
		a = append(a, args(c.args)...)
	}
	res := runIn(bin, dir, a)
	if res.rc != 0 {
		r.err = fmt.Sprintf("exit %d: %s", res.rc, head(res.stderr))
		return r
	}
	if c.data {
		name := "F"
		if c.fileSize == 0 {
			name = "new"
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			r.err = err.Error()
			return r
		}
		r.data = fmt.Sprintf("%x", sha256.Sum256(b))
	}
	var err error
	if r.totals, err = ioTotals(res.stdout); err != nil {
		r.err = err.Error()
		return r
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	r.logs = map[string][]string{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			r.err = err.Error()
			return r
		}
		var ops []string
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Fields(l)
			// "TIME FILE ACTION OFFSET LENGTH". The file actions (add,
			// open, close) are left out: when fio closes a file it is
			// done with is not a random decision.
			if len(f) < 5 || f[0] == "fio" {
				continue
			}
			ops = append(ops, strings.Join(f[1:], " "))
		}
		r.logs[filepath.Base(n)] = ops
	}
	return r
}

// firstDiff describes the first difference of two traces, or "".
func firstDiff(fio, gof []string) string {
	for i := 0; i < min(len(fio), len(gof)); i++ {
		if fio[i] != gof[i] {
			lo := max(0, i-2)
			return fmt.Sprintf("entry %d differs:\n fio:   %q\n gofio: %q", i+1, fio[lo:min(len(fio), i+3)], gof[lo:min(len(gof), i+3)])
		}
	}
	if len(fio) != len(gof) {
		return fmt.Sprintf("fio has %d entries, gofio %d", len(fio), len(gof))
	}
	return ""
}
