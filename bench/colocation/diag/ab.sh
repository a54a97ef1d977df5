#!/usr/bin/env bash
# Same-run A/B of libgmemrt builds on the co-location demo (GPU machine, repo
# root, .stage/colocation carried). LIBS: names under .stage/colocation/lib
# (default "libgmemrt.so libgmemrt_new.so"). Per round: the chain alone
# without gmem, then per library the chain alone under it (stream real-time)
# and beside idempotent training; ROUNDS rounds (default 3), REQUESTS
# requests each (default 1000). One JSON line per run in $OUT/ab.jsonl,
# labels <config>@<lib>; table: launch_path_table.py.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 2
S=.stage/colocation
OUT="${OUT:-$S/out}"
mkdir -p "$OUT"
J="$OUT/ab.jsonl"
: > "$J"
B=$S/bin/colocation_pass
C=(--requests "${REQUESTS:-1000}" --period-us 2000)
ITERS=$(timeout 60 $B --calibrate --be-ms 25) || exit 1
for R in $(seq 1 "${ROUNDS:-3}"); do
  timeout 60 $B --mode alone "${C[@]}" --label alone --out "$J" >/dev/null
  for L in ${LIBS:-libgmemrt.so libgmemrt_new.so}; do
    timeout 60 env LD_PRELOAD="$PWD/$S/lib/$L" $B --mode alone --gmem "${C[@]}" \
      --label "alone-gmem@$L" --out "$J" >/dev/null
    timeout 60 env LD_PRELOAD="$PWD/$S/lib/$L" $B --mode colo --gmem --be step --iters "$ITERS" \
      "${C[@]}" --label "colo-step-gmem@$L" --out "$J" >/dev/null
  done
done
python3 bench/colocation/diag/launch_path_table.py "$J"
