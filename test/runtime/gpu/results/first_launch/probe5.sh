#!/bin/bash
set -u
P=.stage/probe/printf_first_wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 12 "$@"; echo "exit $?"; }
run $P jit load
run $P jit launch
echo "-- CUDA_MODULE_LOADING=EAGER"
export CUDA_MODULE_LOADING=EAGER
run $P jit load
run $P jit launch
