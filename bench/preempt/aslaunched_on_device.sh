#!/usr/bin/env bash
# The overhead as libgmemrt launches it (part aslaunched, part_aslaunched.cpp),
# on the GPU machine (repo root, .stage carried; staged by
# bench/preempt/stage.py):
#
#   OUT=DIR bash bench/preempt/aslaunched_on_device.sh [CAP_PERCENT...]
#
# One run without a cap, then one per GMEM_PREEMPT_MAX_OVERHEAD given
# (default: 3), each a process of its own under LD_PRELOAD=libgmemrt.so,
# GMEM_SCHED=1: $OUT/aslaunched_nocap.json, $OUT/aslaunched_cap<C>.json.
# Each run compares the scheduled launches with pass-through ones in the
# same process. Summary: python3 bench/preempt/summarize.py --aslaunched.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
STAGE="${PREEMPT_STAGE:-.stage/preempt}"
OUT="${OUT:-$STAGE/out}"
BUDGET="${ASLAUNCHED_BUDGET:-110}"
mkdir -p "$OUT" || exit 2
BENCH="$STAGE/preempt_bench"
RT="$PWD/$STAGE/lib/libgmemrt.so"
chmod +x "$BENCH" 2>/dev/null
[ -f "$RT" ] || { echo "error: $RT missing (bench/preempt/stage.py)"; exit 2; }
CAPS=("$@")
[ ${#CAPS[@]} -gt 0 ] || CAPS=(3)
status=0
one() { # label, cap or ""
  local label=$1 cap=$2
  echo "=== aslaunched $label $(date -u +%H:%M:%S)"
  GMEM_PREEMPT_MAX_OVERHEAD="$cap" GMEM_SCHED=1 LD_PRELOAD="$RT" timeout $((BUDGET + 60)) \
    "$BENCH" aslaunched --manifest "$STAGE/overhead_manifest.txt" --kernels "$STAGE/kernels.ptx" \
    --budget "$BUDGET" --json "$OUT/aslaunched_$label.json"
  local rc=$?
  echo "=== aslaunched $label: exit $rc"
  [ "$rc" = 0 ] || status=1
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
one nocap ""
for C in "${CAPS[@]}"; do one "cap$C" "$C"; done
exit $status
