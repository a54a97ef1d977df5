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
  # A request every 400 us, 6000 of them (2.4 s: the training's rate is
  # counted in whole 25 ms kernels), then the demo's load.
  C=(--requests 6000 --period-us 400)
  run alone-p400 $BIN --mode alone "${C[@]}"
  run strict-p400 env LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  for SH in 25 50; do
    run fair$SH-p400 env GMEM_SCHED_POLICY=fair GMEM_SCHED_SHARE=$SH LD_PRELOAD="$RT" \
      $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  done
  # Shorter slices: the chain waits less for each, the training loses more
  # of its work to the stops between them.
  run fair25-slice500-p400 env GMEM_SCHED_POLICY=fair GMEM_SCHED_SHARE=25 \
    GMEM_SCHED_SHARE_SLICE_US=500 LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  C=(--requests 1500 --period-us 2000)
  run alone-p2000 $BIN --mode alone "${C[@]}"
  run strict-p2000 env LD_PRELOAD="$RT" $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  run fair25-p2000 env GMEM_SCHED_POLICY=fair GMEM_SCHED_SHARE=25 LD_PRELOAD="$RT" \
    $BIN --mode colo --gmem "${T[@]}" "${C[@]}"
  [ $FAIL = 0 ] && echo "share status: PASS" || echo "share status: FAIL"
} 2>&1 | tee "$OUT/share.log"
