#!/usr/bin/env bash
# The driver alone (no libgmemrt): which launches and loads deadlock a
# stream wait that a later GPU write opens (test/runtime/gpu/
# printf_first_wait.cu; results/first_launch/README.md has the table).
# GPU machine, repository root, .stage/runtime carried (stage.py builds the
# probe). Each hung case costs ~6 s (3 s per wait, then killed): ~2 min.
#
#   bash test/runtime/gpu/first_launch_probe.sh      # prints; $OUT/probe.txt
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 2
S=.stage/runtime
OUT="${OUT:-$S/out}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$S/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
P=$S/bin/printf_first_wait
run() { echo "== $*"; timeout 12 "$@"; echo "exit $?"; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  run $P cost
  for L in lazy EAGER; do
    echo "-- CUDA_MODULE_LOADING=$L"
    ( [ $L = EAGER ] && export CUDA_MODULE_LOADING=EAGER
      run $P dev write same plain
      run $P dev write other plain other
      run $P dev write other say plain
      run $P dev write other deep plain
      run $P dev write other other load
      run $P host store other say plain
      run $P jit load
      run $P jit launch )
  done
} 2>&1 | tee "$OUT/probe.txt"
