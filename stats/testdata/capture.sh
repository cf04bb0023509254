#!/bin/sh
# capture.sh — how the files in this directory were made.
#
# ONE run of real fio 3.33 (/usr/bin/fio) of lat.fio: libaio at iodepth 4,
# O_DIRECT, three reporting records — job r (1000 random reads), job w
# (2000 random writes) and group g (3 clones of 300 random reads merged by
# group_reporting) — with slat, clat and lat percentiles on, a custom
# percentile_list chosen for the exact-rank edge cases (0.1 and 99.9 at
# N = 1000, 99.95 at N = 2000), per-I/O latency logs (write_lat_log=lat,
# log_avg_msec=0) and the JSON+ report (lat.json). The logs list every
# latency in ns in completion order: lat_{slat,clat,lat}.N.log for job
# number N (1 = r, 2 = w, 3–5 = the clones of g). Each line is
# "time ms, value ns, direction, block size, priority".
#
# exact_test.go feeds the logged values into gofio's histogram and
# accumulators and checks the percentiles, bins, means and deviations
# against lat.json. Never rerun this to make a failing test pass: a new
# capture has new numbers, not a fix.
#
# Usage: sh capture.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
D=/tmp/gofio-latlog-capture
rm -rf "$D"
mkdir -p "$D"
cp "$here/lat.fio" "$D/"
(cd "$D" && fio --output-format=json+ --output=lat.json lat.fio)
rm -f "$here"/lat_*.log "$here/lat.json"
cp "$D"/lat_*.log "$D/lat.json" "$here/"
rm -rf "$D"
