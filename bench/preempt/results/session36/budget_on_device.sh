#!/usr/bin/env bash
# Session 36, call 14: the check budget's trade-off over the whole overhead
# table, one device call: part aslaunched once and part stops once per
# build (LABEL=STAGE), builds alternated, plus the SASS of gemm_naive's
# light twin with and without the late read (.stage/micro cubins).
#   OUT=DIR bash bench/preempt/results/session36/budget_on_device.sh \
#     def=.stage/preempt b768=.stage/preempt_b768 b1024=.stage/preempt_b1024
# GPU machine, repository root, stages unpacked under .stage. Everything goes
# into $OUT/budget.tgz (the device tool brings back at most 8 files).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." || exit 2
OUT=${OUT:?}
. bench/preempt/device_common.sh # device_begin, step, aslaunched_step
device_begin budget
for A in "$@"; do
  L=${A%%=*} S=${A#*=}
  aslaunched_step "aslaunched_$L" 110 "$S" 80
done
for A in "$@"; do
  L=${A%%=*} S=${A#*=}
  step "stops_$L" 70 "$S/preempt_bench" stops --manifest "$S/overhead_manifest.txt" \
    --kernels "$S/kernels.ptx" --trials 60 --budget 45 --json "$W/stops_$L.json"
done
for c in def late0; do
  [ -f ".stage/micro/gemm_$c.cubin" ] &&
    /usr/local/cuda/bin/cuobjdump -sass ".stage/micro/gemm_$c.cubin" > "$W/sass_gemm_$c.txt" 2>&1
done
tar czf "$OUT/budget.tgz" -C "$W" . && echo "archived $OUT/budget.tgz" | tee -a "$LOG"
