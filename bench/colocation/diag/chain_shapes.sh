#!/usr/bin/env bash
# The chain's shape against the co-location goal (GPU machine, repo root,
# .stage/colocation carried): the default launch-bound chain (GEMV
# 1024x1024, 20 kernel launches a request) against a memory-bound one
# (GEMV 4096x4096: 640 MB of weights, more than L2 holds), each launched as
# 20 kernels or as one CUDA graph (how inference servers launch decode
# steps; libgmemrt schedules cuGraphLaunch). Alternates configurations
# ROUNDS times (default 3); one JSON line per run in $OUT/chain_shapes.jsonl
# and a table of medians (launch_path_table.py).
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
diag_begin chain_shapes
ITERS=$(calibrate $B) || exit 1
echo "training iterations: $ITERS"
T=(--be step --iters "$ITERS")
one() {
  local Label=$1
  shift
  timeout 60 "$@" "${C[@]}" --label "$Label" --out "$J" | head -1
}
for R in $(seq 1 "${ROUNDS:-3}"); do
  for H in 1024 4096; do
    for G in streams graph; do
      X=(--hidden $H)
      [ $G = graph ] && X+=(--graph)
      one alone-h$H-$G $B --mode alone "${X[@]}"
      one colo-step-gmem-h$H-$G env LD_PRELOAD="$LIB" $B --mode colo --gmem "${T[@]}" "${X[@]}"
    done
  done
  if [ "$R" = 1 ]; then
    one colo-step-h4096-graph $B --mode colo "${T[@]}" --hidden 4096 --graph
    one colo-accum-gmem-h4096-graph env LD_PRELOAD="$LIB" $B --mode colo --gmem --be accum \
      --iters "$ITERS" --hidden 4096 --graph
  fi
done
python3 bench/colocation/diag/launch_path_table.py "$J"
