#!/usr/bin/env bash
# Same-run A/B of the late read at the end of a virtual CTA (the pass's
# GMEM_CHECKPOINT_LATE) on the co-location demo: BINS (default
# "colocation_pass colocation_pass_nolate"; stage the second with
# GMEM_CHECKPOINT_LATE=0, see ../README.md) beside non-idempotent training
# (accum: stops between virtual CTAs only, ~250 us each) and idempotent
# training (step: stops at loop checks, where the late read should change
# nothing). Per round: the chain alone without gmem, then per binary
# colo-accum-gmem and colo-step-gmem; ROUNDS rounds (default 3), REQUESTS
# requests each (default 1000). One JSON line per run in $OUT/late_ab.jsonl;
# table: launch_path_table.py (drain = the scheduler's stop-to-exit time).
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
diag_begin late_ab
BINS=${BINS:-colocation_pass colocation_pass_nolate}
declare -A ITERS
for X in $BINS; do
  ITERS[$X]=$(calibrate $S/bin/$X) || exit 1
done
for R in $(seq 1 "${ROUNDS:-3}"); do
  timeout 60 $S/bin/colocation_pass --mode alone "${C[@]}" --label alone --out "$J" >/dev/null
  for X in $BINS; do
    for BE in accum step; do
      timeout 60 env LD_PRELOAD="$LIB" $S/bin/$X --mode colo --gmem --be $BE \
        --iters "${ITERS[$X]}" "${C[@]}" --label "colo-$BE-gmem@$X" --out "$J" >/dev/null
    done
  done
done
python3 bench/colocation/diag/launch_path_table.py "$J"
