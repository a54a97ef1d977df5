#!/usr/bin/env bash
# Same-call A/B of co-location binaries (each built by stage.sh with some
# GMEM_CHECKPOINT_* setting and copied into .stage/colocation/bin): per
# round, the chain alone, then beside the idempotent training under
# libgmemrt with each binary, for the default chain and the graph-launched
# h4096 chain. Rounds alternate so drift hits every binary alike.
#
#   bash bench/colocation/ab_bins.sh wa=.stage/colocation/bin/colocation_pass \
#        nowa=.stage/colocation/bin/colocation_pass_nowa     # results in $OUT
#   python3 bench/colocation/report.py $OUT   (labels LABEL@rK)
set -u -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
S=.stage/colocation
OUT="${OUT:-$S/out-ab}"
ROUNDS="${ROUNDS:-3}"
mkdir -p "$OUT"
J="$OUT/colocation.jsonl"
: > "$J"
RT="$PWD/$S/lib/libgmemrt.so"
FIRST=${1#*=}
FAIL=0
run() {
  local Label=$1
  shift
  echo "=== $Label"
  timeout 60 "$@" --label "$Label" --out "$J" || { echo "FAIL: $Label"; FAIL=1; }
}
{
  nvidia-smi -L
  ITERS=$(timeout 60 "$FIRST" --calibrate --be-ms 25) || { echo "FAIL: calibrate"; exit 1; }
  echo "training iterations: $ITERS"
  C=(--requests 1500 --period-us 2000)
  T=(--be step --iters "$ITERS")
  for K in $(seq 1 "$ROUNDS"); do
    for Shape in default h4096-graph; do
      X=(); [ "$Shape" = default ] || X=(--hidden 4096 --graph)
      run "alone-$Shape@r$K" "$FIRST" --mode alone "${X[@]}" "${C[@]}"
      for Arg in "$@"; do
        run "colo-step-gmem-$Shape-${Arg%%=*}@r$K" env LD_PRELOAD="$RT" "${Arg#*=}" --mode colo --gmem \
          "${T[@]}" "${X[@]}" "${C[@]}"
      done
    done
  done
  echo "ab status: $([ $FAIL = 0 ] && echo PASS || echo FAIL)"
} 2>&1 | tee "$OUT/run.log"
