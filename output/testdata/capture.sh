#!/bin/sh
# capture.sh — how the golden files in this directory were made.
#
# Each case is ONE run of real fio 3.33 (/usr/bin/fio) with
# --output-format=normal,json+,terse, so the three reports describe the
# same numbers. fio prints, on stdout: the normal-format preamble (job
# header lines, "fio-3.33", "Starting ...", "Laying out ..."), then all
# terse lines, then the JSON+ document, then the normal report (which
# starts with an empty line). stderr is kept as CASE.stderr; stdout is
# split into the four parts below, whose concatenation in this order is
# the raw stdout byte for byte:
#   CASE.pre     the preamble lines
#   CASE.terse   the terse line(s)
#   CASE.json    the JSON+ document (from the "{" line to the "}" line)
#   CASE.normal  the final normal report
# Runs are made in a fresh directory (/tmp/gofio-capture, on the ext4 root
# file system backed by vda, so disk stats are present for real engines)
# with TZ=UTC. Never rerun this to make a failing golden test pass.
#
# Usage: sh capture.sh [CASE...]   (default: every case)
set -e
here=$(cd "$(dirname "$0")" && pwd)
D=/tmp/gofio-capture
export TZ=UTC

run() {
	name=$1
	shift
	rm -rf "$D"
	mkdir -p "$D"
	rm -f "$here/$name.pre" "$here/$name.terse" "$here/$name.json" "$here/$name.normal"
	(cd "$D" && fio --output-format=normal,json+,terse "$@") \
		>"$D.stdout" 2>"$here/$name.stderr" || true
	awk -v p="$here/$name" '
		state == 0 && /^[0-9];/ { state = 1 }
		state == 1 && /^\{$/     { state = 2 }
		state == 3               { print > (p ".normal"); next }
		state == 0 { print > (p ".pre") }
		state == 1 { print > (p ".terse") }
		state == 2 { print > (p ".json"); if ($0 == "}") state = 3 }
	' "$D.stdout"
	rm -rf "$D" "$D.stdout"
}

want() {
	[ -z "$cases" ] && return 0
	for c in $cases; do [ "$c" = "$1" ] && return 0; done
	return 1
}
cases="$*"

# 1. psync random read, one job, 1 s time based (one bw/iops sample).
want psync_randread && run psync_randread --name=psrr --ioengine=psync \
	--rw=randread --bs=4k --size=16M --runtime=1 --time_based

# 2. libaio random read, iodepth 16, 4 clones merged by group_reporting.
want libaio_group && run libaio_group --name=aiogrp --ioengine=libaio \
	--direct=1 --rw=randread --bs=4k --size=16M --iodepth=16 --numjobs=4 \
	--group_reporting --runtime=1 --time_based

# 3. libaio 75/25 random mix with gtod_reduce (no latency statistics).
want libaio_randrw_gtod && run libaio_randrw_gtod --name=rwgtod \
	--ioengine=libaio --direct=1 --rw=randrw --rwmixread=75 --gtod_reduce=1 \
	--bs=4k --size=16M --iodepth=8 --runtime=1 --time_based

# 4. numjobs=2 without group_reporting: two blocks, one group line.
want numjobs2 && run numjobs2 --name=nj --ioengine=psync --rw=randread \
	--bs=4k --size=8M --numjobs=2 --runtime=1 --time_based

# 5. sequential write with fsync=8 and end_fsync, a description and two
#    files (sync section, issued sync count, depth above 100%).
want write_fsync && run write_fsync --name=wfs --ioengine=psync \
	--rw=write --bs=4k --size=4M --nrfiles=2 --fsync=8 --end_fsync=1 \
	"--description=sequential writer with fsync"

# 6. null engine, custom percentile list (precision 3), slat and lat
#    percentiles, huge bandwidth (MiB/s bw label), terse version 5.
want null_pct && run null_pct --name=nullp --ioengine=null --rw=randrw \
	--bs=4k --size=64M --iodepth=4 --percentile_list=50:99.5:99.999:10 \
	--lat_percentiles=1 --slat_percentiles=1 --runtime=1 --time_based \
	--terse-version=5

# 7. unified_rw_reporting=mixed.
want unified_mixed && run unified_mixed --name=mix --ioengine=psync \
	--rw=randrw --bs=4k --size=16M --unified_rw_reporting=mixed \
	--runtime=1 --time_based

# 8. kb_base=1000 (decimal primary units, kB bw label), 64 KiB blocks.
want kb_base1000 && run kb_base1000 --name=kb --kb_base=1000 \
	--ioengine=psync --rw=randread --bs=64k --size=16M --runtime=1 \
	--time_based

# 9. unified_rw_reporting=both (broken "mixed:" line), terse version 4.
want unified_both && run unified_both --name=both --ioengine=psync \
	--rw=randrw --bs=4k --size=16M --unified_rw_reporting=both \
	--runtime=1 --time_based --terse-version=4

# 10. terse version 2 with a description, null engine, no bw samples.
want terse_v2 && run terse_v2 --name=tv --ioengine=null --size=1M --bs=4k \
	--rw=randrw --terse-version=2 "--description=a desc"

# 11. job file: two groups, threads and a process, group_reporting on
#     the second group.
want twogroups && run twogroups "$here/twogroups.fio"

# 12. unit_base=1 (bandwidth in bits), null engine, rate limited.
want unit_bits && run unit_bits --name=bits --ioengine=null --rw=read \
	--bs=4k --size=64M --unit_base=1 --rate_iops=2000 --runtime=1 \
	--time_based

# 13. writing to /dev/full: error 28, no direction sections.
want devfull && run devfull --name=full --filename=/dev/full \
	--ioengine=psync --rw=write --bs=4k --size=1M
# 14. continue_on_error=all on /dev/full: "errors" line, JSON
#     total_err/first_error, two trailing terse fields.
want devfull_coe && run devfull_coe --name=coe --filename=/dev/full \
	--ioengine=psync --rw=write --bs=4k --size=64k --continue_on_error=all

# 15. a job that fails during setup (no size for a missing file): no
#     normal block, no latency_* JSON keys, "-nan%" in terse.
want setup_fail && run setup_fail --name=k --filename=nofile --rw=read

# 16. 4–64 MiB reads from /dev/urandom: msec latency lines and msec
#     percentiles, a bsrange header, no disk (character device).
want msec_urandom && run msec_urandom --name=slow --filename=/dev/urandom \
	--rw=read --bsrange=4m-64m --size=256m --ioengine=psync

# 17. steady state reached on an IOPS mean-deviation criterion.
want ss_iops && run ss_iops --name=ss --ioengine=null --size=1G \
	--rate_iops=2000 --time_based --runtime=2 --ss=iops:20% --ss_dur=1

# 18. steady state on a bandwidth slope over two seconds.
want ss_bwslope && run ss_bwslope --name=ss --ioengine=null --size=1G \
	--rate=8m --time_based --runtime=3 --ss=bw_slope:5% --ss_dur=2

# 19. a slope over a single sample ("-nan"), with kb_base=1000.
want ss_nan && run ss_nan --name=ss --ioengine=null --size=1G --rate=8m \
	--time_based --runtime=2 --ss=bw_slope:0.1% --ss_dur=1 --kb_base=1000

exit 0
