#!/usr/bin/env bash
# Same-run A/B on the co-location demo (GPU machine, repo root,
# .stage/colocation carried), of libgmemrt builds and/or of demo binaries
# whose training kernels were compiled differently. LIBS: names under
# .stage/colocation/lib (default "libgmemrt.so libgmemrt_new.so"); BINS:
# names under .stage/colocation/bin (default colocation_pass; e.g.
# "colocation_pass colocation_pass_iv" with the second staged under
# GMEM_CHECKPOINT_LIMIT=0). Per round: the chain alone without gmem, then
# per library and binary the chain alone under it (stream real-time) and
# beside idempotent training; ROUNDS rounds (default 3), REQUESTS requests
# each (default 1000). One JSON line per run in $OUT/ab.jsonl, labels
# <config>@<lib> (@<bin> when only the binaries vary, @<lib>:<bin> when both
# do); table: launch_path_table.py.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
diag_begin ab
LIBS=${LIBS:-libgmemrt.so libgmemrt_new.so}
BINS=${BINS:-colocation_pass}
declare -A ITERS
for B in $BINS; do
  ITERS[$B]=$(calibrate $S/bin/$B) || exit 1
done
set -- $LIBS; NL=$#
set -- $BINS; NB=$#
for R in $(seq 1 "${ROUNDS:-3}"); do
  timeout 60 $S/bin/colocation_pass --mode alone "${C[@]}" --label alone --out "$J" >/dev/null
  for L in $LIBS; do
    for B in $BINS; do
      SUF=$L
      [ "$NB" -gt 1 ] && SUF=$B
      [ "$NB" -gt 1 ] && [ "$NL" -gt 1 ] && SUF="$L:$B"
      timeout 60 env LD_PRELOAD="$PWD/$S/lib/$L" $S/bin/$B --mode alone --gmem "${C[@]}" \
        --label "alone-gmem@$SUF" --out "$J" >/dev/null
      timeout 60 env LD_PRELOAD="$PWD/$S/lib/$L" $S/bin/$B --mode colo --gmem --be step \
        --iters "${ITERS[$B]}" "${C[@]}" --label "colo-step-gmem@$SUF" --out "$J" >/dev/null
    done
  done
done
python3 bench/colocation/diag/launch_path_table.py "$J"
