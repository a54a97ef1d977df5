#!/usr/bin/env bash
# Session 49, call 7: the third adversarial corpus (test/gpu/adversarial49,
# 176 instances) and the helper's two repro files (10 instances), staged
# with session 48's analysis (the helper's stages: test/gpu/stage.py
# --tool <session 48's gmem-analyze> --no-runner, run_twice added), for the
# before of call 4's after.
#   OUT=DIR bash bench/preempt/results/session49/old_adv49_on_device.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../device_common.sh"
device_begin old
tar xzf .stage/o49.tgz -C .stage || exit 2
for N in adv49old reproold; do
  G=.stage/o49/$N/gpu
  chmod +x "$G/run_twice"
  mkdir -p "$OUT/$N"
  GMEM_GPU_STAGE="$G" OUT="$OUT/$N" timeout 150 bash test/gpu/run_on_device.sh > /dev/null 2>&1
  echo "=== $N truth exit $?" | tee -a "$LOG"
  grep -E "^verdicts:|write regions:|read regions:|passed," "$OUT/$N/gpu_truth.log" | tail -4 | tee -a "$LOG"
  grep -E "FALSE-IDEMPOTENT|OUTSIDE" "$OUT/$N/gpu_truth.log" | cut -c1-160 | head -20 | tee -a "$LOG"
  gzip -9 "$OUT/$N/gpu_truth.json" 2>/dev/null
done
