#!/usr/bin/env bash
# Same-run A/B of the monitor's wait (GPU machine, repo root,
# .stage/colocation carried with lib/libgmemrt_old.so, the library before
# the monitor waited on its condition variable): per round the chain alone,
# then beside idempotent training with each library at the default relaunch
# watch and at GMEM_SCHED_WATCH_US=$SLOW_US. $OUT/watch_ab.jsonl; table:
# launch_path_table.py.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
diag_begin watch_ab
ITERS=$(calibrate $B) || exit 1
T=(--gmem --be step --iters "$ITERS")
for R in $(seq 1 "${ROUNDS:-3}"); do
  timeout 60 $B --mode alone "${C[@]}" --label alone --out "$J" >/dev/null
  for L in libgmemrt_old.so libgmemrt.so; do
    timeout 60 env LD_PRELOAD="$PWD/$S/lib/$L" $B --mode colo "${T[@]}" "${C[@]}" \
      --label "colo@$L" --out "$J" >/dev/null
    timeout 60 env LD_PRELOAD="$PWD/$S/lib/$L" GMEM_SCHED_WATCH_US="${SLOW_US:-2000}" $B --mode colo \
      "${T[@]}" "${C[@]}" --label "colo-watch${SLOW_US:-2000}@$L" --out "$J" >/dev/null
  done
done
python3 bench/colocation/diag/launch_path_table.py "$J"
