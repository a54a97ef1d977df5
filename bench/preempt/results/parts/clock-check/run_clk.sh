#!/usr/bin/env bash
set -u
R=/tmp/resc; mkdir -p $R
date +%s.%N > $R/t0.txt; date >> $R/t0.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 20 > $R/smi.csv 2>&1 &
P=$!
nvidia-smi --query-gpu=timestamp,clocks_event_reasons.active --format=csv,noheader -lms 100 > $R/smi_reasons.csv 2>&1 &
P2=$!
S=.stage/preempt
timeout 150 stdbuf -oL $S/preempt_bench latency --kernels $S/kernels.ptx --trials 300 --budget 70 --json $R/lat.json 2>&1 | while IFS= read -r l; do echo "$(date +%s.%N) $l"; done > $R/lat.log
kill $P $P2
tar czf $OUT/resc.tgz -C $R .
