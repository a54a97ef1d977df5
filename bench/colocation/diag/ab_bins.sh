#!/usr/bin/env bash
# Same-run A/B of co-location binaries whose training kernels were compiled
# differently (e.g. colocation_pass vs colocation_pass_iv, staged with
# GMEM_CHECKPOINT_LIMIT=0), same libgmemrt (GPU machine, repo root,
# .stage/colocation carried). BINS: names under .stage/colocation/bin.
# Per round: the chain alone without gmem, then per binary the chain beside
# idempotent training under libgmemrt; ROUNDS rounds (default 3), REQUESTS
# requests (default 1000). JSON lines in $OUT/ab_bins.jsonl, labels
# <config>@<bin>; table: launch_path_table.py.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 2
S=.stage/colocation
OUT="${OUT:-$S/out}"
mkdir -p "$OUT"
J="$OUT/ab_bins.jsonl"
: > "$J"
C=(--requests "${REQUESTS:-1000}" --period-us 2000)
LIB="$PWD/$S/lib/libgmemrt.so"
BINS=${BINS:-colocation_pass colocation_pass_iv}
declare -A ITERS
for B in $BINS; do
  ITERS[$B]=$(timeout 60 $S/bin/$B --calibrate --be-ms 25) || exit 1
  echo "$B: ${ITERS[$B]} iterations for 25 ms"
done
for R in $(seq 1 "${ROUNDS:-3}"); do
  timeout 60 $S/bin/colocation_pass --mode alone "${C[@]}" --label alone --out "$J" >/dev/null
  for B in $BINS; do
    timeout 60 env LD_PRELOAD="$LIB" $S/bin/$B --mode colo --gmem --be step --iters "${ITERS[$B]}" \
      "${C[@]}" --label "colo-step-gmem@$B" --out "$J" >/dev/null
  done
done
python3 bench/colocation/diag/launch_path_table.py "$J"
