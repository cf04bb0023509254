#!/bin/sh
# Captures fio 3.33's json+ result and logs of a small null-engine run,
# the fixture of the report tests (rerun in this directory to refresh).
fio --name=randrw --ioengine=null --size=1g --bs=4k --rw=randrw --time_based --runtime=3s --rate_iops=400 \
	--write_bw_log=randrw --write_iops_log=randrw --log_avg_msec=500 \
	--write_hist_log=randrw --log_hist_msec=500 --log_hist_coarseness=2 \
	--output-format=json+ --output=fio-randrw.json
