#!/usr/bin/env bash
# First launches beside stopped work, on the GPU machine (repo root,
# ".stage" carried; staged by bench/colocation/stage.sh). About 2 minutes.
#
#   bash bench/colocation/cold_on_device.sh      # results in $OUT
#
# The co-location demo with --cold: the chain's kernels are launched for the
# first time while the training runs. On the H200 a function's first launch
# may wait for every stream's queued work (runtime/src/SchedFirstLaunch.cpp,
# test/runtime/gpu/printf_first_wait.cu), so a first urgent launch that
# stopped the training would wait for a stream held at its hold, released
# only after a relaunch queued behind it: a deadlock.
#   cold-unguarded@rK   GMEM_SCHED_FIRST_QUIET=0: first launches stop work as
#                       any urgent launch (expected to hang: XFAIL, exit 124)
#   cold@rK             the default: must finish with correct results
#   cold-graph          the same with the chain as one CUDA graph per request
#   warm[-graph][-unguarded]@rK   the usual warm start (500 requests), with
#                       and without the guard, alternated: what it costs once
#                       the kernels are known (the training's clone forms
#                       still meet their first launches in this window)
# Exit 1 when a guarded run fails.
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" cold.jsonl
{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "binary: $BIN"
  ITERS=$(timeout 60 $BIN --calibrate --be-ms 25) || { echo "FAIL: calibrate"; exit 1; }
  echo "training iterations: $ITERS"
  C=(--mode colo --gmem --cold --iters "$ITERS" --requests 300 --period-us 2000 --out "$J")
  for K in 1 2; do
    echo "=== cold-unguarded@r$K (GMEM_SCHED_FIRST_QUIET=0)"
    timeout 20 env GMEM_SCHED_FIRST_QUIET=0 LD_PRELOAD="$RT" $BIN "${C[@]}" --label cold-unguarded@r$K
    R=$?
    [ $R = 0 ] && echo "XPASS cold-unguarded@r$K: finished" || echo "XFAIL cold-unguarded@r$K: exit $R"
    echo "=== cold@r$K"
    timeout 60 env LD_PRELOAD="$RT" $BIN "${C[@]}" --label cold@r$K
    R=$?
    [ $R = 0 ] && echo "PASS cold@r$K" || { echo "FAIL cold@r$K: exit $R"; FAIL=1; }
  done
  echo "=== cold-graph"
  timeout 60 env LD_PRELOAD="$RT" $BIN "${C[@]}" --hidden 4096 --graph --label cold-graph
  R=$?
  [ $R = 0 ] && echo "PASS cold-graph" || { echo "FAIL cold-graph: exit $R"; FAIL=1; }
  W=(--mode colo --gmem --iters "$ITERS" --requests 500 --period-us 2000 --out "$J")
  for K in 1 2; do
    for G in "" "--hidden 4096 --graph"; do
      N=warm${G:+-graph}
      for Q in 1 0; do
        L=$N$([ $Q = 0 ] && echo -unguarded)@r$K
        echo "=== $L"
        timeout 60 env GMEM_SCHED_FIRST_QUIET=$Q LD_PRELOAD="$RT" $BIN "${W[@]}" $G --label $L
        R=$?
        [ $R = 0 ] || { echo "FAIL $L: exit $R"; [ $Q = 1 ] && FAIL=1; }
      done
    done
  done
  echo
  echo "cold status: $([ $FAIL = 0 ] && echo PASS || echo FAIL)"
} 2>&1 | tee "$OUT/cold.log"
grep -q "^cold status: PASS" "$OUT/cold.log"
