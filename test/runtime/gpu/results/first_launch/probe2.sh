#!/bin/bash
set -u
P=.stage/probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 12 "$@"; echo "exit $?"; }
run $P/printf_first_wait dev write same say
run $P/printf_first_wait dev write other say
run $P/printf_first_wait dev write other plain
run $P/printf_first_wait dev write same plain
run $P/printf_first_wait dev memset same say
run $P/printf_first_wait host store same say
run $P/printf_first_wait host store same plain
run $P/printf_first_wait host write same say
run $P/printf_first_wait host write other say
run $P/printf_first_wait dev write same say warm
run $P/printf_first_wait dev write same plain warm
echo "-- CUDA_MODULE_LOADING=EAGER"
export CUDA_MODULE_LOADING=EAGER
run $P/printf_first_wait dev write same plain
run $P/printf_first_wait dev write same say
run $P/printf_first_wait dev write other say
