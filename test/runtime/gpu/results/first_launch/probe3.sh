#!/bin/bash
set -u
P=.stage/probe/printf_first_wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "== $*"; timeout 12 "$@"; echo "exit $?"; }
run $P cost
for L in lazy EAGER; do
  echo "-- CUDA_MODULE_LOADING=$L"
  [ $L = EAGER ] && export CUDA_MODULE_LOADING=EAGER
  run $P dev write other other plain
  run $P dev write same other plain
  run $P dev write other say plain
  run $P dev write other deep plain
  run $P dev write other plain plain
done
run $P host store other deep plain
run $P host store other say plain
