#!/usr/bin/env bash
# Fair share beside strict priority (GMEM_SCHED_POLICY=fair, SchedPolicy.h;
# slices of GMEM_SCHED_SHARE_SLICE_US, default 2000):
# the chain at a request every 400 us (stress: strict priority leaves the
# training little), then every 2000 us (the demo's load, where the training
# is not starved and fair share should change nothing), with the training
# alone for its throughput. GPU machine, repository root, .stage/colocation
# carried (bash bench/colocation/stage.sh BUILD):
#
#   OUT=DIR bash bench/colocation/share_on_device.sh     # DIR/share.jsonl
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh" share.jsonl
{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  ITERS=$(timeout 60 $BIN --calibrate --be-ms 25) || { echo "FAIL: calibrate"; exit 1; }
  echo "training iterations: $ITERS"
  T=(--be step --iters "$ITERS")
  run be $BIN --mode be "${T[@]}" --requests 1500 --period-us 2000
  for P in 400 2000; do
    C=(--requests $((P == 400 ? 2000 : 1500)) --period-us $P)
    run alone-p$P $BIN --mode alone "${C[@]}"
    run strict-p$P env LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
    for SH in 25 50; do
      run fair$SH-p$P env GMEM_SCHED_POLICY=fair GMEM_SCHED_SHARE=$SH LD_PRELOAD="$RT" \
        $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
    done
    # Shorter slices: the chain waits less for each, the training loses
    # more of its work to the stops between them.
    run fair50-slice500-p$P env GMEM_SCHED_POLICY=fair GMEM_SCHED_SHARE=50 \
      GMEM_SCHED_SHARE_SLICE_US=500 LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  done
  [ $FAIL = 0 ] && echo "share status: PASS" || echo "share status: FAIL"
} 2>&1 | tee "$OUT/share.log"
