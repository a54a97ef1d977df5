#!/usr/bin/env bash
# Where the chain's host time goes under libgmemrt (GPU machine, repo root,
# .stage/colocation carried). Alternates configurations ROUNDS times so drift
# hits all alike; one JSON line per run in $OUT/launch_path.jsonl, and a
# table of medians (python3 bench/colocation/diag/launch_path_table.py).
#   plain        no libgmemrt
#   hooks        libgmemrt preloaded, GMEM_DISABLE=1 (entry points forward only)
#   decide       libgmemrt, scheduler inactive (descriptor evaluation per launch)
#   decide-nomemo  same, GMEM_MEMO=0
#   sched        libgmemrt, chain stream real-time (--gmem)
#   colo         --gmem beside idempotent training
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
diag_begin launch_path
ITERS=$(calibrate $B) || exit 1
for R in $(seq 1 "${ROUNDS:-2}"); do
  timeout 60 $B --mode alone "${C[@]}" --label plain --out "$J" >/dev/null
  timeout 60 env LD_PRELOAD="$LIB" GMEM_DISABLE=1 $B --mode alone "${C[@]}" --label hooks --out "$J" >/dev/null
  timeout 60 env LD_PRELOAD="$LIB" $B --mode alone "${C[@]}" --label decide --out "$J" >/dev/null
  timeout 60 env LD_PRELOAD="$LIB" GMEM_MEMO=0 $B --mode alone "${C[@]}" --label decide-nomemo --out "$J" >/dev/null
  timeout 60 env LD_PRELOAD="$LIB" $B --mode alone --gmem "${C[@]}" --label sched --out "$J" >/dev/null
  timeout 60 env LD_PRELOAD="$LIB" $B --mode colo --gmem --be step --iters "$ITERS" "${C[@]}" --label colo --out "$J" >/dev/null
done
python3 bench/colocation/diag/launch_path_table.py "$J"
